// Tests of options.js, the page's controls of the engine's options and
// rules: what it sends to the engine and what it does with the engine's
// answer, on a tab whose engine is the test (tab.mjs). node --test
// (TestJSModules runs them from go test).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { optionsCtrl } from '../static/options.js';
import { page, tab, tick } from './tab.mjs';

const { byId } = page;

// shown is a tab showing the start position, and the options' controller
// made on its controller as game.js makes it.
async function shown() {
  const t = tab();
  t.ctrl.update();
  await t.answer('');
  t.take();
  return { t, o: optionsCtrl(t.ctrl) };
}

test('a variant the engine takes starts a new game; one it refuses is undone', async () => {
  const { t, o } = await shown();
  t.S.variant = 'nine-mens-morris';
  t.S.presets = { params: [], presets: [{ key: 'lasker-morris', rules: { PiecesCount: 10 } }] };

  // Refused: the engine's error line before readyok.
  byId('variant').value = 'no-such-variant';
  const refused = o.setVariant('no-such-variant');
  await tick();
  assert.deepEqual(t.take(), ['setoption name Variant value no-such-variant', 'isready']);
  t.feed('info string error: no variant no-such-variant', 'readyok');
  await refused;
  assert.equal(t.S.variant, 'nine-mens-morris');
  assert.equal(byId('variant').value, 'nine-mens-morris', 'the select shows the variant kept');
  assert.deepEqual(t.take(), [], 'no new game');

  // Taken: the rules follow, and a new game starts.
  const taken = o.setVariant('lasker-morris');
  await tick();
  assert.deepEqual(t.take(), ['setoption name Variant value lasker-morris', 'isready']);
  t.feed('readyok');
  await tick();
  await tick();
  assert.equal(t.S.variant, 'lasker-morris');
  assert.equal(t.S.rules.PiecesCount, 10);
  assert.deepEqual(t.take(), ['ucinewgame', 'position startpos', 'd']);
  await t.answer('');
  await taken;
});

test('MultiPV: the engine is told, the number kept and the position shown again', async () => {
  const { t, o } = await shown();
  const set = o.setMultiPV(3);
  await tick();
  assert.deepEqual(t.take(), ['setoption name MultiPV value 3', 'isready']);
  t.feed('readyok');
  await tick();
  await tick();
  assert.equal(t.S.multipv, 3);
  assert.deepEqual(t.take(), ['position startpos', 'd']);
  await t.answer('');
  await set;
  assert.deepEqual(t.take(), [], 'a person to move: no search');
});
