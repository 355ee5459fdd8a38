// Tests of analysis.js's pure part: how the engine's info and table lines
// change the analysis, and the texts, bar and rows the box shows. node
// --test (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { addInfo, bookRows, bookTitle, egtbRows, evalBar, readString, shownLines, statsTexts } from '../static/analysis.js';
import { parseInfo } from '../static/uci.js';

const fresh = () => ({ on: true, base: 'position startpos', lines: [], info: null, egtb: null, book: null });

describe('the engine\'s lines', () => {
  test('info lines are the analysis lines', () => {
    const a = fresh();
    const l1 = parseInfo('info depth 4 multipv 1 score cp 12 pv d6 f4');
    const l2 = parseInfo('info depth 4 multipv 2 score cp -3 pv f4 d6');
    assert.equal(addInfo(a, l1, 2), true);
    assert.equal(addInfo(a, l2, 2), true);
    assert.deepEqual([a.info, a.lines], [l1, [l1, l2]]);
    assert.equal(addInfo(a, parseInfo('info depth 5 currmove d6 currmovenumber 1'), 2), false, 'no pv');
    assert.equal(addInfo(a, parseInfo('info multipv 6 score cp 0 pv d6'), 9), false, 'beyond the five shown');
    // Fewer lines asked for: the first line's coming drops the rest.
    const l1b = parseInfo('info depth 5 score cp 20 pv d6');
    assert.equal(addInfo(a, l1b, 1), true);
    assert.deepEqual([a.info, a.lines], [l1b, [l1b]]);
    assert.equal(a.base, 'position startpos');
  });

  test('table and book lines', () => {
    const a = fresh();
    assert.equal(readString(a, 'egtb win 3 moves a1-d1 win 3 g7-g4 draw'), '');
    assert.deepEqual(a.egtb, { root: { k: 'win', n: 3 }, moves: [{ tok: 'a1-d1', v: { k: 'win', n: 3 } }, { tok: 'g7-g4', v: { k: 'draw' } }] });
    assert.equal(readString(a, 'book depth 14 moves d6 12 f4 -3'), '');
    assert.deepEqual(a.book, { depth: 14, moves: [{ tok: 'd6', score: 12 }, { tok: 'f4', score: -3 }] });
    assert.equal(readString(a, 'egtb maybe moves'), "Could not read the engine's table line (bad value maybe): egtb maybe moves");
    assert.equal(a.egtb, null);
    assert.equal(readString(a, 'book depth x moves'), 'Could not read the engine\'s book line ("depth" missing): book depth x moves');
    assert.equal(a.book, null);
    assert.equal(readString(a, 'hash 16 MB'), null, 'not a table line');
    assert.equal(readString(a, 'book opened'), null);
  });
});

describe('what the box shows', () => {
  test('the first line\'s figures', () => {
    assert.deepEqual(statsTexts(null), { depth: '–', score: '–', nps: '–', hash: '–' });
    assert.deepEqual(statsTexts(parseInfo('info depth 12 seldepth 17 score mate 3 nps 1234567 hashfull 456 pv d6')),
      { depth: '12/17', score: 'win in 3', nps: '1,234,567', hash: '45.6%' });
    assert.deepEqual(statsTexts(parseInfo('info depth 3 score cp -150 nps 0 hashfull 0 pv d6')),
      { depth: '3', score: '-1.50', nps: '0', hash: '0.0%' });
  });

  test('the evaluation bar, White\'s view', () => {
    assert.deepEqual(evalBar(null, 'white'), { pct: 50, label: '' });
    assert.deepEqual(evalBar(parseInfo('info depth 1 pv d6'), 'white'), { pct: 50, label: '' });
    assert.deepEqual(evalBar(parseInfo('info score cp 0 pv d6'), null), { pct: 50, label: '' }, 'no position');
    assert.deepEqual(evalBar(parseInfo('info score cp 0 pv d6'), 'white'), { pct: 50, label: '0' });
    const w = evalBar(parseInfo('info score cp 150 pv d6'), 'white');
    assert.equal(w.label, '150');
    assert.equal(w.pct.toFixed(4), '73.1059');
    const b = evalBar(parseInfo('info score cp 150 pv d6'), 'black');
    assert.equal(b.label, '-150');
    assert.equal(b.pct.toFixed(4), '26.8941');
    assert.deepEqual(evalBar(parseInfo('info score mate 2 pv d6'), 'black'), { pct: 0, label: 'mate -2' });
    assert.deepEqual(evalBar(parseInfo('info score mate -2 pv d6'), 'black'), { pct: 100, label: 'mate 2' });
  });

  test('the lines shown', () => {
    const l = { pv: ['d6'] };
    assert.deepEqual(shownLines([l, l, l], 2), [0, 1]);
    assert.deepEqual(shownLines([l, undefined, l], 3), [0, 2], 'a line not come yet');
    assert.deepEqual(shownLines([], 5), []);
  });

  test('the tables\' and the book\'s rows', () => {
    assert.deepEqual(egtbRows({ root: { k: 'win', n: 3 }, moves: [
      { tok: 'a1-d1', v: { k: 'win', n: 3 } }, { tok: 'f4', v: { k: 'loss', n: 2, dtz: true } }, { tok: 'g7-g4', v: { k: 'draw', rule: 'nmove' } }] }),
    [['a1-d1', 'win in 3', 'win'], ['f4', 'loss, 2 to a removal', 'loss'], ['g7-g4', 'draw (N-move rule)', 'draw']]);
    const bk = { depth: 14, moves: [{ tok: 'f4', score: -36 }, { tok: 'd2', score: -41 }, { tok: 'a1', score: -29000 }] };
    assert.deepEqual(bookRows(bk), [['f4', '-0.36', ''], ['d2', '-0.41', ''], ['a1', 'loss', '']]);
    assert.equal(bookTitle(bk), '(depth 14)');
    bk.proven = { value: 'draw', keep: ['f4'] };
    assert.deepEqual(bookRows(bk), [['f4', '-0.36', ''], ['d2', '-0.41', 'loss'], ['a1', 'loss', 'loss']]);
    assert.equal(bookTitle(bk), '(depth 14, proven draw)');
  });
});
