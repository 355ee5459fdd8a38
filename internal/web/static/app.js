// millengine board: a UCI client in the browser. The server only passes
// lines between this page and an engine process; everything the page knows
// about a position (its FEN, side, phase, hands, result and legal actions)
// comes from the engine's answer to "d". This module is the page's DOM:
// the engine's protocol is uci.js's, the board's notation notation.js's.

import {
  DIAGONALS, FILES, POINTS, SEGMENTS, attachmentName, cap, clampInt, commonPrefix, cpText, exportBody,
  fmtClock, lastTurn, loadedText, nearestPoint, normalizeFen, parseToken, pointXY, scoreText, splitLines,
  takeBackLength, turns as turnsOf, valueText,
} from './notation.js';
import {
  IDLE_CLOSE, UciClient, bridgeURL, extendPosition, goCommand, norm, parseBook, parseEgtb,
  positionCommand, setOptionCommand,
} from './uci.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

// The server's token, when it listens beyond this machine: it comes in the
// page's URL and goes with every API request and the WebSocket.
const TOKEN = new URLSearchParams(location.search).get('token') || '';

// apiFetch is fetch with the server's token.
function apiFetch(path, opts = {}) {
  const headers = { ...(opts.headers || {}) };
  if (TOKEN) headers['X-Millengine-Token'] = TOKEN;
  return fetch(path, { ...opts, headers });
}

// Grades of a review, best first, as the server names them.
const GRADES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

// ------------------------------------------------------------------- state

const S = {
  ws: null,
  connected: false,
  engineReady: false,
  everStarted: false,
  presets: null,           // /presets.json
  decls: new Map(),        // /options.json: norm(name) -> what the server's engine declares
  maxHashMB: 0,            // the largest Hash the server lets a tab set
  engineOpts: {},          // engine options the user set: name -> value (set again after a restart)
  variant: '',             // preset key, '' when the rules match none
  rules: {},               // rule option values by name (booleans as 0/1)
  multipv: 1,
  startFen: null,          // null: the start position of the rules
  moves: [],               // action tokens from the start
  sides: [],               // the side that played each token
  cursor: 0,               // how many of moves the board shows
  pos: null,               // parsed "d" of the shown position
  posCursor: -1,           // the cursor pos was asked for
  gen: 0,                  // bumped by every change; stale answers compare it
  players: { white: 'human', black: 'engine' },
  flip: false,
  selected: null,
  drag: null,
  thinking: false,
  analysis: { on: false, base: '', lines: [], info: null, egtb: null, book: null },
  preview: null,           // {d, tokens} while a line is previewed
  clock: null,             // {white, black, inc, running, since} in ms
  flagged: null,           // the side that lost on time
  pendingClick: null,      // {t0, tok} of the last human action, for latency figures
  lastEngineMove: 0,       // when the engine's last action was played
  hint: null,              // {gen, tok}: the engine's hint for the position shown at gen
  hinting: false,          // a hint search runs
  record: null,            // {tags, result, games, moves}: the game as it was imported
  review: null,            // {moves, data}: the server's review of the game with these moves
  reviewing: null,         // {ctl, done, total} while a review runs
  lastExport: null,        // {key, text, filename}: the PGN last written for the game with key
  idleClosed: false,       // the server closed the tab for silence; reconnect on the next action
};

const EVE_PACE_MS = 250;   // at least this long between actions, engine against engine

// Figures the tests read: page load, and click-to-answer latencies.
const stats = window.millStats = { ready: null, moves: [], renders: [] };

// ---------------------------------------------------------------- engine i/o

// send writes a command to the engine through the bridge, and to the log.
function send(line) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    logLine('err', `not sent (no connection): ${line}`);
    return false;
  }
  S.ws.send(line);
  logLine('sent', '> ' + line);
  return true;
}

// E is the tab's engine: its options (E.options), its name (E.engineName)
// and the commands waiting for its answers.
const E = new UciClient({
  send,
  onInfo,
  onString,
  onError: (text) => notice(`Engine: ${text}`, 'error'),
});

// onString shows the engine's table and book lines.
function onString(text) {
  if (text.startsWith('egtb ')) {
    try {
      S.analysis.egtb = parseEgtb(text.slice(5));
    } catch (e) {
      notice(`Could not read the engine's table line (${e.message}): ${text}`, 'error');
      S.analysis.egtb = null;
    }
    renderAnalysis();
  } else if (text.startsWith('book depth ')) {
    try {
      S.analysis.book = parseBook(text.slice(5));
    } catch (e) {
      notice(`Could not read the engine's book line (${e.message}): ${text}`, 'error');
      S.analysis.book = null;
    }
    renderAnalysis();
  }
}

// onInfo shows the lines of the analysis running for the position shown.
function onInfo(info, g) {
  if (g.kind === 'analysis' && g.gen === S.gen) {
    const k = (info.multipv || 1) - 1;
    if (info.pv && k < 5) {
      if (k === 0) S.analysis.info = info;
      S.analysis.lines[k] = info;
      if (k === 0) S.analysis.lines.length = Math.min(S.analysis.lines.length, S.multipv);
      renderAnalysis();
    }
  }
}

function onEngineLine(line) {
  logLine(line.startsWith('info string error') ? 'err' : 'recv', line);
  E.receive(line);
}

// ------------------------------------------------------------- connection

function connect() {
  const ws = new WebSocket(bridgeURL(location, TOKEN));
  S.ws = ws;
  S.idleClosed = false;
  ws.onopen = () => { S.connected = true; renderConn(); };
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    S.connected = false;
    S.engineReady = false;
    E.abortAll();
    renderConn();
    if (ev.code === IDLE_CLOSE) {
      // Reconnecting at once would keep an abandoned tab's engine forever:
      // wait for the person.
      S.idleClosed = true;
      notice(`The server closed this tab's engine: ${ev.reason || 'idle'}. Click or press a key to reconnect.`, 'error');
      const again = () => {
        document.removeEventListener('pointerdown', again, true);
        document.removeEventListener('keydown', again, true);
        if (S.ws === ws) connect();
      };
      document.addEventListener('pointerdown', again, true);
      document.addEventListener('keydown', again, true);
      return;
    }
    notice('The connection to the server was lost; reconnecting…', 'error');
    setTimeout(connect, 1500);
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { logLine('err', `bad message from the server: ${ev.data}`); return; }
    onServerMessage(m);
  };
}

function onServerMessage(m) {
  switch (m.t) {
    case 'line': onEngineLine(m.line); break;
    case 'error':
      logLine('err', `server: ${m.text}`);
      // A refusal of a line the page is waiting on goes to its caller, as
      // the engine's own errors do.
      if (!E.collectRefusal(m.text)) notice(`Server: ${m.text}`, 'error');
      break;
    case 'engine':
      logLine('note', `engine ${m.state}${m.pid ? ' (pid ' + m.pid + ')' : ''}${m.text ? ': ' + m.text : ''}`);
      if (m.state === 'started') {
        if (m.restarts > 0) notice(`The engine was restarted (restart ${m.restarts}). The game goes on.`, 'info');
        initEngine(m);
      } else if (m.state === 'exited') {
        S.engineReady = false;
        E.abortAll();
        notice(m.text || 'The engine exited.', 'error');
        renderConn();
      } else if (m.state === 'failed') {
        S.engineReady = false;
        E.abortAll();
        notice(m.text || 'The engine could not be started.', 'error');
        renderConn();
      }
      break;
    default:
      logLine('err', `unknown message from the server: ${JSON.stringify(m)}`);
  }
}

