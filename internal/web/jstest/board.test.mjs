// Tests of board.js's pure part: the shapes of the board, the last turn,
// the hint, the pieces and the person's choices, what a click does, and a
// drag's drop. node --test (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  choiceMarks, clickAction, dragMoved, dropToken, frameShapes, hintMarks, movesFrom, pieceShapes, turnMarks,
} from '../static/board.js';
import { parseBoard } from '../static/notation.js';

describe('shapes', () => {
  test('the frame', () => {
    const { lines, hits, labels } = frameShapes(false, false);
    assert.equal(lines.length, 16 + 24);
    assert.deepEqual(lines[0], ['line', { x1: 0, y1: 0, x2: 6, y2: 0, class: 'line' }]);
    assert.deepEqual(lines[16], ['circle', { cx: 3, cy: 2, r: 0.09, class: 'point' }], 'd5, the first point');
    assert.equal(hits.length, 24);
    assert.deepEqual(hits[0], ['circle', { cx: 3, cy: 2, r: 0.42, class: 'hit', 'data-point': 'd5' }]);
    assert.deepEqual(labels.slice(0, 4), [
      ['text', { x: 0, y: 6.55, class: 'label' }, 'a'], ['text', { x: -0.55, y: 6, class: 'label' }, '1'],
      ['text', { x: 1, y: 6.55, class: 'label' }, 'b'], ['text', { x: -0.55, y: 5, class: 'label' }, '2'],
    ]);
    assert.equal(frameShapes(true, false).lines.length, 20 + 24, 'with the diagonals');
    const turned = frameShapes(false, true);
    assert.deepEqual(turned.lines[0], ['line', { x1: 6, y1: 6, x2: 0, y2: 6, class: 'line' }]);
    assert.deepEqual(turned.labels.slice(0, 2), [['text', { x: 6, y: 6.55, class: 'label' }, 'a'], ['text', { x: -0.55, y: 0, class: 'label' }, '1']]);
  });

  test('the last turn', () => {
    assert.deepEqual(turnMarks(['d6'], false), [['circle', { cx: 3, cy: 1, r: 0.42, class: 'last-to', 'data-last': 'to' }]]);
    assert.deepEqual(turnMarks(['a1-d1', 'xg7'], false), [
      ['line', { x1: 0, y1: 6, x2: 3, y2: 6, class: 'last-path' }],
      ['circle', { cx: 0, cy: 6, r: 0.3, class: 'last-from', 'data-last': 'from' }],
      ['circle', { cx: 3, cy: 6, r: 0.42, class: 'last-to', 'data-last': 'to' }],
      ['path', { d: 'M5.78 -0.22L6.22 0.22M6.22 -0.22L5.78 0.22', class: 'last-removed', 'data-last': 'removed' }],
    ]);
    assert.deepEqual(turnMarks(['d6'], true), [['circle', { cx: 3, cy: 5, r: 0.42, class: 'last-to', 'data-last': 'to' }]]);
    assert.deepEqual(turnMarks([], false), []);
    assert.deepEqual(turnMarks(['nonsense', 'd4'], false), [], 'not actions');
  });

  test('the hint', () => {
    assert.deepEqual(hintMarks('', false), []);
    assert.deepEqual(hintMarks('f4', false), [['circle', { cx: 5, cy: 3, r: 0.44, class: 'hint', 'data-hint': 'f4' }]]);
    assert.deepEqual(hintMarks('xb2', false), [['circle', { cx: 1, cy: 5, r: 0.44, class: 'hint', 'data-hint': 'b2' }]]);
    assert.deepEqual(hintMarks('d7-g7', false), [
      ['line', { x1: 3, y1: 0, x2: 6, y2: 0, class: 'hint-path' }],
      ['circle', { cx: 3, cy: 0, r: 0.36, class: 'hint', 'data-hint': 'd7' }],
      ['circle', { cx: 6, cy: 0, r: 0.44, class: 'hint', 'data-hint': 'g7' }],
    ]);
  });

  test('the pieces', () => {
    const board = parseBoard('O@X*****/********/******** w p p 8 8');
    assert.deepEqual(pieceShapes(board, false, null), [
      ['circle', { cx: 3, cy: 2, r: 0.32, class: 'piece white', 'data-piece': 'd5' }],
      ['circle', { cx: 4, cy: 2, r: 0.32, class: 'piece black', 'data-piece': 'e5' }],
      ['circle', { cx: 4, cy: 3, r: 0.32, class: 'piece marked', 'data-piece': 'e4' }],
      ['path', { d: 'M3.84 2.84L4.16 3.16M4.16 2.84L3.84 3.16', class: 'mark-x' }],
    ]);
    assert.deepEqual(pieceShapes(board, false, 'd5').map((s) => s[1]['data-piece']), ['e5', 'e4', undefined], 'the dragged piece is not drawn');
  });

  test("the person's choices", () => {
    const removing = { action: 'remove', legal: ['xd5', 'xe5'] };
    assert.deepEqual(choiceMarks(removing, null, false), [
      ['circle', { cx: 3, cy: 2, r: 0.38, class: 'removable' }],
      ['circle', { cx: 4, cy: 2, r: 0.38, class: 'removable' }],
    ]);
    const moving = { action: 'move', legal: ['d5-d6', 'd5-c5', 'e4-e3'] };
    assert.deepEqual(choiceMarks(moving, null, false), []);
    assert.deepEqual(choiceMarks(moving, 'd5', false), [
      ['circle', { cx: 3, cy: 2, r: 0.4, class: 'selected' }],
      ['circle', { cx: 3, cy: 1, r: 0.12, class: 'target' }],
      ['circle', { cx: 2, cy: 2, r: 0.12, class: 'target' }],
    ]);
  });
});

