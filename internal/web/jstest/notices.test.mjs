// Tests of notices.js's LineLog, the engine log's memory: what a pane
// draws, and the oldest lines dropped. node --test (TestJSModules runs
// them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { LineLog } from '../static/notices.js';

// push adds lines 'l<from>' … 'l<to-1>' of kind 'recv'.
function push(log, from, to) {
  for (let i = from; i < to; i++) log.push('recv', `l${i}`);
}

describe('LineLog', () => {
  test('a pane draws what is new', () => {
    const log = new LineLog(5, 2);
    assert.deepEqual(log.take(), { clear: false, lines: [] });
    push(log, 0, 2);
    assert.deepEqual(log.take(), { clear: false, lines: [['recv', 'l0'], ['recv', 'l1']] });
    log.push('sent', '> go');
    assert.deepEqual(log.take(), { clear: false, lines: [['sent', '> go']] });
    assert.deepEqual(log.take(), { clear: false, lines: [] });
  });

  test('the oldest lines go at max + slack', () => {
    const log = new LineLog(5, 2);
    push(log, 0, 7);
    assert.equal(log.lines.length, 7, 'up to max + slack kept');
    push(log, 7, 8);
    assert.deepEqual(log.lines.map((l) => l[1]), ['l3', 'l4', 'l5', 'l6', 'l7']);
    // The pane, which had drawn nothing of them, is drawn anew.
    assert.deepEqual(log.take(), { clear: true, lines: log.lines.slice() });
    assert.equal(log.drawn, 5);
  });

  test('a pane that fell behind draws the last max anew', () => {
    const log = new LineLog(5, 2);
    push(log, 0, 2);
    log.take();
    push(log, 2, 9); // 9 lines > 7: cut to 5, the pane to be drawn anew
    assert.deepEqual(log.take(), { clear: true, lines: [['recv', 'l4'], ['recv', 'l5'], ['recv', 'l6'], ['recv', 'l7'], ['recv', 'l8']] });
    const log2 = new LineLog(5, 2);
    push(log2, 0, 1);
    log2.take();
    push(log2, 1, 7); // 7 lines, none cut: the pane has l0, the last 5 start at l2
    assert.deepEqual(log2.take(), { clear: true, lines: [['recv', 'l2'], ['recv', 'l3'], ['recv', 'l4'], ['recv', 'l5'], ['recv', 'l6']] });
    assert.equal(log2.drawn, 7);
  });

  test('opening the pane draws it anew; clearing forgets all', () => {
    const log = new LineLog(5, 2);
    push(log, 0, 3);
    log.take();
    log.drawn = -1;
    assert.deepEqual(log.take(), { clear: true, lines: [['recv', 'l0'], ['recv', 'l1'], ['recv', 'l2']] });
    log.clear();
    assert.deepEqual([log.lines, log.drawn], [[], 0]);
    push(log, 3, 4);
    assert.deepEqual(log.take(), { clear: false, lines: [['recv', 'l3']] });
  });

  test('the last lines, for the tests of the page', () => {
    const log = new LineLog();
    assert.equal(log.max, 3000);
    push(log, 0, 4);
    assert.equal(log.last(2), 'l2\nl3');
    assert.equal(log.last(10), 'l0\nl1\nl2\nl3');
  });
});
