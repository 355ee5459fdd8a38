// Tests of api.js: the token, the option table, and the requests of the
// server's API, with fetch and the page's location played by the tests.
// node --test (TestJSModules runs them from go test).
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { apiError, apiFetch, declTable, exportRecord, importRecord, loadTables, pageToken, streamReview } from '../static/api.js';

// The requests made, and the answers the tests give: answer(path, opts)
// returns a Response (or throws).
let requests;
let answer;

beforeEach(() => {
  requests = [];
  globalThis.location = { search: '?token=s3cret' };
  globalThis.fetch = async (path, opts) => {
    requests.push({ path, ...opts });
    return answer(path, opts);
  };
});

afterEach(() => {
  delete globalThis.location;
  delete globalThis.fetch;
});

const json = (v, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'Content-Type': 'application/json' } });

// chunked is a streamed answer in the given pieces.
function chunked(pieces) {
  const enc = new TextEncoder();
  return new Response(new ReadableStream({
    start(c) {
      for (const p of pieces) c.enqueue(enc.encode(p));
      c.close();
    },
  }));
}

describe('api', () => {
  test('the token of the page', () => {
    assert.equal(pageToken('?token=abc'), 'abc');
    assert.equal(pageToken('?x=1&token=a%2Bb'), 'a+b');
    assert.equal(pageToken(''), '');
    assert.equal(pageToken('?token='), '');
  });

  test('every request carries the token', async () => {
    answer = () => json({});
    await apiFetch('/presets.json');
    await apiFetch('/api/export', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.deepEqual(requests, [
      { path: '/presets.json', headers: { 'X-Millengine-Token': 's3cret' } },
      { path: '/api/export', method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Millengine-Token': 's3cret' }, body: '{}' },
    ]);
    globalThis.location = { search: '' };
    await apiFetch('/options.json');
    assert.deepEqual(requests[2], { path: '/options.json', headers: {} });
  });

  test('the message of a refusal', async () => {
    assert.equal(await apiError(json({ error: 'no such variant' }, 400)), 'no such variant');
    assert.equal(await apiError(new Response('busy', { status: 503, statusText: 'Service Unavailable' })), '503 Service Unavailable');
    assert.equal(await apiError(json({}, 500)), '500 ');
  });

  test('the option table: an alias does not hide its rule', () => {
    const rule = { name: 'FlyPieceCount', kind: 'rule' };
    const alias = { name: 'flyPieceCount', kind: 'rule', aliasOf: 'FlyPieceCount' };
    const other = { name: 'Fly Count', kind: 'rule', aliasOf: 'FlyPieceCount' };
    const hash = { name: 'Hash', kind: 'engine' };
    const t = declTable([rule, alias, other, hash]);
    assert.deepEqual([...t.keys()], ['flypiececount', 'flycount', 'hash']);
    assert.equal(t.get('flypiececount'), rule);
    assert.equal(t.get('flycount'), other, 'an alias of a name of its own');
    // An alias before its rule is replaced by it; one of its own name stays.
    const t2 = declTable([alias, rule, { name: 'NMoveRule', kind: 'rule', aliasOf: 'X' }]);
    assert.equal(t2.get('flypiececount'), rule);
    assert.equal(t2.get('nmoverule').aliasOf, 'X');
  });

  test('the tables', async () => {
    const presets = { presets: [{ key: 'nine-mens-morris', name: "Nine men's morris", rules: {} }] };
    answer = (path) => (path === '/presets.json' ? json(presets) : json({ maxHashMB: 64, options: [{ name: 'Hash', kind: 'engine' }] }));
    const t = await loadTables();
    assert.deepEqual(t.presets, presets);
    assert.equal(t.maxHashMB, 64);
    assert.deepEqual([...t.decls.entries()], [['hash', { name: 'Hash', kind: 'engine' }]]);
    assert.deepEqual(t.levels, [], 'no levels');
    const levels = [{ name: 'club', elo: 1200 }, { name: 'full strength', elo: 2000 }];
    answer = (path) => (path === '/presets.json' ? json(presets) : json({ maxHashMB: 64, options: [], levels }));
    assert.deepEqual((await loadTables()).levels, levels);
    answer = (path) => (path === '/presets.json' ? json(presets) : json({ error: 'this server wants its token' }, 403));
    await assert.rejects(loadTables(), { message: 'this server wants its token' });
  });

  test('a record read', async () => {
    const game = { variant: 'nine-mens-morris', moves: ['d6'] };
    answer = () => json(game);
    assert.deepEqual(await importRecord('1. d6 *', 'nine-mens-morris'), { game });
    assert.equal(requests[0].path, '/api/import?variant=nine-mens-morris');
    assert.deepEqual([requests[0].method, requests[0].body], ['POST', '1. d6 *']);
    assert.equal(requests[0].headers['Content-Type'], 'text/plain; charset=utf-8');
    await importRecord('d6', '');
    assert.equal(requests[1].path, '/api/import', 'no variant: the record\'s own');
    answer = () => json({ error: 'line 1: bad token' }, 400);
    assert.deepEqual(await importRecord('zz', ''), { error: 'line 1: bad token' });
    answer = () => { throw new TypeError('Failed to fetch'); };
    assert.deepEqual(await importRecord('zz', ''), { error: 'Failed to fetch' });
  });

  test('a game written', async () => {
    answer = () => new Response('[Event "?"]\n\n1. d6 *\n', { headers: { 'Content-Disposition': 'attachment; filename="game-1.pgn"' } });
    assert.deepEqual(await exportRecord({ variant: '', moves: ['d6'] }),
      { text: '[Event "?"]\n\n1. d6 *\n', filename: 'game-1.pgn' });
    assert.deepEqual(JSON.parse(requests[0].body), { variant: '', moves: ['d6'] });
    answer = () => new Response('1. d6 *\n');
    assert.deepEqual(await exportRecord({}), { text: '1. d6 *\n', filename: 'millengine.pgn' });
    answer = () => json({ error: 'illegal move d6' }, 400);
    assert.deepEqual(await exportRecord({}), { error: 'illegal move d6' });
  });

  test('a review streamed, its lines cut anywhere', async () => {
    answer = () => chunked(['{"t":"progress","done":1,', '"total":3}\n{"t":"progress","done":2,"total":3}\n\n{"t":"rev', 'iew","review":{}}\n']);
    const lines = [];
    assert.equal(await streamReview('1. d6 *', 200, undefined, (l) => lines.push(l)), '');
    assert.deepEqual(lines, [{ t: 'progress', done: 1, total: 3 }, { t: 'progress', done: 2, total: 3 }, { t: 'review', review: {} }]);
    assert.deepEqual([requests[0].path, requests[0].method, requests[0].body], ['/api/review?movetime=200', 'POST', '1. d6 *']);
    answer = () => json({ error: 'a review is running' }, 503);
    assert.equal(await streamReview('1. d6 *', 200, undefined, () => assert.fail('no line')), 'a review is running');
  });

  test('a review cancelled', async () => {
    const ctl = new AbortController();
    answer = (path, opts) => {
      assert.equal(opts.signal, ctl.signal);
      ctl.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    };
    await assert.rejects(streamReview('1. d6 *', 50, ctl.signal, () => {}), { name: 'AbortError' });
  });
});
