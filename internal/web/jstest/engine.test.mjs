// Tests of engine.js: the Bridge to the server (its WebSocket, timer and
// document played by the tests) and the texts of the engine's news. node
// --test (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Bridge, engineNote, lostText } from '../static/engine.js';

// world is a Bridge with fake sockets (world.sockets, newest last), a
// timer that records its calls, a document that records its listeners,
// and the hooks' calls in world.calls.
function world() {
  const w = { sockets: [], timers: [], listeners: new Map(), calls: [] };
  class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; w.sockets.push(this); }
    send(line) { this.sent.push(line); }
  }
  const doc = {
    addEventListener: (type, fn, capture) => { assert.equal(capture, true); w.listeners.set(type, fn); },
    removeEventListener: (type, fn, capture) => { assert.equal(capture, true); if (w.listeners.get(type) === fn) w.listeners.delete(type); },
  };
  let n = 0;
  w.bridge = new Bridge({
    url: () => `ws://127.0.0.1:8080/ws?n=${++n}`,
    onOpen: () => w.calls.push(['open']),
    onMessage: (m) => w.calls.push(['message', m]),
    onBad: (data) => w.calls.push(['bad', data]),
    onLost: (code, reason) => w.calls.push(['lost', code, reason]),
  }, { WebSocket: FakeSocket, doc, later: (fn, ms) => w.timers.push({ fn, ms }) });
  w.ws = () => w.sockets[w.sockets.length - 1];
  return w;
}

describe('Bridge', () => {
  test('lines both ways', () => {
    const w = world();
    assert.equal(w.bridge.send('uci'), false, 'not connected');
    w.bridge.connect();
    assert.equal(w.ws().url, 'ws://127.0.0.1:8080/ws?n=1');
    assert.equal(w.bridge.send('uci'), false, 'not open yet');
    w.ws().readyState = 1;
    w.ws().onopen();
    assert.equal(w.bridge.send('uci'), true);
    assert.deepEqual(w.ws().sent, ['uci']);
    w.ws().onmessage({ data: '{"t":"line","line":"uciok"}' });
    w.ws().onmessage({ data: 'uciok' });
    assert.deepEqual(w.calls, [['open'], ['message', { t: 'line', line: 'uciok' }], ['bad', 'uciok']]);
    w.ws().readyState = 3;
    assert.equal(w.bridge.send('isready'), false, 'closed');
  });

  test('a lost connection is made again after a while', () => {
    const w = world();
    w.bridge.connect();
    w.ws().onclose({ code: 1006, reason: '' });
    assert.deepEqual(w.calls, [['lost', 1006, '']]);
    assert.equal(w.timers.length, 1);
    assert.equal(w.timers[0].ms, 1500);
    assert.equal(w.sockets.length, 1, 'not at once');
    w.timers[0].fn();
    assert.equal(w.sockets.length, 2);
    assert.equal(w.ws().url, 'ws://127.0.0.1:8080/ws?n=2');
    assert.equal(w.listeners.size, 0);
  });

  test('a tab closed for silence waits for the person', () => {
    const w = world();
    w.bridge.connect();
    w.ws().onclose({ code: 4000, reason: 'idle for 30m0s' });
    assert.deepEqual(w.calls, [['lost', 4000, 'idle for 30m0s']]);
    assert.deepEqual([w.timers.length, [...w.listeners.keys()]], [0, ['pointerdown', 'keydown']]);
    w.listeners.get('keydown')();
    assert.equal(w.sockets.length, 2);
    assert.equal(w.listeners.size, 0, 'both listeners removed');
  });

  test('the close of a socket replaced is not a loss', () => {
    const w = world();
    w.bridge.connect();
    const old = w.ws();
    old.onclose({ code: 4000, reason: 'idle' });
    const again = w.listeners.get('pointerdown');
    w.bridge.connect(); // connected meanwhile by other means
    again();
    assert.equal(w.sockets.length, 2, 'the person\'s click does not connect twice');
    old.onclose({ code: 1006, reason: '' });
    assert.deepEqual([w.calls.length, w.timers.length], [1, 0]);
  });
});

describe('texts', () => {
  test('a connection lost', () => {
    assert.equal(lostText(1006, ''), 'The connection to the server was lost; reconnecting…');
    assert.equal(lostText(1001, 'going away'), 'The connection to the server was lost; reconnecting…');
    assert.equal(lostText(4000, 'idle for 30m0s'), "The server closed this tab's engine: idle for 30m0s. Click or press a key to reconnect.");
    assert.equal(lostText(4000, ''), "The server closed this tab's engine: idle. Click or press a key to reconnect.");
  });

  test("the log's line of the engine's news", () => {
    assert.equal(engineNote({ t: 'engine', state: 'started', pid: 42, engine: 'millengine' }), 'engine started (pid 42)');
    assert.equal(engineNote({ t: 'engine', state: 'exited', pid: 42, text: 'exit status 2' }), 'engine exited (pid 42): exit status 2');
    assert.equal(engineNote({ t: 'engine', state: 'failed', text: 'no such file' }), 'engine failed: no such file');
  });
});
