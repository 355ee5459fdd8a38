// millengine board: a UCI client in the browser. The server only passes
// lines between this page and an engine process; everything the page knows
// about a position (its FEN, side, phase, hands, result and legal actions)
// comes from the engine's answer to "d". This module starts the page: it
// wires the controls to the controller (game.js, whose parts each have a
// module: the board, the clock, the analysis, the review, the records, the
// options, the engine's connection), reads the server's tables and
// connects. The engine's protocol is uci.js's, the notation notation.js's.

import { loadTables } from './api.js';
import { gameCtrl } from './game.js';
import { shownHint } from './hint.js';
import { scoreText } from './notation.js';
import { copyText, lastLogLines, notice, setupLog } from './notices.js';
import { reviewGrades, reviewedPlies } from './review.js';
import { keyTarget, resultText } from './state.js';
import { renderConn } from './status.js';

const $ = (id) => document.getElementById(id);

const ctrl = gameCtrl();
const { S, E } = ctrl;

// Figures the tests read: page load, and click-to-answer latencies.
const stats = window.millStats = ctrl.stats;

function setup() {
  $('first').onclick = () => ctrl.goTo(0);
  $('back').onclick = () => ctrl.goTo(S.cursor - 1);
  $('forward').onclick = () => ctrl.goTo(S.cursor + 1);
  $('last').onclick = () => ctrl.goTo(S.moves.length);
  $('takeback').onclick = () => ctrl.takeBack();
  $('newgame').onclick = () => ctrl.newGame();
  $('flip').onclick = () => { S.flip = !S.flip; ctrl.render(); };
  $('mode').onchange = () => ctrl.setMode($('mode').value);
  $('limit').onchange = ctrl.clock.limit;
  $('clock-base').onchange = ctrl.clock.init;
  $('clock-inc').onchange = ctrl.clock.init;
  $('variant').onchange = () => ctrl.options.setVariant($('variant').value);
  $('level').onchange = () => ctrl.options.setLevel($('level').value);
  $('load-fen').onclick = () => ctrl.loadFen($('fen').value);
  $('fen').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') ctrl.loadFen($('fen').value); });
  $('copy-fen').onclick = () => copyText($('fen').value, 'The FEN');
  $('export-pgn').onclick = () => ctrl.records.download();
  $('copy-pgn').onclick = () => ctrl.records.copy();
  $('hint').onclick = () => ctrl.hint.ask();
  $('import').onclick = () => ctrl.records.open($('import-text').value);
  $('import-file').onchange = () => ctrl.records.openFile($('import-file').files[0]);
  $('review').onclick = () => ctrl.review.run();
  $('review-cancel').onclick = () => ctrl.review.cancel();
  $('analyse').onclick = () => ctrl.analysis.toggle();
  $('multipv').onchange = () => ctrl.options.setMultiPV(Number($('multipv').value));
  $('preview-exit').onclick = ctrl.analysis.exitPreview;
  setupLog();
  $('movelist').addEventListener('click', (ev) => {
    const t = ev.target.closest && ev.target.closest('[data-ply]');
    if (t) ctrl.goTo(Number(t.dataset.ply));
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.target.closest && ev.target.closest('input, select, textarea')) return;
    // The keys step through the game; they do not scroll the page.
    const to = keyTarget(S, ev.key);
    if (to !== undefined) {
      ev.preventDefault();
      ctrl.goTo(to);
    } else if (ev.key === 'Escape' && S.preview) {
      ctrl.analysis.exitPreview();
    }
  });
  ctrl.board.setup();
  setInterval(ctrl.clock.tick, 100);
  ctrl.board.build();
  ctrl.clock.limit();
  renderConn(S);
  ctrl.analysis.renderButton();
  ctrl.review.render();
}

// The tests read the page's state through this object; it changes nothing.
window.millApp = {
  snapshot: () => ({
    fen: S.pos ? S.pos.fen : '',
    side: S.pos ? S.pos.side : '',
    phase: S.pos ? S.pos.phase : '',
    action: S.pos ? S.pos.action : '',
    result: resultText(S) || 'ongoing',
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
    hint: shownHint(S) || null,
    hinting: S.hinting,
    reviewing: S.reviewing ? { done: S.reviewing.done, total: S.reviewing.total } : null,
    reviewed: reviewedPlies(S),
    grades: reviewGrades(S),
    rules: { ...S.rules },
    // settled: the shown position is the one at the cursor and no answer is awaited.
    settled: S.posCursor === S.cursor && E.positions === 0 && E.readies === 0 &&
      (S.analysis.on ? E.searches <= 1 : E.searches === 0),
  }),
  // Feeds a line to the page as if the engine had written it (tests of the
  // parts the engine does not exercise yet, such as table values).
  engineLine: (line) => ctrl.engine.onMessage({ t: 'line', line }),
  // The last n lines of the engine log (what was sent, received and noted).
  log: lastLogLines,
  stats,
};

async function main() {
  setup();
  try {
    Object.assign(S, await loadTables());
  } catch (e) {
    notice(`Could not load the variant and option tables: ${e.message}`, 'error');
  }
  ctrl.engine.connect();
}

main();
