// Tests of app.js, the module that starts the page: it wires the controls
// to the controller, reads the server's tables and connects to the engine.
// The page's elements, the server (fetch), its WebSocket bridge and the
// interval timer are fakes; the tests play the server and the engine.
// node --test (TestJSModules runs them from go test).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { installPage } from './fakedom.mjs';

const { byId, listeners: docListeners } = installPage();
globalThis.window = globalThis;

// The server's tables: no presets, no options beyond the engine's own.
const fetched = [];
globalThis.fetch = async (path) => {
  fetched.push(path);
  const body = path === '/options.json' ? { options: [], maxHashMB: 64, levels: [] } : { params: [], presets: [] };
  return { ok: true, status: 200, json: async () => body };
};

// The interval of the clock's tick, kept instead of run.
const intervals = [];
globalThis.setInterval = (fn, ms) => { intervals.push({ fn, ms }); return intervals.length; };

// The WebSocket bridge: the page's lines in sent, the server's messages
// through message().
const sockets = [];
class FakeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    sockets.push(this);
  }

  send(line) { this.sent.push(line); }
  open() { this.readyState = 1; this.onopen(); }
  message(m) { this.onmessage({ data: JSON.stringify(m) }); }
  lines(...ls) { ls.forEach((line) => this.message({ t: 'line', line })); }
}
globalThis.WebSocket = FakeSocket;

const tick = () => new Promise((resolve) => setImmediate(resolve));
const ticks = async (n = 4) => { for (let i = 0; i < n; i++) await tick(); };

// The page starts when app.js is imported.
await import('../static/app.js');

// The controls app.js wires, by the event it handles.
const clicks = ['first', 'back', 'forward', 'last', 'takeback', 'newgame', 'flip', 'load-fen', 'copy-fen',
  'export-pgn', 'copy-pgn', 'hint', 'import', 'review', 'review-cancel', 'analyse', 'preview-exit'];
const changes = ['mode', 'limit', 'clock-base', 'clock-inc', 'variant', 'level', 'import-file', 'multipv'];

test('the page starts, sets its engine up and its controls drive the game', async () => {
  await ticks();
  for (const id of clicks) assert.equal(typeof byId(id).onclick, 'function', `#${id} has no click handler`);
  for (const id of changes) assert.equal(typeof byId(id).onchange, 'function', `#${id} has no change handler`);
  assert.equal(typeof docListeners.get('keydown'), 'function', 'the keys are not bound');
  assert.deepEqual(intervals.map((i) => i.ms), [100], 'the clock ticks every 100 ms');
  assert.deepEqual(fetched.sort(), ['/options.json', '/presets.json']);

  // One connection, to the server's bridge; the server starts an engine.
  assert.equal(sockets.length, 1);
  const ws = sockets[0];
  assert.equal(ws.url, 'ws://127.0.0.1:8080/ws');
  ws.open();
  ws.message({ t: 'engine', state: 'started', engine: 'millengine', pid: 7, restarts: 0 });
  await ticks();
  assert.deepEqual(ws.sent, ['uci']);
  ws.lines('id name millengine test', 'uciok');
  await ticks();
  assert.deepEqual(ws.sent.slice(1), ['position startpos', 'd']);
  assert.equal(window.millApp.snapshot().ready, true);
  ws.lines('fen: ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1', 'side: white', 'phase: placing',
    'action: place', 'pieces in hand: white 9 black 9', 'pending removals: white 0 black 0', 'result: ongoing',
    'legal: a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7');
  await ticks();
  const snap = window.millApp.snapshot();
  assert.equal(snap.fen, '********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1');
  assert.equal(snap.legal.length, 24);
  assert.equal(snap.settled, true);
  assert.equal(byId('board').dataset.ready, '1');
  assert.equal(byId('engine-name').textContent, 'millengine test · pid 7');
  assert.equal(typeof window.millStats.ready, 'number');

  // New game: the engine is told, and the position asked for again.
  ws.sent.length = 0;
  byId('newgame').onclick();
  await ticks();
  assert.deepEqual(ws.sent, ['ucinewgame', 'position startpos', 'd']);
});
