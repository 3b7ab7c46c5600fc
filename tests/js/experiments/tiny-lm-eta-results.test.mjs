// tiny-lm's pre-registered η rerun as committed (issue #23 deliverable 7, docs/TINY_LM_ETA.md):
// readout.json is what scripts/experiments/tiny-lm-eta.mjs makes of the two committed merges, each
// merge holds 4 seeds of both models at an interior rate (the edge rule's 0.016 tried), and every
// number docs/TINY_LM_ETA.md and docs/EXPERIMENTS.md quote is the files'. lab.stats is the real module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { etaReadout } from '../../../scripts/experiments/tiny-lm-eta.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const read = (p) => readFileSync(new URL(p, root), 'utf8');
const dir = 'docs/experiments/tiny-eta/';
const runs = ['merged-0.0625.json', 'merged-0.125.json'].map((f) => JSON.parse(read(dir + f)));
const committed = JSON.parse(read(`${dir}readout.json`));
const flat = (text) => text.replace(/\s+/g, ' ');
const protocol = read('docs/TINY_LM_ETA.md');
const results = flat(protocol.slice(protocol.indexOf('\n## Results')));
const experiments = flat(read('docs/EXPERIMENTS.md'));
const signed = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(4)}`;
const ci = (d) => `${signed(d.mean)} [${signed(d.ci95[0])}, ${signed(d.ci95[1])}]`;
const fraction = { 0.0625: '1/16', 0.125: '1/8' };

test('the committed readout is the script\'s answer for the committed merges', async () => {
  const lab = await loadGateLab();
  assert.deepEqual(JSON.parse(JSON.stringify(etaReadout(runs, lab.stats))), committed);
  for (const run of runs) {
    for (const v of ['cem-t1-d64', 'cem-t2-d64']) {
      assert.deepEqual(run.rates[v].tried.map((t) => t.lr), [0.002, 0.004, 0.008, 0.016], 'the edge rule ran');
      assert.equal(run.rates[v].atEdge, false, `${run.settings.eta} ${v}`);
      const main = run.main.filter((j) => j.variant === v && j.phase === 'main' && !j.diverged);
      assert.deepEqual(main.map((j) => j.seed).sort(), [1, 2, 3, 4]);
    }
  }
  assert.equal(committed.summary, 'depends on η');
});

test('docs/TINY_LM_ETA.md and docs/EXPERIMENTS.md quote the committed files', () => {
  const p3 = (v) => v.toFixed(3);
  for (const c of committed.comparisons) {
    const eta = fraction[c.eta];
    assert.ok(results.includes(`| ${eta} | ${ci(c.diff)} | ${p3(c.diff.p)} | ${p3(c.holm)} | ${c.deeperWins}/4 | `
      + `${c.word} |`), `TINY_LM_ETA.md's row at η = ${eta}`);
    assert.ok(experiments.includes(ci(c.diff)), `EXPERIMENTS.md quotes η = ${eta}`);
    assert.ok(experiments.includes(`Holm p ${p3(c.holm)}`));
  }
  for (const run of runs) {
    for (const m of run.analysis.models) {
      const label = m.name === 'cem-t1-d64' ? 'CEM T = 1 d = 64' : 'CEM T = 2 d = 64';
      const row = `| ${fraction[run.settings.eta]} | ${label} | ${m.lr} | ${m.loss.mean.toFixed(4)} `
        + `[${m.loss.ci95[0].toFixed(4)}, ${m.loss.ci95[1].toFixed(4)}] |`;
      assert.ok(results.includes(row), row);
    }
  }
  assert.ok(results.includes(`**Summary for "recursion helps" on text: ${committed.summary}.**`));
});
