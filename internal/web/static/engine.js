// engine.js: the tab's engine connection. Bridge is the WebSocket to the
// server's bridge: lines both ways, and a new connection when one is lost.
// engineCtrl answers the server's messages (the engine's lines, the
// server's refusals, the engine started, exited or failed) and sets a new
// engine process up, after a restart to the tab's rules and options.
// node --test runs Bridge, with a WebSocket the tests play, and the texts
// (internal/web/jstest).

import { notice, logLine } from './notices.js';
import { pageToken } from './api.js';
import { defaultRules, presetRules, restoreCommands } from './rules.js';
import { renderConn } from './status.js';
import { IDLE_CLOSE, bridgeURL, setOptionCommand } from './uci.js';

const $ = (id) => document.getElementById(id);

const OPEN = 1; // WebSocket.OPEN

/** lostText is the notice of a connection closed with code and reason. */
export function lostText(code, reason) {
  if (code === IDLE_CLOSE) return `The server closed this tab's engine: ${reason || 'idle'}. Click or press a key to reconnect.`;
  return 'The connection to the server was lost; reconnecting…';
}

/** engineNote is the log's line for the server's news of the engine ({t: 'engine', …}). */
export function engineNote(m) {
  return `engine ${m.state}${m.pid ? ' (pid ' + m.pid + ')' : ''}${m.text ? ': ' + m.text : ''}`;
}

/**
 * Bridge is the connection to the server's bridge. hooks: url(), the
 * socket's address; onOpen(); onMessage(m), each message (JSON); onBad(data),
 * one that is not JSON; onLost(code, reason). It reconnects retryMs after a
 * loss, or, when the server closed the tab for silence, at the person's
 * next pointer press or key in doc: an abandoned tab keeps no engine.
 */
export class Bridge {
  constructor(hooks, { WebSocket = globalThis.WebSocket, doc = globalThis.document, later = setTimeout, retryMs = 1500 } = {}) {
    Object.assign(this, { hooks, WebSocket, doc, later, retryMs, ws: null });
  }

  connect() {
    const ws = new this.WebSocket(this.hooks.url());
    this.ws = ws;
    ws.onopen = () => this.hooks.onOpen();
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.hooks.onLost(ev.code, ev.reason);
      if (ev.code !== IDLE_CLOSE) {
        this.later(() => this.connect(), this.retryMs);
        return;
      }
      const again = () => {
        this.doc.removeEventListener('pointerdown', again, true);
        this.doc.removeEventListener('keydown', again, true);
        if (this.ws === ws) this.connect();
      };
      this.doc.addEventListener('pointerdown', again, true);
      this.doc.addEventListener('keydown', again, true);
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { this.hooks.onBad(ev.data); return; }
      this.hooks.onMessage(m);
    };
  }

  /** send writes a line to the engine; false when the connection is not open. */
  send(line) {
    if (!this.ws || this.ws.readyState !== OPEN) return false;
    this.ws.send(line);
    return true;
  }
}

/**
 * engineCtrl is the page's side of its engine: connect opens the bridge,
 * send writes a command (and logs it), onMessage answers the server's
 * messages (the tests feed it lines too).
 */
export function engineCtrl(ctrl) {
  const { S, E, stats } = ctrl;
  const bridge = new Bridge({
    url: () => bridgeURL(location, pageToken(location.search)),
    onOpen: () => { S.connected = true; renderConn(S); },
    onMessage,
    onBad: (data) => logLine('err', `bad message from the server: ${data}`),
    onLost: (code, reason) => {
      S.connected = false;
      S.engineReady = false;
      E.abortAll();
      renderConn(S);
      notice(lostText(code, reason), 'error');
    },
  });

  function send(line) {
    if (!bridge.send(line)) {
      logLine('err', `not sent (no connection): ${line}`);
      return false;
    }
    logLine('sent', '> ' + line);
    return true;
  }

  function onMessage(m) {
    switch (m.t) {
      case 'line':
        logLine(m.line.startsWith('info string error') ? 'err' : 'recv', m.line);
        E.receive(m.line);
        break;
      case 'error':
        logLine('err', `server: ${m.text}`);
        // A refusal of a line the page is waiting on goes to its caller, as
        // the engine's own errors do.
        if (!E.collectRefusal(m.text)) notice(`Server: ${m.text}`, 'error');
        break;
      case 'engine':
        logLine('note', engineNote(m));
        if (m.state === 'started') {
          if (m.restarts > 0) notice(`The engine was restarted (restart ${m.restarts}). The game goes on.`, 'info');
          init(m);
        } else if (m.state === 'exited' || m.state === 'failed') {
          S.engineReady = false;
          E.abortAll();
          notice(m.text || (m.state === 'exited' ? 'The engine exited.' : 'The engine could not be started.'), 'error');
          renderConn(S);
        }
        break;
      default:
        logLine('err', `unknown message from the server: ${JSON.stringify(m)}`);
    }
  }

  // init sets a new engine process up: the first takes its own rules, a
  // later one (a restart or a reconnection) is set to the tab's.
  async function init(m) {
    E.abortAll();
    S.engineReady = false;
    const r = await E.uci();
    if (r.aborted) return;
    $('engine-name').textContent = `${E.engineName || m.engine}${m.pid ? ' · pid ' + m.pid : ''}`;
    const first = !S.everStarted;
    S.everStarted = true;
    if (first) {
      const v = E.options.get('variant');
      S.variant = v ? v.def : '';
      S.rules = presetRules(S.presets, S.variant) || defaultRules(S.decls, E.options);
    } else {
      for (const c of restoreCommands(S, E.options)) {
        const r = await E.command(c);
        if (r.aborted) return;
        if (r.errors.length) notice(`The new engine refused "${c}": ${r.errors.join('; ')}`, 'error');
      }
    }
    if (S.multipv > 1) {
      const r = await E.command(setOptionCommand('MultiPV', S.multipv));
      if (r.aborted) return;
      if (r.errors.length) notice(`The engine refused MultiPV ${S.multipv}: ${r.errors.join('; ')}`, 'error');
    }
    ctrl.options.build();
    S.engineReady = true;
    renderConn(S);
    await ctrl.update();
    if (stats.ready === null) stats.ready = performance.now();
    $('board').dataset.ready = '1';
  }

  return { connect: () => bridge.connect(), send, onMessage };
}
