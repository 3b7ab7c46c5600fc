// Must NOT compile: tests/js/cem/types.test.mjs checks that tsc rejects each line marked below.
import { loadGateLab } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  lab.cem.createAttention({ d: 8, diagonal: 'per_head' }); // error: JS spelling is 'per-head'
  lab.cem.createAttention({ d: 8, precond: 'spd' }); // error: precond name
  lab.cem.createMlp({ d: 8 }); // error: hidden is required
  const att = lab.cem.createAttention({ d: 8 });
  const e: string = att.energy(new Float32Array(8), 1, 0, new Float32Array(8)); // error: number
  att.setParams({ Wq: new Float32Array(64) }); // error: no such parameter
  const g: number = att.energyGradient(new Float32Array(8), 1, 0, new Float32Array(8)); // error: Float32Array
  console.log(e, g);
}
void main();
