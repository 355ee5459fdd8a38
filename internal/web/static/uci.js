// uci.js: the page's side of the UCI protocol. The parsers read the
// engine's lines (info, bestmove, option, id, the answer to "d", and the
// table and book lines of "info string"); the commands are written here;
// UciClient is the state machine that sends commands to the engine through
// the server's WebSocket bridge and matches its answers to them. Nothing
// here touches the DOM: node --test runs it (internal/web/jstest).

import { clampInt, parseBoard } from './notation.js';

/** norm folds an option name as the engine matches names: lower case, no spaces. */
export const norm = (name) => name.toLowerCase().replace(/\s+/g, '');

/** IDLE_CLOSE is the WebSocket close code of a tab the server closed for silence. */
export const IDLE_CLOSE = 4000;

const INT = /^-?\d+$/;

// The info fields that hold one whole number.
const INFO_INTS = new Set(['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'hashfull', 'time', 'tbhits',
  'currmovenumber', 'cpuload', 'sbhits']);

/**
 * parseInfo reads an "info" line into its fields: depth, seldepth, multipv,
 * nodes, nps, hashfull, time, tbhits, currmovenumber (numbers); scoreKind
 * ('cp' or 'mate'), score (a number, the side to move's) and bound
 * ('lowerbound' or 'upperbound', when given); wdl ([win, draw, loss] per
 * mille); currmove; pv (the tokens to the end of the line); string (the
 * text to the end of the line). Words it does not know are skipped. A line
 * that is not an info line, or whose fields are malformed (a number that is
 * not a whole number, a score that is neither cp nor mate, a pv without
 * moves), is refused: null.
 */
export function parseInfo(line) {
  const f = line.trim().split(/\s+/);
  if (f[0] !== 'info') return null;
  const info = {};
  for (let i = 1; i < f.length; i++) {
    const k = f[i];
    if (INFO_INTS.has(k)) {
      if (!INT.test(f[i + 1] ?? '')) return null;
      info[k] = Number(f[++i]);
    } else if (k === 'score') {
      const kind = f[i + 1];
      if ((kind !== 'cp' && kind !== 'mate') || !INT.test(f[i + 2] ?? '')) return null;
      info.scoreKind = kind;
      info.score = Number(f[i + 2]);
      i += 2;
      if (f[i + 1] === 'lowerbound' || f[i + 1] === 'upperbound') info.bound = f[++i];
    } else if (k === 'wdl') {
      const w = f.slice(i + 1, i + 4);
      if (w.length !== 3 || !w.every((x) => INT.test(x))) return null;
      info.wdl = w.map(Number);
      i += 3;
    } else if (k === 'currmove') {
      if (f[i + 1] === undefined) return null;
      info.currmove = f[++i];
    } else if (k === 'pv') {
      info.pv = f.slice(i + 1);
      if (info.pv.length === 0) return null;
      break;
    } else if (k === 'string') {
      info.string = /^\s*info\s+(?:\S+\s+)*?string(?:\s(.*))?$/.exec(line)[1] ?? '';
      break;
    }
  }
  return info;
}

/**
 * parseBestmove reads "bestmove TOKEN" or "bestmove TOKEN ponder TOKEN":
 * {best, ponder} (ponder null when not given); anything else is null.
 */
export function parseBestmove(line) {
  const f = line.trim().split(/\s+/);
  if (f[0] !== 'bestmove' || f.length < 2) return null;
  if (f.length === 2) return { best: f[1], ponder: null };
  if (f.length === 4 && f[2] === 'ponder') return { best: f[1], ponder: f[3] };
  return null;
}

const OPTION = /^option name (.+?) type (check|spin|combo|button|string)(?:\s+(.*))?$/;

/**
 * parseOption reads an "option name … type …" line: {name, type, def, min,
 * max, vars}. Names may hold spaces ("Clear Hash"); def is the default as
 * text, a string option's to the end of the line, spaces kept ("<empty>"
 * is ''); min and max are numbers (null when the type has none); vars are a
 * combo's values, each of one or more words. Lines that do not follow the
 * protocol are null: an unknown type, a check without a default of true or
 * false, a spin whose default, min or max is not a whole number, a combo
 * without a default or without values, words the type does not take.
 */
