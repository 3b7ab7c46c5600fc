// The GP experiment at its quick settings, through the same modules as
// `npm run experiment -- gp-recursion` (the native runner built by scripts/build.sh):
// the tables have the expected shape, every number is finite and beats the trivial baselines,
// no model beats the exact GP posterior mean by more than noise (the leak guard), the same
// settings give the same table, and the JSON and SVG files are written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { gpClaims, gpSummary, runGpRecursion } from '../../../scripts/experiments/gp-recursion.mjs';
import { commonOptions } from '../../../scripts/experiments/native.mjs';

const out = mkdtempSync(join(tmpdir(), 'gatelab-experiments-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

test('gp-recursion --quick: sane tables, baselines beaten, no leak, files written', async () => {
  const { json, tables, files } = await runGpRecursion(['--quick', '--out', out], { quiet: true });
  const s = json.settings;
  assert.equal(json.runs.length, json.models.length * s.seeds);
  assert.ok(json.models.some((m) => m.family === 'standard'));
  const plainSteps = json.models.filter((m) => m.diagonal === 'shared' && m.precond === 'none').map((m) => m.steps);
  assert.deepEqual([...new Set(plainSteps)], [1, 2, 4]);
  const b = json.baselines;
  assert.ok(b.posterior < b.contextMean && b.contextMean < b.zero, 'posterior < context mean < prior mean');
  assert.equal(b.posteriorByPosition.length, s.length);
  for (const r of json.runs) {
    assert.equal(r.error, '', r.label);
    assert.equal(r.diverged, false, r.label);
    assert.ok(Number.isFinite(r.rmse) && r.rmseByPosition.every(Number.isFinite), r.label);
    assert.ok(r.rmse < b.zero, `${r.label} seed ${r.seed}: ${r.rmse} below the prior-mean RMSE ${b.zero}`);
    assert.ok(r.rmse < b.contextMean, `${r.label} seed ${r.seed}: ${r.rmse} below the context mean ${b.contextMean}`);
    // The leak guard: the posterior mean is Bayes-optimal, so beating it clearly means y_t leaked.
    assert.ok(r.leak.z > -4, `${r.label} seed ${r.seed} beats the GP posterior mean: z = ${r.leak.z}`);
    assert.ok(r.rmse > b.posterior * 0.98, r.label);
    assert.ok(r.parameters > 0);
  }
  const models = gpSummary(json);
  const standard = models.find((m) => m.spec.family === 'standard');
  for (const m of models.filter((x) => x.spec.family === 'cem')) assert.ok(m.parameters < standard.parameters, m.label);
  // Tables: one row per model plus three baselines; position columns; the claims table.
  const rows = tables.main.split('\n');
  assert.equal(rows.length, 2 + json.models.length + 3);
  for (const m of json.models) assert.ok(tables.main.includes(`| ${m.label} |`), m.label);
  assert.match(tables.byPosition, /t = 0 \| t = 1 \|/);
  assert.ok(gpClaims(json).length >= 3);
  assert.deepEqual(files.map((f) => f.split('/').pop()), ['gp-recursion-quick.json', 'gp-recursion-quick.svg']);
  assert.ok(readFileSync(files[1], 'utf8').startsWith('<svg'));
  assert.deepEqual(JSON.parse(readFileSync(files[0], 'utf8')).runs.length, json.runs.length);

  // Same settings, same table (the runner's threads do not change the numbers).
  const again = await runGpRecursion(['--quick', '--threads', '1'], { quiet: true, write: false });
  assert.deepEqual(again.tables, tables);
});

test('experiment options: unknown flags are refused, known ones pass through', () => {
  assert.throws(() => commonOptions(['--nonsense', '1']), /unknown option/);
  assert.throws(() => commonOptions(['--seeds']), /needs a value/);
  const o = commonOptions(['--quick', '--seeds', '3', '--out', '/tmp/x', '--dx', '2'], ['dx']);
  assert.equal(o.quick, true);
  assert.equal(o.outDir, '/tmp/x/');
  assert.deepEqual(o.args.slice(0, 5), ['--quick', '--seeds', '3', '--dx', '2']);
});
