// Tests of clock.js's arithmetic: a clock set from the page's fields, the
// time left, the running side charged and its increment, the flag. Times
// in ms. node --test (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { flagFall, newClock, syncClock, timeLeft } from '../static/clock.js';

describe('clock', () => {
  test('a clock from the fields', () => {
    assert.deepEqual(newClock('5', '2'), { white: 300000, black: 300000, inc: 2000, running: null, since: 0 });
    assert.deepEqual(newClock('0.5', '0.5'), { white: 30000, black: 30000, inc: 500, running: null, since: 0 });
    // Not numbers: 5 minutes, no increment; too little: 0.1 minute, 0 s.
    assert.deepEqual(newClock('', 'x'), { white: 300000, black: 300000, inc: 0, running: null, since: 0 });
    assert.deepEqual(newClock('0.01', '-3'), { white: 6000, black: 6000, inc: 0, running: null, since: 0 });
  });

  test('the time left', () => {
    const c = { white: 60000, black: 50000, inc: 0, running: 'white', since: 1000 };
    assert.equal(timeLeft(c, 'white', 1000), 60000);
    assert.equal(timeLeft(c, 'white', 11500), 49500);
    assert.equal(timeLeft(c, 'black', 11500), 50000, 'a stopped clock');
    assert.equal(timeLeft(c, 'white', 71000), -10000);
  });

  test('turns charge the time and earn the increment', () => {
    const c = newClock('1', '2');
    syncClock(c, 'white', 100);
    assert.deepEqual(c, { white: 60000, black: 60000, inc: 2000, running: 'white', since: 100 });
    syncClock(c, 'white', 5000);
    assert.deepEqual(c, { white: 60000, black: 60000, inc: 2000, running: 'white', since: 100 }, 'the same side: nothing changes');
    syncClock(c, 'black', 10100);
    assert.deepEqual(c, { white: 52000, black: 60000, inc: 2000, running: 'black', since: 10100 }, 'White: -10 s +2 s');
    syncClock(c, null, 13100);
    assert.deepEqual(c, { white: 52000, black: 57000, inc: 2000, running: null, since: 10100 }, 'stopping earns nothing');
    syncClock(c, null, 20000);
    assert.deepEqual(c, { white: 52000, black: 57000, inc: 2000, running: null, since: 10100 });
    syncClock(c, 'black', 20000);
    assert.deepEqual(c, { white: 52000, black: 57000, inc: 2000, running: 'black', since: 20000 });
  });

  test('the flag', () => {
    const c = { white: 3000, black: 9000, inc: 1000, running: 'white', since: 0 };
    assert.equal(flagFall(c, 2999), null);
    assert.deepEqual(c, { white: 3000, black: 9000, inc: 1000, running: 'white', since: 0 });
    assert.equal(flagFall(c, 3000), 'white');
    assert.deepEqual(c, { white: 0, black: 9000, inc: 1000, running: null, since: 0 });
    assert.equal(flagFall(c, 99999), null, 'no clock runs');
  });
});
