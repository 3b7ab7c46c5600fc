// Compiled with tsc --noEmit (tests/js/paper-a/types.test.mjs): the lab.* contract as a user writes it.
import { loadGateLab, GateLabError, type Layer } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab({ wasmUrl: '/gatelab_wasm.wasm' });
  const version: string = lab.version;
  const first: string = lab.activations[0];
  const info = lab.activationInfo('silu');
  const degree: number | null = info.homogeneity;
  const layer: Layer = lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 4, hidden: 8, dOut: 3, rank: 1, seed: 7 });
  const y: Float32Array = layer.forward(new Float32Array(8), 2);
  const { Q, K, V } = layer.getParams();
  layer.setParams({ Q, K, V });
  const swapped = layer.exchanged();
  const scaled = layer.rescaled(2);
  const gap: number = lab.symmetry.exchangeGap(layer, new Float32Array(8), 2);
  const sgap: number = lab.symmetry.scalingGap(layer, new Float32Array(8), 2, -1.5);
  const plane: Float32Array = lab.symmetry.exchangePlane('silu', { min: -3, max: 3, n: 64 });
  const live: number = lab.liveObjects();
  try {
    lab.createLayer({ kind: 'gated', dIn: 0, hidden: 1, dOut: 1 });
  } catch (e) {
    if (e instanceof GateLabError) console.log(e.message, e.argument, e.code);
  }
  [layer, swapped, scaled].forEach((l) => l.dispose());
  console.log(version, first, degree, y, gap, sgap, plane, live);
}
void main();
