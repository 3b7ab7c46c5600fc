// `npm run experiment -- tiny-lm [--quick] [--seeds N] [--threads K] [--out DIR] [--steps N]`
// A tiny character-level language model (issue 6, MATH.md B7) on the public-domain text in
// data/tiny-lm/: a Llama-style baseline against CEM-tied layers at T = 1 and 2. Runs the
// native runner, prints markdown tables (validation loss, perplexity and bits per character
// against parameter count, mean ± std over seeds; paired differences; generated samples) and
// writes tiny-lm.json and tiny-lm.svg (quick runs: tiny-lm-quick.*) to build/experiments/ (git-ignored) or --out.
// Runner pass-through options: --text FILE --context --batch --lr --eta --layers --chars
// --models (indices, comma-separated).
import { mkdirSync, writeFileSync } from 'node:fs';

import { commonOptions, pm, ROOT, runNative, stat, statEach } from './native.mjs';
import { legend, PALETTE, panel, svgDocument } from './svg-plot.mjs';

export const DEFAULT_TEXT = `${ROOT}data/tiny-lm/sotu-1790-1813.txt`;
const EXTRA = ['text', 'context', 'batch', 'lr', 'eta', 'layers', 'chars'];

/** Per model: { label, spec, parameters, loss, perplexity, bits, curve, diverged, samples }. */
export function lmSummary(json) {
  return json.models.map((spec, index) => {
    const runs = json.runs.filter((r) => r.model === index);
    const ok = (r, v) => (r.diverged || r.error ? NaN : v);
    return {
      label: spec.label, spec, parameters: runs[0]?.parameters ?? 0,
      loss: stat(runs.map((r) => ok(r, r.valLoss))),
      perplexity: stat(runs.map((r) => ok(r, r.valPerplexity))),
      bits: stat(runs.map((r) => ok(r, r.bitsPerChar))),
      curve: { steps: runs[0]?.curveSteps ?? [], loss: statEach(runs.map((r) => r.curveValLoss)) },
      diverged: runs.filter((r) => r.diverged).length,
      errors: runs.filter((r) => r.error).map((r) => r.error),
      seeds: runs.length,
      samples: runs.map((r) => r.sample),
      seconds: runs.reduce((a, r) => a + r.seconds, 0),
    };
  });
}

/** Paired differences of validation loss between models of the same seed (by label pattern). */
export function lmClaims(json) {
  const find = (test) => json.models.findIndex(test);
  const cemAt = (steps, d) => find((m) => m.family === 'cem' && m.steps === steps && m.d === d);
  const llamaAt = (d) => find((m) => m.family === 'standard' && m.d === d);
  const widest = Math.max(...json.models.filter((m) => m.family === 'standard').map((m) => m.d));
  const pairs = [
    [cemAt(2, widest), cemAt(1, widest), `recursion: CEM T = 2 against T = 1 (d = ${widest})`],
    [cemAt(1, widest), llamaAt(widest), `tied CEM T = 1 against Llama at equal width (d = ${widest})`],
    [cemAt(2, widest), llamaAt(widest), `tied CEM T = 2 against Llama at equal width (d = ${widest})`],
  ];
  // Parameter-matched pairs: each CEM model against the Llama model closest in parameters.
  const params = (i) => json.runs.find((r) => r.model === i)?.parameters ?? 0;
  json.models.forEach((m, i) => {
    if (m.family !== 'cem') return;
    const llamas = json.models.map((x, k) => k).filter((k) => json.models[k].family === 'standard');
    if (!llamas.length) return;
    const k = llamas.reduce((best, c) => (Math.abs(params(c) - params(i)) < Math.abs(params(best) - params(i)) ? c : best));
    if (json.models[k].d === m.d) return;
    pairs.push([i, k, `${m.label} (${params(i)}) against ${json.models[k].label} (${params(k)}), about equal parameters`]);
  });
  const out = [];
  for (const [a, b, claim] of pairs) {
    if (a < 0 || b < 0) continue;
    const loss = (i) => new Map(json.runs.filter((r) => r.model === i && !r.error && !r.diverged).map((r) => [r.seed, r.valLoss]));
    const [la, lb] = [loss(a), loss(b)];
    const seeds = [...la.keys()].filter((s) => lb.has(s));
    if (!seeds.length) continue;
    const diffs = seeds.map((s) => la.get(s) - lb.get(s));
    out.push({ claim, diff: stat(diffs), wins: diffs.filter((d) => d < 0).length, seeds: seeds.length });
  }
  return out;
}

