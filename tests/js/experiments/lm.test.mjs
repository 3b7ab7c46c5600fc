// The language-model experiments at their quick settings, through the same modules as
// `npm run experiment -- tiny-lm|mlp-lm` (the native runner built by scripts/build.sh): sane
// tables and losses below the unigram baseline; rates chosen on the dev split; the verdict and
// the pre-registered comparisons present; files written where asked and nowhere else; and the
// plan → one process per job → merge path giving the single run's tables bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runTinyLm } from '../../../scripts/experiments/tiny-lm.mjs';
import { runMlpLm } from '../../../scripts/experiments/mlp-lm.mjs';
import { parseLmOptions } from '../../../scripts/experiments/lm-cli.mjs';

const out = mkdtempSync(join(tmpdir(), 'gatelab-lm-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

test('tiny-lm --quick: losses finite and below the unigram baseline, tied models smaller, same table twice',
  async () => {
  const { results, analysis, markdown, files } = await runTinyLm(['--quick', '--out', out], { quiet: true });
  const c = analysis.corpus;
  assert.ok(c.unigram < c.uniform);
  const main = results.main.filter((j) => j.phase === 'main');
  assert.equal(main.length, results.variants.length * results.settings.seeds);
  for (const r of main) {
    assert.equal(r.diverged, false, r.variant);
    assert.ok(Number.isFinite(r.loss) && r.loss > 0, r.variant);
    assert.ok(r.loss < c.unigram, `${r.variant}: ${r.loss} below the unigram ${c.unigram}`);
    assert.ok(r.curveValLoss.every(Number.isFinite));
    assert.equal(typeof r.sample, 'string');
  }
  const llama = analysis.models.find((m) => m.family === 'standard');
  assert.deepEqual(analysis.models.filter((m) => m.family === 'cem').map((m) => m.steps), [1, 2]);
  for (const m of analysis.models.filter((x) => x.family === 'cem')) {
    assert.equal(m.d, llama.d, 'equal width');
    assert.ok(m.parameters < llama.parameters, `${m.label} has fewer parameters`);
  }
  for (const v of results.variants) {
    const rate = results.rates[v.name];
    assert.equal(rate.tried.length, 3, 'three rates tried on dev');
    assert.ok(rate.tried.every((t) => Number.isFinite(t.devLoss)));
    assert.equal(rate.lr, rate.tried.reduce((a, b) => (b.devLoss < a.devLoss ? b : a)).lr, 'the lowest dev loss wins');
  }
  assert.ok(results.sweep.every((j) => j.split === 'dev') && main.every((j) => j.split === 'validation'));
  assert.match(markdown, /perplexity/);
  assert.match(markdown, /not reproduced at this scale|is better/);
  assert.deepEqual(files.map((f) => f.split('/').pop()),
    ['tiny-lm-quick.json', 'tiny-lm-quick.svg', 'tiny-lm-quick.md']);
  assert.ok(readFileSync(files[1], 'utf8').startsWith('<svg'));
  const again = await runTinyLm(['--quick', '--threads', '1'], { quiet: true, writeFiles: false });
  assert.equal(again.markdown, markdown);
});

test('mlp-lm --quick: every variant at one budget, the verdict and the pre-registered family', async () => {
  const { results, analysis, markdown } = await runMlpLm(['--quick', '--out', out], { quiet: true });
  const budgets = new Set(results.variants.map((v) => v.mlpParameters));
  assert.equal(budgets.size, 1, 'one MLP budget');
  assert.ok(results.main.filter((j) => j.phase === 'main').every((j) => Number.isFinite(j.initRms) && j.initRms > 0));
  const init = new Set(results.main.filter((j) => j.phase === 'main' && j.seed === 1).map((j) => j.initRms));
  assert.equal(init.size, 1, 'one initial MLP output RMS per seed');
  assert.ok(['supports', 'against', 'where σ acts', 'not reproduced at this scale', 'harness not resolving']
    .includes(analysis.verdict.outcome));
  assert.deepEqual(analysis.primary.map((c) => c.id), ['H1', 'H2', 'H3', 'H4']);
  assert.ok(analysis.primary[0].diff && Number.isFinite(analysis.primary[0].diff.holm),
    'H1 measured and Holm-adjusted');
  const symgated = results.main.find((j) => j.variant === 'symgated-silu' && j.phase === 'main');
  assert.ok(symgated.diagnostics.at(-1)[0].exchangeGap < 1e-6, 'symgated stays exchange-symmetric while training');
  assert.ok(results.main.some((j) => j.phase === 'long' && j.steps === results.settings.longSteps));
  assert.match(markdown, /Verdict/);
  assert.ok(existsSync(join(out, 'mlp-lm-quick.md')));
});

test('mlp-lm: plan, one process per job, then merge gives the single run\'s tables bit for bit', async () => {
  // A jobs directory that does not exist yet: each job makes it (before its run, not after).
  const dir = join(mkdtempSync(join(out, 'jobs-')), 'jobs');
  const run = (commands) => {
    for (const command of commands) {
      const [binary, ...args] = command.split(' ');
      execFileSync(binary, args, { stdio: 'ignore' });
    }
  };
  const sweep = await runMlpLm(['--quick', '--plan', 'sweep', '--jobs-dir', dir], { quiet: true });
  assert.ok(sweep.commands.length >= 18
    && sweep.commands.every((c) => c.includes(' lm-job ') && c.includes(' --out ')));
  run(sweep.commands);
  const main = await runMlpLm(['--quick', '--plan', 'main', '--jobs-dir', dir], { quiet: true });
  assert.ok(main.commands.every((c) => /--phase (main|long)/.test(c)));
  run(main.commands);
  const merged = await runMlpLm(['--quick', '--merge', dir], { quiet: true, writeFiles: false });
  const single = await runMlpLm(['--quick', '--threads', '2'], { quiet: true, writeFiles: false });
  assert.equal(merged.markdown, single.markdown);
  assert.deepEqual(merged.analysis, single.analysis);
  assert.deepEqual(merged.results.main, single.results.main);
});

test('mlp-lm --resume: a second run reads the kept jobs and gives the same tables; another table is refused',
  async () => {
  const dir = mkdtempSync(join(out, 'resume-'));
  const first = await runMlpLm(['--quick', '--resume', dir], { quiet: true, writeFiles: false });
  const kept = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'table.json').length;
  assert.equal(kept, first.results.sweep.length + first.results.main.length, 'every job kept as a file');
  const again = await runMlpLm(['--quick', '--resume', dir], { quiet: true, writeFiles: false });
  assert.equal(again.markdown, first.markdown);
  await assert.rejects(runTinyLm(['--quick', '--resume', dir], { quiet: true, writeFiles: false }),
    /another variant table/);
});

test('language-model options: unknown flags refused, plans need a folder', () => {
  assert.throws(() => parseLmOptions(['--nonsense', '1']), /unknown option/);
  assert.throws(() => parseLmOptions(['--plan', 'sweep']), /--jobs-dir/);
  assert.throws(() => parseLmOptions(['--plan', 'later', '--jobs-dir', '/tmp']), /sweep/);
  assert.equal(parseLmOptions(['--out', '/tmp/x']).outDir, '/tmp/x/');
});