async function initEngine(m) {
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
    S.rules = presetRules(S.variant) || defaultRules();
  } else {
    // A new engine process (a restart or a reconnection): set it up again.
    const base = S.variant || (E.options.has('variant') ? 'nine-mens-morris' : '');
    const cmds = [];
    if (base && E.options.has('variant')) cmds.push(setOptionCommand('Variant', base));
    const pr = presetRules(base) || defaultRules();
    for (const [name, v] of Object.entries(S.rules)) {
      const en = engineNameOf(name);
      if (pr[name] !== v && en) cmds.push(setOptionCommand(en, optionValue(name, v)));
    }
    for (const [name, v] of Object.entries(S.engineOpts)) {
      if (E.options.has(norm(name))) cmds.push(setOptionCommand(name, v));
    }
    for (const c of cmds) {
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
  buildVariantSelect();
  buildRuleOptions();
  buildEngineOptions();
  S.engineReady = true;
  renderConn();
  await update();
  if (stats.ready === null) stats.ready = performance.now();
  $('board').dataset.ready = '1';
}

// -------------------------------------------------------------- game flow

// positionCmd is the position command of the game's first n tokens.
function positionCmd(n) {
  return positionCommand(S.startFen, S.moves.slice(0, n));
}

function gameOver() {
  return !S.pos || S.pos.result !== 'ongoing' || S.flagged !== null;
}

// update shows the position at the cursor (asking the engine for it) and
// then lets the engine move or analyse.
async function update() {
  const gen = ++S.gen;
  S.thinking = false;
  S.selected = null;
  E.stopSearch();
  if (!S.engineReady) { render(); return; }
  const r = await E.position(positionCmd(S.cursor));
  if (r.aborted || gen !== S.gen) return;
  if (r.errors.length) notice(`The engine refused the game: ${r.errors.join('; ')}`, 'error');
  S.pos = r.d;
  S.posCursor = S.cursor;
  S.preview = null;
  clockSync();
  const click = S.pendingClick;
  // The engine is set going first (its command is sent before the first
  // await); the board is drawn while it thinks.
  schedule(gen);
  render();
  if (click) stats.renders.push({ tok: click.tok, ms: performance.now() - click.t0 });
}

function schedule(gen) {
  if (gen !== S.gen || !S.pos) return;
  if (S.analysis.on) { startAnalysis(gen); return; }
  if (gameOver() || S.cursor !== S.moves.length) { S.pendingClick = null; return; }
  if (S.players[S.pos.side] !== 'engine') { S.pendingClick = null; return; }
  // Engine against engine goes at a pace a person can follow (and well
  // within the server's message rate).
  const wait = S.players.white === S.players.black ? S.lastEngineMove + EVE_PACE_MS - performance.now() : 0;
  if (wait > 0) setTimeout(() => { if (gen === S.gen) engineMove(gen); }, wait);
  else engineMove(gen);
}

// goCmd is the go of the engine's move, as the limit chosen says.
function goCmd() {
  return goCommand({ limit: $('limit').value, depth: $('depth').value, movetime: $('movetime').value,
    clock: S.clock, now: performance.now() });
}

async function engineMove(gen) {
  S.thinking = true;
  renderStatus();
  send(positionCmd(S.cursor));
  const click = S.pendingClick;
  S.pendingClick = null;
  const r = await E.go(goCmd(), 'move', gen);
  if (gen !== S.gen || r.aborted) return;
  S.thinking = false;
  const best = r.best;
  if (!S.pos.legal.includes(best)) {
    notice(`The engine answered "bestmove ${best}", which is not a legal action here; the game is paused.`, 'error');
    render();
    return;
  }
  S.lastEngineMove = performance.now();
  await play(best);
  if (click) {
    // From the click to the engine's bestmove, and to the board showing it.
    stats.moves.push({ tok: click.tok, answer: best, ms: r.at - click.t0, shownMs: performance.now() - click.t0,
      engineMs: (r.info && r.info.time) || 0 });
  }
}

function play(tok) {
  const side = S.pos.side;
  if (S.cursor < S.moves.length) {
    S.moves.length = S.cursor;
    S.sides.length = S.cursor;
  }
  S.moves.push(tok);
  S.sides.push(side);
  S.cursor = S.moves.length;
  return update();
}

function humanPlay(tok, t0) {
  S.pendingClick = { t0, tok };
  play(tok);
}

function humanMayAct() {
  if (!S.pos || S.preview || gameOver() || !S.engineReady) return false;
  if (S.analysis.on) return true;
  if (S.thinking) return false;
  return S.players[S.pos.side] === 'human';
}

function onPoint(p, t0) {
  if (S.preview) { exitPreview(); return; }
  if (!humanMayAct()) { flash(p); return; }
  const legal = S.pos.legal;
  if (S.selected) {
    const tok = `${S.selected}-${p}`;
    if (legal.includes(tok)) { humanPlay(tok, t0); return; }
    if (p === S.selected) { S.selected = null; renderBoard(); return; }
  }
  if (legal.includes('x' + p)) { humanPlay('x' + p, t0); return; }
  if (legal.includes(p)) { humanPlay(p, t0); return; }
  if (legal.some((t) => t.startsWith(p + '-'))) { S.selected = p; renderBoard(); return; }
  flash(p);
}

// Take back: undo whole turns (an action with its removals) until a human
// has something to play again.
async function takeBack() {
  if (S.moves.length === 0) return;
  const auto = S.players.white !== S.players.black && !S.analysis.on;
  const n = takeBackLength(S.moves, S.sides, S.players, auto);
  S.moves.length = n;
  S.sides.length = n;
  S.cursor = n;
  S.flagged = null;
  await update();
}

async function newGame() {
  S.gen++;
  await E.idle();
  S.startFen = null;
  S.moves = [];
  S.sides = [];
  S.cursor = 0;
  S.flagged = null;
  S.analysis.lines = [];
  S.analysis.info = null;
  S.analysis.egtb = null;
  S.analysis.book = null;
  initClock();
  if (S.engineReady) send('ucinewgame');
  await update();
}

async function loadFen(fen) {
  fen = normalizeFen(fen);
  if (!fen) { notice('Paste a FEN first.', 'error'); return; }
  S.gen++;
  await E.idle();
  const r = await E.position(`position fen ${fen}`);
  if (r.aborted) return;
  if (r.errors.length) {
    notice(`That FEN was refused: ${r.errors.join('; ')}`, 'error');
    await update(); // the engine keeps its old game; show it again
    return;
  }
  S.startFen = r.d.fen;
  S.moves = [];
  S.sides = [];
  S.cursor = 0;
  S.flagged = null;
  initClock();
  await update();
}

async function setVariant(key) {
  const prev = S.variant;
  S.gen++;
  await E.idle();
  const r = await E.command(setOptionCommand('Variant', key));
  if (r.aborted) return;
  if (r.errors.length) {
    notice(`The variant was refused: ${r.errors.join('; ')}`, 'error');
    $('variant').value = prev;
    return;
  }
  S.variant = key;
  S.rules = presetRules(key) || S.rules;
  buildRuleOptions();
  await newGame();
}

async function setRule(name, value, input) {
  S.gen++;
  await E.idle();
  const r = await E.command(setOptionCommand(engineNameOf(name) || name, optionValue(name, value)));
  if (r.aborted) return;
  if (r.errors.length) {
    notice(`The rule option was refused: ${r.errors.join('; ')}`, 'error');
    const old = S.rules[name];
    if (input.type === 'checkbox') input.checked = !!old; else input.value = old;
    await update();
    return;
  }
  S.rules[name] = value;
  S.variant = matchingPreset(S.rules);
  $('variant').value = S.variant;
  await newGame();
}

// setEngineOption sets an option of the engine that is not a rule (value
// null: a button). The game goes on: the position is sent again and the
// engine, if it is its turn, thinks again.
async function setEngineOption(o, value, input) {
  S.gen++;
  await E.idle();
  const r = await E.command(setOptionCommand(o.name, value));
  if (r.aborted) return;
  if (r.errors.length) {
    notice(`${o.name} was refused: ${r.errors.join('; ')}`, 'error');
    const old = S.engineOpts[o.name] ?? o.def;
    if (input.type === 'checkbox') input.checked = String(old) === 'true';
    else if (value !== null) input.value = old;
  } else if (value !== null) {
    S.engineOpts[o.name] = value;
  }
  await update();
}

async function setMultiPV(n) {
  S.gen++;
  await E.idle();
  const r = await E.command(setOptionCommand('MultiPV', n));
  if (r.aborted) return;
  if (r.errors.length) { notice(`MultiPV was refused: ${r.errors.join('; ')}`, 'error'); return; }
  S.multipv = n;
  S.analysis.lines = [];
  await update();
}

// ---------------------------------------------------------------- analysis

function startAnalysis(gen) {
  const base = positionCmd(S.cursor);
  S.analysis.base = base;
  S.analysis.lines = [];
  S.analysis.info = null;
  S.analysis.egtb = null;
  S.analysis.book = null;
  renderAnalysis();
  send(base);
  E.go('go infinite', 'analysis', gen);
}

async function toggleAnalysis() {
  S.analysis.on = !S.analysis.on;
  if (!S.analysis.on) await E.idle();
  renderAnalysisButton();
  await update();
}

async function previewLine(k) {
  const info = S.analysis.lines[k];
  if (!info || !info.pv) return;
  const base = S.analysis.base;
  const cmd = extendPosition(base, info.pv);
  const gen = S.gen;
  const r = await E.position(cmd);
  if (r.aborted || gen !== S.gen) return;
  if (r.errors.length) { notice(`Cannot preview that line: ${r.errors.join('; ')}`, 'error'); return; }
  S.preview = { d: r.d, tokens: info.pv.slice(), k };
  render();
}

function exitPreview() {
  S.preview = null;
  render();
}

// -------------------------------------------------------------- game records

// The server reads and writes game records and reviews games (its record
// and review packages); the page sends it text or the game's moves and
// shows what it answers.

// apiError returns the message of a failed API answer.
async function apiError(res) {
  try {
    const b = await res.json();
    if (b && b.error) return b.error;
  } catch { /* not JSON */ }
  return `${res.status} ${res.statusText}`;
}

// importGame sends a record (PGN, a PlayOK list or a FEN) to the server and
// loads the first game it holds.
async function importGame(text) {
  if (!text.trim()) { notice('Paste a game (PGN, a PlayOK move list or a FEN) or open a file first.', 'error'); return; }
  const q = S.variant ? `?variant=${encodeURIComponent(S.variant)}` : '';
  let res;
  let g;
  try {
    res = await apiFetch('/api/import' + q, { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: text });
    if (!res.ok) {
      notice(`The game could not be read: ${await apiError(res)}`, 'error');
      return;
    }
    g = await res.json();
  } catch (e) {
    notice(`The game could not be read: ${e.message}`, 'error');
    return;
  }
  await loadGame(g);
}

// loadGame sets the tab's engine to the game's rules and shows its start,
// with both sides played by people: the engine does not play on in a game
// being read.
async function loadGame(g) {
  S.gen++;
  await E.idle();
  if (!S.engineReady) { notice('The engine is not ready; try again in a moment.', 'error'); return; }
  if (E.options.has('variant')) {
    const r = await E.command(setOptionCommand('Variant', g.variant));
    if (r.aborted) return;
    if (r.errors.length) { notice(`The engine refused the game's variant: ${r.errors.join('; ')}`, 'error'); await update(); return; }
  }
  S.variant = g.variant;
  S.rules = { ...g.rules };
  $('variant').value = S.variant;
  buildRuleOptions();
  $('mode').value = 'hvh';
  S.players = { white: 'human', black: 'human' };
  S.flip = false;
  S.startFen = g.setUp ? g.startFen : null;
  S.moves = g.moves.slice();
  S.sides = g.sides.slice();
  S.cursor = 0;
  S.flagged = null;
  S.record = { tags: g.tags, result: g.result, games: g.games, moves: g.moves.slice(), startFen: S.startFen };
  S.review = null;
  S.analysis.lines = [];
  S.analysis.info = null;
  initClock();
  send('ucinewgame');
  await update();
  notice(loadedText(g), 'info');
  renderReview();
}

// gameKey identifies the game shown: its rules, start and moves.
function gameKey() {
  return JSON.stringify([S.variant, S.variant ? null : S.rules, S.startFen, S.moves]);
}

// player names a side for the record.
function player(side) {
  if (S.players[side] === 'engine') return E.engineName || 'engine';
  return 'Human';
}

// exportPgn asks the server to write the game as PGN, with its tags.
async function exportPgn() {
  const key = gameKey();
  // The game as it was read keeps its players and result (a game may end by
  // resignation or time, off the board).
  const body = exportBody({ variant: S.variant, rules: S.rules, startFen: S.startFen, moves: S.moves,
    white: player('white'), black: player('black'), record: S.record, flagged: S.flagged });
  try {
    const res = await apiFetch('/api/export', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) {
      notice(`The game could not be exported: ${await apiError(res)}`, 'error');
      return null;
    }
    const text = await res.text();
    S.lastExport = { key, text, filename: attachmentName(res.headers.get('Content-Disposition'), 'millengine.pgn') };
    $('moves-text').value = text;
    return S.lastExport;
  } catch (e) {
    notice(`The game could not be exported: ${e.message}`, 'error');
    return null;
  }
}

async function downloadPgn() {
  const x = await exportPgn();
  if (!x) return;
  const url = URL.createObjectURL(new Blob([x.text], { type: 'application/vnd.chess-pgn' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = x.filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

async function copyPgn() {
  const x = await exportPgn();
  if (x) copyText(x.text, 'The game (PGN)');
}

// ---------------------------------------------------------------------- hint

function hintAllowed() {
  return S.engineReady && !!S.pos && !gameOver() && !S.thinking && !S.analysis.on && !S.preview && !S.hinting;
}

// hint asks the tab's engine for its best action in the position shown and
// marks it on the board.
async function hint() {
  if (!hintAllowed()) return;
  const gen = S.gen;
  S.hinting = true;
  renderNav();
  send(positionCmd(S.cursor));
  const r = await E.go('go movetime 500', 'hint', gen);
  S.hinting = false;
  if (r.aborted || gen !== S.gen) { renderNav(); return; }
  if (!S.pos.legal.includes(r.best)) {
    notice(`The engine's hint "${r.best}" is not a legal action here.`, 'error');
    renderNav();
    return;
  }
  S.hint = { gen, tok: r.best };
  render();
}

// shownHint is the hint for the position shown, or ''.
function shownHint() {
  return S.hint && S.hint.gen === S.gen && !S.preview ? S.hint.tok : '';
}

// -------------------------------------------------------------------- review

// reviewedPlies is how many of the game's first moves the review covers
// (the review is of a game; a game changed since keeps it up to there).
function reviewedPlies() {
  const rv = S.review;
  if (!rv || rv.startFen !== S.startFen || rv.variant !== S.variant) return 0;
  return commonPrefix(rv.moves, S.moves);
}

// reviewGame has the server grade every move of the game: the game goes as
// PGN (written by the server), the answer comes line by line, progress
// first. Cancel aborts the request, which stops the server's review.
async function reviewGame() {
  if (S.reviewing) return;
  if (!S.moves.length) { notice('There is no move to review.', 'error'); return; }
  const x = await exportPgn();
  if (!x) return;
  const ms = clampInt($('review-ms').value, 50, 500, 200);
  $('review-ms').value = ms;
  const ctl = new AbortController();
  const snap = { moves: S.moves.slice(), startFen: S.startFen, variant: S.variant };
  S.reviewing = { ctl, done: 0, total: snap.moves.length + 1 };
  renderReview();
  try {
    const res = await apiFetch(`/api/review?movetime=${ms}`, {
      method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: x.text, signal: ctl.signal,
    });
    if (!res.ok) {
      notice(`The review was refused: ${await apiError(res)}`, 'error');
      return;
    }
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let lines;
      [lines, buf] = splitLines(buf);
      for (const line of lines) onReviewLine(JSON.parse(line), snap);
    }
  } catch (e) {
    if (e.name === 'AbortError') notice('The review was cancelled.', 'info');
    else notice(`The review failed: ${e.message}`, 'error');
  } finally {
    S.reviewing = null;
    render();
    renderReview();
  }
}

function onReviewLine(l, snap) {
  if (l.t === 'progress') {
    if (S.reviewing) { S.reviewing.done = l.done; S.reviewing.total = l.total; }
    renderReview();
  } else if (l.t === 'review') {
    S.review = { ...snap, data: l.review };
    render();
  } else if (l.t === 'error') {
    notice(`The review stopped: ${l.error}`, 'error');
  }
}

function cancelReview() {
  if (S.reviewing) S.reviewing.ctl.abort();
}

// renderReview shows the review: its progress while it runs, then each
// side's summary, the chart of White's expected score over the game and a
// row per move with its grade and the engine's choice.
function renderReview() {
  const rg = S.reviewing;
  $('review').disabled = !!rg || !S.moves.length;
  $('review-cancel').hidden = !rg;
  const pr = $('review-progress');
  pr.hidden = !rg;
  if (rg) {
    pr.max = rg.total;
    pr.value = rg.done;
    $('review-status').textContent = `reviewing: ${rg.done} of ${rg.total} positions`;
  } else {
    $('review-status').textContent = '';
  }
  const n = reviewedPlies();
  const rv = S.review;
  const box = $('review-result');
  box.hidden = !rv || n === 0;
  $('review-box').dataset.plies = String(n);
  if (!rv || n === 0) return;
  const d = rv.data;
  const sum = $('review-summary');
  sum.textContent = '';
  ['White', 'Black'].forEach((name, c) => {
    const div = document.createElement('div');
    div.dataset.side = name.toLowerCase();
    div.textContent = `${name}: ${d.summary[c].text}`;
    sum.append(div);
  });
  if (n < rv.moves.length) {
    const div = document.createElement('div');
    div.className = 'muted';
    div.textContent = `The game has changed since: the review covers its first ${n} moves.`;
    sum.append(div);
  }
  renderChart(d.values.slice(0, n + 1), d.moves.slice(0, n));
  const tb = $('review-moves');
  tb.textContent = '';
  for (const m of d.moves.slice(0, n)) {
    const tr = document.createElement('tr');
    tr.dataset.ply = String(m.ply + 1);
    tr.className = `grade-${m.grade}` + (m.ply === S.cursor - 1 ? ' current' : '');
    const cells = [String(m.ply + 1), m.side === 'white' ? 'W' : 'B', m.played + (m.glyph || ''), m.grade,
      m.best && m.best !== m.played ? `best ${m.best}` : '', `${cpText(m.before)} → ${cpText(m.after)}`];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.append(td);
    }
    tr.onclick = () => goTo(m.ply + 1);
    tb.append(tr);
  }
  const cur = tb.querySelector('tr.current');
  const wrap = $('review-table');
  if (cur && (cur.offsetTop < wrap.scrollTop || cur.offsetTop + cur.offsetHeight > wrap.scrollTop + wrap.clientHeight)) {
    wrap.scrollTop = cur.offsetTop - wrap.clientHeight / 2;
  }
}

// renderChart draws White's expected score (0 at the bottom, 1 at the top)
// after every move, the exact values where known as filled marks (white:
// White wins, black: Black wins, grey: draw), mistakes and blunders as red
// marks, and the position shown as a vertical line. A click goes to the
// nearest position.
function renderChart(values, moves) {
  const W = 300;
  const H = 100;
  const chart = $('review-chart');
  chart.textContent = '';
  const n = Math.max(1, values.length - 1);
  const x = (i) => (i / n) * W;
  const y = (v) => (1 - v) * H;
  svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }, chart);
  const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v.white).toFixed(1)}`).join(' ');
  svg('polygon', { points: `0,${H} ${pts} ${W},${H}`, class: 'area' }, chart);
  svg('polyline', { points: pts, class: 'value' }, chart);
  values.forEach((v, i) => {
    if (v.exact) svg('circle', { cx: x(i), cy: y(v.white), r: 4, class: `exact ${v.exact}`, 'data-exact': v.exact, 'data-ply': i }, chart);
  });
  moves.forEach((m, i) => {
    if (m.grade === 'mistake' || m.grade === 'blunder') {
      svg('circle', { cx: x(i + 1), cy: y(values[i + 1].white), r: 3.5, class: `bad ${m.grade}`, 'data-ply': i + 1 }, chart);
    }
  });
  if (S.cursor <= n) svg('line', { x1: x(S.cursor), y1: 0, x2: x(S.cursor), y2: H, class: 'cursor' }, chart);
  chart.dataset.points = String(values.length);
  chart.onclick = (ev) => {
    // The view box is 308 wide from -4: the chart with a margin.
    const r = chart.getBoundingClientRect();
    const vx = ((ev.clientX - r.left) / r.width) * (W + 8) - 4;
    goTo(Math.round((vx / W) * n));
  };
}

// -------------------------------------------------------------------- clock

function initClock() {
  S.clock = null;
  if ($('limit').value !== 'clock') { renderClocks(); return; }
  const base = Math.max(0.1, Number($('clock-base').value) || 5) * 60000;
  const inc = Math.max(0, Number($('clock-inc').value) || 0) * 1000;
  S.clock = { white: base, black: base, inc, running: null, since: 0 };
  renderClocks();
}

function clockSync() {
  const c = S.clock;
  if (!c) return;
  const now = performance.now();
  const run = (!gameOver() && S.cursor === S.moves.length && !S.analysis.on) ? S.pos.side : null;
  if (c.running && c.running !== run) {
    c[c.running] -= now - c.since;
    if (run) c[c.running] += c.inc; // a turn was completed
    c.running = null;
  }
  if (run && c.running !== run) { c.running = run; c.since = now; }
  renderClocks();
}

function clockTick() {
  const c = S.clock;
  if (!c || !c.running) return;
  const left = c[c.running] - (performance.now() - c.since);
  if (left <= 0) {
    c[c.running] = 0;
    S.flagged = c.running;
    c.running = null;
    S.gen++;
    E.stopSearch();
    S.thinking = false;
    render();
    return;
  }
  renderClocks();
}

// --------------------------------------------------------------- rules ui

// The server's /options.json says what each option of its engine is: a rule
// (changing it starts a new game) or the engine's (the game goes on), and
// which rule an alias names. The page shows each rule once, under its own
// name, whatever name the engine lists it by.

function presetRules(key) {
  const p = S.presets && S.presets.presets.find((x) => x.key === key);
  return p ? { ...p.rules } : null;
}

// ruleParams are the rule parameters the server declares, in its order.
function ruleParams() {
  return [...S.decls.values()].filter((d) => d.kind === 'rule' && !d.aliasOf);
}

// engineNameOf returns the name the engine lists a rule parameter by: its
// own or an alias; '' when the engine has neither.
function engineNameOf(param) {
  const o = E.options.get(norm(param));
  if (o) return o.name;
  for (const d of S.decls.values()) {
    if (d.aliasOf === param && E.options.has(norm(d.name))) return E.options.get(norm(d.name)).name;
  }
  return '';
}

// isRuleOption reports whether an option the engine lists is a rule (under
// its name or an alias).
function isRuleOption(name) {
  const d = S.decls.get(norm(name));
  return !!(d && d.kind === 'rule');
}

function defaultRules() {
  const r = {};
  for (const p of ruleParams()) {
    const en = engineNameOf(p.name);
    const o = en && E.options.get(norm(en));
    if (o) r[p.name] = o.type === 'check' ? (o.def === 'true' ? 1 : 0) : Number(o.def);
  }
  return r;
}

function matchingPreset(rules) {
  if (!S.presets) return '';
  const p = S.presets.presets.find((x) => Object.keys(x.rules).every((k) => !(k in rules) || x.rules[k] === rules[k]));
  return p ? p.key : '';
}

function isBoolRule(name) {
  const d = S.decls.get(norm(name));
  if (d) return d.type === 'check';
  const o = E.options.get(norm(name));
  return !!(o && o.type === 'check');
}

function optionValue(name, v) {
  return isBoolRule(name) ? (v ? 'true' : 'false') : String(v);
}

function buildVariantSelect() {
  const sel = $('variant');
  sel.textContent = '';
  const o = E.options.get('variant');
  const names = new Map((S.presets ? S.presets.presets : []).map((p) => [p.key, p.name]));
  for (const key of (o ? o.vars : [])) {
    const opt = document.createElement('option');
    opt.value = key;
    opt.textContent = names.get(key) || key;
    sel.append(opt);
  }
  const custom = document.createElement('option');
  custom.value = '';
  custom.textContent = 'custom rules';
  custom.disabled = true;
  sel.append(custom);
  sel.value = S.variant;
  sel.disabled = !o;
}

// buildRuleOptions shows one input per rule parameter the engine has, keyed
// by the parameter's name (data-option).
function buildRuleOptions() {
  const box = $('rule-options');
  box.textContent = '';
  for (const p of ruleParams()) {
    const en = engineNameOf(p.name);
    if (!en) continue;
    const o = E.options.get(norm(en));
    const label = document.createElement('label');
    label.title = p.comment || '';
    label.append(p.name + ' ');
    const input = document.createElement('input');
    input.dataset.option = p.name;
    const cur = S.rules[p.name] ?? (o.type === 'check' ? (o.def === 'true' ? 1 : 0) : Number(o.def));
    if (o.type === 'check') {
      input.type = 'checkbox';
      input.checked = !!cur;
      input.onchange = () => setRule(p.name, input.checked ? 1 : 0, input);
    } else {
      input.type = 'number';
      if (o.min !== null) input.min = o.min;
      if (o.max !== null) input.max = o.max;
      input.value = cur;
      input.onchange = () => {
        const v = Number(input.value);
        if (!Number.isInteger(v) || (o.min !== null && v < o.min) || (o.max !== null && v > o.max)) {
          notice(`${p.name}: ${input.value} is not a whole number in ${o.min}..${o.max}`, 'error');
          input.value = S.rules[p.name] ?? o.def;
          return;
        }
        setRule(p.name, v, input);
      };
    }
    label.append(input);
    box.append(label);
  }
}

// OWN_CONTROLS are engine options with a control of their own elsewhere.
const OWN_CONTROLS = new Set(['variant', 'multipv']);

// buildEngineOptions shows the engine's options that are not rules and that
// the server lets a tab set (no paths, Hash up to its cap). Changing one
// keeps the game.
function buildEngineOptions() {
  const box = $('engine-options');
  box.textContent = '';
  for (const o of E.options.values()) {
    const key = norm(o.name);
    const d = S.decls.get(key);
    if (isRuleOption(o.name) || OWN_CONTROLS.has(key) || o.type === 'string' || (d && !d.settable)) continue;
    const label = document.createElement('label');
    label.append(o.name + ' ');
    let input;
    const cur = S.engineOpts[o.name] ?? o.def;
    if (o.type === 'button') {
      input = document.createElement('button');
      input.type = 'button';
      input.textContent = o.name;
      input.onclick = () => setEngineOption(o, null, input);
      label.textContent = '';
    } else if (o.type === 'check') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = String(cur) === 'true';
      input.onchange = () => setEngineOption(o, input.checked ? 'true' : 'false', input);
    } else if (o.type === 'combo') {
      input = document.createElement('select');
      for (const v of o.vars) {
        const opt = document.createElement('option');
        opt.value = v;
        opt.textContent = v;
        input.append(opt);
      }
      input.value = cur;
      input.onchange = () => setEngineOption(o, input.value, input);
    } else if (o.type === 'spin') {
      input = document.createElement('input');
      input.type = 'number';
      const max = key === 'hash' && S.maxHashMB ? Math.min(o.max ?? S.maxHashMB, S.maxHashMB) : o.max;
      if (o.min !== null) input.min = o.min;
      if (max !== null) input.max = max;
      input.value = cur;
      input.onchange = () => {
        const v = Number(input.value);
        if (!Number.isInteger(v) || (o.min !== null && v < o.min) || (max !== null && v > max)) {
          notice(`${o.name}: ${input.value} is not a whole number in ${o.min}..${max}`, 'error');
          input.value = S.engineOpts[o.name] ?? o.def;
          return;
        }
        setEngineOption(o, String(v), input);
      };
    } else {
      continue;
    }
    input.dataset.engineOption = o.name;
    label.append(input);
    box.append(label);
  }
}

// ----------------------------------------------------------------- board svg

function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

// xy is where point p is drawn, the board turned round or not.
function xy(p) {
  return pointXY(p, S.flip);
}

function diagonals() {
  return !!S.rules.HasDiagonalLines;
}

function buildBoard() {
  const lines = $('lines');
  const labels = $('labels');
  const hits = $('hits');
  lines.textContent = '';
  labels.textContent = '';
  hits.textContent = '';
  for (const [a, b] of SEGMENTS.concat(diagonals() ? DIAGONALS : [])) {
    const [x1, y1] = xy(a);
    const [x2, y2] = xy(b);
    svg('line', { x1, y1, x2, y2, class: 'line' }, lines);
  }
  for (const p of POINTS) {
    const [x, y] = xy(p);
    svg('circle', { cx: x, cy: y, r: 0.09, class: 'point' }, lines);
    svg('circle', { cx: x, cy: y, r: 0.42, class: 'hit', 'data-point': p }, hits);
  }
  for (let i = 0; i < 7; i++) {
    const f = FILES[i];
    const [x] = xy(f + '1');
    const [, y] = xy('a' + (i + 1));
    svg('text', { x, y: 6.55, class: 'label' }, labels).textContent = f;
    svg('text', { x: -0.55, y, class: 'label' }, labels).textContent = String(i + 1);
  }
  $('board').dataset.diagonals = diagonals() ? '1' : '0';
}

function renderBoard() {
  const view = S.preview ? S.preview.d : S.pos;
  const board = $('board');
  const marks = $('marks');
  const pieces = $('pieces');
  marks.textContent = '';
  pieces.textContent = '';
  if (board.dataset.diagonals !== (diagonals() ? '1' : '0') || board.dataset.flip !== String(S.flip)) {
    board.dataset.flip = String(S.flip);
    buildBoard();
  }
  if (!view) return;
  board.dataset.fen = view.fen;
  board.classList.toggle('preview', !!S.preview);
  board.classList.toggle('locked', !humanMayAct());
  // The last turn: its destination, origin and removals.
  const turn = S.preview ? S.preview.tokens.slice(-1) : lastTurn(S.moves, S.sides, S.cursor);
  for (const a of turn.map(parseToken)) {
    if (!a) continue;
    if (a.kind === 'remove') {
      const [x, y] = xy(a.at);
      const d = 0.22;
      svg('path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`, class: 'last-removed', 'data-last': 'removed' }, marks);
    } else if (a.kind === 'move') {
      const [x1, y1] = xy(a.from);
      const [x2, y2] = xy(a.to);
      svg('line', { x1, y1, x2, y2, class: 'last-path' }, marks);
      svg('circle', { cx: x1, cy: y1, r: 0.3, class: 'last-from', 'data-last': 'from' }, marks);
      svg('circle', { cx: x2, cy: y2, r: 0.42, class: 'last-to', 'data-last': 'to' }, marks);
    } else {
      const [x, y] = xy(a.to);
      svg('circle', { cx: x, cy: y, r: 0.42, class: 'last-to', 'data-last': 'to' }, marks);
    }
  }
  // The engine's hint: where to place, slide or fly, or what to remove.
  const h = shownHint();
  board.dataset.hint = h;
  const ha = parseToken(h);
  if (ha) {
    const at = (p, r) => { const [x, y] = xy(p); svg('circle', { cx: x, cy: y, r, class: 'hint', 'data-hint': p }, marks); };
    if (ha.kind === 'remove') {
      at(ha.at, 0.44);
    } else if (ha.kind === 'move') {
      const [x1, y1] = xy(ha.from);
      const [x2, y2] = xy(ha.to);
      svg('line', { x1, y1, x2, y2, class: 'hint-path' }, marks);
      at(ha.from, 0.36);
      at(ha.to, 0.44);
    } else {
      at(ha.to, 0.44);
    }
  }
  for (const p of POINTS) {
    const c = view.board[p];
    if (c === '*') continue;
    const [x, y] = xy(p);
    if (S.drag && S.drag.moved && S.drag.from === p) continue;
    const cls = c === 'O' ? 'white' : c === '@' ? 'black' : 'marked';
    svg('circle', { cx: x, cy: y, r: 0.32, class: `piece ${cls}`, 'data-piece': p }, pieces);
    if (c === 'X') {
      const d = 0.16;
      svg('path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`, class: 'mark-x' }, pieces);
    }
  }
  if (!S.preview && humanMayAct()) {
    if (S.pos.action === 'remove') {
      for (const t of S.pos.legal) {
        if (!t.startsWith('x')) continue;
        const [x, y] = xy(t.slice(1));
        svg('circle', { cx: x, cy: y, r: 0.38, class: 'removable' }, marks);
      }
    }
    if (S.selected) {
      const [x, y] = xy(S.selected);
      svg('circle', { cx: x, cy: y, r: 0.4, class: 'selected' }, marks);
      for (const t of S.pos.legal) {
        if (!t.startsWith(S.selected + '-')) continue;
        const [tx, ty] = xy(t.split('-')[1]);
        svg('circle', { cx: tx, cy: ty, r: 0.12, class: 'target' }, marks);
      }
    }
  }
  if (S.drag && S.drag.moved) {
    const c = view.board[S.drag.from];
    svg('circle', { cx: S.drag.x, cy: S.drag.y, r: 0.34, class: `piece ghost ${c === 'O' ? 'white' : 'black'}` }, pieces);
  }
}

