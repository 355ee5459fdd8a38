// Tests of movelist.js's rows: turns two a row, the turn shown and those
// after it, and the grades of reviewed turns. node --test (TestJSModules
// runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { moveRows } from '../static/movelist.js';

// A game whose third turn, White's, closes a mill and removes: d2-d1xb4.
const moves = ['d6', 'f4', 'd2-d1', 'xb4', 'f4-f2'];
const sides = ['white', 'black', 'white', 'white', 'black'];

// turn is a row's entry, with no grade.
const turn = (t, ply, text, current, future) => ({ turn: t, ply, text, current, future, grade: '', glyph: '' });

describe('move list', () => {
  test('turns, two a row', () => {
    assert.deepEqual(moveRows(moves, sides, 5, []), [
      { num: 1, turns: [turn(0, 1, 'd6', false, false), turn(1, 2, 'f4', false, false)] },
      { num: 2, turns: [turn(2, 4, 'd2-d1xb4', false, false), turn(3, 5, 'f4-f2', true, false)] },
    ]);
    assert.deepEqual(moveRows([], [], 0, []), []);
  });

  test('the turn shown, and those after it', () => {
    const rows = moveRows(moves, sides, 3, []);
    assert.deepEqual(rows[1].turns, [turn(2, 4, 'd2-d1xb4', true, false), turn(3, 5, 'f4-f2', false, true)],
      'between an action and its removal: that turn');
    assert.deepEqual(moveRows(moves, sides, 0, [])[0].turns, [turn(0, 1, 'd6', false, true), turn(1, 2, 'f4', false, true)]);
  });

  test('the grades of the reviewed turns', () => {
    const rows = moveRows(moves, sides, 5, ['best', 'inaccuracy', 'good', 'blunder']);
    assert.deepEqual(rows.flatMap((r) => r.turns.map((t) => [t.grade, t.glyph])),
      [['best', ''], ['inaccuracy', '?!'], ['blunder', '??'], ['', '']], "a turn's worst; the last turn not reviewed");
    assert.deepEqual(moveRows(moves, sides, 5, ['best', 'good', 'mistake']).flatMap((r) => r.turns.map((t) => t.glyph)),
      ['', '', '?', ''], 'a turn reviewed up to its action');
  });
});
