// Compiled with tsc --noEmit (tests/js/cem/types.test.mjs): the lab.cem contract as a user writes it.
import {
  loadGateLab, GateLabError, type CemAttention, type CemAttentionParams, type CemMlp,
} from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  const att: CemAttention = lab.cem.createAttention({ d: 8, heads: 2, steps: 1, eta: 1, beta: undefined,
    diagonal: 'per-head', precond: 'paper', precondRank: 2, seed: 3 });
  const h = new Float32Array(4 * 8);
  const out: Float32Array = att.forward(h, 4);
  const e: number = att.energy(h, 4, 3, new Float32Array(8));
  const trace: Float32Array = att.energyTrace(h, 4);
  const params: CemAttentionParams = att.getParams();
  const precond: Float32Array | undefined = params.precond;
  att.setParams({ WQ: params.WQ, WK: params.WK, diag: params.diag, precond });
  att.setParams({ diag: new Float32Array(16) });
  att.drawParams(['diag', 'precond.U'], { seed: 4, scale: 0.7 });
  const parts = att.parameterLayout.find((p) => p.name === 'precond')?.parts ?? [];
  const offsetOfU: number | undefined = parts.find((p) => p.name === 'U')?.offset;
  const grid: Float32Array = att.energyGrid(h, 4, 3, { min: -2, max: 2, G: 32 });
  const lambda: number = att.minEigenvalue();
  const P: Float32Array = att.preconditioner();
  const spectrum: Float32Array = att.spectrum();
  const grads = att.backward(h, 4, new Float32Array(32));
  const dWQ: Float32Array = grads.dWQ;
  const beta: number = att.beta;
  const count: number = att.parameterCount;
  const path: Float32Array = att.trajectory(h, 4);
  const slope: Float32Array = att.energyGradient(h, 4, 3, new Float32Array(8));

  const mlp: CemMlp = lab.cem.createMlp({ d: 8, hidden: 16, activation: 'relu', steps: 1, eta: 1, precond: 'none',
    seed: 3 });
  const { W, U } = mlp.getParams();
  mlp.setParams({ W, U });
  const y: Float32Array = mlp.forward(h, 4);
  const em: number = mlp.energy(h, 4, 0, new Float32Array(8));
  const tm: Float32Array = mlp.energyTrace(h, 4);
  const gm: Float32Array = mlp.energyGradient(h, 4, 0, new Float32Array(8));

  const standard = lab.cem.asStandardAttention(lab.cem.createAttention({ d: 8, heads: 2 }));
  const { WV, WO } = standard.getParams();
  const gated = lab.cem.asGatedMlp(mlp);
  const down: Float32Array = gated.getParams().Wdown;
  const base = lab.cem.createStandardAttention({ d: 8, heads: 2, seed: 1 });
  const swiglu = lab.cem.createGatedMlp({ d: 8, hidden: 16, activation: 'silu' });
  try {
    lab.cem.createAttention({ d: 8, heads: 3 });
  } catch (err) {
    if (err instanceof GateLabError) console.log(err.argument);
  }
  [att, mlp, standard, gated, base, swiglu].forEach((o) => o.dispose());
  console.log(out, e, trace, grid, lambda, P, spectrum, dWQ, beta, count, path, slope, y, em, tm, gm, WV, WO, down,
    lab.cem.limits.maxGrid);
}
void main();
