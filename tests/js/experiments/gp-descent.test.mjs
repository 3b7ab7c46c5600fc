// The gp-descent suites at their quick settings, through the same modules as
// `npm run experiment -- gp-descent`: η is chosen per T on the dev set (never on held-out), every
// comparison carries a paired 95 % interval whose verdict follows the written rule, the
// test-time rows cover every T′ with probe values in range, no model beats the GP posterior by
// more than noise, the diagonal suite logs its norms, and re-analysing the written JSON with
// --from gives the same analysis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runGpDescent } from '../../../scripts/experiments/gp-descent.mjs';

const out = mkdtempSync(join(tmpdir(), 'gatelab-gp-descent-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

function checkVerdicts(comparisons) {
  assert.ok(comparisons.length > 0);
  for (const c of comparisons) {
    const [lo, hi] = c.diff.ci95;
    assert.ok(lo <= c.diff.mean && c.diff.mean <= hi, c.claim);
    const resolved = lo > 0 || hi < 0;
    assert.equal(c.resolved, resolved, c.claim);
    if (!resolved) assert.match(c.verdict, /not reproduced at this scale/, c.claim);
    assert.ok(c.holm >= 0 && c.holm <= 1, c.claim);
  }
}

test('gp-descent grid --quick: η chosen on dev, paired intervals, test-time recursion and its probes', async () => {
  const { run, analysis: a, markdown, files } = await runGpDescent(['--suite', 'grid', '--quick', '--out', out],
    { quiet: true });
  const s = run.header.settings;
  assert.ok(run.jobs.every((j) => j.error === '' && !j.diverged), 'every job trained');
  assert.ok(run.jobs.every((j) => j.leakZ > -4), 'no job beats the GP posterior by more than noise');
  for (const row of a.cells) {
    const dev = row.etas.filter((c) => c.dev);
    const best = dev.reduce((x, y) => (y.dev.mean < x.dev.mean ? y : x));
    assert.equal(a.chosen[row.steps], best.eta, `T = ${row.steps}: the dev argmin`);
  }
  checkVerdicts(a.comparisons);
  assert.ok(a.comparisons.some((c) => /learned η/.test(c.claim)));
  for (const tt of a.testTime) {
    assert.deepEqual(tt.rows.map((r) => r.steps), s.evalSteps);
    for (const r of tt.rows) {
      assert.equal(r.descended.length, r.steps);
      assert.ok(r.descended.every((v) => v >= 0 && v <= 1));
      assert.ok(r.entropy.every((v) => v >= 0 && v <= Math.log(s.length) + 1e-9));
      assert.equal(r.againstTrained === null, r.steps === tt.trained);
    }
  }
  for (const l of a.learned) assert.ok(l.attention.mean > 0 && l.mlp.mean > 0);
  assert.match(markdown, /learned η/);
  assert.deepEqual(files.map((f) => f.split('/').pop()), ['gp-descent-grid-quick.json', 'gp-descent-grid-quick.svg',
    'gp-descent-grid-quick.md']);
  assert.ok(readFileSync(files[1], 'utf8').startsWith('<svg'));
  const again = await runGpDescent(['--suite', 'grid', '--quick', '--from', files[0]], { quiet: true, write: false });
  assert.deepEqual(again.analysis, a);
});

test('gp-descent diagonal --quick: every dx and diagonal, norms logged, intervals', async () => {
  const { run, analysis: a } = await runGpDescent(['--suite', 'diagonal', '--quick', '--out', out], { quiet: true });
  assert.deepEqual(a.rows.map((r) => r.dx), [...new Set(run.jobs.map((j) => j.dx))].sort((x, y) => x - y));
  for (const row of a.rows) {
    assert.ok(row.baseline.posterior > 0);
    for (const m of row.models) {
      assert.ok(m.wqkNorm > 0, `${m.diagonal} dx ${row.dx}`);
      if (m.diagonal === 'none') assert.equal(m.diagNorm, 0);
      else assert.ok(m.diagNorm > 0, 'the diagonal learned something');
    }
  }
  checkVerdicts(a.comparisons);
  await assert.rejects(runGpDescent(['--suite', 'nope', '--quick'], { quiet: true, write: false }), /--suite/);
});

test('gp-descent small-eta --quick: the smaller step beside the edge, with intervals', async () => {
  const { analysis: a, markdown } = await runGpDescent(['--suite', 'small-eta', '--quick'],
    { quiet: true, write: false });
  assert.ok(a.rows.length > 0 && a.rows.every((r) => r.small.heldOut && r.edge.heldOut && r.steps > 1));
  assert.ok(a.reference.mean > 0);
  checkVerdicts(a.comparisons);
  assert.match(markdown, /exploratory/);
});
