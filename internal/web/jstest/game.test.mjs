// Tests of game.js, the page's controller: the game's flow between the
// person, the board's state and the engine. The page's elements are fakes
// that keep what is written to them, and the tests play the engine: they
// read the lines the controller sends and answer with the engine's lines
// (the answers to "d" as millengine prints them). node --test (TestJSModules
// runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { page, tab, tick } from './tab.mjs';

const { byId } = page;

describe('gameCtrl', () => {
  test('the person plays, the engine answers, the board follows', async () => {
    const t = tab();
    t.ctrl.update();
    assert.deepEqual(t.take(), ['position startpos', 'd']);
    await t.answer('');
    assert.equal(t.S.pos.side, 'white');
    assert.deepEqual(t.take(), [], 'the person plays White: the engine waits');
    assert.equal(byId('fen').value, '********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1');

    t.ctrl.humanPlay('d6', performance.now());
    assert.deepEqual(t.take(), ['position startpos moves d6', 'd']);
    await t.answer('d6');
    assert.equal(t.S.thinking, true);
    assert.deepEqual(t.take(), ['position startpos moves d6', 'go movetime 250'], 'the engine plays Black');

    t.feed('info depth 5 score cp 20 nodes 100 time 10 pv f4', 'bestmove f4');
    await tick();
    assert.deepEqual(t.take(), ['position startpos moves d6 f4', 'd']);
    await t.answer('d6 f4');
    assert.deepEqual(t.S.moves, ['d6', 'f4']);
    assert.deepEqual(t.S.sides, ['white', 'black']);
    assert.equal(t.S.thinking, false);
    assert.equal(t.S.pos.side, 'white');
    assert.deepEqual(t.take(), [], 'the person to move again');
    assert.equal(t.ctrl.stats.moves.length, 1);
    assert.equal(t.ctrl.stats.moves[0].tok, 'd6');
    assert.equal(t.ctrl.stats.moves[0].answer, 'f4');

    // Taking back undoes the whole turn, the engine's answer with it.
    const back = t.ctrl.takeBack();
    assert.deepEqual(t.take(), ['position startpos', 'd']);
    await t.answer('');
    await back;
    assert.deepEqual(t.S.moves, []);
    assert.equal(t.S.cursor, 0);
    assert.deepEqual(t.take(), []);
  });

  test('an illegal bestmove pauses the game', async () => {
    const t = tab();
    t.ctrl.update();
    await t.answer('');
    t.ctrl.humanPlay('d6', performance.now());
    await t.answer('d6');
    assert.deepEqual(t.take().slice(-1), ['go movetime 250']);
    t.feed('bestmove d6'); // d6 is taken
    await tick();
    await tick();
    assert.deepEqual(t.S.moves, ['d6'], 'the engine\'s action is not played');
    assert.equal(t.S.thinking, false);
    assert.deepEqual(t.take(), [], 'nothing more is asked of the engine');
  });

  test('the players: two people, then the engine as White', async () => {
    const t = tab();
    t.ctrl.setMode('hvh');
    assert.deepEqual(t.take(), ['position startpos', 'd']);
    await t.answer('');
    assert.deepEqual(t.take(), [], 'two people: the engine is not asked');
    t.ctrl.setMode('evh');
    assert.equal(t.S.flip, true, 'the person plays Black: the board turns');
    assert.deepEqual(t.take(), ['position startpos', 'd']);
    await t.answer('');
    assert.deepEqual(t.take(), ['position startpos', 'go movetime 250'], 'the engine plays White');
  });
});
