// hint.js: the engine's hint, its best action in the position shown,
// searched by the tab's engine for half a second and marked on the board
// (board.js) until anything changes. Which hint is shown is pure: node
// --test runs it (internal/web/jstest).

import { notice } from './notices.js';
import { hintAllowed, positionCmd } from './state.js';
import { renderNav } from './status.js';

/** shownHint is the hint for the position shown (asked since it was last changed), or ''. */
export function shownHint(S) {
  return S.hint && S.hint.gen === S.gen && !S.preview ? S.hint.tok : '';
}

/** hintCtrl asks the engine for a hint (ask). */
export function hintCtrl(ctrl) {
  const { S, E } = ctrl;

  async function ask() {
    if (!hintAllowed(S)) return;
    const gen = S.gen;
    S.hinting = true;
    renderNav(S);
    ctrl.send(positionCmd(S, S.cursor));
    const r = await E.go('go movetime 500', 'hint', gen);
    S.hinting = false;
    if (r.aborted || gen !== S.gen) { renderNav(S); return; }
    if (!S.pos.legal.includes(r.best)) {
      notice(`The engine's hint "${r.best}" is not a legal action here.`, 'error');
      renderNav(S);
      return;
    }
    S.hint = { gen, tok: r.best };
    ctrl.render();
  }

  return { ask };
}