export function parseOption(line) {
  const m = OPTION.exec(line.trimEnd());
  if (!m) return null;
  const o = { name: m[1].trim(), type: m[2], def: '', min: null, max: null, vars: [] };
  const rest = m[3] ?? '';
  if (!o.name) return null;
  if (o.type === 'button') return rest === '' ? o : null;
  if (o.type === 'string') {
    const d = /^default(?:\s(.*))?$/.exec(rest);
    if (!d) return null;
    o.def = d[1] === undefined || d[1] === '<empty>' ? '' : d[1];
    return o;
  }
  const f = rest.split(/\s+/);
  if (f[0] !== 'default') return null;
  if (o.type === 'check') {
    if (f.length !== 2 || (f[1] !== 'true' && f[1] !== 'false')) return null;
    o.def = f[1];
    return o;
  }
  if (o.type === 'spin') {
    const seen = new Set();
    for (let i = 0; i < f.length; i += 2) {
      const k = f[i];
      const v = f[i + 1];
      if (!['default', 'min', 'max'].includes(k) || seen.has(k) || !INT.test(v ?? '')) return null;
      seen.add(k);
      if (k === 'default') o.def = v;
      else o[k] = Number(v);
    }
    if (o.min !== null && o.max !== null && o.min > o.max) return null;
    return o;
  }
  // combo: "default WORDS var WORDS var WORDS …"
  const parts = [];
  for (const w of f.slice(1)) {
    if (w === 'var') parts.push([]);
    else if (parts.length) parts[parts.length - 1].push(w);
    else o.def += (o.def ? ' ' : '') + w;
  }
  if (!o.def || parts.length === 0 || parts.some((p) => p.length === 0)) return null;
  o.vars = parts.map((p) => p.join(' '));
  return o;
}

/** The fields of the engine's answer to "d" that the page reads, in its order. */
export const D_KEYS = ['fen', 'key', 'side', 'phase', 'action', 'pieces in hand', 'pending removals', 'result', 'legal'];

/**
 * parseDLine reads a line of the answer to "d" ("side: white"): [key,
 * value], value trimmed; null for any other line (the board's drawing).
 */
export function parseDLine(line) {
  const i = line.indexOf(':');
  if (i <= 0) return null;
  const key = line.slice(0, i);
  return D_KEYS.includes(key) ? [key, line.slice(i + 1).trim()] : null;
}

/**
 * parseD makes the position of the answer to "d" from its fields (key →
 * value, see parseDLine): its fen, side, phase, action, hand and pending
 * ({white, black}), result, legal tokens and board (see parseBoard).
 */
export function parseD(l) {
  const two = (s) => {
    const m = /white (-?\d+) black (-?\d+)/.exec(s || '');
    return m ? { white: Number(m[1]), black: Number(m[2]) } : { white: 0, black: 0 };
  };
  return {
    fen: l.fen || '',
    side: l.side || 'white',
    phase: l.phase || '',
    action: l.action || '',
    hand: two(l['pieces in hand']),
    pending: two(l['pending removals']),
    result: l.result || 'ongoing',
    legal: (l.legal || '').split(/\s+/).filter(Boolean),
    board: parseBoard(l.fen || ''),
  };
}

/**
 * parseEgtb reads the text after "info string egtb ": the root's value,
 * then "moves" and a value per move. A value is "win N" or "loss N" (turns
 * to the end of the game; "dtz" after it: to the next removal), "draw", or
 * "draw repetition" / "draw nmove" (the action ends the game by that rule).
 * It returns {root, moves: [{tok, v}]}, each value {k, n, dtz} or {k,
 * rule}, and throws on a malformed line.
 */
export function parseEgtb(s) {
  const f = s.trim().split(/\s+/);
  let i = 0;
  const value = () => {
    const k = f[i++];
    if (k === 'win' || k === 'loss') {
      const n = Number(f[i++]);
      if (!Number.isInteger(n)) throw new Error(`bad count after ${k}`);
      if (f[i] === 'dtz') {
        i++;
        return { k, n, dtz: true };
      }
      return { k, n };
    }
    if (k === 'draw') {
      if (f[i] === 'repetition' || f[i] === 'nmove') return { k, rule: f[i++] };
      return { k };
    }
    throw new Error(`bad value ${k}`);
  };
  const root = value();
  if (f[i++] !== 'moves') throw new Error('"moves" missing');
  const moves = [];
  while (i < f.length) {
    const tok = f[i++];
    moves.push({ tok, v: value() });
  }
  return { root, moves };
}

