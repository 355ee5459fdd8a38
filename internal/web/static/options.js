// options.js: the engine's settings: the variant, one input per rule
// parameter (a change starts a new game), the engine's level for people,
// the engine's other options a tab may set (the game goes on), the number
// of analysis lines. What the options are and how their values are written
// is rules.js's, what a level sets levels.js's; this module builds the
// controls and sends their changes, putting a control back when the engine
// refuses.

import { applyLevel, currentLevel, levelText, offeredLevels } from './levels.js';
import { notice } from './notices.js';
import {
  engineNameOf, matchingPreset, optionValue, presetRules, ruleDefault, ruleParams, settableOption, spinMax, wholeNumber,
} from './rules.js';
import { norm, setOptionCommand } from './uci.js';

const $ = (id) => document.getElementById(id);

/**
 * optionsCtrl builds the controls (build: all, buildRules: the rules'
 * inputs, which a variant changes) and sets the variant, the level and the
 * number of analysis lines (setVariant, setLevel, setMultiPV: controls of
 * their own).
 */
export function optionsCtrl(ctrl) {
  const { S, E } = ctrl;

  // change sends a setoption once the engine is idle; it returns the
  // errors it caused, or null when the engine went (aborted).
  async function change(name, value) {
    S.gen++;
    await E.idle();
    const r = await E.command(setOptionCommand(name, value));
    return r.aborted ? null : r.errors;
  }

  async function setVariant(key) {
    const prev = S.variant;
    const errors = await change('Variant', key);
    if (!errors) return;
    if (errors.length) {
      notice(`The variant was refused: ${errors.join('; ')}`, 'error');
      $('variant').value = prev;
      return;
    }
    S.variant = key;
    S.rules = presetRules(S.presets, key) || S.rules;
    buildRules();
    await ctrl.newGame();
  }

  async function setRule(name, value, input) {
    const errors = await change(engineNameOf(name, E.options, S.decls) || name, optionValue(name, value, S.decls, E.options));
    if (!errors) return;
    if (errors.length) {
      notice(`The rule option was refused: ${errors.join('; ')}`, 'error');
      const old = S.rules[name];
      if (input.type === 'checkbox') input.checked = !!old; else input.value = old;
      await ctrl.update();
      return;
    }
    S.rules[name] = value;
    S.variant = matchingPreset(S.presets, S.rules);
    $('variant').value = S.variant;
    await ctrl.newGame();
  }

  // setEngineOption sets an option of the engine that is not a rule (value
  // null: a button). The game goes on: the position is sent again and the
  // engine, if it is its turn, thinks again.
  async function setEngineOption(o, value, input) {
    const errors = await change(o.name, value);
    if (!errors) return;
    if (errors.length) {
      notice(`${o.name} was refused: ${errors.join('; ')}`, 'error');
      const old = S.engineOpts[o.name] ?? o.def;
      if (input.type === 'checkbox') input.checked = String(old) === 'true';
      else if (value !== null) input.value = old;
    } else if (value !== null) {
      S.engineOpts[o.name] = value;
    }
    await ctrl.update();
  }

  // setLevel sets the engine's level, named by the Level select (levels.js
  // applyLevel); the game goes on. A refused command stops it, with a
  // notice, and the select goes back to the level the engine's options mean
  // (those it took before the refusal kept: it has them).
  async function setLevel(name) {
    const levels = offeredLevels(S.levels, E.options);
    const i = levels.findIndex((l) => l.name === name);
    if (i < 0) return;
    const errors = await applyLevel(levels, i, E.options, S.engineOpts, change);
    if (!errors) return;
    if (errors.length) notice(`The level ${name} was refused: ${errors.join('; ')}`, 'error');
    $('level').value = levels[currentLevel(levels, S.engineOpts, E.options)].name;
    await ctrl.update();
  }

  // setMultiPV sets how many lines the analysis shows.
  async function setMultiPV(n) {
    const errors = await change('MultiPV', n);
    if (!errors) return;
    if (errors.length) { notice(`MultiPV was refused: ${errors.join('; ')}`, 'error'); return; }
    S.multipv = n;
    S.analysis.lines = [];
    await ctrl.update();
  }

  function buildVariantSelect() {
    const sel = $('variant');
    sel.textContent = '';
    const o = E.options.get('variant');
    const names = new Map((S.presets ? S.presets.presets : []).map((p) => [p.key, p.name]));
    for (const key of (o ? o.vars : [])) sel.append(option(key, names.get(key) || key));
    const custom = option('', 'custom rules');
    custom.disabled = true;
    sel.append(custom);
    sel.value = S.variant;
    sel.disabled = !o;
  }

  // buildLevelSelect lists the levels by name, from the weakest, full
  // strength last, showing the one the engine plays at; without levels (the
  // engine has no UCI_LimitStrength and UCI_Elo) the select is not shown.
  function buildLevelSelect() {
    const sel = $('level');
    sel.textContent = '';
    const levels = offeredLevels(S.levels, E.options);
    for (const l of levels) sel.append(option(l.name, levelText(l)));
    if (levels.length) sel.value = levels[currentLevel(levels, S.engineOpts, E.options)].name;
    $('lbl-level').hidden = !levels.length;
  }

  // buildRules shows one input per rule parameter the engine has, keyed by
  // the parameter's name (data-option).
  function buildRules() {
    const box = $('rule-options');
    box.textContent = '';
    for (const p of ruleParams(S.decls)) {
      const en = engineNameOf(p.name, E.options, S.decls);
      if (!en) continue;
      const o = E.options.get(norm(en));
      const label = document.createElement('label');
      label.title = p.comment || '';
      label.append(p.name + ' ');
      const input = document.createElement('input');
      input.dataset.option = p.name;
      const cur = S.rules[p.name] ?? ruleDefault(o);
      if (o.type === 'check') {
        input.type = 'checkbox';
        input.checked = !!cur;
        input.onchange = () => setRule(p.name, input.checked ? 1 : 0, input);
      } else {
        numberInput(input, o.min, o.max, cur, p.name, () => S.rules[p.name] ?? o.def, (v) => setRule(p.name, v, input));
      }
      label.append(input);
      box.append(label);
    }
  }

  // buildEngineOptions shows the engine's options that are not rules and
  // that the server lets a tab set (no paths, Hash up to its cap), but for
  // those the Level select sets.
  function buildEngineOptions() {
    const box = $('engine-options');
    box.textContent = '';
    const levelled = offeredLevels(S.levels, E.options).length > 0;
    for (const o of E.options.values()) {
      if (!settableOption(o, S.decls, levelled)) continue;
      const label = document.createElement('label');
      label.append(o.name + ' ');
      let input;
      const cur = S.engineOpts[o.name] ?? o.def;
      if (o.type === 'button') {
        input = document.createElement('button');
        input.type = 'button';
        input.textContent = o.name;
        input.onclick = () => setEngineOption(o, null, input);
        label.textContent = '';
      } else if (o.type === 'check') {
        input = document.createElement('input');
        input.type = 'checkbox';
        input.checked = String(cur) === 'true';
        input.onchange = () => setEngineOption(o, input.checked ? 'true' : 'false', input);
      } else if (o.type === 'combo') {
        input = document.createElement('select');
        for (const v of o.vars) input.append(option(v, v));
        input.value = cur;
        input.onchange = () => setEngineOption(o, input.value, input);
      } else if (o.type === 'spin') {
        input = document.createElement('input');
        numberInput(input, o.min, spinMax(o, S.maxHashMB), cur, o.name, () => S.engineOpts[o.name] ?? o.def,
          (v) => setEngineOption(o, String(v), input));
      } else {
        continue;
      }
      input.dataset.engineOption = o.name;
      label.append(input);
      box.append(label);
    }
  }

  function build() {
    buildVariantSelect();
    buildRules();
    buildLevelSelect();
    buildEngineOptions();
  }

  return { build, buildRules, setVariant, setLevel, setMultiPV };
}

// option is an <option> of a select.
function option(value, text) {
  const opt = document.createElement('option');
  opt.value = value;
  opt.textContent = text;
  return opt;
}

// numberInput makes input a field of whole numbers in min..max (null: no
// bound) showing cur; a change to one calls set with it, and anything else
// is refused with a notice that names the option, the field going back to
// old().
function numberInput(input, min, max, cur, name, old, set) {
  input.type = 'number';
  if (min !== null) input.min = min;
  if (max !== null) input.max = max;
  input.value = cur;
  input.onchange = () => {
    const v = wholeNumber(input.value, min, max);
    if (v === null) {
      notice(`${name}: ${input.value} is not a whole number in ${min}..${max}`, 'error');
      input.value = old();
      return;
    }
    set(v);
  };
}
