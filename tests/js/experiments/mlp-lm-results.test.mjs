// The committed mlp-lm run (docs/experiments/mlp-lm.json) and the places that quote it: the
// article's results table and verdict (web/demos/paper-a.html) and docs/PAPER_A_LM.md (whose
// rewritten Results mlp-lm-review.test.mjs checks number by number). Every quoted number must be
// the JSON's, rounded, so a re-run that changes the results cannot leave stale text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { review } from '../../../scripts/experiments/mlp-lm-review.mjs';
import { LM_PRESET } from '../../../web/components/paper-a/lm/lm-preset.js';

const root = new URL('../../../', import.meta.url);
const results = JSON.parse(readFileSync(new URL('docs/experiments/mlp-lm.json', root), 'utf8'));
const article = readFileSync(new URL('web/demos/paper-a.html', root), 'utf8');
const doc = readFileSync(new URL('docs/PAPER_A_LM.md', root), 'utf8');

const study = JSON.parse(readFileSync(new URL('docs/experiments/prereg/final-silu/verdict.json', root), 'utf8'));
const mechanism = JSON.parse(readFileSync(new URL('docs/experiments/prereg/mechanism.json', root), 'utf8'));

/** The pre-registered study's numbers as the article's summary quotes them (3 decimals). */
function studyQuotes() {
  const { final } = study;
  const gain = final.preconditions.find((p) => p.id === 'P-SiLU').gain;
  const diff = (id) => final.hypotheses.find((h) => h.id === id).diff;
  const quote = (d) => `${signed(d.mean, 3)} ${interval([d.lo, d.hi], 3, signed)}`;
  return [`FFN-SiLU − SwiGLU ${quote(gain)}`, `symgated SiLU − SwiGLU ${quote(diff('H1'))} at its own rate,`,
    `${quote(diff('H1′'))} at SwiGLU’s,`,
    `SiLU·SiLU is ahead, ${quote(diff('H3'))}`, mechanismQuote()];
}

/** The conditioning sentence's ratio: 10 to SwiGLU's mean log10 κ excess over FFN-SiLU (mechanism.json). */
function mechanismQuote() {
  const kBar = mechanism.comparisons.kBar.find((r) => r.variant === 'swiglu').diff.mean;
  return `(SwiGLU’s about ${(10 ** kBar).toFixed(1)} times)`;
}

