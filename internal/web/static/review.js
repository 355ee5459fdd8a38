// review.js: the Review box. The server grades every move of the game
// (api.js streamReview), progress first; the box then shows each side's
// summary, a chart of White's expected score over the game and a row per
// move with its grade and the engine's choice (the move list shows the
// grades too). A game changed since keeps its review up to the change.
// The moves covered, the rows, the grades and the chart's shapes are
// pure: node --test runs them (internal/web/jstest).

import { streamReview } from './api.js';
import { drawShapes } from './board.js';
import { clampInt, commonPrefix, cpText } from './notation.js';
import { notice } from './notices.js';

const $ = (id) => document.getElementById(id);

/** GRADES are a review's grades, best first, as the server names them. */
export const GRADES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

/** GLYPHS are the marks of the bad grades in the move list. */
export const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** worstGrade is the worst of grades (those of a turn's actions), or '' when none is known. */
export function worstGrade(grades) {
  const worst = Math.max(-1, ...grades.map((g) => GRADES.indexOf(g)));
  return worst >= 0 ? GRADES[worst] : '';
}

/** reviewedPlies is how many of the game's first moves its review covers (the review is of a start, variant and moves). */
export function reviewedPlies(S) {
  const rv = S.review;
  if (!rv || rv.startFen !== S.startFen || rv.variant !== S.variant) return 0;
  return commonPrefix(rv.moves, S.moves);
}

/** reviewGrades are the grades of the moves the review covers, in order. */
export function reviewGrades(S) {
  return S.review ? S.review.data.moves.slice(0, reviewedPlies(S)).map((m) => m.grade) : [];
}

/**
 * reviewRow is the table's row of a reviewed move m: the ply it leads to,
 * its class (grade; current when the board shows that ply) and its cells:
 * number, side, the action with its glyph, grade, the engine's choice if
 * another, the scores before and after.
 */
export function reviewRow(m, cursor) {
  return {
    ply: m.ply + 1,
    cls: `grade-${m.grade}` + (m.ply === cursor - 1 ? ' current' : ''),
    cells: [String(m.ply + 1), m.side === 'white' ? 'W' : 'B', m.played + (m.glyph || ''), m.grade,
      m.best && m.best !== m.played ? `best ${m.best}` : '', `${cpText(m.before)} → ${cpText(m.after)}`],
  };
}

// The chart's size in its units: its view box is 308 by 108 from (-4, -4),
// the chart with a margin.
const W = 300;
const H = 100;

/**
 * chartShapes draw White's expected score (values[i].white, 0 at the
 * bottom) after every move: the middle line, the area and line of the
 * values, the exact values as marks (class: the winner or draw), the
 * mistakes and blunders as red marks, the position shown as a line.
 */
export function chartShapes(values, moves, cursor) {
  const n = Math.max(1, values.length - 1);
  const x = (i) => (i / n) * W;
  const y = (v) => (1 - v) * H;
  const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v.white).toFixed(1)}`).join(' ');
  const out = [
    ['line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }],
    ['polygon', { points: `0,${H} ${pts} ${W},${H}`, class: 'area' }],
    ['polyline', { points: pts, class: 'value' }],
  ];
  values.forEach((v, i) => {
    if (v.exact) out.push(['circle', { cx: x(i), cy: y(v.white), r: 4, class: `exact ${v.exact}`, 'data-exact': v.exact, 'data-ply': i }]);
  });
  moves.forEach((m, i) => {
    if (m.grade === 'mistake' || m.grade === 'blunder') {
      out.push(['circle', { cx: x(i + 1), cy: y(values[i + 1].white), r: 3.5, class: `bad ${m.grade}`, 'data-ply': i + 1 }]);
    }
  });
  if (cursor <= n) out.push(['line', { x1: x(cursor), y1: 0, x2: x(cursor), y2: H, class: 'cursor' }]);
  return out;
}

/** chartPly is the position nearest a click x pixels into a chart width wide, of n + 1 positions. */
export function chartPly(x, width, n) {
  const vx = (x / width) * (W + 8) - 4;
  return Math.round((vx / W) * n);
}

/** reviewCtrl runs a review (run, cancel) and draws the box (render). */
export function reviewCtrl(ctrl) {
  const { S } = ctrl;

  // run has the server grade the game: the game goes as PGN (written by
  // the server), the answer comes line by line. Cancel aborts the request,
  // which stops the server's review.
  async function run() {
    if (S.reviewing) return;
    if (!S.moves.length) { notice('There is no move to review.', 'error'); return; }
    const x = await ctrl.records.exportPgn();
    if (!x) return;
    const ms = clampInt($('review-ms').value, 50, 500, 200);
    $('review-ms').value = ms;
    const ctl = new AbortController();
    const snap = { moves: S.moves.slice(), startFen: S.startFen, variant: S.variant };
    S.reviewing = { ctl, done: 0, total: snap.moves.length + 1 };
    render();
    try {
      const refused = await streamReview(x.text, ms, ctl.signal, (l) => onLine(l, snap));
      if (refused) notice(`The review was refused: ${refused}`, 'error');
    } catch (e) {
      if (e.name === 'AbortError') notice('The review was cancelled.', 'info');
      else notice(`The review failed: ${e.message}`, 'error');
    } finally {
      S.reviewing = null;
      ctrl.render();
      render();
    }
  }

  function onLine(l, snap) {
    if (l.t === 'progress') {
      if (S.reviewing) { S.reviewing.done = l.done; S.reviewing.total = l.total; }
      render();
    } else if (l.t === 'review') {
      S.review = { ...snap, data: l.review };
      ctrl.render();
    } else if (l.t === 'error') {
      notice(`The review stopped: ${l.error}`, 'error');
    }
  }

  function cancel() {
    if (S.reviewing) S.reviewing.ctl.abort();
  }

  function render() {
    const rg = S.reviewing;
    $('review').disabled = !!rg || !S.moves.length;
    $('review-cancel').hidden = !rg;
    const pr = $('review-progress');
    pr.hidden = !rg;
    if (rg) {
      pr.max = rg.total;
      pr.value = rg.done;
    }
    $('review-status').textContent = rg ? `reviewing: ${rg.done} of ${rg.total} positions` : '';
    const n = reviewedPlies(S);
    const rv = S.review;
    $('review-result').hidden = !rv || n === 0;
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
      const row = reviewRow(m, S.cursor);
      const tr = document.createElement('tr');
      tr.dataset.ply = String(row.ply);
      tr.className = row.cls;
      for (const c of row.cells) {
        const td = document.createElement('td');
        td.textContent = c;
        tr.append(td);
      }
      tr.onclick = () => ctrl.goTo(row.ply);
      tb.append(tr);
    }
    scrollIntoList(tb.querySelector('tr.current'), $('review-table'));
  }

  // renderChart draws the chart; a click goes to the nearest position.
  function renderChart(values, moves) {
    const chart = $('review-chart');
    chart.textContent = '';
    drawShapes(chartShapes(values, moves, S.cursor), chart);
    chart.dataset.points = String(values.length);
    chart.onclick = (ev) => {
      const r = chart.getBoundingClientRect();
      ctrl.goTo(chartPly(ev.clientX - r.left, r.width, Math.max(1, values.length - 1)));
    };
  }

  return { run, cancel, render };
}

/** scrollIntoList keeps item el of a list in view, scrolling the list only (never the page). */
export function scrollIntoList(el, list) {
  if (el && (el.offsetTop < list.scrollTop || el.offsetTop + el.offsetHeight > list.scrollTop + list.clientHeight)) {
    list.scrollTop = el.offsetTop - list.clientHeight / 2;
  }
}
