// clock.js: the engine's limit and the game's clock. The limit (time per
// move, a depth or a clock) shows its own fields; on a clock each side
// has its time left, the side to move's runs, a completed turn earns the
// increment, and a side whose time runs out loses. The clock's arithmetic
// (times in ms, at a now the caller gives) is pure: node --test runs it
// (internal/web/jstest); clockCtrl reads the fields and draws the clocks.

import { cap, fmtClock } from './notation.js';
import { gameOver } from './state.js';

const $ = (id) => document.getElementById(id);

/**
 * newClock is a stopped clock of base minutes a side and inc seconds a
 * turn, as typed: at least 0.1 minute (not a number: 5), at least 0 s.
 */
export function newClock(base, inc) {
  const b = Math.max(0.1, Number(base) || 5) * 60000;
  return { white: b, black: b, inc: Math.max(0, Number(inc) || 0) * 1000, running: null, since: 0 };
}

/** timeLeft is side's time left on clock c at now, in ms (0 or less: run out). */
export function timeLeft(c, side, now) {
  return c[side] - (c.running === side ? now - c.since : 0);
}

/**
 * syncClock makes side run's clock run at now (null: none). The side whose
 * clock ran is charged its time, and earns the increment if the other's
 * runs next (its turn was completed).
 */
export function syncClock(c, run, now) {
  if (c.running && c.running !== run) {
    c[c.running] -= now - c.since;
    if (run) c[c.running] += c.inc;
    c.running = null;
  }
  if (run && c.running !== run) { c.running = run; c.since = now; }
}

/** flagFall returns the running side if its time has run out at now (the clock then stopped at 0), else null. */
export function flagFall(c, now) {
  if (!c.running || timeLeft(c, c.running, now) > 0) return null;
  const side = c.running;
  c[side] = 0;
  c.running = null;
  return side;
}

/**
 * clockCtrl is the page's clock: init starts it anew from the fields (none
 * unless the limit is a clock), sync runs the side to move's at the game's
 * end while it goes on (not while analysing), tick ends the game when a
 * time runs out, limit answers a change of the limit.
 */
export function clockCtrl(ctrl) {
  const { S } = ctrl;

  function init() {
    S.clock = $('limit').value === 'clock' ? newClock($('clock-base').value, $('clock-inc').value) : null;
    render();
  }

  function sync() {
    if (!S.clock) return;
    const run = (!gameOver(S) && S.cursor === S.moves.length && !S.analysis.on) ? S.pos.side : null;
    syncClock(S.clock, run, performance.now());
    render();
  }

  function tick() {
    const c = S.clock;
    if (!c || !c.running) return;
    const flagged = flagFall(c, performance.now());
    if (!flagged) { render(); return; }
    S.flagged = flagged;
    S.gen++;
    ctrl.E.stopSearch();
    S.thinking = false;
    ctrl.render();
  }

  // limit shows the fields of the limit chosen and starts the clock anew.
  function limit() {
    const k = $('limit').value;
    $('lbl-movetime').hidden = k !== 'movetime';
    $('lbl-depth').hidden = k !== 'depth';
    $('lbl-clock').hidden = k !== 'clock';
    init();
    sync();
  }

  function render() {
    const c = S.clock;
    $('clocks').hidden = !c;
    if (!c) return;
    const now = performance.now();
    for (const side of ['white', 'black']) {
      const el = $('clock-' + side);
      el.textContent = `${cap(side)} ${fmtClock(timeLeft(c, side, now))}`;
      el.classList.toggle('running', c.running === side);
      el.classList.toggle('flagged', S.flagged === side);
    }
  }

  return { init, sync, tick, limit, render };
}