const signed = (v, digits) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(digits)}`;
const plain = (v, digits) => (v < 0 ? `−${Math.abs(v).toFixed(digits)}` : v.toFixed(digits));
const interval = ([lo, hi], digits, f) => `[${f(lo, digits)}, ${f(hi, digits)}]`;

test('the committed run is complete: every variant has 5 seeds and the long pair ran', () => {
  const { analysis, settings } = results;
  assert.equal(settings.seeds, 5);
  for (const v of analysis.perVariant) assert.equal(v.loss.n, 5, v.name);
  assert.equal(analysis.longPair.n, 5);
  assert.equal(results.main.filter((j) => j.phase === 'long').length, 10);
});

test('the article table and the verdict quote the committed JSON', () => {
  const { analysis } = results;
  const byName = new Map(analysis.perVariant.map((v) => [v.name, v]));
  const cell = '\\s*<td>([^<]+)<\\/td>';
  const row = new RegExp(`<tr><th scope="row">([^<]+)<\\/th>${cell}${cell}${cell}\\s*<\\/tr>`, 'g');
  const start = article.indexOf('id="lm-results"');
  const table = article.slice(start, article.indexOf('</table>', start));
  const rows = [...table.matchAll(row)];
  const names = { SwiGLU: 'swiglu', 'symgated SiLU': 'symgated-silu', GEGLU: 'geglu', ReGLU: 'reglu',
    'symgated ReLU': 'symgated-relu', 'σ(ab), SiLU': 'symmetric-silu', Bilinear: 'bilinear', 'FFN-GELU': 'ffn-gelu',
    'FFN-ReLU': 'ffn-relu' };
  assert.equal(rows.length, Object.keys(names).length);
  for (const [, label, lr, loss, diff] of rows) {
    const v = byName.get(names[label]);
    assert.ok(v, label);
    assert.equal(lr, `${v.lr}${v.atEdge ? '*' : ''}`, `${label} rate`);
    assert.equal(loss, `${v.loss.mean.toFixed(3)} ${interval(v.loss.ci95, 3, plain)}`, `${label} loss`);
    if (v.name === 'swiglu') assert.equal(diff, '—');
    else assert.equal(diff, `${signed(v.vsSwiglu.mean, 3)} ${interval(v.vsSwiglu.ci95, 3, signed)}`, `${label} diff`);
  }
  const p = analysis.precondition;
  assert.ok(p.ci95[0] <= 0 && analysis.verdict.outcome === 'harness not resolving', 'the verdict the text states');
  assert.ok(article.includes(`(${signed(p.mean, 3)} ${interval(p.ci95, 3, signed)})`));
  const long = analysis.longPair;
  assert.ok(article.includes(`at 8,000 steps the gap is ${signed(long.mean, 3)} ${interval(long.ci95, 3, signed)}`));
  assert.ok(doc.includes(`+${p.mean.toFixed(4)} [${signed(p.ci95[0], 4)}, ${signed(p.ci95[1], 4)}]`));
});

test('the article\'s verdict is the honest one, and its numbers are the review\'s', () => {
  const section = article.slice(article.indexOf('id="lm-results"'), article.indexOf('<gatelab-lm id="lm"'));
  const text = section.replace(/\s+/g, ' ');
  const r = review(results);
  const has = (s) => assert.ok(text.includes(s), `article: ${s}`);
  has('<strong>Not resolved at this scale.</strong>');
  assert.doesNotMatch(text, /helped|point the other way|beat SwiGLU/);
  has(`about a one-in-five chance (${r.power.above.toFixed(2)}) of resolving a gap of ${r.power.gap.toFixed(3)}`);
  assert.ok(Math.abs(r.power.above - 0.2) < 0.05, 'one in five');
  has(`the sign follows the rate (${r.rates.sweepSilu.map((x) => signed(x.diff, 3)).join(', ')} at `
    + `${r.rates.sweepSilu.map((x) => x.lr).join(', ')})`);
  const m = r.curves.shapeMain;
  has(`symgated trails by ${m.min.toFixed(2)}–${m.max.toFixed(2)} over the first half`);
  const relu = r.sameSigma.relu;
  has(`FFN-ReLU − ReGLU ${signed(relu.mean, 3)} ${interval(relu.ci95, 3, signed)}; `
    + `Shazeer: ${relu.shazeer.toFixed(3)}`);
  has(`${Math.round(100 * r.shares.min)} %–${Math.round(100 * r.shares.max)} % per block`);
  assert.ok(r.shares.symgatedZero);
  // The figure beside the table trains every model at one rate, as the paragraph above it says.
  const rates = new Set(LM_PRESET.variants.map((v) => v.learningRate));
  assert.deepEqual([...rates], [0.004]);
  assert.ok(article.replace(/\s+/g, ' ').includes('the figure trains every model at one rate, 0.004.'));
});

test('"What GateLab\'s language-model study found" quotes only the JSON\'s numbers, rounded as the table does', () => {
  const start = article.indexOf('<h3 id="why-lm">');
  assert.ok(start > 0, 'the section is in the article');
  const text = article.slice(start, article.indexOf('<footer>', start)).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  const { analysis } = results;
  const r = review(results);
  const p = analysis.precondition;
  const relu = r.sameSigma.relu;
  const quoted = [
    `${signed(p.mean, 3)} ${interval(p.ci95, 3, signed)}`,
    `a ${r.power.above.toFixed(2)} chance`,
    `FFN-ReLU − ReGLU ${signed(relu.mean, 3)} ${interval(relu.ci95, 3, signed)}`,
    `${Math.round(100 * r.shares.min)} %–${Math.round(100 * r.shares.max)} % of it per block`,
    ...studyQuotes(),
  ];
  for (const s of quoted) assert.ok(text.includes(s), `article: ${s}`);
  assert.equal(results.settings.seeds, 5);
  assert.ok(text.includes('with five seeds'));
  assert.ok(text.includes(`${study.design.steps.toLocaleString('en-US')} steps)`));
  // No other decimal number: every one in the text is inside a quoted string above.
  const decimals = text.match(/[−+]?\d+\.\d+/g) ?? [];
  const allowed = quoted.join(' ');
  for (const d of decimals) assert.ok(allowed.includes(d), `unquoted number ${d}`);
  assert.doesNotMatch(text, /helped|point the other way|beat SwiGLU/);
});
