// Paper A's layer has the face every module has (issue #25: one layer concept, bound one way,
// one JS base, web/lib/core/module.js): the parameter layout, parameters set by name with the
// others kept, drawn from the library's generator, and dL/dθ split by the same layout. The real
// wasm module in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();

function batch(rows, dIn) {
  return Float32Array.from({ length: rows * dIn }, (_, i) => Math.sin(1.7 * i + 0.3));
}

test('parameterLayout names Q, K and V with their shapes, and mlp has no Q', () => {
  const gated = lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 3, hidden: 4, dOut: 2, rank: 2, seed: 1 });
  assert.deepEqual(gated.parameterLayout, [
    { name: 'Q', size: 24, shape: [8, 3] }, { name: 'K', size: 24, shape: [8, 3] },
    { name: 'V', size: 8, shape: [4, 2] }]);
  assert.equal(gated.parameterLayout.reduce((s, p) => s + p.size, 0), gated.parameterCount);
  const mlp = lab.createLayer({ kind: 'mlp', activation: 'relu', dIn: 3, hidden: 4, dOut: 2, seed: 1 });
  assert.deepEqual(mlp.parameterLayout.map((p) => p.name), ['K', 'V']);
  assert.deepEqual(Object.keys(mlp.getParams()), ['K', 'V']);
  gated.dispose();
  mlp.dispose();
});

test('setParams keeps what it is not given and refuses a name the layer does not have', () => {
  const layer = lab.createLayer({ kind: 'gated', activation: 'gelu', dIn: 2, hidden: 3, dOut: 1, seed: 2 });
  const before = layer.getParams();
  const V = before.V.map((v) => v + 1);
  layer.setParams({ V });
  const after = layer.getParams();
  assert.deepEqual(after.Q, before.Q);
  assert.deepEqual(after.K, before.K);
  assert.deepEqual(after.V, V);
  assert.throws(() => layer.setParams({ W: new Float32Array(3) }),
    (e) => e.argument === 'params.W' && e.code === 'invalid-value');
  const mlp = lab.createLayer({ kind: 'mlp', activation: 'relu', dIn: 2, hidden: 3, dOut: 1 });
  assert.throws(() => mlp.setParams({ Q: new Float32Array(6) }), (e) => e.argument === 'params.Q');
  layer.dispose();
  mlp.dispose();
});

test('drawParams draws the named factors from one seeded stream and leaves the others', () => {
  const options = { kind: 'gated', activation: 'silu', dIn: 2, hidden: 3, dOut: 2, seed: 5 };
  const [a, b] = [lab.createLayer(options), lab.createLayer({ ...options, seed: 9 })];
  const kept = a.getParams().Q;
  a.drawParams(['K', 'V'], { seed: 11, scale: 0.5 });
  b.drawParams(['K', 'V'], { seed: 11, scale: 0.5 });
  assert.deepEqual(a.getParams().Q, kept);
  assert.deepEqual(a.getParams().K, b.getParams().K);
  assert.deepEqual(a.getParams().V, b.getParams().V);
  const fresh = lab.createLayer(options);
  assert.notDeepEqual(a.getParams().K, fresh.getParams().K);
  fresh.dispose();
  assert.throws(() => a.drawParams(['W']), (e) => e.argument === 'names[0]' && e.code === 'invalid-value');
  a.forward(batch(2, 2), 2);  // still usable
  a.dispose();
  b.dispose();
});

test('backward splits dL/dθ by the layout and matches a central difference', () => {
  const layer = lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 3, hidden: 4, dOut: 2, seed: 3 });
  const rows = 5;
  const x = batch(rows, 3);
  const gradOut = Float32Array.from({ length: rows * 2 }, (_, i) => Math.cos(i));
  const g = layer.backward(x, rows, gradOut);
  assert.deepEqual(Object.keys(g), ['dx', 'dQ', 'dK', 'dV']);
  assert.deepEqual([g.dx.length, g.dQ.length, g.dK.length, g.dV.length], [15, 12, 12, 8]);
  // L = Σ gradOut · forward: its derivative by one entry of each factor.
  const loss = () => layer.forward(x, rows).reduce((s, y, i) => s + y * gradOut[i], 0);
  const p = layer.getParams();
  for (const [name, grad] of [['Q', g.dQ], ['K', g.dK], ['V', g.dV]]) {
    const at = 1;
    const h = 1e-2;
    const shifted = (delta) => {
      const values = Float32Array.from(p[name]);
      values[at] += delta;
      layer.setParams({ [name]: values });
      return loss();
    };
    const numeric = (shifted(h) - shifted(-h)) / (2 * h);
    layer.setParams(p);
    assert.ok(Math.abs(numeric - grad[at]) < 2e-3 * (1 + Math.abs(numeric)), `${name}: ${numeric} vs ${grad[at]}`);
  }
  layer.dispose();
});
