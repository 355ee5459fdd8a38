// Tests of levels.js: which levels the page offers, their entries in the
// Level select, the setoptions each gives the engine, and which level the
// engine's option values mean. node --test (TestJSModules runs them from
// go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  applyLevel, currentLevel, isLevelOption, levelCommands, levelSettings, levelText, offeredLevels,
} from '../static/levels.js';
import { norm, parseOption } from '../static/uci.js';

// /options.json's levels, as the server writes them (TestOptionsJSONLevels).
const levels = [
  { name: 'beginner', elo: 600 }, { name: 'novice', elo: 800 }, { name: 'casual', elo: 1000 },
  { name: 'club', elo: 1200 }, { name: 'strong club', elo: 1400 }, { name: 'expert', elo: 1600 },
  { name: 'master', elo: 1800 }, { name: 'full strength', elo: 2000 },
];

// optionsOf is an engine's answer to uci, by folded name.
const optionsOf = (...lines) => new Map(lines.map((l) => { const o = parseOption(l); return [norm(o.name), o]; }));

// millengine's options that set a level.
const options = optionsOf(
  'option name SkillLevel type spin default 30 min 0 max 30',
  'option name UCI_LimitStrength type check default false',
  'option name UCI_Elo type spin default 1400 min 600 max 2000',
);

