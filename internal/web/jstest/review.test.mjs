// Tests of review.js's pure part: the moves a review covers, the grades,
// the table's rows and the chart's shapes and clicks. node --test
// (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { GLYPHS, GRADES, chartPly, chartShapes, reviewGrades, reviewRow, reviewedPlies, worstGrade } from '../static/review.js';

// move is a reviewed move as the server writes it.
const move = (ply, grade, over = {}) => ({ ply, side: ply % 2 ? 'black' : 'white', played: 'd6', grade, best: 'd6', before: 10, after: 10, ...over });

// reviewed is a game of moves whose review covers revMoves.
function reviewed(moves, revMoves, grades) {
  return {
    variant: 'nine-mens-morris', startFen: null, moves,
    review: { variant: 'nine-mens-morris', startFen: null, moves: revMoves, data: { moves: grades.map((g, i) => move(i, g)) } },
  };
}

describe('review', () => {
  test('the grades', () => {
    assert.deepEqual(GRADES, ['best', 'good', 'inaccuracy', 'mistake', 'blunder']);
    assert.equal(worstGrade(['good', 'blunder', 'best']), 'blunder');
    assert.equal(worstGrade(['best', 'inaccuracy']), 'inaccuracy');
    assert.equal(worstGrade([]), '');
    assert.equal(worstGrade(['great']), '', 'a grade the page does not know');
    assert.deepEqual([GLYPHS.best, GLYPHS.inaccuracy, GLYPHS.mistake, GLYPHS.blunder], [undefined, '?!', '?', '??']);
  });

  test('the moves a review covers', () => {
    const S = reviewed(['d6', 'f4', 'd2'], ['d6', 'f4', 'd2'], ['best', 'mistake', 'good']);
    assert.equal(reviewedPlies(S), 3);
    assert.deepEqual(reviewGrades(S), ['best', 'mistake', 'good']);
    S.moves = ['d6', 'f4', 'b4', 'd2'];
    assert.equal(reviewedPlies(S), 2, 'up to the change');
    assert.deepEqual(reviewGrades(S), ['best', 'mistake']);
    S.moves = ['d6'];
    assert.equal(reviewedPlies(S), 1, 'taken back');
    S.startFen = 'O******* b p p 8 9';
    assert.equal(reviewedPlies(S), 0, 'another start');
    S.startFen = null;
    S.variant = '';
    assert.equal(reviewedPlies(S), 0, 'other rules');
    assert.deepEqual(reviewGrades(S), []);
    S.review = null;
    assert.equal(reviewedPlies(S), 0);
    assert.deepEqual(reviewGrades(S), []);
  });

  test("the table's rows", () => {
    assert.deepEqual(reviewRow(move(0, 'best', { before: 12, after: 12 }), 0),
      { ply: 1, cls: 'grade-best', cells: ['1', 'W', 'd6', 'best', '', '+0.12 → +0.12'] });
    assert.deepEqual(reviewRow(move(3, 'blunder', { played: 'a1-a4', glyph: '??', best: 'xg7', before: 50, after: -29000 }), 4),
      { ply: 4, cls: 'grade-blunder current', cells: ['4', 'B', 'a1-a4??', 'blunder', 'best xg7', '+0.50 → loss'] });
    assert.equal(reviewRow(move(3, 'good', { best: '' }), 3).cells[4], '', 'no choice given');
  });

  test("the chart's shapes", () => {
    const values = [{ white: 0.5 }, { white: 0.75 }, { white: 0.25, exact: 'draw' }];
    assert.deepEqual(chartShapes(values, [move(0, 'good'), move(1, 'blunder')], 1), [
      ['line', { x1: 0, y1: 50, x2: 300, y2: 50, class: 'mid' }],
      ['polygon', { points: '0,100 0.0,50.0 150.0,25.0 300.0,75.0 300,100', class: 'area' }],
      ['polyline', { points: '0.0,50.0 150.0,25.0 300.0,75.0', class: 'value' }],
      ['circle', { cx: 300, cy: 75, r: 4, class: 'exact draw', 'data-exact': 'draw', 'data-ply': 2 }],
      ['circle', { cx: 300, cy: 75, r: 3.5, class: 'bad blunder', 'data-ply': 2 }],
      ['line', { x1: 150, y1: 0, x2: 150, y2: 100, class: 'cursor' }],
    ]);
    // The position shown beyond the review: no cursor line.
    assert.equal(chartShapes(values, [], 3).length, 4);
    // One position: the chart is one point wide.
    assert.deepEqual(chartShapes([{ white: 1, exact: 'white' }], [], 0), [
      ['line', { x1: 0, y1: 50, x2: 300, y2: 50, class: 'mid' }],
      ['polygon', { points: '0,100 0.0,0.0 300,100', class: 'area' }],
      ['polyline', { points: '0.0,0.0', class: 'value' }],
      ['circle', { cx: 0, cy: 0, r: 4, class: 'exact white', 'data-exact': 'white', 'data-ply': 0 }],
      ['line', { x1: 0, y1: 0, x2: 0, y2: 100, class: 'cursor' }],
    ]);
  });

  test('a click on the chart', () => {
    // Drawn 308 pixels wide, a pixel a unit: the chart starts at 4.
    assert.equal(chartPly(4, 308, 10), 0);
    assert.equal(chartPly(154, 308, 10), 5);
    assert.equal(chartPly(304, 308, 10), 10);
    assert.equal(chartPly(-20, 308, 10), -1, 'in the margin (goTo keeps the cursor in the game)');
    assert.equal(chartPly(20, 308, 10), 1, 'the nearest position');
    assert.equal(chartPly(616, 616, 2), 2, 'drawn twice as wide');
  });
});