/**
 * parseBook reads the text after "info string book ": "depth D moves TOKEN
 * SCORE … [proven VALUE keep TOKEN …]", what the engine's opening book holds
 * for the position, scores in centipawns from the side to move's view, and
 * where the book has it the position's proven value (win, draw or loss) and
 * the actions that keep it. It returns {depth, moves: [{tok, score}]} with
 * proven: {value, keep: [TOKEN …]} when the line has one, and throws on a
 * malformed line.
 */
export function parseBook(s) {
  const f = s.trim().split(/\s+/);
  const depth = Number(f[1]);
  if (f[0] !== 'depth' || !Number.isInteger(depth)) throw new Error('"depth" missing');
  if (f[2] !== 'moves') throw new Error('"moves" missing');
  const moves = [];
  let i = 3;
  for (; i < f.length && f[i] !== 'proven'; i += 2) {
    const score = Number(f[i + 1]);
    if (!Number.isInteger(score)) throw new Error(`bad score after ${f[i]}`);
    moves.push({ tok: f[i], score });
  }
  if (i >= f.length) return { depth, moves };
  const value = f[i + 1];
  if (!['win', 'draw', 'loss'].includes(value)) throw new Error(`bad proven value ${value}`);
  if (f[i + 2] !== 'keep' || f.length <= i + 3) throw new Error('"keep" and its actions missing');
  return { depth, moves, proven: { value, keep: f.slice(i + 3) } };
}

/**
 * parseEngineLine says what a line of the engine is: {type: 'info', info}
 * (see parseInfo), {type: 'string', text} (info string), {type:
 * 'bestmove', best, ponder}, {type: 'option', option} (see parseOption),
 * {type: 'id', field, value} (id name / id author), {type: 'uciok'},
 * {type: 'readyok'}; {type: 'bad', of, line} for a line of one of these
 * kinds that does not follow the protocol; {type: 'other', line} for
 * anything else (such as the answer to "d").
 */
export function parseEngineLine(line) {
  const f = line.trim().split(/\s+/);
  const bad = () => ({ type: 'bad', of: f[0], line });
  switch (f[0]) {
    case 'info': {
      if (line.startsWith('info string ') || line.trim() === 'info string') {
        return { type: 'string', text: line.slice('info string '.length) };
      }
      const info = parseInfo(line);
      return info ? { type: 'info', info } : bad();
    }
    case 'bestmove': {
      const b = parseBestmove(line);
      return b ? { type: 'bestmove', ...b } : bad();
    }
    case 'option': {
      const o = parseOption(line);
      return o ? { type: 'option', option: o } : bad();
    }
    case 'id': {
      const m = /^id (name|author) (.+)$/.exec(line.trimEnd());
      return m ? { type: 'id', field: m[1], value: m[2] } : bad();
    }
    case 'uciok':
    case 'readyok':
      return f.length === 1 ? { type: f[0] } : bad();
    default:
      return { type: 'other', line };
  }
}

// ---------------------------------------------------------------- commands

/**
 * positionCommand is the "position" command of a game: from the rules'
 * start (startFen null or '') or a FEN, then the tokens.
 */
export function positionCommand(startFen, moves) {
  const base = startFen ? `position fen ${startFen}` : 'position startpos';
  return moves.length ? `${base} moves ${moves.join(' ')}` : base;
}

/** extendPosition adds tokens to a "position" command. */
export function extendPosition(cmd, tokens) {
  return cmd.includes(' moves ') ? `${cmd} ${tokens.join(' ')}` : `${cmd} moves ${tokens.join(' ')}`;
}

/**
 * goCommand is the "go" of an engine's move: limit 'depth' (depth, 1–60,
 * default 6), 'clock' (the clock {white, black, inc, running, since} in ms,
 * the running side's time counted to now) or else a time per move
 * (movetime, 10–600000 ms, default 1000).
 */
export function goCommand({ limit, depth, movetime, clock, now }) {
  if (limit === 'depth') return `go depth ${clampInt(depth, 1, 60, 6)}`;
  if (limit === 'clock' && clock) {
    const rem = (side) => Math.max(0, Math.round(clock[side] - (clock.running === side ? now - clock.since : 0)));
    const inc = Math.round(clock.inc);
    return `go wtime ${rem('white')} btime ${rem('black')} winc ${inc} binc ${inc}`;
  }
  return `go movetime ${clampInt(movetime, 10, 600000, 1000)}`;
}

