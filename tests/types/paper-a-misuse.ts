// Must NOT compile: tests/js/paper-a/types.test.mjs checks that tsc rejects each line marked below.
import { loadGateLab, GateLabError } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  const layer = lab.createLayer({ kind: 'gated', dIn: 2, hidden: 2, dOut: 1 });
  lab.census({ kinds: ['attention'] }); // error: kind name
  lab.rankApprox({ activation: 'sine' }); // error: activation name
  lab.layerLabel({ activation: 'silu' }); // error: kind is required
  lab.layerKinds[0].label = 'x'; // error: read-only
  const s: number = lab.stats.summary(['1']).mean; // error: numbers only
  const label: number = lab.activationInfo('silu').gatedName; // error: string | null
  console.log(lab.module); // error: private
  console.log(lab.heap); // error: private
  console.log(lab.tracker); // error: private
  console.log(layer.handle); // error: private
  const code: GateLabError['code'] = 'bad-input'; // error: not a code
  const exactAt: boolean = lab.rankApprox().exactAt; // error: a number
  console.log(s, label, code, exactAt);
}
void main();
