// Tests of rules.js: the variants' rules, the names the engine lists the
// rules by, their values, the commands that set a new engine up again, and
// which engine options a tab sees. node --test (TestJSModules runs them
// from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { declTable } from '../static/api.js';
import {
  defaultRules, engineNameOf, isRuleOption, matchingPreset, optionValue, presetRules, restoreCommands, ruleDefault,
  ruleParams, settableOption, spinMax, wholeNumber,
} from '../static/rules.js';
import { norm, parseOption } from '../static/uci.js';

// The engine's options, as its answer to uci lists them (an older engine
// lists a rule by an alias: Fly Count).
const options = new Map([
  'option name Variant type combo default nine-mens-morris var nine-mens-morris var twelve-mens-morris',
  'option name PiecesPerSide type spin default 9 min 3 max 12',
  'option name Fly Count type spin default 3 min 3 max 4',
  'option name HasDiagonalLines type check default false',
  'option name Hash type spin default 16 min 1 max 4096',
  'option name Threads type spin default 1 min 1 max 8',
  'option name Clear Hash type button',
  'option name EGTBPath type string default <empty>',
  'option name MultiPV type spin default 1 min 1 max 5',
].map((l) => { const o = parseOption(l); return [norm(o.name), o]; }));

// What the server says of them (/options.json).
const decls = declTable([
  { name: 'PiecesPerSide', kind: 'rule', type: 'spin', settable: true },
  { name: 'FlyPieceCount', kind: 'rule', type: 'spin', settable: true },
  { name: 'Fly Count', kind: 'rule', type: 'spin', aliasOf: 'FlyPieceCount', settable: true },
  { name: 'HasDiagonalLines', kind: 'rule', type: 'check', settable: true },
  { name: 'Hash', kind: 'engine', type: 'spin', settable: true },
  { name: 'Threads', kind: 'engine', type: 'spin', settable: false },
  { name: 'EGTBPath', kind: 'engine', type: 'string', settable: false },
]);

const presets = { presets: [
  { key: 'nine-mens-morris', name: "Nine men's morris", rules: { PiecesPerSide: 9, FlyPieceCount: 3, HasDiagonalLines: 0 } },
  { key: 'twelve-mens-morris', name: "Twelve men's morris", rules: { PiecesPerSide: 12, FlyPieceCount: 3, HasDiagonalLines: 1 } },
] };

