// analysis.js: the Analysis box. While analysing, the engine searches the
// position shown without end; its info lines are the box's lines (the
// first also gives the depth, score, speed and the evaluation bar), its
// "info string" lines the book's and the endgame tables' values of each
// action. A line clicked is previewed on the board. How the engine's lines
// change the analysis, and the texts shown, are pure: node --test runs
// them (internal/web/jstest).

import { cpText, scoreText, valueText } from './notation.js';
import { notice } from './notices.js';
import { positionCmd } from './state.js';
import { extendPosition, parseBook, parseEgtb } from './uci.js';

const $ = (id) => document.getElementById(id);

/** MAX_LINES is how many lines of analysis the box can show. */
const MAX_LINES = 5;

/**
 * addInfo records an info line with a pv, of the first MAX_LINES, in the
 * analysis a (a.lines by multipv; the first also as a.info, dropping the
 * lines beyond multipv). It reports whether a changed.
 */
export function addInfo(a, info, multipv) {
  const k = (info.multipv || 1) - 1;
  if (!info.pv || k >= MAX_LINES) return false;
  if (k === 0) a.info = info;
  a.lines[k] = info;
  if (k === 0) a.lines.length = Math.min(a.lines.length, multipv);
  return true;
}

/**
 * readString reads an "info string" text of the tables ("egtb …") or the
 * book ("book depth …") into a.egtb or a.book (null: unreadable). It
 * returns null for another text, '' when read, or the error.
 */
export function readString(a, text) {
  const kind = text.startsWith('egtb ') ? 'egtb' : text.startsWith('book depth ') ? 'book' : '';
  if (!kind) return null;
  try {
    a[kind] = (kind === 'egtb' ? parseEgtb : parseBook)(text.slice(5));
    return '';
  } catch (e) {
    a[kind] = null;
    return `Could not read the engine's ${kind === 'egtb' ? 'table' : 'book'} line (${e.message}): ${text}`;
  }
}

/** statsTexts are the first line's depth (/seldepth), score, nodes a second and hash use. */
export function statsTexts(info) {
  return {
    depth: info && info.depth ? `${info.depth}${info.seldepth ? '/' + info.seldepth : ''}` : '–',
    score: scoreText(info),
    nps: info && info.nps !== undefined ? info.nps.toLocaleString('en-US') : '–',
    hash: info && info.hashfull !== undefined ? `${(info.hashfull / 10).toFixed(1)}%` : '–',
  };
}

/**
 * evalBar is the evaluation bar of an info line (side: to move; null, no
 * position) in White's view: pct, its height in per cent (no score 50, a
 * mate 100 or 0, centipawns on a logistic curve), label White's score.
 */
export function evalBar(info, side) {
  if (!info || info.score === undefined || !side) return { pct: 50, label: '' };
  const sign = side === 'white' ? 1 : -1;
  const s = sign * info.score;
  if (info.scoreKind === 'mate') return { pct: s > 0 ? 100 : 0, label: `mate ${s}` };
  return { pct: 100 / (1 + Math.exp(-s / 150)), label: String(s) };
}

/** shownLines are the indexes of the lines shown: those there are, of the first multipv. */
export function shownLines(lines, multipv) {
  return lines.map((l, k) => (l && k < multipv ? k : -1)).filter((k) => k >= 0);
}

/** egtbRows are the tables' rows: each action, its value's text and kind (win, loss, draw). */
export function egtbRows(eg) {
  return eg.moves.map((m) => [m.tok, valueText(m.v), m.v.k]);
}

/** bookRows are the book's rows: action, score, and 'loss' for one that gives up the proven value. */
export function bookRows(bk) {
  const pv = bk.proven;
  return bk.moves.map((m) => [m.tok, cpText(m.score), pv && !pv.keep.includes(m.tok) ? 'loss' : '']);
}

/** bookTitle is the book's heading: its depth and proven value. */
export function bookTitle(bk) {
  return bk.proven ? `(depth ${bk.depth}, proven ${bk.proven.value})` : `(depth ${bk.depth})`;
}

/** analysisCtrl runs the analysis, previews its lines, takes the engine's lines and draws the box. */
export function analysisCtrl(ctrl) {
  const { S, E } = ctrl;

  function onInfo(info, g) {
    if (g.kind === 'analysis' && g.gen === S.gen && addInfo(S.analysis, info, S.multipv)) render();
  }

  function onString(text) {
    const err = readString(S.analysis, text);
    if (err === null) return;
    if (err) notice(err, 'error');
    render();
  }

  function start(gen) {
    const base = positionCmd(S, S.cursor);
    Object.assign(S.analysis, { base, lines: [], info: null, egtb: null, book: null });
    render();
    ctrl.send(base);
    E.go('go infinite', 'analysis', gen);
  }

  async function toggle() {
    S.analysis.on = !S.analysis.on;
    if (!S.analysis.on) await E.idle();
    renderButton();
    await ctrl.update();
  }

  async function preview(k) {
    const info = S.analysis.lines[k];
    if (!info || !info.pv) return;
    const gen = S.gen;
    const r = await E.position(extendPosition(S.analysis.base, info.pv));
    if (r.aborted || gen !== S.gen) return;
    if (r.errors.length) { notice(`Cannot preview that line: ${r.errors.join('; ')}`, 'error'); return; }
    S.preview = { d: r.d, tokens: info.pv.slice(), k };
    ctrl.render();
  }

  function exitPreview() {
    S.preview = null;
    ctrl.render();
  }

  function render() {
    const a = S.analysis;
    const info = a.info;
    const t = statsTexts(info);
    $('an-depth').textContent = t.depth;
    $('an-score').textContent = t.score;
    $('an-nps').textContent = t.nps;
    $('an-hash').textContent = t.hash;
    renderLines(a.lines);
    // The bar shows White's view; scores are the side to move's.
    const { pct, label } = evalBar(info, S.pos && S.pos.side);
    $('evalfill').style.height = `${pct.toFixed(1)}%`;
    const bar = $('evalbar');
    bar.dataset.score = label;
    bar.title = label ? `White's view: ${label}` : 'evaluation (White\'s view)';
    $('egtb').hidden = !a.egtb;
    if (a.egtb) {
      $('egtb-root').textContent = `(${valueText(a.egtb.root)})`;
      fillMoveTable($('egtb-moves'), egtbRows(a.egtb));
    }
    $('book').hidden = !a.book;
    if (a.book) {
      $('book-depth').textContent = bookTitle(a.book);
      fillMoveTable($('book-moves'), bookRows(a.book));
    }
    $('preview-bar').hidden = !S.preview;
    $('board').dataset.analysis = a.on ? '1' : '0';
    $('board').dataset.depth = info && info.depth ? String(info.depth) : '0';
  }

  // renderLines shows the analysis lines. Each line keeps its list item
  // from one info line to the next, only its text changing: the engine
  // sends several lines a second, and an item rebuilt under the pointer
  // would swallow the click of a person choosing a line to preview.
  function renderLines(lines) {
    const ol = $('pvs');
    const shown = shownLines(lines, S.multipv);
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
        li.onclick = () => preview(k);
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

  function renderButton() {
    $('analyse').textContent = S.analysis.on ? 'Stop analysis' : 'Analyse';
    $('analyse').classList.toggle('active', S.analysis.on);
  }

  return { onInfo, onString, start, toggle, preview, exitPreview, render, renderButton };
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
