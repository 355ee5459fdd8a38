// rules.js: the rules and options of the tab's engine, as the page reads
// them. The server's /options.json says what each option of its engine is
// (decls: a rule, whose change starts a new game, or the engine's own,
// which keeps the game; which rule an alias names); the engine's uci
// answer says which it has (options: norm(name) → uci.js parseOption's
// object); /presets.json names the variants and their rules. The page
// shows each rule once, under its own name, whatever name the engine
// lists it by. Nothing here touches the DOM: node --test runs it
// (internal/web/jstest).

import { isLevelOption } from './levels.js';
import { norm, setOptionCommand } from './uci.js';

/** presetRules returns a copy of the rules of the variant key, or null. */
export function presetRules(presets, key) {
  const p = presets && presets.presets.find((x) => x.key === key);
  return p ? { ...p.rules } : null;
}

/** matchingPreset returns the first variant whose rules rules agrees with, or ''. */
export function matchingPreset(presets, rules) {
  if (!presets) return '';
  const p = presets.presets.find((x) => Object.keys(x.rules).every((k) => !(k in rules) || x.rules[k] === rules[k]));
  return p ? p.key : '';
}

/** ruleParams are the rule parameters the server declares, in its order. */
export function ruleParams(decls) {
  return [...decls.values()].filter((d) => d.kind === 'rule' && !d.aliasOf);
}

/** engineNameOf is the name the engine lists a rule parameter by, its own or an alias; '' neither. */
export function engineNameOf(param, options, decls) {
  const o = options.get(norm(param));
  if (o) return o.name;
  for (const d of decls.values()) {
    if (d.aliasOf === param && options.has(norm(d.name))) return options.get(norm(d.name)).name;
  }
  return '';
}

/** isRuleOption reports whether an option the engine lists is a rule (under its name or an alias). */
export function isRuleOption(name, decls) {
  const d = decls.get(norm(name));
  return !!(d && d.kind === 'rule');
}

/** ruleDefault is a rule option's default as the page keeps rules: a check as 0 or 1, else a number. */
export function ruleDefault(o) {
  return o.type === 'check' ? (o.def === 'true' ? 1 : 0) : Number(o.def);
}

/** defaultRules are the engine's defaults of the rule parameters it has, by parameter name. */
export function defaultRules(decls, options) {
  const r = {};
  for (const p of ruleParams(decls)) {
    const en = engineNameOf(p.name, options, decls);
    const o = en && options.get(norm(en));
    if (o) r[p.name] = ruleDefault(o);
  }
  return r;
}

/** optionValue writes a rule's value as setoption wants it: a check's as true or false. */
export function optionValue(name, v, decls, options) {
  const d = decls.get(norm(name));
  const o = options.get(norm(name));
  const bool = d ? d.type === 'check' : !!(o && o.type === 'check');
  return bool ? (v ? 'true' : 'false') : String(v);
}

/**
 * restoreCommands are the setoptions that give a new engine process the
 * tab's game (S's variant, rules, engineOpts, presets, decls): its variant
 * (none matching: the standard game), the rules that differ from it, and
 * the options the person set, those the engine has (the level among them:
 * the Level select keeps UCI_LimitStrength and UCI_Elo in engineOpts).
 */
export function restoreCommands(S, options) {
  const base = S.variant || (options.has('variant') ? 'nine-mens-morris' : '');
  const cmds = [];
  if (base && options.has('variant')) cmds.push(setOptionCommand('Variant', base));
  const pr = presetRules(S.presets, base) || defaultRules(S.decls, options);
  for (const [name, v] of Object.entries(S.rules)) {
    const en = engineNameOf(name, options, S.decls);
    if (pr[name] !== v && en) cmds.push(setOptionCommand(en, optionValue(name, v, S.decls, options)));
  }
  for (const [name, v] of Object.entries(S.engineOpts)) {
    if (options.has(norm(name))) cmds.push(setOptionCommand(name, v));
  }
  return cmds;
}

/** wholeNumber reads a field's text as a whole number in min..max (null: no bound), else null. */
export function wholeNumber(text, min, max) {
  const v = Number(text);
  return !Number.isInteger(v) || (min !== null && v < min) || (max !== null && v > max) ? null : v;
}

/** OWN_CONTROLS are engine options with a control of their own elsewhere. */
const OWN_CONTROLS = new Set(['variant', 'multipv']);

/**
 * settableOption reports whether an engine option is shown: not a rule, a
 * path or one with its own control (levelled: the Level select sets
 * UCI_LimitStrength and UCI_Elo, levels.js); settable.
 */
export function settableOption(o, decls, levelled = false) {
  const key = norm(o.name);
  const d = decls.get(key);
  return !(isRuleOption(o.name, decls) || OWN_CONTROLS.has(key) || (levelled && isLevelOption(key)) || o.type === 'string' ||
    (d && !d.settable));
}

/** spinMax is the largest value a tab may give a spin option: Hash's is the server's cap. */
export function spinMax(o, maxHashMB) {
  return norm(o.name) === 'hash' && maxHashMB ? Math.min(o.max ?? maxHashMB, maxHashMB) : o.max;
}
