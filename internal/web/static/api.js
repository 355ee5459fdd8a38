// api.js: the page's requests of the server's HTTP API: the variant and
// option tables, and game records read, written and reviewed (the server's
// record and review packages: the page parses and grades nothing itself).
// The server's token, when it listens beyond this machine, comes in the
// page's URL and goes with every request (and the WebSocket). No DOM here:
// node --test runs it (internal/web/jstest), playing fetch and location.

import { attachmentName, splitLines } from './notation.js';
import { norm } from './uci.js';

/** pageToken reads the server's token from the page's query string ('' when none). */
export function pageToken(search) {
  return new URLSearchParams(search).get('token') || '';
}

/** apiFetch is fetch with the server's token. */
export function apiFetch(path, opts = {}) {
  const token = pageToken(location.search);
  const headers = { ...(opts.headers || {}) };
  if (token) headers['X-Millengine-Token'] = token;
  return fetch(path, { ...opts, headers });
}

/** apiError returns the message of a failed API answer: its JSON error, else its status. */
export async function apiError(res) {
  try {
    const b = await res.json();
    if (b && b.error) return b.error;
  } catch { /* not JSON */ }
  return `${res.status} ${res.statusText}`;
}

/**
 * declTable is /options.json's declarations by folded name (norm). An
 * alias that folds to its rule's own name (FlyPieceCount, flyPieceCount)
 * does not hide the rule.
 */
export function declTable(options) {
  const decls = new Map();
  for (const d of options) if (!d.aliasOf || !decls.has(norm(d.name))) decls.set(norm(d.name), d);
  return decls;
}

/**
 * loadTables reads /presets.json and /options.json: {presets, decls,
 * maxHashMB, levels} (levels: the engine's levels for people, none when
 * the server's engine has no UCI_LimitStrength and UCI_Elo); it throws a
 * refusal.
 */
export async function loadTables() {
  const [pr, op] = await Promise.all([apiFetch('/presets.json'), apiFetch('/options.json')]);
  if (!pr.ok || !op.ok) throw new Error(await apiError(pr.ok ? op : pr));
  const presets = await pr.json();
  const ot = await op.json();
  return { presets, decls: declTable(ot.options), maxHashMB: ot.maxHashMB, levels: ot.levels || [] };
}

/** importRecord has a record (PGN, a PlayOK list, a FEN) read under variant: {game}, its first, or {error}. */
export async function importRecord(text, variant) {
  const q = variant ? `?variant=${encodeURIComponent(variant)}` : '';
  try {
    const res = await apiFetch('/api/import' + q, { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: text });
    if (!res.ok) return { error: await apiError(res) };
    return { game: await res.json() };
  } catch (e) {
    return { error: e.message };
  }
}

/** exportRecord has a game (notation.js exportBody) written as PGN: {text, filename}, or {error}. */
export async function exportRecord(body) {
  try {
    const res = await apiFetch('/api/export', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) return { error: await apiError(res) };
    const text = await res.text();
    return { text, filename: attachmentName(res.headers.get('Content-Disposition'), 'millengine.pgn') };
  } catch (e) {
    return { error: e.message };
  }
}

/**
 * streamReview has every move of a game (PGN) graded, movetime ms a
 * position, calling onLine with each line of the answer as it comes
 * (progress, then the review). It returns the refusal, or '' at the end;
 * it throws what fetch throws (AbortError when signal aborts).
 */
export async function streamReview(pgn, movetime, signal, onLine) {
  const res = await apiFetch(`/api/review?movetime=${movetime}`, {
    method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: pgn, signal,
  });
  if (!res.ok) return apiError(res);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let lines;
    [lines, buf] = splitLines(buf);
    for (const line of lines) onLine(JSON.parse(line));
  }
  return '';
}
