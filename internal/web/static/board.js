// board.js: the board (lichess's "ground"): its drawing in SVG (lines,
// points and labels, the pieces, the last turn, the engine's hint, what
// may be removed or where a selected piece may go) and the pointer on it
// (a click on a point, a piece dragged to another). Pure functions work
// out the shapes to draw, [tag, attributes, text], and what a click does:
// node --test runs them (internal/web/jstest). boardCtrl draws and reads.

import { DIAGONALS, FILES, POINTS, SEGMENTS, lastTurn, nearestPoint, parseToken, pointXY } from './notation.js';
import { shownHint } from './hint.js';
import { humanMayAct } from './state.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

/** drawShapes appends shapes ([tag, attributes, text]) to an SVG element; it returns their elements. */
export function drawShapes(shapes, parent) {
  return shapes.map(([tag, attrs, text]) => {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    parent.append(e);
    return e;
  });
}

/**
 * frameShapes is the board without pieces, turned round (flip) or not:
 * lines, its lines (with diagonals or not) and points; hits, the circles
 * that take the clicks (data-point); labels, the files and ranks.
 */
export function frameShapes(diagonals, flip) {
  const lines = [];
  const hits = [];
  const labels = [];
  for (const [a, b] of SEGMENTS.concat(diagonals ? DIAGONALS : [])) {
    const [x1, y1] = pointXY(a, flip);
    const [x2, y2] = pointXY(b, flip);
    lines.push(['line', { x1, y1, x2, y2, class: 'line' }]);
  }
  for (const p of POINTS) {
    const [x, y] = pointXY(p, flip);
    lines.push(['circle', { cx: x, cy: y, r: 0.09, class: 'point' }]);
    hits.push(['circle', { cx: x, cy: y, r: 0.42, class: 'hit', 'data-point': p }]);
  }
  for (let i = 0; i < 7; i++) {
    const f = FILES[i];
    const [x] = pointXY(f + '1', flip);
    const [, y] = pointXY('a' + (i + 1), flip);
    labels.push(['text', { x, y: 6.55, class: 'label' }, f]);
    labels.push(['text', { x: -0.55, y, class: 'label' }, String(i + 1)]);
  }
  return { lines, hits, labels };
}

