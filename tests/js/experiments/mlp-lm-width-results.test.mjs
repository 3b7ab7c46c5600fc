// The width pilot as committed (issue #23 deliverable 6, protocol addendum 3): width-pilot.json is
// what scripts/experiments/mlp-lm-width.mjs makes of the two committed merges, the merges hold every
// planned job at the chosen (interior) rates, and every number the pilot's section of
// docs/PAPER_A_LM_STUDY.md quotes is the JSON's. lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { widthReadout } from '../../../scripts/experiments/mlp-lm-width.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const read = (p) => readFileSync(new URL(p, root), 'utf8');
const dir = 'docs/experiments/prereg/width-pilot/';
const [narrow, wide] = ['merged-64.json', 'merged-128.json'].map((f) => JSON.parse(read(dir + f)));
const committed = JSON.parse(read(`${dir}width-pilot.json`));
const study = read('docs/PAPER_A_LM_STUDY.md');
const section = study.slice(study.indexOf('\n## How far width carries it')).replace(/\s+/g, ' ');
const quoted = (text) => assert.ok(section.includes(text), `the width pilot's section quotes: ${text}`);
const signed = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(4)}`;
const ci = (iv) => `${signed(iv.mean)} [${signed(iv.lo)}, ${signed(iv.hi)}]`;

test('the committed pilot readout is the script\'s answer for the committed merges', async () => {
  const lab = await loadGateLab();
  assert.deepEqual(JSON.parse(JSON.stringify(widthReadout([narrow, wide], lab.stats))), committed);
  for (const run of [narrow, wide]) {
    assert.equal(run.settings.steps, 4000);
    for (const v of ['ffn-silu', 'swiglu']) {
      assert.equal(run.rates[v].atEdge, false, `${run.settings.d} ${v}: the chosen rate is interior`);
      const main = run.main.filter((j) => j.variant === v && j.phase === 'main');
      assert.deepEqual(main.map((j) => j.seed).sort(), [1, 2, 3]);
      assert.ok(main.every((j) => !j.diverged));
    }
  }
  // The edge rule's extension at d = 128 ran: its grid starts at 0.00141, and both chose the next rate.
  assert.deepEqual(wide.rates.swiglu.tried.map((t) => t.lr), [0.00141, 0.00283, 0.00566, 0.0113]);
  assert.deepEqual([wide.rates.swiglu.lr, wide.rates['ffn-silu'].lr], [0.00283, 0.00283]);
});

test('the pilot\'s section quotes the committed readout', () => {
  for (const w of committed.widths) {
    quoted(`| ${w.d} | ${w.rates.swiglu.lr} | ${w.loss['ffn-silu'].toFixed(4)} | ${w.loss.swiglu.toFixed(4)} | `
      + `${ci(w.gap)} | ${w.gap.sd.toFixed(4)} | ${w.msPerStep.toFixed(1)} |`);
  }
  const g = committed.growth;
  quoted(`per seed: **${ci(g.interval)}, ${g.reads}.**`);
  quoted(`**${g.costRatio.toFixed(2)}×** per step`);
  quoted(`(${g.interval.sd.toFixed(4)}, from 3 seeds`);
  quoted(`${g.seedsToResolve} seeds would resolve a ΔG of ${signed(g.interval.mean)}`);
});