function flash(p) {
  const [x, y] = xy(p);
  const c = svg('circle', { cx: x, cy: y, r: 0.4, class: 'flash' }, $('marks'));
  setTimeout(() => c.remove(), 350);
}

function svgPoint(ev) {
  const b = $('board');
  const pt = b.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  const m = b.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

function setupPointer() {
  const board = $('board');
  board.addEventListener('pointerdown', (ev) => {
    const p = ev.target.dataset && ev.target.dataset.point;
    if (!p) return;
    ev.preventDefault();
    const t0 = performance.now();
    if (humanMayAct() && S.pos.legal.some((t) => t.startsWith(p + '-'))) {
      const q = svgPoint(ev);
      S.drag = { from: p, x: q.x, y: q.y, moved: false, t0, id: ev.pointerId };
      try { board.setPointerCapture(ev.pointerId); } catch { /* synthetic events */ }
      return;
    }
    onPoint(p, t0);
  });
  board.addEventListener('pointermove', (ev) => {
    const d = S.drag;
    if (!d) return;
    const q = svgPoint(ev);
    const [fx, fy] = xy(d.from);
    if (!d.moved && (q.x - fx) ** 2 + (q.y - fy) ** 2 > 0.25 * 0.25) d.moved = true;
    d.x = q.x;
    d.y = q.y;
    if (d.moved) renderBoard();
  });
  const end = (ev) => {
    const d = S.drag;
    if (!d) return;
    S.drag = null;
    if (!d.moved) { onPoint(d.from, d.t0); return; }
    const q = svgPoint(ev);
    const to = nearestPoint(q.x, q.y, S.flip);
    const tok = `${d.from}-${to}`;
    if (to && to !== d.from && S.pos.legal.includes(tok)) { humanPlay(tok, performance.now()); return; }
    renderBoard();
  };
  board.addEventListener('pointerup', end);
  board.addEventListener('pointercancel', () => { S.drag = null; renderBoard(); });
}

// -------------------------------------------------------------- rendering

function render() {
  renderBoard();
  renderStatus();
  renderMoves();
  renderNav();
  renderAnalysis();
  renderClocks();
  renderReview();
  if (S.pos && document.activeElement !== $('fen')) $('fen').value = (S.preview ? S.preview.d : S.pos).fen;
}

function resultText() {
  if (S.flagged) {
    const other = S.flagged === 'white' ? 'black' : 'white';
    return `${other} wins (${S.flagged} lost on time)`;
  }
  return S.pos && S.pos.result !== 'ongoing' ? S.pos.result : '';
}

function renderStatus() {
  const v = S.preview ? S.preview.d : S.pos;
  if (!v) return;
  $('side').textContent = `${cap(v.side)} to move`;
  $('phase').textContent = v.phase;
  $('action').textContent = v.action;
  const pend = [];
  if (v.pending.white) pend.push(`White must remove ${v.pending.white}`);
  if (v.pending.black) pend.push(`Black must remove ${v.pending.black}`);
  $('pending').textContent = pend.length ? '· ' + pend.join(', ') : '';
  for (const side of ['white', 'black']) {
    const h = $('hand-' + side);
    h.querySelector('.count').textContent = v.hand[side];
    const st = h.querySelector('.stones');
    st.textContent = '';
    for (let i = 0; i < Math.min(v.hand[side], 12); i++) st.append(document.createElement('i'));
    h.classList.toggle('to-move', v.side === side && v.result === 'ongoing');
  }
  const res = S.preview ? (v.result !== 'ongoing' ? v.result : '') : resultText();
  const el = $('result');
  el.hidden = !res;
  el.textContent = res ? `Game over: ${res}` : '';
  const ov = $('overlay');
  let msg = '';
  if (res) msg = `Game over: ${res}`;
  else if (S.thinking) msg = '';
  ov.hidden = !msg;
  ov.textContent = msg;
  const b = $('board');
  b.dataset.thinking = S.thinking ? '1' : '0';
  b.dataset.result = res || 'ongoing';
  b.dataset.plies = String(S.moves.length);
  b.dataset.cursor = String(S.cursor);
  $('side').title = S.thinking ? 'the engine is thinking' : '';
  $('status-line').classList.toggle('thinking', S.thinking);
  if (S.thinking) $('side').textContent += ' · engine thinking…';
}

// renderMoves shows the move list, one entry per turn (an action with its
// removals, written as Sanmill does: d6-d5xd7): the current turn is marked,
// a click goes to the end of a turn, and a reviewed move shows its glyph.
function renderMoves() {
  const ol = $('movelist');
  ol.textContent = '';
  const ts = turnsOf(S.moves, S.sides);
  const reviewed = reviewedPlies();
  for (let i = 0; i < ts.length; i += 2) {
    const li = document.createElement('li');
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = `${i / 2 + 1}.`;
    li.append(num);
    for (const j of [i, i + 1]) {
      const t = ts[j];
      if (!t) continue;
      const end = t[t.length - 1] + 1;
      const span = document.createElement('span');
      span.className = 'turn' + (S.cursor > t[0] && S.cursor <= end ? ' current' : '') + (t[0] >= S.cursor ? ' future' : '');
      span.dataset.ply = String(end);
      span.dataset.turn = String(j);
      span.textContent = t.map((k) => S.moves[k]).join('');
      let worst = -1;
      for (const k of t) if (k < reviewed) worst = Math.max(worst, GRADES.indexOf(S.review.data.moves[k].grade));
      if (worst >= 0) {
        const g = GRADES[worst];
        span.dataset.grade = g;
        span.classList.add('grade-' + g);
        const glyph = { inaccuracy: '?!', mistake: '?', blunder: '??' }[g];
        if (glyph) {
          const sup = document.createElement('span');
          sup.className = 'glyph';
          sup.textContent = glyph;
          span.append(sup);
        }
      }
      li.append(span);
    }
    ol.append(li);
  }
  // Keep the current move in view by scrolling the list only (never the page).
  const cur = ol.querySelector('.current');
  if (cur && (cur.offsetTop < ol.scrollTop || cur.offsetTop + cur.offsetHeight > ol.scrollTop + ol.clientHeight)) {
    ol.scrollTop = cur.offsetTop - ol.clientHeight / 2;
  }
  $('moves-text').value = S.lastExport && S.lastExport.key === gameKey() ? S.lastExport.text : '';
}

function renderNav() {
  const n = S.moves.length;
  $('first').disabled = S.cursor === 0;
  $('back').disabled = S.cursor === 0;
  $('forward').disabled = S.cursor >= n;
  $('last').disabled = S.cursor >= n;
  $('takeback').disabled = n === 0;
  $('flip').classList.toggle('active', S.flip);
  $('hint').disabled = !hintAllowed();
  $('hint').classList.toggle('active', S.hinting);
}

// renderLines shows the analysis lines. Each line keeps its list item from
// one info line to the next, only its text changing: the engine sends
// several lines a second, and an item rebuilt under the pointer would
// swallow the click of a person choosing a line to preview.
function renderLines(lines) {
  const ol = $('pvs');
  const shown = lines.map((l, k) => (l && k < S.multipv ? k : -1)).filter((k) => k >= 0);
  for (const li of [...ol.children]) {
    if (!shown.includes(Number(li.dataset.k))) li.remove();
  }
  let prev = null;
  for (const k of shown) {
    const l = lines[k];
    let li = ol.querySelector(`li[data-k="${k}"]`);
    if (!li) {
      li = document.createElement('li');
      li.dataset.k = String(k);
      const sc = document.createElement('span');
      sc.className = 'score';
      li.append(sc, document.createTextNode(''));
      li.onclick = () => previewLine(k);
    }
    if (li.previousElementSibling !== prev || li.parentNode !== ol) {
      if (prev) prev.after(li);
      else ol.prepend(li);
    }
    li.classList.toggle('active', !!(S.preview && S.preview.k === k));
    li.firstChild.textContent = scoreText(l);
    li.lastChild.textContent = (l.pv || []).join(' ');
    prev = li;
  }
}

function renderAnalysis() {
  const a = S.analysis;
  const info = a.info;
  $('an-depth').textContent = info && info.depth ? `${info.depth}${info.seldepth ? '/' + info.seldepth : ''}` : '–';
  $('an-score').textContent = scoreText(info);
  $('an-nps').textContent = info && info.nps !== undefined ? info.nps.toLocaleString('en-US') : '–';
  $('an-hash').textContent = info && info.hashfull !== undefined ? `${(info.hashfull / 10).toFixed(1)}%` : '–';
  renderLines(a.lines);
  // The bar shows White's view; scores are the side to move's.
  const bar = $('evalbar');
  const fill = $('evalfill');
  let pct = 50;
  let label = '';
  if (info && info.score !== undefined && S.pos) {
    const sign = S.pos.side === 'white' ? 1 : -1;
    if (info.scoreKind === 'mate') {
      pct = sign * info.score > 0 ? 100 : 0;
      label = `mate ${sign * info.score}`;
    } else {
      const cp = sign * info.score;
      pct = 100 / (1 + Math.exp(-cp / 150));
      label = String(cp);
    }
  }
  fill.style.height = `${pct.toFixed(1)}%`;
  bar.dataset.score = label;
  bar.title = label ? `White's view: ${label}` : 'evaluation (White\'s view)';
  const eg = a.egtb;
  $('egtb').hidden = !eg;
  if (eg) {
    $('egtb-root').textContent = `(${valueText(eg.root)})`;
    fillMoveTable($('egtb-moves'), eg.moves.map((m) => [m.tok, valueText(m.v), m.v.k]));
  }
  const bk = a.book;
  $('book').hidden = !bk;
  if (bk) {
    const pv = bk.proven;
    $('book-depth').textContent = pv ? `(depth ${bk.depth}, proven ${pv.value})` : `(depth ${bk.depth})`;
    // A book action that gives up the proven value is marked as the loss of it.
    fillMoveTable($('book-moves'), bk.moves.map((m) => [m.tok, cpText(m.score), pv && !pv.keep.includes(m.tok) ? 'loss' : '']));
  }
  $('preview-bar').hidden = !S.preview;
  $('board').dataset.analysis = a.on ? '1' : '0';
  $('board').dataset.depth = info && info.depth ? String(info.depth) : '0';
}

// fillMoveTable replaces the rows of a table body with one row per action:
// its token and a value, the value's cell with a class (win, loss) or none.
function fillMoveTable(tb, rows) {
  tb.textContent = '';
  for (const [tok, text, cls] of rows) {
    const tr = document.createElement('tr');
    tr.dataset.move = tok;
    const a1 = document.createElement('td');
    a1.textContent = tok;
    const a2 = document.createElement('td');
    a2.textContent = text;
    a2.className = cls;
    tr.append(a1, a2);
    tb.append(tr);
  }
}

function renderAnalysisButton() {
  $('analyse').textContent = S.analysis.on ? 'Stop analysis' : 'Analyse';
  $('analyse').classList.toggle('active', S.analysis.on);
}

function renderClocks() {
  const c = S.clock;
  $('clocks').hidden = !c;
  if (!c) return;
  for (const side of ['white', 'black']) {
    const left = c[side] - (c.running === side ? performance.now() - c.since : 0);
    const el = $('clock-' + side);
    el.textContent = `${cap(side)} ${fmtClock(left)}`;
    el.classList.toggle('running', c.running === side);
    el.classList.toggle('flagged', S.flagged === side);
  }
}

function renderConn() {
  const b = $('conn');
  const ok = S.connected && S.engineReady;
  b.textContent = ok ? 'engine ready' : S.connected ? 'starting engine…' : 'offline';
  b.className = 'badge ' + (ok ? 'on' : 'off');
}

// ----------------------------------------------------------------- notices

function notice(text, kind) {
  const box = $('notices');
  const div = document.createElement('div');
  div.className = `notice ${kind || ''}`;
  const span = document.createElement('span');
  span.className = 'text';
  span.textContent = text;
  const close = document.createElement('button');
  close.textContent = '✕';
  close.title = 'dismiss';
  close.onclick = () => div.remove();
  div.append(span, close);
  box.append(div);
  while (box.children.length > 4) box.firstChild.remove();
  if (kind === 'info') setTimeout(() => div.remove(), 8000);
}

// The log keeps its last MAX_LOG lines in memory and draws them only while
// its pane is open, once a frame: the engine writes many lines a second.
const MAX_LOG = 3000;
const logLines = [];
let logDrawn = 0;       // how many of logLines the pane shows
let logFrame = 0;
function logLine(kind, text) {
  logLines.push([kind, text]);
  if (logLines.length > MAX_LOG + 500) {
    logLines.splice(0, logLines.length - MAX_LOG);
    logDrawn = -1; // redraw all
  }
  if ($('logbox').open && !logFrame) logFrame = requestAnimationFrame(drawLog);
}

function drawLog() {
  logFrame = 0;
  const log = $('log');
  if (logDrawn < 0 || logDrawn > logLines.length) { log.textContent = ''; logDrawn = 0; }
  const from = Math.max(logDrawn, logLines.length - MAX_LOG);
  if (from > logDrawn) { log.textContent = ''; }
  const frag = document.createDocumentFragment();
  for (let i = from; i < logLines.length; i++) {
    const div = document.createElement('div');
    div.className = logLines[i][0];
    div.textContent = logLines[i][1];
    frag.append(div);
  }
  log.append(frag);
  logDrawn = logLines.length;
  while (log.childElementCount > MAX_LOG) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    notice(`${what} copied.`, 'info');
  } catch {
    notice(`${what} is in the text field below; the browser did not allow copying it.`, 'info');
  }
}

