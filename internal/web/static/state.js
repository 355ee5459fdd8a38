// state.js: the tab's state (S: the game's moves, the position shown, the
// players, the analysis, the clock, the record and its review, …) and the
// questions and changes of it that the page's parts share: is the game
// over, may the person act or ask for a hint, what comes after a position
// is shown, playing an action, starting a game. Nothing here touches the
// DOM or the engine: node --test runs it (internal/web/jstest).

import { positionCommand } from './uci.js';

/** EVE_PACE_MS is the least time between two actions, engine against engine. */
export const EVE_PACE_MS = 250;

/** newState is the state of a tab that has not met its engine yet. */
export function newState() {
  return {
    connected: false,
    engineReady: false,
    everStarted: false,
    presets: null,           // /presets.json
    decls: new Map(),        // /options.json: norm(name) -> what the server's engine declares
    maxHashMB: 0,            // the largest Hash the server lets a tab set
    levels: [],              // /options.json: the engine's levels for people, {name, elo}, full strength last
    engineOpts: {},          // engine options the user set: name -> value (set again after a restart)
    variant: '',             // preset key, '' when the rules match none
    rules: {},               // rule option values by name (booleans as 0/1)
    multipv: 1,
    startFen: null,          // null: the start position of the rules
    moves: [],               // action tokens from the start
    sides: [],               // the side that played each token
    cursor: 0,               // how many of moves the board shows
    pos: null,               // parsed "d" of the shown position
    posCursor: -1,           // the cursor pos was asked for
    gen: 0,                  // bumped by every change; stale answers compare it
    players: { white: 'human', black: 'engine' },
    flip: false,
    selected: null,
    thinking: false,
    analysis: { on: false, base: '', lines: [], info: null, egtb: null, book: null },
    preview: null,           // {d, tokens, k} while a line is previewed
    clock: null,             // {white, black, inc, running, since} in ms (clock.js)
    flagged: null,           // the side that lost on time
    pendingClick: null,      // {t0, tok} of the last human action, for latency figures
    lastEngineMove: 0,       // when the engine's last action was played
    hint: null,              // {gen, tok}: the engine's hint for the position shown at gen
    hinting: false,          // a hint search runs
    record: null,            // {tags, result, games, moves, startFen}: the game as it was imported
    review: null,            // {moves, startFen, variant, data}: the server's review of the game with these moves
    reviewing: null,         // {ctl, done, total} while a review runs
    lastExport: null,        // {key, text, filename}: the PGN last written for the game with key
  };
}

/** gameOver reports whether the game shown has ended (or its position is not known yet). */
export function gameOver(S) {
  return !S.pos || S.pos.result !== 'ongoing' || S.flagged !== null;
}

/** resultText is the game's result ("white wins (black lost on time)", the engine's), or '' while it goes on. */
export function resultText(S) {
  if (S.flagged) {
    const other = S.flagged === 'white' ? 'black' : 'white';
    return `${other} wins (${S.flagged} lost on time)`;
  }
  return S.pos && S.pos.result !== 'ongoing' ? S.pos.result : '';
}

/**
 * humanMayAct reports whether a click on the board plays: the game shown
 * goes on, no line previewed, the engine ready; then always while
 * analysing, else on a person's turn while the engine is not thinking.
 */
export function humanMayAct(S) {
  if (!S.pos || S.preview || gameOver(S) || !S.engineReady) return false;
  if (S.analysis.on) return true;
  if (S.thinking) return false;
  return S.players[S.pos.side] === 'human';
}

/** hintAllowed reports whether the Hint button asks: the engine ready and idle, the game on, no analysis or preview. */
export function hintAllowed(S) {
  return S.engineReady && !!S.pos && !gameOver(S) && !S.thinking && !S.analysis.on && !S.preview && !S.hinting;
}

/** positionCmd is the position command of the game's first n tokens. */
export function positionCmd(S, n) {
  return positionCommand(S.startFen, S.moves.slice(0, n));
}

/** nextStep is what follows the position's showing: 'analyse', 'engine' (its turn at the game's end), or ''. */
export function nextStep(S) {
  if (S.analysis.on) return 'analyse';
  if (gameOver(S) || S.cursor !== S.moves.length) return '';
  return S.players[S.pos.side] === 'engine' ? 'engine' : '';
}

/**
 * engineWait is how long the engine waits at now before it plays (0 or
 * less: not at all): engine against engine goes at a pace a person can
 * follow, and well within the server's message rate.
 */
export function engineWait(S, now) {
  return S.players.white === S.players.black ? S.lastEngineMove + EVE_PACE_MS - now : 0;
}

/** playToken plays tok at the cursor, dropping the moves after it; the cursor goes to the end. */
export function playToken(S, tok) {
  const side = S.pos.side;
  if (S.cursor < S.moves.length) {
    S.moves.length = S.cursor;
    S.sides.length = S.cursor;
  }
  S.moves.push(tok);
  S.sides.push(side);
  S.cursor = S.moves.length;
}

/** startGame makes S a game without moves from startFen (null: the rules' start). */
export function startGame(S, startFen) {
  S.startFen = startFen;
  S.moves = [];
  S.sides = [];
  S.cursor = 0;
  S.flagged = null;
}

/** cursorTo is the cursor n within the game (0 to its length). */
export function cursorTo(S, n) {
  return Math.max(0, Math.min(S.moves.length, n));
}

/** keyTarget is where a key (←, →, Home, End) moves the cursor, or undefined. */
export function keyTarget(S, key) {
  return { ArrowLeft: S.cursor - 1, ArrowRight: S.cursor + 1, Home: 0, End: S.moves.length }[key];
}

/** The players of each choice of the Players select. */
const MODES = {
  hve: { white: 'human', black: 'engine' },
  evh: { white: 'engine', black: 'human' },
  eve: { white: 'engine', black: 'engine' },
  hvh: { white: 'human', black: 'human' },
};

/**
 * setPlayers sets the players by the Players select's choice; the board
 * turns so that a person playing the engine has their side at the bottom.
 */
export function setPlayers(S, mode) {
  S.players = MODES[mode] ? { ...MODES[mode] } : S.players;
  if (mode === 'evh' && !S.flip) S.flip = true;
  if (mode === 'hve' && S.flip) S.flip = false;
}