describe('levels', () => {
  test('the levels offered', () => {
    assert.deepEqual(offeredLevels(levels, options), levels);
    assert.deepEqual(offeredLevels([], options), [], 'the server has none');
    assert.deepEqual(offeredLevels(undefined, options), []);
    assert.deepEqual(offeredLevels(levels, optionsOf('option name UCI_LimitStrength type check default false')), [], 'no UCI_Elo');
    assert.deepEqual(offeredLevels(levels, optionsOf('option name UCI_Elo type spin default 1400 min 600 max 2000')), [],
      'no UCI_LimitStrength');
    assert.deepEqual(offeredLevels(levels, optionsOf(
      'option name UCI_LimitStrength type check default false',
      'option name UCI_Elo type combo default 1400 var 1400 var 1800',
    )), [], 'a UCI_Elo that is not a spin');
    // Another engine's UCI_Elo takes only some of the Elos: the others are
    // not offered; full strength is.
    assert.deepEqual(offeredLevels(levels, optionsOf(
      'option name uci_limitstrength type check default false',
      'option name UCI_Elo type spin default 1320 min 1000 max 1600',
    )).map((l) => l.name), ['casual', 'club', 'strong club', 'expert', 'full strength']);
  });

  test("the select's entries", () => {
    assert.deepEqual(levels.map(levelText), ['beginner (600)', 'novice (800)', 'casual (1000)', 'club (1200)',
      'strong club (1400)', 'expert (1600)', 'master (1800)', 'full strength (2000)']);
  });

  test('the setoptions of a level', () => {
    assert.deepEqual(levelCommands(levels, 3, options),
      ['setoption name UCI_LimitStrength value true', 'setoption name UCI_Elo value 1200'], 'club');
    assert.deepEqual(levelCommands(levels, 0, options),
      ['setoption name UCI_LimitStrength value true', 'setoption name UCI_Elo value 600'], 'beginner');
    assert.deepEqual(levelCommands(levels, 6, options),
      ['setoption name UCI_LimitStrength value true', 'setoption name UCI_Elo value 1800'], 'master');
    assert.deepEqual(levelCommands(levels, 7, options), ['setoption name UCI_LimitStrength value false'], 'full strength');
    assert.deepEqual(levelSettings(levels, 4, options), [['UCI_LimitStrength', 'true'], ['UCI_Elo', '1400']]);
    // Under the names the engine lists them by.
    const lower = optionsOf('option name uci_limitstrength type check default false',
      'option name uci_elo type spin default 1400 min 600 max 2000');
    assert.deepEqual(levelCommands(levels, 2, lower), ['setoption name uci_limitstrength value true', 'setoption name uci_elo value 1000']);
  });

  test('the level the options mean', () => {
    const at = (engineOpts, opts = options) => levels[currentLevel(levels, engineOpts, opts)].name;
    assert.equal(at({}), 'full strength', "the engine's defaults: no limit");
    assert.equal(at({ UCI_LimitStrength: 'true' }), 'strong club', "the limit at UCI_Elo's default, 1400");
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '1200' }), 'club');
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '600' }), 'beginner');
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '1800' }), 'master');
    assert.equal(at({ UCI_LimitStrength: 'false', UCI_Elo: '1200' }), 'full strength', 'an Elo without the limit');
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '2000' }), 'full strength', "full strength's Elo");
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '1250' }), 'club', 'the nearest');
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '1300' }), 'club', 'the weaker of two as near');
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '1301' }), 'strong club');
    assert.equal(at({ UCI_LimitStrength: 'true', UCI_Elo: '1999' }), 'master');
    assert.equal(at({}, optionsOf('option name UCI_LimitStrength type check default true',
      'option name UCI_Elo type spin default 800 min 600 max 2000')), 'novice', "another engine's defaults");
    // Each level's settings mean that level again.
    for (let i = 0; i < levels.length; i++) {
      assert.equal(currentLevel(levels, Object.fromEntries(levelSettings(levels, i, options)), options), i, levels[i].name);
    }
  });

  test('a level sent, taken or refused', async () => {
    // engine answers each setoption as told (by its option's name): [] taken,
    // errors refused, null gone; sent records the commands.
    const run = async (i, engineOpts, answers = {}) => {
      const sent = [];
      const errors = await applyLevel(levels, i, options, engineOpts, async (name, value) => {
        sent.push(`${name}=${value}`);
        return name in answers ? answers[name] : [];
      });
      return { errors, sent, engineOpts, level: levels[currentLevel(levels, engineOpts, options)].name };
    };
    assert.deepEqual(await run(3, { Hash: '64' }), {
      errors: [], sent: ['UCI_LimitStrength=true', 'UCI_Elo=1200'],
      engineOpts: { Hash: '64', UCI_LimitStrength: 'true', UCI_Elo: '1200' }, level: 'club',
    });
    assert.deepEqual(await run(7, { UCI_LimitStrength: 'true', UCI_Elo: '1200' }), {
      errors: [], sent: ['UCI_LimitStrength=false'],
      engineOpts: { UCI_LimitStrength: 'false', UCI_Elo: '1200' }, level: 'full strength',
    });
    // The first refused: nothing changes, the select goes back.
    assert.deepEqual(await run(3, { UCI_LimitStrength: 'true', UCI_Elo: '600' }, { UCI_LimitStrength: ['no'] }), {
      errors: ['no'], sent: ['UCI_LimitStrength=true'],
      engineOpts: { UCI_LimitStrength: 'true', UCI_Elo: '600' }, level: 'beginner',
    });
    // The Elo refused after the limit was taken: the engine plays at its
    // default Elo, and the select says so.
    assert.deepEqual(await run(0, {}, { UCI_Elo: ['error: option UCI_Elo: no'] }), {
      errors: ['error: option UCI_Elo: no'], sent: ['UCI_LimitStrength=true', 'UCI_Elo=600'],
      engineOpts: { UCI_LimitStrength: 'true' }, level: 'strong club',
    });
    // The engine went: nothing more is sent.
    assert.deepEqual(await run(3, {}, { UCI_LimitStrength: null }), {
      errors: null, sent: ['UCI_LimitStrength=true'], engineOpts: {}, level: 'full strength',
    });
  });

  test('the options the Level select sets', () => {
    assert.deepEqual(['uci_limitstrength', 'uci_elo', 'skilllevel', 'hash'].map(isLevelOption), [true, true, false, false]);
  });
});
