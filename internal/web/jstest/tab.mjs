// tab.mjs: the harness of the tests of the page's controller (game.js)
// and its parts under node: a page of fake elements (fakedom.mjs), and a
// tab whose engine is the test.
import { installPage } from './fakedom.mjs';

export const page = installPage();
const { byId } = page;

// game.js reads the globals above when its functions run; it is imported
// after they exist.
const { gameCtrl } = await import('../static/game.js');

// The engine's answers to "d" (millengine's fields; the board diagram and
// the other lines are skipped by the page).
export const D = {
  '': ['fen: ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1', 'side: white',
    'pieces in hand: white 9 black 9',
    'legal: a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7'],
  d6: ['fen: ********/O*******/******** b p p 1 8 0 9 0 0 0 0 0 0 0 0 1', 'side: black',
    'pieces in hand: white 8 black 9',
    'legal: a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7'],
  'd6 f4': ['fen: ********/O*@*****/******** w p p 1 8 1 8 0 0 0 0 0 0 0 0 2', 'side: white',
    'pieces in hand: white 8 black 8',
    'legal: a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d7 e3 e4 e5 f2 f6 g1 g4 g7'],
};

// tick lets the promises settled so far run their callbacks.
export const tick = () => new Promise((resolve) => setImmediate(resolve));

// tab is a controller whose engine is the test: t.sent holds the lines sent
// to it, t.answer(moves) answers a "d" with the position after moves.
export function tab() {
  const ctrl = gameCtrl();
  const t = { ctrl, S: ctrl.S, sent: [] };
  ctrl.engine.send = (line) => { t.sent.push(line); return true; };
  t.S.engineReady = true;
  byId('limit').value = 'movetime';
  byId('movetime').value = '250';
  t.feed = (...lines) => lines.forEach((l) => ctrl.E.receive(l));
  t.answer = async (moves) => {
    t.feed('phase: placing', 'action: place', 'pending removals: white 0 black 0', 'result: ongoing', ...D[moves]);
    await tick();
    await tick();
  };
  // take returns the lines sent since the last take.
  let seen = 0;
  t.take = () => { const l = t.sent.slice(seen); seen = t.sent.length; return l; };
  return t;
}

