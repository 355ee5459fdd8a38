// Tests of records.js's pure part: the game's key, the players' names and
// a game read from a record loaded into the state. node --test
// (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { gameKey, loadRecord, playerName } from '../static/records.js';
import { newState } from '../static/state.js';

describe('records', () => {
  test("the game's key", () => {
    const S = newState();
    S.variant = 'nine-mens-morris';
    S.rules = { PiecesPerSide: 9 };
    S.moves = ['d6', 'f4'];
    assert.equal(gameKey(S), '["nine-mens-morris",null,null,["d6","f4"]]');
    S.variant = '';
    S.startFen = 'O******* b p p 8 9';
    assert.equal(gameKey(S), '["",{"PiecesPerSide":9},"O******* b p p 8 9",["d6","f4"]]', 'custom rules: the rules');
  });

  test("the players' names", () => {
    const S = newState();
    assert.deepEqual([playerName(S, 'white', 'millengine 1.2'), playerName(S, 'black', 'millengine 1.2')], ['Human', 'millengine 1.2']);
    assert.equal(playerName(S, 'black', ''), 'engine', 'the engine has not said its name');
  });

  test('a game read', () => {
    const S = newState();
    Object.assign(S, { variant: '', rules: { PiecesPerSide: 10 }, flip: true, cursor: 3, flagged: 'white', review: { moves: [] } });
    S.analysis.lines = [{ pv: ['d6'] }];
    S.analysis.info = { depth: 3 };
    const g = {
      variant: 'twelve-mens-morris', rules: { PiecesPerSide: 12 }, setUp: false, startFen: '', moves: ['d6', 'f4'],
      sides: ['white', 'black'], tags: [{ name: 'White', value: 'Ann' }], result: '1-0', games: 2, turnEnd: [1, 2],
    };
    loadRecord(S, g);
    assert.deepEqual(
      [S.variant, S.rules, S.players, S.flip, S.startFen, S.moves, S.sides, S.cursor, S.flagged, S.review, S.analysis.lines, S.analysis.info],
      ['twelve-mens-morris', { PiecesPerSide: 12 }, { white: 'human', black: 'human' }, false, null, ['d6', 'f4'], ['white', 'black'], 0,
        null, null, [], null]);
    assert.deepEqual(S.record, { tags: [{ name: 'White', value: 'Ann' }], result: '1-0', games: 2, moves: ['d6', 'f4'], startFen: null });
    S.moves.push('d2');
    S.rules.PiecesPerSide = 3;
    assert.deepEqual([g.moves, S.record.moves, g.rules], [['d6', 'f4'], ['d6', 'f4'], { PiecesPerSide: 12 }], 'copies');
    loadRecord(S, { ...g, setUp: true, startFen: 'O******* b p p 8 9' });
    assert.deepEqual([S.startFen, S.record.startFen], ['O******* b p p 8 9', 'O******* b p p 8 9']);
  });
});
