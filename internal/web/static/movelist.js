// movelist.js: the Moves box's list of the game, one entry per turn (an
// action with its removals, written as Sanmill does: d6-d5xd7), two turns
// a row: the turn that led to the position shown is marked, a turn after
// it is dimmed, a click goes to the end of a turn (app.js), and a
// reviewed turn shows its worst grade. The rows are worked out by a pure
// function: node --test runs it (internal/web/jstest).

import { turns } from './notation.js';
import { GLYPHS, reviewGrades, scrollIntoList, worstGrade } from './review.js';
import { gameKey } from './records.js';

const $ = (id) => document.getElementById(id);

/**
 * moveRows are the list's rows of a game (moves, sides: the side of each
 * token), the cursor at cursor, grades the grades of its first moves:
 * {num, turns}, each turn {turn, ply, text, current, future, grade,
 * glyph}: its index, the ply at its end, its tokens, whether it led to the
 * position shown or comes after it, its worst grade ('' none) and that
 * grade's glyph ('' none).
 */
export function moveRows(moves, sides, cursor, grades) {
  const ts = turns(moves, sides);
  const rows = [];
  for (let i = 0; i < ts.length; i += 2) {
    rows.push({
      num: i / 2 + 1,
      turns: ts.slice(i, i + 2).map((t, j) => {
        const end = t[t.length - 1] + 1;
        const grade = worstGrade(t.filter((k) => k < grades.length).map((k) => grades[k]));
        return { turn: i + j, ply: end, text: t.map((k) => moves[k]).join(''), current: cursor > t[0] && cursor <= end,
          future: t[0] >= cursor, grade, glyph: GLYPHS[grade] || '' };
      }),
    });
  }
  return rows;
}

/** renderMoves draws the list, and the PGN last written while it is the game's. */
export function renderMoves(S) {
  const ol = $('movelist');
  ol.textContent = '';
  for (const row of moveRows(S.moves, S.sides, S.cursor, reviewGrades(S))) {
    const li = document.createElement('li');
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = `${row.num}.`;
    li.append(num);
    for (const t of row.turns) {
      const span = document.createElement('span');
      span.className = 'turn' + (t.current ? ' current' : '') + (t.future ? ' future' : '');
      span.dataset.ply = String(t.ply);
      span.dataset.turn = String(t.turn);
      span.textContent = t.text;
      if (t.grade) {
        span.dataset.grade = t.grade;
        span.classList.add('grade-' + t.grade);
        if (t.glyph) {
          const sup = document.createElement('span');
          sup.className = 'glyph';
          sup.textContent = t.glyph;
          span.append(sup);
        }
      }
      li.append(span);
    }
    ol.append(li);
  }
  scrollIntoList(ol.querySelector('.current'), ol);
  $('moves-text').value = S.lastExport && S.lastExport.key === gameKey(S) ? S.lastExport.text : '';
}
