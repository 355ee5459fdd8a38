// notation.js: what the board page knows of mill notation without a browser
// — the board's points and lines, reading a FEN's board, action tokens,
// turns, the texts of scores, values and clocks, and the bits of game
// records the page handles (tags, the export's body, the review's stream).
// Nothing here touches the DOM or the network: node --test runs it
// (internal/web/jstest).

// ---------------------------------------------------------------- geometry

/** The files of the board, left to right (a7 is the top left point). */
export const FILES = 'abcdefg';

/**
 * The points in FEN order (docs/rules.md §1): the inner, middle and outer
 * ring, each clockwise from its top middle point.
 */
export const RINGS = [
  ['d5', 'e5', 'e4', 'e3', 'd3', 'c3', 'c4', 'c5'],
  ['d6', 'f6', 'f4', 'f2', 'd2', 'b2', 'b4', 'b6'],
  ['d7', 'g7', 'g4', 'g1', 'd1', 'a1', 'a4', 'a7'],
];

/** The 24 points, in FEN order. */
export const POINTS = RINGS.flat();

/** The board's lines: the rings' sides, then the four spokes. */
export const SEGMENTS = [
  ['a7', 'g7'], ['g7', 'g1'], ['g1', 'a1'], ['a1', 'a7'],
  ['b6', 'f6'], ['f6', 'f2'], ['f2', 'b2'], ['b2', 'b6'],
  ['c5', 'e5'], ['e5', 'e3'], ['e3', 'c3'], ['c3', 'c5'],
  ['d7', 'd5'], ['g4', 'e4'], ['d1', 'd3'], ['a4', 'c4'],
];

/** The corner lines of the variants with diagonals (Morabaraba). */
export const DIAGONALS = [['a7', 'c5'], ['g7', 'e5'], ['g1', 'e3'], ['a1', 'c3']];

const POINT_SET = new Set(POINTS);

/** isPoint reports whether p names a point of the board ("d6"). */
export function isPoint(p) {
  return POINT_SET.has(p);
}

/**
 * pointXY returns where point p is drawn: x from 0 (file a) to 6 (file g),
 * y from 0 (rank 7, the top) to 6; flipped, the board is turned round.
 */
export function pointXY(p, flip = false) {
  let x = FILES.indexOf(p[0]);
  let y = 7 - Number(p[1]);
  if (flip) { x = 6 - x; y = 6 - y; }
  return [x, y];
}

/**
 * nearestPoint returns the point within radius of board position (x, y),
 * the nearest if several, or null: where a dragged piece is dropped.
 */
export function nearestPoint(x, y, flip = false, radius = 0.45) {
  let best = null;
  let bd = radius * radius;
  for (const p of POINTS) {
    const [px, py] = pointXY(p, flip);
    const d = (px - x) ** 2 + (py - y) ** 2;
    if (d < bd) { bd = d; best = p; }
  }
  return best;
}

// ---------------------------------------------------------------- the FEN

/**
 * parseBoard reads the board field of a FEN: each point's character, '*'
 * for an empty point (and for a point a short field leaves out), 'O' White,
 * '@' Black, 'X' a marked point.
 */
export function parseBoard(fen) {
  const board = {};
  const rings = (fen.split(' ')[0] || '').split('/');
  RINGS.forEach((ring, r) => ring.forEach((p, i) => { board[p] = (rings[r] || '')[i] || '*'; }));
  return board;
}

/**
 * normalizeFen is a pasted FEN as the engine is sent it: trimmed, one space
 * between fields.
 */
export function normalizeFen(text) {
  return text.trim().replace(/\s+/g, ' ');
}

// ---------------------------------------------------------------- actions

/**
 * parseToken reads an engine action token: "d6" places on d6 ({kind:
 * 'place', to}), "a1-d1" moves (slides or flies) ({kind: 'move', from, to}),
 * "xc5" removes the piece on c5 ({kind: 'remove', at}). Anything else is
 * null.
 */
export function parseToken(tok) {
  if (typeof tok !== 'string') return null;
  if (tok.startsWith('x')) {
    const at = tok.slice(1);
    return isPoint(at) ? { kind: 'remove', at } : null;
  }
  const dash = tok.indexOf('-');
  if (dash >= 0) {
    const from = tok.slice(0, dash);
    const to = tok.slice(dash + 1);
    return isPoint(from) && isPoint(to) && from !== to ? { kind: 'move', from, to } : null;
  }
  return isPoint(tok) ? { kind: 'place', to: tok } : null;
}

/**
 * turns groups the indexes of a game's tokens into turns: an action and the
 * removals its side made after it. sides[i] is the side that played
 * moves[i].
 */
export function turns(moves, sides) {
  const out = [];
  for (let i = 0; i < moves.length; i++) {
    const last = out[out.length - 1];
    if (moves[i].startsWith('x') && last && sides[last[last.length - 1]] === sides[i]) last.push(i);
    else out.push([i]);
  }
  return out;
}

/**
 * lastTurn returns the tokens of the turn that led to the position after
 * the first n tokens: its action and its removals (fewer when n falls
 * between them).
 */
export function lastTurn(moves, sides, n) {
  const out = [];
  let i = n - 1;
  if (i < 0) return out;
  out.unshift(moves[i]);
  while (moves[i].startsWith('x') && i > 0 && sides[i - 1] === sides[i]) {
    i--;
    out.unshift(moves[i]);
    if (!moves[i].startsWith('x')) break;
  }
  return out;
}

