// Compiled with tsc --noEmit (tests/js/paper-a/types.test.mjs): the lab.* contract as a user writes it.
import {
  loadGateLab, GateLabError, type Layer, type NtkResult, type OrbitProbe, type TeleportResult,
} from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab({ wasmUrl: '/gatelab_wasm.wasm' });
  const version: string = lab.version;
  const first: string = lab.activations[0];
  const info = lab.activationInfo('silu');
  const degree: number | null = info.homogeneity;
  const layer: Layer = lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 4, hidden: 8, dOut: 3, rank: 1,
    seed: 7 });
  const y: Float32Array = layer.forward(new Float32Array(8), 2);
  const { Q, K, V } = layer.getParams();
  layer.setParams({ Q, K, V });
  const swapped = layer.exchanged();
  const scaled = layer.rescaled(2);
  const gap: number = lab.symmetry.exchangeGap(layer, new Float32Array(8), 2);
  const sgap: number = lab.symmetry.scalingGap(layer, new Float32Array(8), 2, -1.5);
  const plane: Float32Array = lab.symmetry.exchangePlane('silu', { min: -3, max: 3, n: 64, symmetrize: 0.5 });
  const symgated: Layer = lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 4, hidden: 8, dOut: 3, rank: 2,
    seed: 7, symmetrize: 1 });
  const lambda: number = symgated.options.symmetrize;
  const { gram, eigenvalues, conditionNumber }: NtkResult = lab.symmetry.ntk(symgated, new Float32Array(8), 2);
  const spectrum: Float64Array = eigenvalues;
  const trainer = lab.createTrainer({ kind: 'gated', activation: 'relu', symmetrize: 0.5, optimizer: 'sgd',
    batchSize: 0 });
  const norm: number = trainer.gradientNorm();
  const moved: TeleportResult = trainer.teleport(new Float32Array(8).fill(2));
  const again: number = trainer.teleport(0.5).gradNormAfter - moved.lossAfter;
  const balance: Float32Array = trainer.balance();
  const probe: OrbitProbe = trainer.probeOrbit(new Float32Array(8).fill(2));
  const best: Float32Array = trainer.bestFactors({ goal: 'gradient', points: 9, reach: 3 });
  const drift: number = trainer.balanceDrift() + probe.nextLoss + best[0];
  [symgated, trainer].forEach((o) => o.dispose());
  const live: number = lab.liveObjects();
  try {
    lab.createLayer({ kind: 'gated', dIn: 0, hidden: 1, dOut: 1 });
  } catch (e) {
    if (e instanceof GateLabError) console.log(e.message, e.argument, e.code);
  }
  [layer, swapped, scaled].forEach((l) => l.dispose());
  console.log(version, first, degree, y, gap, sgap, plane, live, lambda, gram, spectrum, conditionNumber, norm, again,
    balance, drift);
}
void main();