describe('rules', () => {
  test('the variants', () => {
    const r = presetRules(presets, 'twelve-mens-morris');
    assert.deepEqual(r, { PiecesPerSide: 12, FlyPieceCount: 3, HasDiagonalLines: 1 });
    r.PiecesPerSide = 3;
    assert.equal(presets.presets[1].rules.PiecesPerSide, 12, 'a copy');
    assert.equal(presetRules(presets, 'nope'), null);
    assert.equal(presetRules(null, 'nine-mens-morris'), null);
    assert.equal(matchingPreset(presets, { PiecesPerSide: 12, FlyPieceCount: 3, HasDiagonalLines: 1 }), 'twelve-mens-morris');
    assert.equal(matchingPreset(presets, { PiecesPerSide: 9 }), 'nine-mens-morris', 'rules not given do not count');
    assert.equal(matchingPreset(presets, { PiecesPerSide: 10 }), '');
    assert.equal(matchingPreset(null, {}), '');
  });

  test('the rule parameters and the names the engine has for them', () => {
    assert.deepEqual(ruleParams(decls).map((d) => d.name), ['PiecesPerSide', 'FlyPieceCount', 'HasDiagonalLines']);
    assert.equal(engineNameOf('PiecesPerSide', options, decls), 'PiecesPerSide');
    assert.equal(engineNameOf('FlyPieceCount', options, decls), 'Fly Count');
    assert.equal(engineNameOf('MillFormationActionInPlacingPhase', options, decls), '');
    assert.deepEqual(['PiecesPerSide', 'fly count', 'Hash', 'Clear Hash'].map((n) => isRuleOption(n, decls)), [true, true, false, false]);
  });

  test("the engine's defaults and the values it is sent", () => {
    assert.deepEqual([ruleDefault(options.get('hasdiagonallines')), ruleDefault(options.get('piecesperside'))], [0, 9]);
    assert.deepEqual(defaultRules(decls, options), { PiecesPerSide: 9, FlyPieceCount: 3, HasDiagonalLines: 0 });
    assert.equal(optionValue('HasDiagonalLines', 1, decls, options), 'true');
    assert.equal(optionValue('HasDiagonalLines', 0, decls, options), 'false');
    assert.equal(optionValue('PiecesPerSide', 12, decls, options), '12');
    assert.equal(optionValue('Fly Count', 4, decls, options), '4');
    // An option the server does not declare: the engine's type decides.
    assert.equal(optionValue('Ponder', 1, new Map(), new Map([['ponder', { name: 'Ponder', type: 'check' }]])), 'true');
  });

  test('a new engine is set up again', () => {
    const S = { variant: 'twelve-mens-morris', rules: presetRules(presets, 'twelve-mens-morris'), engineOpts: {}, presets, decls };
    assert.deepEqual(restoreCommands(S, options), ['setoption name Variant value twelve-mens-morris']);
    S.variant = '';
    S.rules = { PiecesPerSide: 10, FlyPieceCount: 4, HasDiagonalLines: 1 };
    S.engineOpts = { Hash: '64', Ponder: 'true' };
    assert.deepEqual(restoreCommands(S, options), [
      'setoption name Variant value nine-mens-morris',
      'setoption name PiecesPerSide value 10',
      'setoption name Fly Count value 4',
      'setoption name HasDiagonalLines value true',
      'setoption name Hash value 64',
    ], 'custom rules: the standard game and what differs; Ponder the engine does not have');
    // An engine without variants gets the rules that differ from its defaults.
    const bare = new Map([...options].filter(([k]) => k !== 'variant'));
    assert.deepEqual(restoreCommands({ ...S, engineOpts: {} }, bare), [
      'setoption name PiecesPerSide value 10',
      'setoption name Fly Count value 4',
      'setoption name HasDiagonalLines value true',
    ]);
  });

  test('whole numbers in a field', () => {
    assert.equal(wholeNumber('12', 3, 12), 12);
    assert.equal(wholeNumber('13', 3, 12), null);
    assert.equal(wholeNumber('2', 3, 12), null);
    assert.equal(wholeNumber('3.5', 3, 12), null);
    assert.equal(wholeNumber('x', null, null), null);
    assert.equal(wholeNumber('-7', null, null), -7);
    assert.equal(wholeNumber('', 0, 5), 0, 'an empty field is 0');
  });

  test("the engine's options a tab sees", () => {
    assert.deepEqual([...options.values()].filter((o) => settableOption(o, decls)).map((o) => o.name), ['Hash', 'Clear Hash'],
      'not rules, Variant, MultiPV, paths, or what the server does not let a tab set');
    assert.equal(spinMax(options.get('hash'), 256), 256, "Hash: the server's cap");
    assert.equal(spinMax({ name: 'Hash', max: 128 }, 256), 128);
    assert.equal(spinMax({ name: 'Hash', max: null }, 256), 256);
    assert.equal(spinMax(options.get('hash'), 0), 4096, 'no cap known');
    assert.equal(spinMax(options.get('multipv'), 256), 5);
  });

  test('the level: its own control, kept by a new engine', () => {
    const withLevels = new Map([...options, ...[
      'option name SkillLevel type spin default 30 min 0 max 30',
      'option name UCI_LimitStrength type check default false',
      'option name UCI_Elo type spin default 1400 min 600 max 2000',
    ].map((l) => { const o = parseOption(l); return [norm(o.name), o]; })]);
    const shown = (levelled) => [...withLevels.values()].filter((o) => settableOption(o, decls, levelled)).map((o) => o.name);
    assert.deepEqual(shown(true), ['Hash', 'Clear Hash', 'SkillLevel'], 'the Level select sets UCI_LimitStrength and UCI_Elo');
    assert.deepEqual(shown(false), ['Hash', 'Clear Hash', 'SkillLevel', 'UCI_LimitStrength', 'UCI_Elo'],
      'no Level select: their own controls');
    // The Level select keeps what it set in engineOpts (options.js
    // setLevel): club, then full strength.
    const S = { variant: 'nine-mens-morris', rules: presetRules(presets, 'nine-mens-morris'), presets, decls,
      engineOpts: { Hash: '64', UCI_LimitStrength: 'true', UCI_Elo: '1200' } };
    assert.deepEqual(restoreCommands(S, withLevels), [
      'setoption name Variant value nine-mens-morris',
      'setoption name Hash value 64',
      'setoption name UCI_LimitStrength value true',
      'setoption name UCI_Elo value 1200',
    ]);
    S.engineOpts.UCI_LimitStrength = 'false';
    assert.deepEqual(restoreCommands(S, withLevels), [
      'setoption name Variant value nine-mens-morris',
      'setoption name Hash value 64',
      'setoption name UCI_LimitStrength value false',
      'setoption name UCI_Elo value 1200',
    ], 'full strength: the limit off (the Elo kept, as the engine kept it)');
  });
});