// ------------------------------------------------------------------ controls

function goTo(n) {
  n = Math.max(0, Math.min(S.moves.length, n));
  if (n === S.cursor) return;
  S.cursor = n;
  update();
}

function setMode(mode) {
  S.players = {
    hve: { white: 'human', black: 'engine' },
    evh: { white: 'engine', black: 'human' },
    eve: { white: 'engine', black: 'engine' },
    hvh: { white: 'human', black: 'human' },
  }[mode] || S.players;
  if (mode === 'evh' && !S.flip) S.flip = true;
  if (mode === 'hve' && S.flip) S.flip = false;
  update();
}

function setLimit() {
  const k = $('limit').value;
  $('lbl-movetime').hidden = k !== 'movetime';
  $('lbl-depth').hidden = k !== 'depth';
  $('lbl-clock').hidden = k !== 'clock';
  initClock();
  clockSync();
}

function setup() {
  $('first').onclick = () => goTo(0);
  $('back').onclick = () => goTo(S.cursor - 1);
  $('forward').onclick = () => goTo(S.cursor + 1);
  $('last').onclick = () => goTo(S.moves.length);
  $('takeback').onclick = () => takeBack();
  $('newgame').onclick = () => newGame();
  $('flip').onclick = () => { S.flip = !S.flip; render(); };
  $('mode').onchange = () => setMode($('mode').value);
  $('limit').onchange = setLimit;
  $('clock-base').onchange = initClock;
  $('clock-inc').onchange = initClock;
  $('variant').onchange = () => setVariant($('variant').value);
  $('load-fen').onclick = () => loadFen($('fen').value);
  $('fen').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') loadFen($('fen').value); });
  $('copy-fen').onclick = () => copyText($('fen').value, 'The FEN');
  $('export-pgn').onclick = () => downloadPgn();
  $('copy-pgn').onclick = () => copyPgn();
  $('hint').onclick = () => hint();
  $('import').onclick = () => importGame($('import-text').value);
  $('import-file').onchange = async () => {
    const f = $('import-file').files[0];
    if (!f) return;
    if (f.size > (1 << 20)) { notice(`${f.name} is larger than 1 MB: the server reads records up to 1 MB.`, 'error'); return; }
    const text = await f.text();
    $('import-text').value = text;
    $('import-file').value = '';
    importGame(text);
  };
  $('review').onclick = () => reviewGame();
  $('review-cancel').onclick = () => cancelReview();
  $('analyse').onclick = () => toggleAnalysis();
  $('multipv').onchange = () => setMultiPV(Number($('multipv').value));
  $('preview-exit').onclick = exitPreview;
  $('log-clear').onclick = () => { logLines.length = 0; logDrawn = 0; $('log').textContent = ''; };
  $('logbox').addEventListener('toggle', () => { if ($('logbox').open) { logDrawn = -1; drawLog(); } });
  $('movelist').addEventListener('click', (ev) => {
    const t = ev.target.closest && ev.target.closest('[data-ply]');
    if (t) goTo(Number(t.dataset.ply));
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.target.closest && ev.target.closest('input, select, textarea')) return;
    // The keys step through the game; they do not scroll the page.
    const to = { ArrowLeft: S.cursor - 1, ArrowRight: S.cursor + 1, Home: 0, End: S.moves.length }[ev.key];
    if (to !== undefined) {
      ev.preventDefault();
      goTo(to);
    } else if (ev.key === 'Escape' && S.preview) {
      exitPreview();
    }
  });
  setupPointer();
  setInterval(clockTick, 100);
  buildBoard();
  setLimit();
  renderConn();
  renderAnalysisButton();
  renderReview();
}