/** setOptionCommand sets an option (value null: a button, pressed). */
export function setOptionCommand(name, value) {
  return value === null || value === undefined ? `setoption name ${name}` : `setoption name ${name} value ${value}`;
}

/**
 * bridgeURL is the address of the server's WebSocket bridge for a page at
 * loc (its location), with the server's token when it has one.
 */
export function bridgeURL(loc, token) {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${proto}//${loc.host}/ws${q}`;
}

// ---------------------------------------------------------------- the client

/**
 * UciClient talks to one engine: it sends commands (through hooks.send, the
 * page's WebSocket) and resolves each with the engine's answer to it. The
 * engine answers in order, so each kind of command waits in a queue: "d"
 * for its position, "isready" for readyok, "go" for bestmove, "uci" for
 * uciok. Lines the page has not asked for go to the hooks:
 *
 *   send(line) → bool   writes a command (false: not sent)
 *   now() → ms          the clock of the answers' times (performance.now)
 *   onInfo(info, search) an info line of the running search (see go)
 *   onString(text)      an info string that is not an error awaited
 *   onError(text)       an engine error ("info string error…") that no
 *                       command waits for
 *
 * Errors the engine reports while a command waits for its answer go to
 * that command's caller (each waiting command collects them); aborting
 * (the engine exited, the connection dropped) resolves everything waiting
 * with {aborted: true}.
 */
export class UciClient {
  constructor(hooks = {}) {
    this.hooks = {
      send: () => false,
      now: () => performance.now(),
      onInfo: () => {},
      onString: () => {},
      onError: () => {},
      ...hooks,
    };
    /** The engine's options from its answer to uci: norm(name) → parseOption's object. */
    this.options = new Map();
    /** The engine's name from "id name" (kept from the previous engine until a new one says it). */
    this.engineName = '';
    this.dQ = []; // pending "d": {resolve, lines, errors}
    this.readyQ = []; // pending "isready": {resolve, errors}
    this.goQ = []; // pending "go": {resolve, kind, gen, lastInfo, stopped, sentAt}
    this.uciWait = null; // resolves at uciok
    this.idleWaiters = []; // resolve when no search runs
    this.collectors = new Set(); // the errors lists of the commands waiting
  }

  /** send writes a command to the engine. */
  send(line) {
    return this.hooks.send(line);
  }

  /** The searches started and not answered yet. */
  get searches() { return this.goQ.length; }

  /** The positions ("d") asked for and not answered yet. */
  get positions() { return this.dQ.length; }

  /** The isready sent and not answered yet. */
  get readies() { return this.readyQ.length; }

  /** Whether uci was sent and uciok has not come yet. */
  get starting() { return this.uciWait !== null; }

  /** Whether every running search was told to stop (false when none runs). */
  get stopping() { return this.goQ.length > 0 && this.goQ.every((g) => g.stopped); }

  /**
   * uci sends "uci" and resolves at uciok ({} or {aborted: true}); the
   * options are those the engine lists meanwhile.
   */
  uci() {
    if (this.uciWait) this.uciWait({ aborted: true });
    this.options.clear();
    return new Promise((resolve) => {
      this.uciWait = resolve;
      this.send('uci');
    });
  }

  /** isready sends "isready" and resolves at readyok with the errors seen meanwhile. */
  isready() {
    return new Promise((resolve) => {
      const errors = [];
      this.collectors.add(errors);
      this.readyQ.push({ resolve, errors });
      this.send('isready');
    });
  }

  /**
   * command sends a line and resolves, after the engine's readyok, with the
   * error lines it caused ({errors}, empty: accepted; {aborted, errors}).
   */
  command(line) {
    const errors = [];
    this.collectors.add(errors);
    this.send(line);
    return this.isready().then((r) => {
      this.collectors.delete(errors);
      return r.aborted ? { aborted: true, errors } : { errors };
    });
  }

