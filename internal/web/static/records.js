// records.js: game records. A record pasted or opened (PGN, a PlayOK move
// list or a FEN) is read by the server and its first game loaded, both
// sides then played by people; the game shown is written as PGN by the
// server, with its players or the record's tags, to download or copy. The
// game's key, the players' names and loading a game into the state are
// pure: node --test runs them (internal/web/jstest).

import { exportRecord, importRecord } from './api.js';
import { exportBody, loadedText } from './notation.js';
import { copyText, notice } from './notices.js';
import { setOptionCommand } from './uci.js';

const $ = (id) => document.getElementById(id);

/** MAX_RECORD_BYTES is the largest record the server reads (its MaxImportBytes). */
const MAX_RECORD_BYTES = 1 << 20;

/** gameKey identifies the game shown: its rules, start and moves. */
export function gameKey(S) {
  return JSON.stringify([S.variant, S.variant ? null : S.rules, S.startFen, S.moves]);
}

/** playerName names a side for the record: the engine's name, or Human. */
export function playerName(S, side, engineName) {
  return S.players[side] === 'engine' ? engineName || 'engine' : 'Human';
}

/**
 * loadRecord makes S the game g (/api/import's answer) at its start, both
 * sides played by people, White at the bottom; the record is kept (its
 * tags go with the game's export while it is unchanged), the review and
 * analysis of the game before dropped.
 */
export function loadRecord(S, g) {
  S.variant = g.variant;
  S.rules = { ...g.rules };
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
}

/** recordsCtrl reads records (open: text, openFile) and writes the game (exportPgn, download, copy). */
export function recordsCtrl(ctrl) {
  const { S, E } = ctrl;

  async function open(text) {
    if (!text.trim()) { notice('Paste a game (PGN, a PlayOK move list or a FEN) or open a file first.', 'error'); return; }
    const x = await importRecord(text, S.variant);
    if ('error' in x) { notice(`The game could not be read: ${x.error}`, 'error'); return; }
    await load(x.game);
  }

  async function openFile(f) {
    if (!f) return;
    if (f.size > MAX_RECORD_BYTES) { notice(`${f.name} is larger than 1 MB: the server reads records up to 1 MB.`, 'error'); return; }
    const text = await f.text();
    $('import-text').value = text;
    $('import-file').value = '';
    open(text);
  }

  // load sets the tab's engine to the game's rules and shows its start:
  // the engine does not play on in a game being read.
  async function load(g) {
    S.gen++;
    await E.idle();
    if (!S.engineReady) { notice('The engine is not ready; try again in a moment.', 'error'); return; }
    if (E.options.has('variant')) {
      const r = await E.command(setOptionCommand('Variant', g.variant));
      if (r.aborted) return;
      if (r.errors.length) { notice(`The engine refused the game's variant: ${r.errors.join('; ')}`, 'error'); await ctrl.update(); return; }
    }
    loadRecord(S, g);
    $('variant').value = S.variant;
    ctrl.options.buildRules();
    $('mode').value = 'hvh';
    ctrl.clock.init();
    ctrl.send('ucinewgame');
    await ctrl.update();
    notice(loadedText(g), 'info');
    ctrl.review.render();
  }

  // exportPgn has the server write the game as PGN, with its tags. The game
  // as it was read keeps its players and result (a game may end by
  // resignation or time, off the board).
  async function exportPgn() {
    const key = gameKey(S);
    const body = exportBody({ variant: S.variant, rules: S.rules, startFen: S.startFen, moves: S.moves,
      white: playerName(S, 'white', E.engineName), black: playerName(S, 'black', E.engineName), record: S.record, flagged: S.flagged });
    const x = await exportRecord(body);
    if ('error' in x) {
      notice(`The game could not be exported: ${x.error}`, 'error');
      return null;
    }
    S.lastExport = { key, text: x.text, filename: x.filename };
    $('moves-text').value = x.text;
    return S.lastExport;
  }

  async function download() {
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

  async function copy() {
    const x = await exportPgn();
    if (x) copyText(x.text, 'The game (PGN)');
  }

  return { open, openFile, exportPgn, download, copy };
}
