// status.js: what is said around the board: whose turn it is, the phase
// and the action, the pieces in hand, the removals pending, the result
// (also over the board); the navigation buttons' states; the connection's
// badge. The texts are pure: node --test runs them (internal/web/jstest).

import { cap } from './notation.js';
import { hintAllowed, resultText } from './state.js';

const $ = (id) => document.getElementById(id);

/** pendingText says the removals each side must make ('' none). */
export function pendingText(pending) {
  const pend = [];
  if (pending.white) pend.push(`White must remove ${pending.white}`);
  if (pending.black) pend.push(`Black must remove ${pending.black}`);
  return pend.length ? '· ' + pend.join(', ') : '';
}

/** shownResult is the result of the position shown: a previewed line's end, else the game's ('' none). */
export function shownResult(S) {
  if (!S.preview) return resultText(S);
  return S.preview.d.result !== 'ongoing' ? S.preview.d.result : '';
}

/** connBadge is the connection badge's text and class. */
export function connBadge(connected, engineReady) {
  const ok = connected && engineReady;
  return { text: ok ? 'engine ready' : connected ? 'starting engine…' : 'offline', cls: 'badge ' + (ok ? 'on' : 'off') };
}

/** renderStatus draws the status of the position shown (or previewed). */
export function renderStatus(S) {
  const v = S.preview ? S.preview.d : S.pos;
  if (!v) return;
  $('side').textContent = `${cap(v.side)} to move` + (S.thinking ? ' · engine thinking…' : '');
  $('side').title = S.thinking ? 'the engine is thinking' : '';
  $('phase').textContent = v.phase;
  $('action').textContent = v.action;
  $('pending').textContent = pendingText(v.pending);
  for (const side of ['white', 'black']) {
    const h = $('hand-' + side);
    h.querySelector('.count').textContent = v.hand[side];
    const st = h.querySelector('.stones');
    st.textContent = '';
    for (let i = 0; i < Math.min(v.hand[side], 12); i++) st.append(document.createElement('i'));
    h.classList.toggle('to-move', v.side === side && v.result === 'ongoing');
  }
  const res = shownResult(S);
  const msg = res ? `Game over: ${res}` : '';
  for (const el of [$('result'), $('overlay')]) {
    el.hidden = !msg;
    el.textContent = msg;
  }
  const b = $('board');
  b.dataset.thinking = S.thinking ? '1' : '0';
  b.dataset.result = res || 'ongoing';
  b.dataset.plies = String(S.moves.length);
  b.dataset.cursor = String(S.cursor);
  $('status-line').classList.toggle('thinking', S.thinking);
}

/** renderNav sets the navigation buttons: what they may do now. */
export function renderNav(S) {
  const n = S.moves.length;
  $('first').disabled = S.cursor === 0;
  $('back').disabled = S.cursor === 0;
  $('forward').disabled = S.cursor >= n;
  $('last').disabled = S.cursor >= n;
  $('takeback').disabled = n === 0;
  $('flip').classList.toggle('active', S.flip);
  $('hint').disabled = !hintAllowed(S);
  $('hint').classList.toggle('active', S.hinting);
}

/** renderConn draws the connection's badge. */
export function renderConn(S) {
  const b = $('conn');
  const { text, cls } = connBadge(S.connected, S.engineReady);
  b.textContent = text;
  b.className = cls;
}
