// levels.js: the engine's levels for people, as the page's Level select
// offers them. The server's /options.json lists them (search.Levels from the
// weakest, then full strength, always last), each by name and Elo; the page
// sets one as a Stockfish client does, by UCI_LimitStrength and UCI_Elo:
// full strength turns the limit off, any other level turns it on at the
// level's Elo. The person picks a level by its name and never sees the two
// options. Nothing here touches the DOM: node --test runs it
// (internal/web/jstest).

import { setOptionCommand } from './uci.js';

// The options that set a level, by folded name (uci.js norm).
const LIMIT = 'uci_limitstrength';
const ELO = 'uci_elo';

/**
 * offeredLevels are the levels the page offers for the running engine
 * (options: its answer to uci, by folded name): none unless it lists
 * UCI_LimitStrength (a check) and UCI_Elo (a spin); else the server's
 * levels whose Elo its UCI_Elo takes, and full strength, still last.
 */
export function offeredLevels(levels, options) {
  const limit = options.get(LIMIT);
  const elo = options.get(ELO);
  if (!levels || !levels.length || !limit || limit.type !== 'check' || !elo || elo.type !== 'spin') return [];
  const full = levels[levels.length - 1];
  return levels.filter((l) => l === full || ((elo.min === null || l.elo >= elo.min) && (elo.max === null || l.elo <= elo.max)));
}

/** isLevelOption reports whether an option (folded name) is one the Level select sets. */
export function isLevelOption(key) {
  return key === LIMIT || key === ELO;
}

/** levelText is a level's entry in the select: its name and Elo, "club (1200)". */
export function levelText(l) {
  return `${l.name} (${l.elo})`;
}

/**
 * levelSettings are the options, [name, value] in the order they are sent
 * under the names the engine lists them by, that give the engine level i
 * of levels (offeredLevels): full strength (the last) turns the limit off;
 * another turns it on, then sets its Elo.
 */
export function levelSettings(levels, i, options) {
  const limit = options.get(LIMIT).name;
  if (i === levels.length - 1) return [[limit, 'false']];
  return [[limit, 'true'], [options.get(ELO).name, String(levels[i].elo)]];
}

/** levelCommands are levelSettings as setoption commands. */
export function levelCommands(levels, i, options) {
  return levelSettings(levels, i, options).map(([name, value]) => setOptionCommand(name, value));
}

/**
 * applyLevel gives the engine level i of levels: it sends levelSettings one
 * after the other with send(name, value) (async: the engine's errors, []
 * when it took the option, null when the engine went), keeping in
 * engineOpts each option the engine took, so that a new engine gets them
 * again (rules.js restoreCommands) and the select shows what the engine
 * has. A refusal stops it. It returns the refusal's errors, [] when the
 * engine took them all, or null when the engine went.
 */
export async function applyLevel(levels, i, options, engineOpts, send) {
  for (const [name, value] of levelSettings(levels, i, options)) {
    const errors = await send(name, value);
    if (!errors || errors.length) return errors;
    engineOpts[name] = value;
  }
  return [];
}

/**
 * currentLevel is the index in levels (offeredLevels) of the level the
 * engine plays at by the option values the person set (engineOpts, by the
 * engine's names) or else the engine's defaults: as the engine reads them
 * (search.LevelOf), full strength without the limit or at or above full
 * strength's Elo, else the level whose Elo is nearest, the weaker of two
 * as near. Only an Elo the page did not set (the engine's default, a value
 * kept from another list of levels) falls between levels.
 */
export function currentLevel(levels, engineOpts, options) {
  const full = levels.length - 1;
  const value = (key) => {
    const o = options.get(key);
    return o ? String(engineOpts[o.name] ?? o.def) : '';
  };
  const elo = Number(value(ELO));
  if (value(LIMIT) !== 'true' || !Number.isFinite(elo) || elo >= levels[full].elo) return full;
  let best = 0;
  for (let i = 1; i < full; i++) {
    if (Math.abs(levels[i].elo - elo) < Math.abs(levels[best].elo - elo)) best = i;
  }
  return best;
}