  /**
   * position sends a position command and "d"; it resolves with the parsed
   * answer ({d, errors}: see parseD) and the error lines the position
   * caused.
   */
  position(cmd) {
    return new Promise((resolve) => {
      const errors = [];
      this.collectors.add(errors);
      this.dQ.push({ resolve, lines: {}, errors });
      this.send(cmd);
      this.send('d');
    });
  }

  /**
   * go starts a search and resolves at its bestmove with {best, ponder,
   * info, at}: info is the search's last info line with a pv or a score,
   * at the time of the answer. kind and gen label the search for the
   * caller (onInfo gets them back).
   */
  go(cmd, kind, gen) {
    return new Promise((resolve) => {
      this.goQ.push({ resolve, kind, gen, lastInfo: null, stopped: false, sentAt: this.hooks.now() });
      this.send(cmd);
    });
  }

  /** stopSearch asks the running searches (if any) to stop: one "stop". */
  stopSearch() {
    if (this.goQ.some((g) => !g.stopped)) {
      this.goQ.forEach((g) => { g.stopped = true; });
      this.send('stop');
    }
  }

  /**
   * idle stops the searches and resolves once every search has answered, so
   * that setoption and ucinewgame are accepted.
   */
  idle() {
    this.stopSearch();
    if (this.goQ.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** abortAll resolves every command waiting with {aborted: true}: the engine is gone. */
  abortAll() {
    for (const q of [this.dQ, this.readyQ, this.goQ]) {
      for (const r of q.splice(0)) r.resolve({ aborted: true, errors: r.errors || [] });
    }
    this.collectors.clear();
    if (this.uciWait) { this.uciWait({ aborted: true }); this.uciWait = null; }
    this.idleWaiters.splice(0).forEach((f) => f());
  }

  /**
   * collectRefusal gives a refusal of the server's bridge ("refused …") to
   * the commands waiting, as the engine's errors are; it reports whether
   * any took it.
   */
  collectRefusal(text) {
    if (!text.startsWith('refused') || this.collectors.size === 0) return false;
    this.collectors.forEach((c) => c.push(`server: ${text}`));
    return true;
  }

  /** receive takes a line the engine wrote. */
  receive(line) {
    const l = parseEngineLine(line);
    switch (l.type) {
      case 'string':
        if (l.text.startsWith('error') && this.collectors.size) this.collectors.forEach((c) => c.push(l.text));
        else if (l.text.startsWith('error')) this.hooks.onError(l.text);
        else this.hooks.onString(l.text);
        return;
      case 'info': {
        const g = this.goQ[0];
        if (!g) return;
        if (l.info.pv || l.info.score !== undefined) g.lastInfo = l.info;
        this.hooks.onInfo(l.info, g);
        return;
      }
      case 'bestmove':
        this.bestmove(l.best, l.ponder);
        return;
      case 'readyok': {
        const r = this.readyQ.shift();
        if (r) { this.collectors.delete(r.errors); r.resolve({ errors: r.errors }); }
        return;
      }
      case 'uciok':
        if (this.uciWait) { this.uciWait({}); this.uciWait = null; }
        return;
      case 'id':
        if (l.field === 'name') this.engineName = l.value;
        return;
      case 'option':
        // The first of two names that fold alike (flyPieceCount, then its
        // alias FlyPieceCount) is kept: the engine takes either.
        if (!this.options.has(norm(l.option.name))) this.options.set(norm(l.option.name), l.option);
        return;
      case 'bad':
        // A bestmove the page cannot read still ends its search, with a
        // move no position has: the caller says so.
        if (l.of === 'bestmove') this.bestmove('none', null);
        return;
      default:
        this.dLine(line);
    }
  }

  // bestmove answers the oldest search.
  bestmove(best, ponder) {
    const g = this.goQ.shift();
    if (g) g.resolve({ best, ponder, info: g.lastInfo, at: this.hooks.now() });
    if (this.goQ.length === 0) this.idleWaiters.splice(0).forEach((r) => r());
  }

  // dLine takes a line of the answer to "d"; "legal:", its last, answers
  // the oldest position asked for.
  dLine(line) {
    if (!this.dQ.length) return;
    const kv = parseDLine(line);
    if (!kv) return;
    const d = this.dQ[0];
    d.lines[kv[0]] = kv[1];
    if (kv[0] === 'legal') {
      this.dQ.shift();
      this.collectors.delete(d.errors);
      d.resolve({ d: parseD(d.lines), errors: d.errors });
    }
  }
}
