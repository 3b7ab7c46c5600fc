// lab.cem's drawParams and the preconditioner's parts in parameterLayout (what the token-plane
// figures ask instead of drawing parameters and laying out [p | U | V] themselves): the named
// parameters, and only those, get scale·N(0, 1) values from the library's generator, the same for
// the same seed on one stream through the names; the parts' offsets are where getParams puts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, SOFTPLUS_INV_ONE, throwsNamed } from './fixture.mjs';

const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;

test('parameterLayout lists the preconditioner\'s parts where getParams puts them', () => {
  const paper = lab.cem.createAttention({ d: 4, heads: 2, diagonal: 'per-head', precond: 'paper', precondRank: 2,
    seed: 1 });
  const precond = paper.parameterLayout.find((l) => l.name === 'precond');
  assert.deepEqual(precond.parts.map((p) => [p.name, p.offset, p.size, p.shape]),
    [['p', 0, 4, [4]], ['U', 4, 8, [4, 2]], ['V', 12, 8, [4, 2]]]);
  assert.equal(precond.size, 20);
  assert.equal(paper.parameterLayout.find((l) => l.name === 'diag').parts, undefined, 'only precond has parts');
  const flat = paper.getParams().precond;
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(flat[c] - SOFTPLUS_INV_ONE) < 1e-6, 'p starts at softplus⁻¹(1)');
  assert.ok(flat.subarray(12).every((v) => v === 0), 'V starts at 0');
  paper.dispose();
  const psd = lab.cem.createMlp({ d: 3, hidden: 5, precond: 'psd', precondRank: 1, seed: 1 });
  assert.deepEqual(psd.parameterLayout.find((l) => l.name === 'precond').parts.map((p) => [p.name, p.offset]),
    [['p', 0], ['U', 3]], 'no V for psd');
  psd.dispose();
  const none = lab.cem.createAttention({ d: 2, seed: 1 });
  assert.deepEqual(none.parameterLayout.map((l) => l.name), ['WQ', 'WK']);
  none.dispose();
});

test('drawParams draws the named parameters from one seeded stream and leaves the rest', () => {
  const options = { d: 2, heads: 1, diagonal: 'shared', precond: 'paper', precondRank: 1, seed: 4 };
  const att = lab.cem.createAttention(options);
  const before = att.getParams();
  att.drawParams(['diag', 'precond.U', 'precond.V'], { seed: 4, scale: 0.7 });
  const after = att.getParams();
  assert.deepEqual(after.WQ, before.WQ);
  assert.deepEqual(after.WK, before.WK);
  assert.deepEqual(after.precond.subarray(0, 2), before.precond.subarray(0, 2), 'p keeps P\'s diagonal part I');
  const [U, V] = [after.precond.subarray(2, 4), after.precond.subarray(4, 6)];
  assert.notDeepEqual(Array.from(U), Array.from(V), 'U and V come one after the other on one stream');
  assert.notDeepEqual(Array.from(after.diag), Array.from(before.diag));
  assert.ok(after.diag.every((v) => v !== 0 && Math.abs(v) < 0.7 * 6));
  // The same seed gives the same numbers; the stream runs through the names in order.
  const again = lab.cem.createAttention(options);
  again.drawParams(['diag', 'precond.U', 'precond.V'], { seed: 4, scale: 0.7 });
  assert.deepEqual(again.getParams(), after);
  again.drawParams(['precond.U'], { seed: 4, scale: 0.7 });
  assert.deepEqual(again.getParams().precond.subarray(2, 4), after.diag, 'U first takes what diag took');
  // 'precond' is all three parts; scale 0 gives zeros; another seed other values.
  again.drawParams(['precond'], { seed: 4, scale: 0 });
  assert.ok(again.getParams().precond.every((v) => v === 0));
  again.drawParams(['WQ'], { seed: 5 });
  assert.notDeepEqual(Array.from(again.getParams().WQ), Array.from(before.WQ));
  att.dispose();
  again.dispose();
});

test('drawParams gives scale·N(0, 1) values, apart from the layer\'s own initialisation', () => {
  const mlp = lab.cem.createMlp({ d: 32, hidden: 64, seed: 9 });
  const init = mlp.getParams().W;
  mlp.drawParams(['W'], { seed: 9, scale: 2 });
  const W = mlp.getParams().W;
  assert.equal(W.length, 64 * 32);
  assert.ok(Math.abs(mean(W)) < 0.15, `mean ${mean(W)}`);
  const sd = Math.sqrt(mean(W.map((v) => v * v)));
  assert.ok(Math.abs(sd - 2) < 0.15, `sd ${sd}`);
  const ratio = W.map((v, k) => v / init[k]);
  assert.ok(!ratio.every((r) => Math.abs(r - ratio[0]) < 1e-4), 'not the initial weights rescaled');
  mlp.dispose();
  const gated = lab.cem.createGatedMlp({ d: 2, hidden: 3, seed: 1 });
  gated.drawParams(['Wdown'], { seed: 1 });
  assert.equal(gated.getParams().Wdown.length, 6);
  gated.dispose();
});

test('drawParams refuses bad names, seeds, scales and options and changes nothing', () => {
  const att = lab.cem.createAttention({ d: 2, precond: 'psd', precondRank: 1, seed: 2 });
  const before = att.getParams();
  throwsNamed(() => att.drawParams(['WQ', 'precond.V'], { seed: 1 }), /one of WQ, WK, precond/, 'names[1]',
    'invalid-value');
  throwsNamed(() => att.drawParams('WQ'), /an array of parameter names/, 'names', 'invalid-type');
  throwsNamed(() => att.drawParams(['WQ'], { seed: -1 }), /integer from 0/, 'options.seed', 'out-of-range');
  throwsNamed(() => att.drawParams(['WQ'], { scale: -1 }), /scale must be in \[0, 1000\]/, 'options.scale',
    'out-of-range');
  throwsNamed(() => att.drawParams(['WQ'], { scale: NaN }), /finite/, 'options.scale', 'not-finite');
  throwsNamed(() => att.drawParams(['WQ'], { sede: 1 }), /not an option of cem\.drawParams/, 'options.sede',
    'invalid-value');
  assert.deepEqual(att.getParams(), before);
  att.dispose();
  throwsNamed(() => att.drawParams(['WQ']), /disposed/, undefined, 'disposed');
});
