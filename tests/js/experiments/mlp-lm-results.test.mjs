// The committed mlp-lm run (docs/experiments/mlp-lm.json) and the places that quote it: the
// article's results table (web/demos/paper-a.html) and docs/PAPER_A_LM.md. Every quoted number
// must be the JSON's, rounded, so a re-run that changes the results cannot leave stale text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const results = JSON.parse(readFileSync(new URL('docs/experiments/mlp-lm.json', root), 'utf8'));
const article = readFileSync(new URL('web/demos/paper-a.html', root), 'utf8');
const doc = readFileSync(new URL('docs/PAPER_A_LM.md', root), 'utf8');

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
  const rows = [...article.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>([^<]+)<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><\/tr>/g)];
  const names = { SwiGLU: 'swiglu', 'symgated SiLU': 'symgated-silu', GEGLU: 'geglu', ReGLU: 'reglu',
    'symgated ReLU': 'symgated-relu', 'σ(ab), SiLU': 'symmetric-silu', Bilinear: 'bilinear', 'FFN-GELU': 'ffn-gelu' };
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
  assert.ok(article.includes(`${signed(analysis.longPair.mean, 3)} ${interval(analysis.longPair.ci95, 3, signed)} at 8,000 steps`));
  assert.ok(doc.includes(`+${p.mean.toFixed(4)} [${signed(p.ci95[0], 4)}, ${signed(p.ci95[1], 4)}]`));
});
