// Tests of state.js: the tab's state and the questions and changes of it
// the page's parts share. node --test (TestJSModules runs them from go
// test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  EVE_PACE_MS, cursorTo, engineWait, gameOver, hintAllowed, humanMayAct, keyTarget, newState, nextStep, playToken,
  positionCmd, resultText, setPlayers, startGame,
} from '../static/state.js';

// pos is an engine's answer to "d", as far as the state reads it.
const pos = (side, result = 'ongoing') => ({ fen: 'f', side, result, legal: ['d6'] });

// ready is a state with the engine ready, White (a person) to move.
function ready(over = {}) {
  return Object.assign(newState(), { engineReady: true, pos: pos('white') }, over);
}

describe('state', () => {
  test('a new tab', () => {
    const S = newState();
    assert.equal(S.cursor, 0);
    assert.deepEqual(S.moves, []);
    assert.deepEqual(S.players, { white: 'human', black: 'engine' });
    assert.deepEqual(S.analysis, { on: false, base: '', lines: [], info: null, egtb: null, book: null });
    assert.equal(S.decls.size, 0);
    assert.notEqual(newState().analysis, S.analysis, 'each tab has its own objects');
    assert.equal(gameOver(S), true, 'no position yet');
    assert.equal(humanMayAct(S), false);
  });

  test('the result', () => {
    const S = ready();
    assert.equal(gameOver(S), false);
    assert.equal(resultText(S), '');
    S.pos = pos('black', 'white wins');
    assert.equal(gameOver(S), true);
    assert.equal(resultText(S), 'white wins');
    S.pos = pos('white');
    S.flagged = 'white';
    assert.equal(gameOver(S), true);
    assert.equal(resultText(S), 'black wins (white lost on time)');
    S.flagged = 'black';
    assert.equal(resultText(S), 'white wins (black lost on time)');
    assert.equal(resultText(newState()), '');
  });

  test('when a click plays', () => {
    assert.equal(humanMayAct(ready()), true);
    assert.equal(humanMayAct(ready({ engineReady: false })), false);
    assert.equal(humanMayAct(ready({ preview: { d: pos('black'), tokens: [], k: 0 } })), false);
    assert.equal(humanMayAct(ready({ thinking: true })), false);
    assert.equal(humanMayAct(ready({ pos: pos('black') })), false, "the engine's turn");
    assert.equal(humanMayAct(ready({ pos: pos('white', 'draw') })), false);
    assert.equal(humanMayAct(ready({ flagged: 'black' })), false);
    // Analysing, the person plays for either side, even while the engine searches.
    const an = ready({ pos: pos('black'), thinking: true });
    an.analysis.on = true;
    assert.equal(humanMayAct(an), true);
  });

  test('when a hint may be asked', () => {
    assert.equal(hintAllowed(ready()), true);
    assert.equal(hintAllowed(ready({ pos: pos('black') })), true, 'on either side');
    for (const over of [{ engineReady: false }, { pos: null }, { thinking: true }, { hinting: true }, { flagged: 'white' },
      { preview: { d: pos('white') } }]) {
      assert.equal(hintAllowed(ready(over)), false, JSON.stringify(over));
    }
    const an = ready();
    an.analysis.on = true;
    assert.equal(hintAllowed(an), false);
  });

  test('the position command of the first moves', () => {
    const S = ready({ moves: ['d6', 'f4', 'd2'] });
    assert.equal(positionCmd(S, 0), 'position startpos');
    assert.equal(positionCmd(S, 2), 'position startpos moves d6 f4');
    S.startFen = '******** w p p 9 9';
    assert.equal(positionCmd(S, 1), 'position fen ******** w p p 9 9 moves d6');
  });

  test('what follows a position shown', () => {
    const S = ready({ moves: ['d6'], sides: ['white'], cursor: 1, pos: pos('black') });
    assert.equal(nextStep(S), 'engine');
    S.cursor = 0;
    assert.equal(nextStep(S), '', 'not the game\'s last position');
    S.cursor = 1;
    S.pos = pos('white');
    assert.equal(nextStep(S), '', "a person's turn");
    S.pos = pos('black', 'draw');
    assert.equal(nextStep(S), '');
    S.analysis.on = true;
    assert.equal(nextStep(S), 'analyse');
    S.cursor = 0;
    assert.equal(nextStep(S), 'analyse', 'anywhere in the game');
  });

  test('engine against engine keeps a pace', () => {
    const S = ready({ lastEngineMove: 1000 });
    assert.equal(engineWait(S, 1100), 0, 'a person plays');
    setPlayers(S, 'eve');
    assert.equal(EVE_PACE_MS, 250);
    assert.equal(engineWait(S, 1100), 150);
    assert.equal(engineWait(S, 1250), 0);
    assert.equal(engineWait(S, 1400), -150);
  });

  test('playing at the cursor drops the moves after it', () => {
    const S = ready({ moves: ['d6', 'f4', 'd2'], sides: ['white', 'black', 'white'], cursor: 3, pos: pos('black') });
    playToken(S, 'b4');
    assert.deepEqual([S.moves, S.sides, S.cursor], [['d6', 'f4', 'd2', 'b4'], ['white', 'black', 'white', 'black'], 4]);
    S.cursor = 1;
    playToken(S, 'b4');
    assert.deepEqual([S.moves, S.sides, S.cursor], [['d6', 'b4'], ['white', 'black'], 2]);
  });

  test('a new game', () => {
    const S = ready({ moves: ['d6'], sides: ['white'], cursor: 1, flagged: 'black', startFen: 'x' });
    const old = S.moves;
    startGame(S, 'O******* b m s 8 0');
    assert.deepEqual([S.startFen, S.moves, S.sides, S.cursor, S.flagged], ['O******* b m s 8 0', [], [], 0, null]);
    assert.deepEqual(old, ['d6'], 'a new array: the record of the old game keeps its moves');
    startGame(S, null);
    assert.equal(S.startFen, null);
  });

  test('stepping through the game', () => {
    const S = ready({ moves: ['d6', 'f4', 'd2'], cursor: 1 });
    assert.deepEqual([-1, 0, 2, 3, 4].map((n) => cursorTo(S, n)), [0, 0, 2, 3, 3]);
    assert.deepEqual(['ArrowLeft', 'ArrowRight', 'Home', 'End', 'a', 'Escape'].map((k) => keyTarget(S, k)),
      [0, 2, 0, 3, undefined, undefined]);
  });

  test('the players', () => {
    const S = newState();
    setPlayers(S, 'evh');
    assert.deepEqual([S.players, S.flip], [{ white: 'engine', black: 'human' }, true]);
    setPlayers(S, 'eve');
    assert.deepEqual([S.players, S.flip], [{ white: 'engine', black: 'engine' }, true], 'the board stays turned');
    setPlayers(S, 'hve');
    assert.deepEqual([S.players, S.flip], [{ white: 'human', black: 'engine' }, false]);
    S.flip = true;
    setPlayers(S, 'hvh');
    assert.deepEqual([S.players, S.flip], [{ white: 'human', black: 'human' }, true]);
    setPlayers(S, 'nope');
    assert.deepEqual(S.players, { white: 'human', black: 'human' });
    S.players.white = 'engine';
    setPlayers(S, 'hvh');
    assert.equal(S.players.white, 'human', 'each choice gives its own object');
  });
});
