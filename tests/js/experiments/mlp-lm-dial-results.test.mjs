// H5 of issue #23's pre-registered study (protocol addendum 4): the committed look and final readouts
// are what the dial code makes of the committed merges, the look's seeds are the final merge's first
// half unchanged, and every number docs/PAPER_A_LM_STUDY.md quotes for the dial is recomputed here
// and found in the text. lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { DIAL, dialVerdict } from '../../../scripts/experiments/mlp-lm-dial.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const json = (path) => JSON.parse(read(path));
const P = 'docs/experiments/prereg/';
const base = ['final-silu/silu.json', 'final-silu/h1p.json'].flatMap((f) => json(P + f).main);
const lookMerge = json(`${P}look-dial/dial-merge.json`);
const finalMerge = json(`${P}final-dial/dial-merge.json`);
const study = read('docs/PAPER_A_LM_STUDY.md');
const start = study.indexOf('\n## The pre-registered study: H5');
const section = study.slice(start, study.indexOf('\n## ', start + 1)).replace(/\s+/g, ' ');

const signed = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(4)}`;
const range = (iv) => `[${signed(iv.lo)}, ${signed(iv.hi)}]`;
const quoted = (text) => assert.ok(section.includes(text.replace(/\s+/g, ' ')),
  `docs/PAPER_A_LM_STUDY.md, H5, quotes: ${text}`);
const roundTrip = (x) => JSON.parse(JSON.stringify(x));

test('the committed look and final of H5 are the dial code\'s readout of the committed merges', async () => {
  const lab = await loadGateLab();
  const look = dialVerdict([...base, ...lookMerge.main], lab.stats);
  assert.deepEqual(roundTrip({ dial: DIAL, ...look }), json(`${P}look-dial/dial.json`));
  assert.equal(look.verdict, 'not resolved at this scale');
  assert.equal(look.stage2Needed, true);
  const final = dialVerdict([...base, ...finalMerge.main], lab.stats);
  assert.deepEqual(roundTrip({ dial: DIAL, ...final }), json(`${P}final-dial/dial.json`));
  assert.deepEqual(roundTrip(final.look), roundTrip(look.look), 'stage 2 leaves the look as it was');
  assert.equal(final.verdict, 'against');
  assert.equal(final.stage, 'final');
  for (const variant of ['dial-silu-0.25', 'dial-silu-0.5', 'dial-silu-0.75']) {
    const jobs = finalMerge.main.filter((j) => j.variant === variant && j.phase === 'main');
    assert.deepEqual(jobs.map((j) => j.seed).sort((a, b) => a - b), Array.from({ length: 24 }, (_, i) => i + 1));
    assert.ok(jobs.every((j) => !j.diverged && Math.abs(j.lr - DIAL.rate) < 1e-7), variant);
    for (const j of lookMerge.main.filter((k) => k.variant === variant && k.phase === 'main')) {
      assert.equal(jobs.find((k) => k.seed === j.seed).loss, j.loss, `${variant} seed ${j.seed}`);
    }
  }
});

test('the H5 section quotes the committed readouts', () => {
  const look = json(`${P}look-dial/dial.json`).look;
  const out = json(`${P}final-dial/dial.json`);
  for (const [name, a, word] of [['look', look, 'not resolved at this scale'], ['end', out.final, 'against']]) {
    quoted(`| ${name} | 1–${a.seeds} | ${a.alpha} | ${signed(a.slope.mean)} ${range(a.slope)} | ${range(a.contrast)} `
      + `| ${word} |`);
    assert.equal(a.verdict, word);
  }
  for (const p of out.points) {
    const d = p.versusZero ? `${signed(p.versusZero.mean)} ${range(p.versusZero)}` : '';
    quoted(`| ${p.lambda} | \`${p.variant}\` | ${p.loss.toFixed(4)} | ${d} | ${p.share.toFixed(3)} |`);
  }
  quoted(`the fitted change from λ = 0 to 1 is ${signed(out.final.slope.mean)} nats/char`);
  const shares = out.points.map((p) => (p.share === 0 ? '0' : p.share.toFixed(3))).join(', ');
  quoted(`(${shares})`);
  const largest = Math.max(...out.points.slice(1).map((p) => Math.abs(p.versusZero.mean)));
  assert.ok(largest < 0.002 && out.points.slice(1).every((p) => p.versusZero.lo < 0 && p.versusZero.hi > 0));
  quoted('no point differs from λ = 0 by more than 0.002 nats/char');
  assert.ok(out.final.slope.hi < 0.0075 && out.final.contrast.hi < 0, 'below +δ and below half the gain');
});

test('the answer box and the article quote H5 as the readout gives it', () => {
  const out = json(`${P}final-dial/dial.json`);
  const interval = `${signed(out.final.slope.mean)} ${range(out.final.slope)}`;
  const answer = read('docs/PAPER_A_LM.md').replace(/\s+/g, ' ').replace(/ > /g, ' ');
  const box = answer.slice(answer.indexOf('**The λ dial at one rate (H5'));
  assert.ok(box.startsWith('**The λ dial'), 'the answer box has an H5 paragraph');
  assert.ok(box.includes(`slope ${interval} nats/char`) && box.includes('H5 is **against**'));
  assert.ok(box.includes(`share falls from ${out.points[0].share.toFixed(3)} to 0`));
  const article = read('web/demos/paper-a.html').replace(/\s+/g, ' ');
  assert.ok(article.includes(`changes the loss by ${interval} nats per character`), 'the article quotes the slope');
  assert.ok(article.includes(`falls from ${Math.round(100 * out.points[0].share)} % to none`));
});