// cross is an X of half-width d on point p.
function cross(p, flip, d, attrs) {
  const [x, y] = pointXY(p, flip);
  return ['path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`, ...attrs }];
}

// circle is a circle of radius r on point p.
function circle(p, flip, r, attrs) {
  const [x, y] = pointXY(p, flip);
  return ['circle', { cx: x, cy: y, r, ...attrs }];
}

// path is a line from point a to point b.
function path(a, b, flip, cls) {
  const [x1, y1] = pointXY(a, flip);
  const [x2, y2] = pointXY(b, flip);
  return ['line', { x1, y1, x2, y2, class: cls }];
}

/** turnMarks mark the last turn's actions (tokens): a removal crossed, a move's path and ends, a placement (data-last). */
export function turnMarks(turn, flip) {
  const out = [];
  for (const a of turn.map(parseToken)) {
    if (!a) continue;
    if (a.kind === 'remove') {
      out.push(cross(a.at, flip, 0.22, { class: 'last-removed', 'data-last': 'removed' }));
    } else if (a.kind === 'move') {
      out.push(path(a.from, a.to, flip, 'last-path'), circle(a.from, flip, 0.3, { class: 'last-from', 'data-last': 'from' }));
      out.push(circle(a.to, flip, 0.42, { class: 'last-to', 'data-last': 'to' }));
    } else {
      out.push(circle(a.to, flip, 0.42, { class: 'last-to', 'data-last': 'to' }));
    }
  }
  return out;
}

/** hintMarks marks the engine's hint (a token; '' none): where to place, slide or fly, or what to remove (data-hint). */
export function hintMarks(tok, flip) {
  const a = parseToken(tok);
  const at = (p, r) => circle(p, flip, r, { class: 'hint', 'data-hint': p });
  if (!a) return [];
  if (a.kind === 'remove') return [at(a.at, 0.44)];
  if (a.kind === 'move') return [path(a.from, a.to, flip, 'hint-path'), at(a.from, 0.36), at(a.to, 0.44)];
  return [at(a.to, 0.44)];
}

/** pieceShapes are a board's pieces (parseBoard's: 'O', '@', 'X' marked) but the one on hidden (dragged). */
export function pieceShapes(board, flip, hidden) {
  const out = [];
  for (const p of POINTS) {
    const c = board[p];
    if (c === '*' || p === hidden) continue;
    const cls = c === 'O' ? 'white' : c === '@' ? 'black' : 'marked';
    out.push(circle(p, flip, 0.32, { class: `piece ${cls}`, 'data-piece': p }));
    if (c === 'X') out.push(cross(p, flip, 0.16, { class: 'mark-x' }));
  }
  return out;
}

/** movesFrom are the legal moves (slides or flies) of the piece on p. */
export function movesFrom(legal, p) {
  return legal.filter((t) => t.startsWith(p + '-'));
}

/** choiceMarks show the person's choices in pos: what they may remove, the piece selected and where it may go. */
export function choiceMarks(pos, selected, flip) {
  const out = [];
  if (pos.action === 'remove') {
    for (const t of pos.legal) if (t.startsWith('x')) out.push(circle(t.slice(1), flip, 0.38, { class: 'removable' }));
  }
  if (selected) {
    out.push(circle(selected, flip, 0.4, { class: 'selected' }));
    for (const t of movesFrom(pos.legal, selected)) out.push(circle(t.split('-')[1], flip, 0.12, { class: 'target' }));
  }
  return out;
}

/**
 * clickAction is what a click on point p does, given the legal actions
 * and the selected piece's point (null: none): {kind: 'play', tok} (a move
 * of the selected piece, a removal, a placement), {kind: 'select', point}
 * (a piece that may move; null: the selected one clicked again), or
 * {kind: 'refuse'}.
 */
export function clickAction(legal, selected, p) {
  if (selected) {
    const tok = `${selected}-${p}`;
    if (legal.includes(tok)) return { kind: 'play', tok };
    if (p === selected) return { kind: 'select', point: null };
  }
  if (legal.includes('x' + p)) return { kind: 'play', tok: 'x' + p };
  if (legal.includes(p)) return { kind: 'play', tok: p };
  if (movesFrom(legal, p).length) return { kind: 'select', point: p };
  return { kind: 'refuse' };
}

/** dragMoved reports whether a piece dragged from point from to board position q has left its point. */
export function dragMoved(from, q, flip) {
  const [fx, fy] = pointXY(from, flip);
  return (q.x - fx) ** 2 + (q.y - fy) ** 2 > 0.25 * 0.25;
}

/** dropToken is the legal move of a piece dragged from point from and dropped at q, or null. */
export function dropToken(from, q, flip, legal) {
  const to = nearestPoint(q.x, q.y, flip);
  const tok = `${from}-${to}`;
  return to && to !== from && legal.includes(tok) ? tok : null;
}

/** boardCtrl draws the board (build: the frame, render: the position) and reads the pointer (setup). */
export function boardCtrl(ctrl) {
  const { S } = ctrl;
  let drag = null; // the piece being dragged: {from, x, y, moved, t0, id}

  const diagonals = () => (S.rules.HasDiagonalLines ? '1' : '0');

  function build() {
    const shapes = frameShapes(diagonals() === '1', S.flip);
    for (const id of ['lines', 'labels', 'hits']) {
      $(id).textContent = '';
      drawShapes(shapes[id], $(id));
    }
    $('board').dataset.diagonals = diagonals();
  }

  function render() {
    const view = S.preview ? S.preview.d : S.pos;
    const board = $('board');
    const marks = $('marks');
    const pieces = $('pieces');
    marks.textContent = '';
    pieces.textContent = '';
    if (board.dataset.diagonals !== diagonals() || board.dataset.flip !== String(S.flip)) {
      board.dataset.flip = String(S.flip);
      build();
    }
    if (!view) return;
    board.dataset.fen = view.fen;
    board.classList.toggle('preview', !!S.preview);
    const acting = humanMayAct(S);
    board.classList.toggle('locked', !acting);
    drawShapes(turnMarks(S.preview ? S.preview.tokens.slice(-1) : lastTurn(S.moves, S.sides, S.cursor), S.flip), marks);
    const h = shownHint(S);
    board.dataset.hint = h;
    drawShapes(hintMarks(h, S.flip), marks);
    const moved = drag && drag.moved;
    drawShapes(pieceShapes(view.board, S.flip, moved ? drag.from : null), pieces);
    if (acting) drawShapes(choiceMarks(S.pos, S.selected, S.flip), marks);
    if (moved) {
      const c = view.board[drag.from];
      drawShapes([['circle', { cx: drag.x, cy: drag.y, r: 0.34, class: `piece ghost ${c === 'O' ? 'white' : 'black'}` }]], pieces);
    }
  }

  // flash marks a point a click on which does nothing, for a moment.
  function flash(p) {
    const [c] = drawShapes([circle(p, S.flip, 0.4, { class: 'flash' })], $('marks'));
    setTimeout(() => c.remove(), 350);
  }

  function onPoint(p, t0) {
    if (S.preview) { ctrl.analysis.exitPreview(); return; }
    if (!humanMayAct(S)) { flash(p); return; }
    const a = clickAction(S.pos.legal, S.selected, p);
    if (a.kind === 'play') ctrl.humanPlay(a.tok, t0);
    else if (a.kind === 'select') { S.selected = a.point; render(); }
    else flash(p);
  }

  // svgPoint is where a pointer event is on the board, in the board's units.
  function svgPoint(ev) {
    const b = $('board');
    const pt = b.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const m = b.getScreenCTM();
    return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
  }

  // setup reads the pointer: a press on a piece that may move starts a
  // drag (one that stays on its point is a click), any other is a click.
  function setup() {
    const board = $('board');
    board.addEventListener('pointerdown', (ev) => {
      const p = ev.target.dataset && ev.target.dataset.point;
      if (!p) return;
      ev.preventDefault();
      const t0 = performance.now();
      if (humanMayAct(S) && movesFrom(S.pos.legal, p).length) {
        const q = svgPoint(ev);
        drag = { from: p, x: q.x, y: q.y, moved: false, t0, id: ev.pointerId };
        try { board.setPointerCapture(ev.pointerId); } catch { /* synthetic events */ }
        return;
      }
      onPoint(p, t0);
    });
    board.addEventListener('pointermove', (ev) => {
      const d = drag;
      if (!d) return;
      const q = svgPoint(ev);
      if (!d.moved && dragMoved(d.from, q, S.flip)) d.moved = true;
      d.x = q.x;
      d.y = q.y;
      if (d.moved) render();
    });
    board.addEventListener('pointerup', (ev) => {
      const d = drag;
      if (!d) return;
      drag = null;
      if (!d.moved) { onPoint(d.from, d.t0); return; }
      const tok = dropToken(d.from, svgPoint(ev), S.flip, S.pos.legal);
      if (tok) { ctrl.humanPlay(tok, performance.now()); return; }
      render();
    });
    board.addEventListener('pointercancel', () => { drag = null; render(); });
  }

  return { build, render, setup };
}
