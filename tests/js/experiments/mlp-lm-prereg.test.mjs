// The committed results of issue #23's pre-registered study (docs/experiments/prereg/): the look's
// verdict file is what the verdict code makes of the committed merges, and every number the
// look's section of docs/PAPER_A_LM_STUDY.md quotes is recomputed here from those files and found in
// the text. lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { sequentialVerdicts } from '../../../scripts/experiments/mlp-lm-verdict.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const json = (path) => JSON.parse(read(path));
const silu = json('docs/experiments/prereg/look-silu/silu.json');
const h1p = json('docs/experiments/prereg/look-silu/h1p.json');
const committed = json('docs/experiments/prereg/look-silu/verdict.json');
const doc = read('docs/PAPER_A_LM_STUDY.md');
const section = doc.slice(doc.indexOf('\n## The pre-registered study: the SiLU family\'s look')).replace(/\s+/g, ' ');

const signed = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(4)}`;
const quoted = (text) => assert.ok(section.includes(text), `docs/PAPER_A_LM_STUDY.md, the SiLU look, quotes: ${text}`);

test('the committed look is the verdict code\'s answer for the committed merges', async () => {
  const lab = await loadGateLab();
  const out = sequentialVerdicts({ main: silu, referenceRate: h1p }, lab.stats);
  assert.deepEqual(JSON.parse(JSON.stringify(out.look)), committed.look);
  assert.deepEqual(out.verdicts, committed.verdicts);
  assert.equal(out.stage2Needed, true);
  assert.equal(silu.main.filter((j) => j.phase === 'main').length, 48);
  assert.equal(h1p.main.length, 12);
  assert.ok([...silu.main, ...h1p.main].every((j) => j.seed >= 1 && j.seed <= 12 && !j.diverged));
});

test('the SiLU look\'s section quotes the committed files', () => {
  const mean = (jobs) => jobs.reduce((a, j) => a + j.loss, 0) / jobs.length;
  for (const name of ['ffn-silu', 'swiglu', 'symgated-silu', 'silu-silu']) {
    const loss = mean(silu.main.filter((j) => j.variant === name)).toFixed(4);
    quoted(`(\`${name}\`) | ${silu.rates[name].lr} | ${loss} |`);
  }
  quoted(`(H1′) | ${h1p.rates['symgated-silu'].lr} | ${mean(h1p.main).toFixed(4)} |`);
  const gain = committed.look.preconditions.find((p) => p.id === 'P-SiLU').gain;
  quoted(`P-SiLU: FFN-SiLU − SwiGLU | ${signed(gain.mean)} | [${signed(gain.lo)}, ${signed(gain.hi)}] | | met |`);
  for (const h of committed.look.hypotheses.filter((x) => x.complete)) {
    const { diff, rho, contrast } = h;
    quoted(`${h.id}: `);
    quoted(`| ${signed(diff.mean)} | [${signed(diff.lo)}, ${signed(diff.hi)}] | ${rho.rho.toFixed(3)} `
      + `[${rho.lo.toFixed(3)}, ${rho.hi.toFixed(3)}] | ${h.verdict} |`);
    quoted(`${h.id} [${signed(contrast.lo)}, ${signed(contrast.hi)}]`);
    assert.ok(contrast.hi < 0, `${h.id}: E's interval lies below 0, as the text says`);
  }
});
