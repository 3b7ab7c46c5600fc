// Must NOT compile: tests/js/paper-a/types.test.mjs checks that tsc rejects each line marked below.
import { loadGateLab } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  lab.createLayer({ kind: 'attention', dIn: 1, hidden: 1, dOut: 1 }); // error: kind
  lab.activationInfo('sine'); // error: activation name
  const n: string = lab.liveObjects(); // error: number
  console.log(n);
}
void main();