/**
 * takeBackLength returns how many tokens a take back keeps. It undoes whole
 * turns (an action with its removals) from the end: one turn when auto is
 * false (both sides are people, or the engine analyses); else turns until
 * one of a human player's is undone and the next to undo would be a
 * human's again, so that the human is to play. players maps a side to
 * 'human' or 'engine'.
 */
export function takeBackLength(moves, sides, players, auto) {
  let n = moves.length;
  const popTurn = () => {
    n--;
    const side = sides[n];
    let tok = moves[n];
    while (tok.startsWith('x') && n > 0 && sides[n - 1] === side) {
      n--;
      tok = moves[n];
    }
    return side;
  };
  let humanPopped = false;
  while (n > 0) {
    const side = popTurn();
    if (players[side] === 'human') humanPopped = true;
    if (!auto) break;
    if (humanPopped && players[side] === 'human') break;
  }
  return n;
}

/** commonPrefix returns how many first items the arrays a and b share. */
export function commonPrefix(a, b) {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

// ---------------------------------------------------------------- texts

/**
 * cpText writes a score in centipawns as the page shows it: "+0.12",
 * "-0.03", "0.00"; 29000 and beyond are "win" (-29000 and below "loss").
 */
export function cpText(cp) {
  if (cp >= 29000) return 'win';
  if (cp <= -29000) return 'loss';
  const v = cp / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

/**
 * scoreText writes the score of an info line (see uci.js parseInfo): a mate
 * score as "win in N" or "loss in N" turns of the side to move, else as
 * pawns ("+0.23"); "–" when it has none.
 */
export function scoreText(info) {
  if (!info || info.score === undefined) return '–';
  if (info.scoreKind === 'mate') return info.score > 0 ? `win in ${info.score}` : `loss in ${-info.score}`;
  const v = info.score / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

/**
 * valueText writes an endgame table value (see uci.js parseEgtb): "win in
 * 3", "loss, 2 to a removal", "draw", "draw (repetition)", "draw (N-move
 * rule)".
 */
export function valueText(v) {
  if (v.k === 'draw') {
    if (v.rule === 'repetition') return 'draw (repetition)';
    if (v.rule === 'nmove') return 'draw (N-move rule)';
    return 'draw';
  }
  return v.dtz ? `${v.k}, ${v.n} to a removal` : `${v.k} in ${v.n}`;
}

/**
 * fmtClock writes a clock's time left in ms as minutes and seconds
 * ("4:05"), with tenths under ten seconds ("0:09.5"); never negative.
 */
export function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const t = ms < 10000 ? `.${Math.floor(ms / 100) % 10}` : '';
  return `${m}:${String(s % 60).padStart(2, '0')}${t}`;
}

/**
 * clampInt reads a whole number from v (rounded) within lo..hi; def when v
 * is not a finite number.
 */
export function clampInt(v, lo, hi, def) {
  const n = Math.round(Number(v));
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : def;
}

/** cap gives a word a capital first letter ("white" → "White"). */
export function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

// ---------------------------------------------------------------- records

/**
 * tagValue returns the value of a record's tag (tags as /api/import answers
 * them: [{name, value}]), or undefined.
 */
export function tagValue(tags, name) {
  return (tags.find((t) => t.name === name) || {}).value;
}

/**
 * loadedText is the notice of a game read from a record (/api/import's
 * answer): its players (unless unknown, "?"), its turns and its result.
 */
export function loadedText(g) {
  const tag = (n) => { const v = tagValue(g.tags, n); return v && v !== '?' ? v : ''; };
  const who = tag('White') && tag('Black') ? `${tag('White')} – ${tag('Black')}, ` : '';
  const more = g.games > 1 ? ` (the first of ${g.games} games)` : '';
  const count = g.turnEnd.length === 1 ? '1 turn' : `${g.turnEnd.length} turns`;
  return `Game loaded${more}: ${who}${count}, ${g.result}. Step through it with ← and →.`;
}

/**
 * exportBody is the body of /api/export for a game: its variant (and its
 * rules when they match no preset: variant ''), its start and moves, its
 * players' names. A game as it was read from a record (record: the game's
 * start, moves, tags and result, unchanged since) keeps the record's
 * players, event, round and result; a game lost on time (flagged: the side
 * whose clock ran out) gets that result.
 */
export function exportBody({ variant, rules, startFen, moves, white, black, record, flagged }) {
  const body = { variant, startFen: startFen || '', moves, white, black };
  if (!variant) body.rules = rules;
  if (record && record.startFen === startFen && record.moves.join(' ') === moves.join(' ')) {
    const tag = (n) => tagValue(record.tags, n);
    body.white = tag('White') || '';
    body.black = tag('Black') || '';
    body.event = tag('Event') || '';
    body.round = tag('Round') || '';
    if (record.result !== '*') body.result = record.result;
  }
  if (flagged) body.result = flagged === 'white' ? '0-1' : '1-0';
  return body;
}

/**
 * attachmentName returns the file name of a Content-Disposition header
 * (attachment; filename="x.pgn"), or fallback.
 */
export function attachmentName(header, fallback) {
  const m = /filename="([^"]+)"/.exec(header || '');
  return m ? m[1] : fallback;
}

/**
 * splitLines takes the complete lines off the front of a buffer of
 * streamed text (NDJSON): it returns them, without their newlines and
 * without blank ones, and the rest, a line not yet complete.
 */
export function splitLines(buf) {
  const lines = [];
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.trim()) lines.push(line);
  }
  return [lines, buf];
}