describe('the pointer', () => {
  const legal = ['d5-d6', 'd5-c5', 'e4-e3'];

  test('the moves of a piece', () => {
    assert.deepEqual(movesFrom(legal, 'd5'), ['d5-d6', 'd5-c5']);
    assert.deepEqual(movesFrom(legal, 'd6'), []);
    assert.deepEqual(movesFrom(['d5', 'xd5'], 'd5'), []);
  });

  test('what a click does', () => {
    assert.deepEqual(clickAction(legal, null, 'd5'), { kind: 'select', point: 'd5' });
    assert.deepEqual(clickAction(legal, 'd5', 'd6'), { kind: 'play', tok: 'd5-d6' });
    assert.deepEqual(clickAction(legal, 'd5', 'd5'), { kind: 'select', point: null }, 'clicked again: none');
    assert.deepEqual(clickAction(legal, 'd5', 'e4'), { kind: 'select', point: 'e4' }, 'another piece');
    assert.deepEqual(clickAction(legal, 'd5', 'a1'), { kind: 'refuse' });
    assert.deepEqual(clickAction(legal, null, 'd6'), { kind: 'refuse' });
    assert.deepEqual(clickAction(['d6', 'f4'], null, 'f4'), { kind: 'play', tok: 'f4' });
    assert.deepEqual(clickAction(['xd6', 'xf4'], null, 'd6'), { kind: 'play', tok: 'xd6' });
  });

  test('a drag and its drop', () => {
    assert.equal(dragMoved('d5', { x: 3.2, y: 2.1 }, false), false);
    assert.equal(dragMoved('d5', { x: 3.2, y: 2.2 }, false), true);
    assert.equal(dragMoved('d5', { x: 3, y: 4.3 }, true), true);
    assert.equal(dragMoved('d5', { x: 3, y: 4.1 }, true), false, 'turned round, d5 is at (3, 4)');
    assert.equal(dropToken('d5', { x: 3.1, y: 1.2 }, false, legal), 'd5-d6');
    assert.equal(dropToken('d5', { x: 3.1, y: 2.2 }, false, legal), null, 'on its own point');
    assert.equal(dropToken('d5', { x: 6, y: 6 }, false, legal), null, 'g1: not legal');
    assert.equal(dropToken('d5', { x: 1.5, y: 1.5 }, false, legal), null, 'between points');
    assert.equal(dropToken('d5', { x: 4, y: 4 }, true, legal), 'd5-c5', 'turned round, c5 is at (4, 4)');
  });
});
