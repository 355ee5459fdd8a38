// game.js: the page's controller. gameCtrl makes the tab's state (S,
// state.js), its engine (E, uci.js's UciClient) and the controllers of the
// page's parts (ctrl.engine, ctrl.board, ctrl.clock, ctrl.analysis,
// ctrl.hint, ctrl.review, ctrl.records, ctrl.options), each given ctrl.
// The game's flow is here: update asks the engine for the position at the
// cursor and shows it, then the engine plays or analyses; the person
// plays, steps through the game, takes back, starts a new game or one
// from a FEN.

import { analysisCtrl } from './analysis.js';
import { boardCtrl } from './board.js';
import { clockCtrl } from './clock.js';
import { engineCtrl } from './engine.js';
import { hintCtrl } from './hint.js';
import { renderMoves } from './movelist.js';
import { normalizeFen, takeBackLength } from './notation.js';
import { notice } from './notices.js';
import { optionsCtrl } from './options.js';
import { recordsCtrl } from './records.js';
import { reviewCtrl } from './review.js';
import { cursorTo, engineWait, newState, nextStep, playToken, positionCmd, setPlayers, startGame } from './state.js';
import { renderNav, renderStatus } from './status.js';
import { UciClient, goCommand } from './uci.js';

const $ = (id) => document.getElementById(id);

/**
 * gameCtrl returns the controller of a new tab: S, E, stats (the figures
 * the tests read: page load, click-to-answer latencies), the flow and the
 * parts' controllers.
 */
export function gameCtrl() {
  const S = newState();
  const stats = { ready: null, moves: [], renders: [] };
  const ctrl = { S, stats };
  const E = new UciClient({
    send: (line) => ctrl.engine.send(line),
    onInfo: (info, g) => ctrl.analysis.onInfo(info, g),
    onString: (text) => ctrl.analysis.onString(text),
    onError: (text) => notice(`Engine: ${text}`, 'error'),
  });

  // update shows the position at the cursor (asking the engine for it) and
  // then lets the engine move or analyse.
  async function update() {
    const gen = ++S.gen;
    S.thinking = false;
    S.selected = null;
    E.stopSearch();
    if (!S.engineReady) { render(); return; }
    const r = await E.position(positionCmd(S, S.cursor));
    if (r.aborted || gen !== S.gen) return;
    if (r.errors.length) notice(`The engine refused the game: ${r.errors.join('; ')}`, 'error');
    S.pos = r.d;
    S.posCursor = S.cursor;
    S.preview = null;
    ctrl.clock.sync();
    const click = S.pendingClick;
    // The engine is set going first (its command is sent before the first
    // await); the board is drawn while it thinks.
    schedule(gen);
    render();
    if (click) stats.renders.push({ tok: click.tok, ms: performance.now() - click.t0 });
  }

  function schedule(gen) {
    if (gen !== S.gen || !S.pos) return;
    const step = nextStep(S);
    if (step === 'analyse') { ctrl.analysis.start(gen); return; }
    if (step !== 'engine') { S.pendingClick = null; return; }
    const wait = engineWait(S, performance.now());
    if (wait > 0) setTimeout(() => { if (gen === S.gen) engineMove(gen); }, wait);
    else engineMove(gen);
  }

  async function engineMove(gen) {
    S.thinking = true;
    renderStatus(S);
    ctrl.send(positionCmd(S, S.cursor));
    const click = S.pendingClick;
    S.pendingClick = null;
    // The engine's go, as the limit chosen says.
    const go = goCommand({ limit: $('limit').value, depth: $('depth').value, movetime: $('movetime').value,
      clock: S.clock, now: performance.now() });
    const r = await E.go(go, 'move', gen);
    if (gen !== S.gen || r.aborted) return;
    S.thinking = false;
    const best = r.best;
    if (!S.pos.legal.includes(best)) {
      notice(`The engine answered "bestmove ${best}", which is not a legal action here; the game is paused.`, 'error');
      render();
      return;
    }
    S.lastEngineMove = performance.now();
    playToken(S, best);
    await update();
    if (click) {
      // From the click to the engine's bestmove, and to the board showing it.
      stats.moves.push({ tok: click.tok, answer: best, ms: r.at - click.t0, shownMs: performance.now() - click.t0,
        engineMs: (r.info && r.info.time) || 0 });
    }
  }

  // humanPlay plays the person's action, clicked at t0.
  function humanPlay(tok, t0) {
    S.pendingClick = { t0, tok };
    playToken(S, tok);
    update();
  }

  // takeBack undoes whole turns (an action with its removals) until a
  // human has something to play again.
  async function takeBack() {
    if (S.moves.length === 0) return;
    const auto = S.players.white !== S.players.black && !S.analysis.on;
    const n = takeBackLength(S.moves, S.sides, S.players, auto);
    S.moves.length = n;
    S.sides.length = n;
    S.cursor = n;
    S.flagged = null;
    await update();
  }

  async function newGame() {
    S.gen++;
    await E.idle();
    startGame(S, null);
    Object.assign(S.analysis, { lines: [], info: null, egtb: null, book: null });
    ctrl.clock.init();
    if (S.engineReady) ctrl.send('ucinewgame');
    await update();
  }

  async function loadFen(text) {
    const fen = normalizeFen(text);
    if (!fen) { notice('Paste a FEN first.', 'error'); return; }
    S.gen++;
    await E.idle();
    const r = await E.position(`position fen ${fen}`);
    if (r.aborted) return;
    if (r.errors.length) {
      notice(`That FEN was refused: ${r.errors.join('; ')}`, 'error');
      await update(); // the engine keeps its old game; show it again
      return;
    }
    startGame(S, r.d.fen);
    ctrl.clock.init();
    await update();
  }

  function goTo(n) {
    n = cursorTo(S, n);
    if (n === S.cursor) return;
    S.cursor = n;
    update();
  }

  function setMode(mode) {
    setPlayers(S, mode);
    update();
  }

  function render() {
    ctrl.board.render();
    renderStatus(S);
    renderMoves(S);
    renderNav(S);
    ctrl.analysis.render();
    ctrl.clock.render();
    ctrl.review.render();
    if (S.pos && document.activeElement !== $('fen')) $('fen').value = (S.preview ? S.preview.d : S.pos).fen;
  }

  Object.assign(ctrl, {
    E, send: (line) => ctrl.engine.send(line), update, render, humanPlay, takeBack, newGame, loadFen, goTo, setMode,
  });
  Object.assign(ctrl, {
    engine: engineCtrl(ctrl), board: boardCtrl(ctrl), clock: clockCtrl(ctrl), analysis: analysisCtrl(ctrl),
    hint: hintCtrl(ctrl), review: reviewCtrl(ctrl), records: recordsCtrl(ctrl), options: optionsCtrl(ctrl),
  });
  return ctrl;
}
