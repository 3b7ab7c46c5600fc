// Must NOT compile: tests/js/paper-a/types.test.mjs checks that tsc rejects each line marked below.
import { loadGateLab } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  lab.createLayer({ kind: 'attention', dIn: 1, hidden: 1, dOut: 1 }); // error: kind
  lab.activationInfo('sine'); // error: activation name
  const n: string = lab.liveObjects(); // error: number
  lab.createLayer({ kind: 'gated', dIn: 1, hidden: 1, dOut: 1, symmetrize: '1' }); // error: symmetrize is a number
  const layer = lab.createLayer({ kind: 'gated', dIn: 1, hidden: 1, dOut: 1 });
  const gram: Float32Array = lab.symmetry.ntk(layer, new Float32Array(1), 1).gram; // error: a Float64Array
  const trainer = lab.createTrainer({ kind: 'gated' });
  trainer.teleport([2, 2]); // error: a number or a Float32Array
  const balance: number[] = trainer.balance(); // error: a Float32Array
  lab.symmetry.exchangePlane('silu', { symmetrize: '0.5' }); // error: symmetrize is a number
  console.log(n, gram, balance);
}
void main();
