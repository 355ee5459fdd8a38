// Tests of status.js's texts and of the hint shown (hint.js): removals
// pending, the result of the position shown, the connection's badge.
// node --test (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { shownHint } from '../static/hint.js';
import { newState } from '../static/state.js';
import { connBadge, pendingText, shownResult } from '../static/status.js';

describe('status', () => {
  test('removals pending', () => {
    assert.equal(pendingText({ white: 0, black: 0 }), '');
    assert.equal(pendingText({ white: 1, black: 0 }), '· White must remove 1');
    assert.equal(pendingText({ white: 2, black: 1 }), '· White must remove 2, Black must remove 1');
  });

  test('the result of the position shown', () => {
    const S = newState();
    assert.equal(shownResult(S), '');
    S.pos = { result: 'ongoing' };
    S.flagged = 'black';
    assert.equal(shownResult(S), 'white wins (black lost on time)');
    S.preview = { d: { result: 'ongoing' } };
    assert.equal(shownResult(S), '', "a previewed line's end, not the game's");
    S.preview = { d: { result: 'black wins' } };
    assert.equal(shownResult(S), 'black wins');
  });

  test("the connection's badge", () => {
    assert.deepEqual(connBadge(false, false), { text: 'offline', cls: 'badge off' });
    assert.deepEqual(connBadge(true, false), { text: 'starting engine…', cls: 'badge off' });
    assert.deepEqual(connBadge(true, true), { text: 'engine ready', cls: 'badge on' });
    assert.deepEqual(connBadge(false, true), { text: 'offline', cls: 'badge off' });
  });

  test('the hint shown', () => {
    const S = newState();
    assert.equal(shownHint(S), '');
    S.gen = 7;
    S.hint = { gen: 7, tok: 'd6' };
    assert.equal(shownHint(S), 'd6');
    S.preview = { d: {} };
    assert.equal(shownHint(S), '', 'not on a previewed line');
    S.preview = null;
    S.gen = 8;
    assert.equal(shownHint(S), '', 'the position changed since');
  });
});
