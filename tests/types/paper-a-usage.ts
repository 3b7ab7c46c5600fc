// Compiled with tsc --noEmit (tests/js/paper-a/types.test.mjs): paper A's analyses, the tables of
// kinds and names, seed statistics and error codes as a figure or a page script uses them.
import { loadGateLab, GateLabError, type CensusRow, type GateLabErrorCode, type InteractionResult, type LayerKind,
  type RankApproxResult, type RankApproxRow, type StatSummary } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  const kinds: LayerKind[] = lab.layerKinds.map((k) => k.name);
  const labels: string[] = lab.layerKinds.map((k) => k.label);
  const info = lab.activationInfo('silu');
  const names: string[] = [info.label, info.shortLabel];
  const gated: string | null = info.gatedName;
  const swiglu: string = lab.layerLabel({ kind: 'gated', activation: 'silu' });
  const symgated: string = lab.layerLabel({ kind: 'gated', activation: 'silu', rank: 2, symmetrize: 1 });

  const rows: CensusRow[] = lab.census({ kinds: ['gated', 'symmetric'], activations: ['relu', 'silu'], ranks: [1, 2],
    dIn: 4, hidden: 3, dOut: 3, beta: 1, seed: 1, inputs: 0, threshold: 1e-12 });
  const measured: number = rows[0].measured;
  const spectrum: Float32Array = rows[0].spectrum;
  const why: string = rows[0].explanation;
  const all: CensusRow[] = lab.census();
  const approx: RankApproxRow[] = lab.rankApprox({ activation: 'relu', dIn: 6, hidden: 4, dOut: 2, inputs: 256,
    seed: 1 });
  const error: number = approx[0].error;
  const table: RankApproxResult = lab.rankApprox({ dIn: 7 });
  const exactAt: number = table.exactAt;
  const exact: boolean = table[table.length - 1].exact;
  const onePerPair: [number, number] = [approx[0].onePerPairError, approx[0].onePerPairEnergy];
  const layer = lab.createLayer({ kind: 'gated', activation: 'gelu', dIn: 4, hidden: 6, dOut: 2, seed: 4 });
  const at: InteractionResult = lab.interactions(layer, new Float32Array(2), new Float32Array(4));
  const quadratic: number | undefined = at.quadratic;
  const weightBased: Float32Array = lab.interactions(layer, new Float32Array(2)).matrix;
  const label: string = lab.layerLabel(layer.options);
  layer.dispose();

  const seeds: StatSummary = lab.stats.summary([0.91, 0.88, 0.95]);
  const [lo, hi]: [number, number] = seeds.ci95;
  const sd: number = lab.stats.summary(new Float32Array(3)).sd;
  const diff: StatSummary = lab.stats.paired([1, 2, 3], Float64Array.of(0.5, 1, 2));
  const band: Float64Array = lab.stats.bands([[1, 2], Float32Array.of(3, 4)]).sd;

  try {
    lab.createLayer({ kind: 'gated', dIn: 0, hidden: 1, dOut: 1 });
  } catch (e) {
    if (e instanceof GateLabError) {
      const code: GateLabErrorCode = e.code;
      if (code === 'out-of-range' || code === 'invalid-type') console.log(e.argument, e.message);
    }
  }
  console.log(kinds, labels, names, gated, swiglu, symgated, measured, spectrum, why, all, error, quadratic,
    weightBased, label, lo, hi, sd, diff, exactAt, exact, onePerPair);
}
void main();