/** Markdown tables: { main, claims, samples }. */
export function lmTables(json) {
  const models = lmSummary(json);
  const main = ['| model | d | M | parameters | validation loss (nats/char) | perplexity | bits/char | diverged |',
    '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const m of models) {
    main.push(`| ${m.label} | ${m.spec.d} | ${m.spec.hidden} | ${m.parameters} | ${pm(m.loss)} | ${pm(m.perplexity, 3)} | `
      + `${pm(m.bits, 3)} | ${m.diverged}/${m.seeds} |`);
  }
  const b = json.baselines;
  main.push(`| *unigram (train frequencies)* | – | – | ${json.settings.vocabulary - 1} | ${b.unigram.toFixed(4)} | `
    + `${Math.exp(b.unigram).toFixed(3)} | ${(b.unigram / Math.LN2).toFixed(3)} | – |`);
  main.push(`| *uniform over ${json.settings.vocabulary} characters* | – | – | 0 | ${b.uniform.toFixed(4)} | `
    + `${Math.exp(b.uniform).toFixed(3)} | ${(b.uniform / Math.LN2).toFixed(3)} | – |`);
  const claims = ['| comparison (paired by seed) | Δ validation loss (a − b) | a better in |', '|---|---:|---:|'];
  for (const c of lmClaims(json)) claims.push(`| ${c.claim} | ${pm(c.diff)} | ${c.wins}/${c.seeds} seeds |`);
  const oneLine = (s) => s.replace(/\s+/g, ' ');
  const samples = [`Prompt: "${oneLine(json.settings.samplePrompt)}"`, '',
    ...models.map((m) => `- ${m.label}, seed 1: "${oneLine(m.samples[0] ?? '')}"`)];
  return { main: main.join('\n'), claims: claims.join('\n'), samples: samples.join('\n') };
}

/** Validation loss against parameter count, and validation loss while training. */
export function lmSvg(json, title) {
  const models = lmSummary(json);
  const dots = (test, label, color) => ({ label, color, marker: true, bars: true, noLine: true,
    points: models.filter(test).map((m) => ({ x: m.parameters, y: m.loss.mean, lo: m.loss.mean - m.loss.std,
      hi: m.loss.mean + m.loss.std })) });
  const byT = [...new Set(models.filter((m) => m.spec.family === 'cem').map((m) => m.spec.steps))].sort();
  const scatter = [dots((m) => m.spec.family === 'standard', 'Llama-style (untied)', PALETTE[0]),
    ...byT.map((t, i) => dots((m) => m.spec.family === 'cem' && m.spec.steps === t, `CEM tied, T = ${t}`, PALETTE[1 + i]))];
  const curves = models.map((m, i) => ({ label: m.label, color: PALETTE[i % PALETTE.length], band: true,
    points: m.curve.steps.map((s, k) => ({ x: s, y: m.curve.loss[k].mean, lo: m.curve.loss[k].mean - m.curve.loss[k].std,
      hi: m.curve.loss[k].mean + m.curve.loss[k].std })) }));
  const w = 380, h = 240, top = 60;
  const body = [
    panel({ x0: 60, y0: top, width: w, height: h, title: 'validation loss against parameters (±1 sd)',
      xLabel: 'parameters', yLabel: 'nats per character', series: scatter }),
    panel({ x0: 60 + w + 80, y0: top, width: w, height: h, title: 'validation loss while training (±1 sd)',
      xLabel: 'step', series: curves }),
    legend(60, top + h + 55, scatter),
    legend(60 + w + 80, top + h + 55, curves),
  ].join('\n');
  return svgDocument(60 + 2 * w + 80 + 30, top + h + 55 + 17 * Math.max(scatter.length, curves.length) + 10, title, body);
}

/** Runs the experiment; returns { json, tables, files }. */
export async function runTinyLm(argv = [], { quiet = false, write = true } = {}) {
  const options = commonOptions(argv, EXTRA);
  if (!options.args.includes('--text')) options.args.push('--text', DEFAULT_TEXT);
  const json = await runNative('tiny-lm', options.args, { quiet });
  const tables = lmTables(json);
  const files = [];
  if (write) {
    const s = json.settings;
    const name = `tiny-lm${options.quick ? '-quick' : ''}`;
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(`${options.outDir}${name}.json`, `${JSON.stringify(json, null, 1)}\n`);
    const title = `Tiny character LM (${s.trainChars + s.validationChars} characters, vocabulary ${s.vocabulary}): `
      + `context ${s.context}, ${s.layers} layers, ${s.trainSteps} steps × ${s.batch} windows, ${s.seeds} seeds`;
    writeFileSync(`${options.outDir}${name}.svg`, lmSvg(json, title));
    files.push(`${options.outDir}${name}.json`, `${options.outDir}${name}.svg`);
  }
  return { json, tables, files };
}

/** CLI entry (scripts/experiment.mjs dispatches here); returns the exit code. */
export async function main(argv) {
  const { json, tables, files } = await runTinyLm(argv);
  const s = json.settings;
  console.log(`\n## tiny-lm: ${s.trainChars} train / ${s.validationChars} validation characters, vocabulary ${s.vocabulary}; `
    + `context ${s.context}, ${s.layers} layers, ${s.heads} heads, η = ${s.eta}; ${s.trainSteps} steps × ${s.batch} windows, `
    + `lr ${Number(s.lr.toPrecision(6))}; ${s.seeds} seeds\n`);
  console.log(`${tables.main}\n\n### Paired by seed\n\n${tables.claims}\n\n### Samples (temperature 0.8)\n\n${tables.samples}\n`);
  console.log(`${json.seconds.toFixed(1)} s on ${json.threads} threads; wrote ${files.join(', ')}`);
  return 0;
}
