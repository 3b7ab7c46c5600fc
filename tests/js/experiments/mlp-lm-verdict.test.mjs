// The pre-registered verdict code of issue #23 (scripts/experiments/mlp-lm-verdict.mjs) on synthetic
// runs whose per-seed losses are built to reach each word: for, against (resolved better, and
// interval below +δ), not resolved (and a precondition not met); the Holm step across the family;
// the O'Brien–Fleming look (resolved at 12 seeds and kept; not resolved at 12, resolved at 24);
// the seeded paired bootstrap of ρ. lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DESIGN, WORDS, analyse, retainedFraction, sequentialVerdicts, uniforms, verdictReport } from
  '../../../scripts/experiments/mlp-lm-verdict.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const stats = lab.stats;

// Fixed pseudo-normal noise per (variant, seed): the same synthetic run every time.
const noise = new Map();
function z(name, seed) {
  if (!noise.has(name)) {
    const next = uniforms([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
    const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    noise.set(name, Array.from({ length: 64 }, normal));
  }
  return noise.get(name)[seed];
}

/** A merged run: variant → { offset, sd } above a shared per-seed base loss, seeds 1…n. */
function run(spec, n = 24) {
  const main = [];
  for (const [variant, { offset, sd = 0.002 }] of Object.entries(spec)) {
    for (let seed = 1; seed <= n; seed++) {
      const loss = 1.5 + 0.02 * z('base', seed) + offset + sd * z(variant, seed);
      main.push({ variant, phase: 'main', seed, lr: 0.004, loss });
    }
  }
  return { main };
}

const SILU = { 'ffn-silu': { offset: 0.04 }, swiglu: { offset: 0 } };
const RELU = { 'ffn-relu': { offset: 0.045 }, reglu: { offset: 0 } };
const byId = (out, id) => out.verdicts.find((v) => v.id === id);

test('the design is the issue\'s: d = 64, 8,000 steps, 12 then 24 seeds at α 0.0054 and 0.0492, δ 0.0075', () => {
  assert.equal(DESIGN.d, 64);
  assert.equal(DESIGN.steps, 8000);
  assert.deepEqual(DESIGN.stages.map((s) => [s.seeds, s.alpha]), [[12, 0.0054], [24, 0.0492]]);
  assert.equal(DESIGN.delta, 0.0075);
  assert.deepEqual(DESIGN.hypotheses.map((h) => `${h.id} ${h.sym}−${h.gated}`),
    ['H1 symgated-silu−swiglu', 'H2 symgated-relu−reglu', 'H1′ symgated-silu−swiglu', 'H3 silu-silu−swiglu',
      'H4 ffn-relu2−reglu']);
  assert.equal(DESIGN.hypotheses.find((h) => h.id === 'H1′').source, 'referenceRate');
  const protocol = readFileSync(new URL('../../../docs/PAPER_A_LM_PROTOCOL.md', import.meta.url), 'utf8');
  for (const text of ['0.0054', '0.0492', 'δ = 0.0075', '12 seeds', '24 seeds', 'mlp-lm-verdict', '--steps 8000',
    '--sweep-seeds 2', 'build/experiments/']) {
    assert.ok(protocol.includes(text), `the protocol states ${text}`);
  }
});

test('every word is reachable: for, against (better; below +δ), not resolved, and the look decides', () => {
  const runs = {
    main: run({ ...SILU, ...RELU, 'symgated-silu': { offset: 0.035 }, 'silu-silu': { offset: -0.01 },
      'symgated-relu': { offset: 0.001 }, 'ffn-relu2': { offset: 0.01, sd: 0.03 } }),
    referenceRate: run({ 'symgated-silu': { offset: 0.002 } }),
  };
  const out = sequentialVerdicts(runs, stats);
  assert.equal(byId(out, 'H1').verdict, WORDS.for);
  assert.equal(byId(out, 'H1').stage, 'look');
  assert.equal(byId(out, 'H3').verdict, WORDS.against);
  assert.match(byId(out, 'H3').why, /better/);
  assert.equal(byId(out, 'H2').verdict, WORDS.against);
  assert.match(byId(out, 'H2').why, /below \+δ/);
  assert.equal(byId(out, 'H1′').verdict, WORDS.against);
  assert.equal(byId(out, 'H4').verdict, WORDS.open);
  assert.equal(byId(out, 'H4').stage, 'final');
  assert.equal(out.stage2Needed, true, 'H4 was open at the look');
  assert.match(verdictReport(out), /\| H1 \| \*\*for\*\* \| look \|/);
});

test('a precondition not met leaves its family not resolved, however clear the difference', () => {
  const runs = { main: run({ 'ffn-silu': { offset: 0, sd: 0.01 }, swiglu: { offset: 0 },
    'symgated-silu': { offset: 0.05 } }) };
  const out = sequentialVerdicts(runs, stats);
  assert.equal(out.look.preconditions[0].met, false);
  assert.equal(byId(out, 'H1').verdict, WORDS.open);
  assert.match(byId(out, 'H1').why, /precondition P-SiLU not met/);
  assert.equal(byId(out, 'H2').verdict, WORDS.open);
  assert.match(byId(out, 'H2').why, /runs missing/);
});

test('resolved worse but losing less than half the gain is not "for"', () => {
  const out = analyse({ main: run({ ...SILU, 'symgated-silu': { offset: 0.012 } }) }, stats, DESIGN.stages[1]);
  const h1 = out.hypotheses[0];
  assert.ok(h1.holmDiff <= 0.0492 && h1.diff.mean > 0, 'resolved worse');
  assert.ok(h1.contrast.hi < 0, 'keeps more than half the gain');
  assert.equal(h1.verdict, WORDS.open);
});

test('Holm across the family: a raw p below α that the family adjusts above α does not resolve', () => {
  // H1 alone: the other four enter with p = 1, so Holm multiplies its p by 5. A small same-σ gain
  // (0.004) makes "loses more than half" hinge on D alone, so only Holm stands between D and "for".
  let found = null;
  for (const offset of [0.01, 0.0125, 0.015, 0.0175, 0.02]) {
    const spec = { 'ffn-silu': { offset: 0.004 }, swiglu: { offset: 0 }, 'symgated-silu': { offset, sd: 0.06 } };
    const runs = { main: run(spec) };
    const h1 = analyse(runs, stats, DESIGN.stages[1]).hypotheses[0];
    if (h1.diff.p <= 0.0492 && h1.diff.p * 5 > 0.0492 && h1.diff.mean > 0 && h1.contrast.lo > 0) found = h1;
  }
  assert.ok(found, 'a case with raw p ≤ α < 5p, resolved worse by more than half the gain before Holm');
  assert.ok(Math.abs(found.holmDiff - Math.min(1, 5 * found.diff.p)) < 1e-12, 'Holm with four missing p = 1');
  assert.deepEqual(stats.holm([found.diff.p, 1, 1, 1, 1])[0], found.holmDiff);
  assert.equal(found.verdict, WORDS.open, 'Holm keeps it from "for"');
});

test('the O\'Brien–Fleming look: not resolved at 12 seeds at α 0.0054 continues, and 24 seeds at 0.0492 decide', () => {
  let found = null;
  for (const offset of [-0.006, -0.008, -0.01, -0.012, -0.014, -0.016, -0.018, -0.02]) {
    const runs = { main: run({ ...SILU, 'symgated-silu': { offset, sd: 0.025 } }) };
    const out = sequentialVerdicts(runs, stats);
    const look = out.look.hypotheses[0];
    if (look.verdict === WORDS.open && byId(out, 'H1').stage === 'final' && byId(out, 'H1').verdict === WORDS.against) {
      found = out;
      break;
    }
  }
  assert.ok(found, 'an effect the look misses and the end resolves');
  assert.equal(found.stage2Needed, true);
  assert.equal(found.look.alpha, 0.0054);
  assert.equal(found.final.alpha, 0.0492);
  // With the first 12 seeds only, the end has not run: the word stays open, stage 2 is needed.
  const early = { main: run({ ...SILU, 'symgated-silu': { offset: -0.01, sd: 0.025 } }, 12) };
  const partial = sequentialVerdicts(early, stats);
  assert.equal(partial.final, null);
  assert.match(byId(partial, 'H1').why, /stage 2 not run yet/);
});

test('a word reached at the look is kept whatever seeds 13–24 say (the look is binding)', () => {
  const good = run({ ...SILU, 'symgated-silu': { offset: 0.035 } });
  // Seeds 13–24 of symgated SiLU turned to SwiGLU's level: the final analysis alone would not say "for".
  for (const j of good.main) if (j.variant === 'symgated-silu' && j.seed > 12) j.loss -= 0.07;
  const out = sequentialVerdicts({ main: good }, stats);
  assert.equal(byId(out, 'H1').verdict, WORDS.for);
  assert.equal(byId(out, 'H1').stage, 'look');
  assert.notEqual(out.final.hypotheses[0].verdict, WORDS.for);
});

test('ρ: the point estimate, a seeded bootstrap, exact when every seed agrees, unbounded without gain', () => {
  const ffn = [1.6, 1.61, 1.59, 1.62, 1.6, 1.58];
  const gated = ffn.map((v) => v - 0.04);
  const sym = ffn.map((v) => v - 0.01);
  const exact = retainedFraction(ffn, gated, sym);
  assert.ok(Math.abs(exact.rho - 0.25) < 1e-9);
  assert.ok(Math.abs(exact.lo - 0.25) < 1e-9 && Math.abs(exact.hi - 0.25) < 1e-9, 'every resample gives 0.25');
  const noisy = sym.map((v, i) => v + 0.01 * z('rho', i + 1));
  const a = retainedFraction(ffn, gated, noisy);
  const b = retainedFraction(ffn, gated, noisy);
  assert.deepEqual(a, b, 'seeded: the same interval every time');
  assert.ok(a.lo < a.rho && a.rho < a.hi);
  const other = retainedFraction(ffn, gated, noisy, { ...DESIGN.bootstrap, seed: 1 });
  assert.notDeepEqual([other.lo, other.hi], [a.lo, a.hi], 'the seed is what fixes it');
  const none = retainedFraction(ffn, ffn.map((v, i) => v + 0.001 * z('g', i)), sym);
  assert.equal(none.lo, -Infinity);
  assert.equal(none.hi, Infinity);
  assert.ok(none.undefinedResamples > 0);
});

test('the committed pilot is labelled a pilot, says what the protocol quotes, and resolves nothing', () => {
  const file = new URL('../../../docs/experiments/mlp-lm-prereg-pilot.json', import.meta.url);
  const pilot = JSON.parse(readFileSync(file, 'utf8'));
  assert.match(pilot.pilot, /^PILOT, not a reported run/);
  assert.deepEqual([...new Set(pilot.main.map((j) => j.variant))].sort(), ['ffn-silu', 'silu-silu', 'swiglu']);
  for (const j of pilot.main) {
    assert.equal(j.steps, 400);
    assert.equal(j.parameters, 93376);
    assert.equal(j.diverged, false);
    if (j.variant === 'silu-silu') assert.deepEqual(j.diagnostics.at(-1).map((b) => b.exchangeGap), [0, 0]);
  }
  const out = sequentialVerdicts({ main: pilot }, stats);
  assert.ok(out.verdicts.every((v) => v.verdict === WORDS.open && /runs missing/.test(v.why)));
});

test('the command line: npm run experiment -- mlp-lm-verdict reads merged runs and writes only --out', () => {
  const script = new URL('../../../scripts/experiment.mjs', import.meta.url);
  const pilot = new URL('../../../docs/experiments/mlp-lm-prereg-pilot.json', import.meta.url);
  const out = join(mkdtempSync(join(tmpdir(), 'verdict-')), 'verdict.json');
  const ok = spawnSync(process.execPath, [fileURLToPath(script), 'mlp-lm-verdict', '--run', fileURLToPath(pilot),
    '--out', out], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /\| H1′ \| \*\*not resolved at this scale\*\* \| look \|/);
  const written = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(written.design.stages.map((s) => s.alpha), [0.0054, 0.0492]);
  assert.equal(written.verdicts.length, 5);
  const usage = spawnSync(process.execPath, [fileURLToPath(script), 'mlp-lm-verdict'], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: mlp-lm-verdict --run/);
});
