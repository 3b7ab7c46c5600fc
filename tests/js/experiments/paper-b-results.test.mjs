// The committed paper-B runs (docs/experiments/gp-descent-*.json) and docs/EXPERIMENTS.md, which
// quotes them: every comparison the text cites is the JSON's, rounded to 4 digits, its verdict
// follows the written rule, and the facts the prose states (the dev choice of η, descent at every
// step, the entropy falling, the diagonal's size) hold in the data. A re-run that changes the
// results cannot leave stale text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const grid = JSON.parse(read('docs/experiments/gp-descent-grid.json'));
const diagonal = JSON.parse(read('docs/experiments/gp-descent-diagonal.json'));
// Line breaks inside a quoted interval are just wrapping.
const doc = read('docs/EXPERIMENTS.md').replace(/\s+/g, ' ');

const signed = (v, digits = 4) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(digits)}`;
const quoted = (c) => `${signed(c.diff.mean)} [${signed(c.diff.ci95[0])}, ${signed(c.diff.ci95[1])}]`;
const find = (analysis, pattern) => {
  const c = analysis.comparisons.find((x) => pattern.test(x.claim));
  assert.ok(c, `a comparison matching ${pattern}`);
  return c;
};

test('the committed runs are complete: 4 seeds for every model, no failed or leaking job', () => {
  for (const run of [grid, diagonal]) {
    const seeds = new Map();
    for (const j of run.jobs) {
      assert.equal(j.error, '', j.name);
      assert.equal(j.diverged, false, j.name);
      assert.ok(j.leakZ > 4, `${j.name}: leak guard z = ${j.leakZ}`);
      seeds.set(j.name, (seeds.get(j.name) ?? 0) + 1);
    }
    for (const [name, n] of seeds) assert.equal(n, 4, name);
  }
  assert.equal(grid.jobs.length, 100);
  assert.equal(diagonal.jobs.length, 36);
});

test('the grid comparisons quoted in docs/EXPERIMENTS.md are the JSON\'s', () => {
  const a = grid.analysis;
  assert.deepEqual(a.chosen, { 1: 0.125, 2: 0.0625, 4: 0.0625, 8: 0.0625 }, 'the dev choices the text states');
  for (const row of a.cells) {
    const best = row.etas.reduce((x, y) => (y.dev.mean < x.dev.mean ? y : x));
    assert.equal(a.chosen[row.steps], best.eta, `T = ${row.steps}: the dev argmin`);
  }
  const cited = [
    /old fixed η = 1\/4: T = 8/, /T = 2 against T = 1, each/, /T = 4 against T = 1, each/, /T = 8 against T = 1, each/,
    /learned η against the dev-chosen fixed η \(0.0625\), T = 8/, /MLP only/, /attention only/,
    /paper's preconditioner at T = 1/, /positive-definite preconditioner at T = 1/, /untied standard/,
  ];
  for (const pattern of cited) {
    const c = find(a, pattern);
    assert.ok(doc.includes(quoted(c)), `${c.claim}: ${quoted(c)} quoted`);
    const resolved = c.diff.ci95[0] > 0 || c.diff.ci95[1] < 0;
    assert.equal(c.resolved, resolved);
    if (!resolved) assert.match(c.verdict, /not reproduced at this scale/);
  }
  assert.ok(find(a, /old fixed η = 1\/4: T = 8/).resolved, 'T = 8 at η = 1/4 is resolved, as the text says');
  for (const t of [2, 4, 8]) assert.equal(find(a, new RegExp(`T = ${t} against T = 1, each`)).resolved, false);
  const learned8 = find(a, /learned η against the dev-chosen fixed η \(0.0625\), T = 8/);
  assert.ok(doc.includes(`Holm, p = ${learned8.holm.toFixed(3)}`));
});

test('test-time recursion: worse at every T′ ≠ T, every step a descent step, entropy falling', () => {
  for (const tt of grid.analysis.testTime) {
    for (const r of tt.rows) {
      assert.ok(r.descended.every((v) => v === 1), `trained ${tt.trained}, T′ = ${r.steps}: every step lowers the energy`);
      assert.ok(r.mlpDescended.every((v) => v === 1));
      for (let s = 1; s < r.entropy.length; s++) assert.ok(r.entropy[s] < r.entropy[s - 1], 'entropy falls at each step');
      if (r.againstTrained) assert.ok(r.againstTrained.ci95[0] > 0, `trained ${tt.trained}, T′ = ${r.steps}: resolved worse`);
    }
  }
  const t4 = grid.analysis.testTime.find((t) => t.trained === 4);
  for (const steps of [3, 5]) {
    const d = t4.rows.find((r) => r.steps === steps).againstTrained;
    assert.ok(doc.includes(`${signed(d.mean, 3)} [${signed(d.ci95[0], 3)}, ${signed(d.ci95[1], 3)}]`),
      `T = 4 at T′ = ${steps} quoted to 3 digits`);
  }
});

test('the diagonal comparisons quoted are the JSON\'s, and the diagonal stays small', () => {
  const a = diagonal.analysis;
  for (const pattern of [/no diagonal against a shared diagonal, dx = 1$/, /no diagonal against a shared diagonal, dx = 8/,
    /no diagonal against a shared diagonal, dx = 16/, /per-head against a shared diagonal, dx = 8/]) {
    const c = find(a, pattern);
    assert.ok(doc.includes(quoted(c)), `${c.claim}: ${quoted(c)} quoted`);
  }
  for (const row of a.rows) {
    for (const m of row.models.filter((x) => x.diagonal !== 'none')) {
      assert.ok(m.diagNorm * 5 < m.wqkNorm, `dx ${row.dx} ${m.diagonal}: ‖d‖ well below ‖W_QᵀW_K‖`);
    }
  }
});

test('the tiny-lm comparisons quoted are the committed run\'s: 4 seeds, a rate per model', () => {
  const tiny = JSON.parse(read('docs/experiments/tiny-lm.json'));
  assert.equal(tiny.settings.seeds, 4);
  for (const v of tiny.variants) assert.ok(tiny.rates[v.name].tried.length >= 3, `${v.name}: a rate from ≥ 3 on dev`);
  assert.equal(tiny.analysis.claims.length, 5);
  for (const c of tiny.analysis.claims) {
    assert.equal(c.seeds, 4, c.claim);
    assert.ok(doc.includes(quoted(c)), `${c.claim}: ${quoted(c)} quoted`);
    const resolved = c.diff.ci95[0] > 0 || c.diff.ci95[1] < 0;
    if (!resolved) assert.match(c.verdict, /not reproduced at this scale/);
  }
});

test('the exploratory small-eta run: quoted as the JSON says, no verdict resolved', () => {
  const small = JSON.parse(read('docs/experiments/gp-descent-small-eta.json'));
  const c = find(small.analysis, /T = 8 at η = 1\/32 against T = 1/);
  assert.ok(doc.includes(quoted(c)), `${c.claim}: ${quoted(c)} quoted`);
  assert.ok(small.analysis.comparisons.every((x) => !x.resolved), 'the text says no comparison resolves');
  for (const t of [4, 8]) {
    const row = small.analysis.rows.find((r) => r.steps === t);
    assert.ok(row.small.dev.mean < row.edge.dev.mean, `T = ${t}: dev prefers 1/32, as the text says`);
  }
});