// The tests read the page's state through this object; it changes nothing.
window.millApp = {
  snapshot: () => ({
    fen: S.pos ? S.pos.fen : '',
    side: S.pos ? S.pos.side : '',
    phase: S.pos ? S.pos.phase : '',
    action: S.pos ? S.pos.action : '',
    result: resultText() || 'ongoing',
    legal: S.pos ? S.pos.legal.slice() : [],
    hand: S.pos ? S.pos.hand : null,
    pending: S.pos ? S.pos.pending : null,
    moves: S.moves.slice(),
    cursor: S.cursor,
    thinking: S.thinking,
    ready: S.engineReady,
    variant: S.variant,
    preview: S.preview ? S.preview.d.fen : null,
    analysis: { on: S.analysis.on, depth: S.analysis.info ? S.analysis.info.depth : 0, lines: S.analysis.lines.filter(Boolean).map((l) => ({ score: scoreText(l), pv: l.pv })) },
    searches: E.searches,
    hint: shownHint() || null,
    hinting: S.hinting,
    reviewing: S.reviewing ? { done: S.reviewing.done, total: S.reviewing.total } : null,
    reviewed: reviewedPlies(),
    grades: S.review ? S.review.data.moves.slice(0, reviewedPlies()).map((m) => m.grade) : [],
    rules: { ...S.rules },
    // settled: the shown position is the one at the cursor and no answer is awaited.
    settled: S.posCursor === S.cursor && E.positions === 0 && E.readies === 0 &&
      (S.analysis.on ? E.searches <= 1 : E.searches === 0),
  }),
  // Feeds a line to the page as if the engine had written it (tests of the
  // parts the engine does not exercise yet, such as table values).
  engineLine: (line) => onServerMessage({ t: 'line', line }),
  // The last n lines of the engine log (what was sent, received and noted).
  log: (n) => logLines.slice(-n).map((l) => l[1]).join('\n'),
  stats,
};

async function main() {
  setup();
  try {
    const [pr, op] = await Promise.all([apiFetch('/presets.json'), apiFetch('/options.json')]);
    if (!pr.ok || !op.ok) throw new Error(await apiError(pr.ok ? op : pr));
    S.presets = await pr.json();
    const ot = await op.json();
    S.maxHashMB = ot.maxHashMB;
    // An alias that folds to its rule's own name (FlyPieceCount,
    // flyPieceCount) must not hide the rule.
    for (const d of ot.options) if (!d.aliasOf || !S.decls.has(norm(d.name))) S.decls.set(norm(d.name), d);
  } catch (e) {
    notice(`Could not load the variant and option tables: ${e.message}`, 'error');
  }
  connect();
}

main();
