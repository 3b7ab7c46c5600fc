// Must NOT compile: tests/js/gp/types.test.mjs checks that tsc rejects each line marked below.
import { loadGateLab } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  lab.gp.createSession({ diagonal: 'perhead' }); // error: not a diagonal name
  lab.gp.createSession({ family: 'mlp' }); // error: family is 'cem' or 'standard'
  lab.gp.sample({ inputs: 'gaussian' }); // error: inputs is 'uniform' or 'normal'
  const session = lab.gp.createSession();
  const n: string = session.stepsDone; // error: number
  session.predict({ x: new Float32Array(4) }); // error: a sequence needs y
  session.options.seed = 3; // error: options are read-only
  const old: 'per_head' = session.options.diagonal; // error: the options report 'per-head'
  session.evalSteps = 4; // error: read-only (setEvalSteps sets it)
  console.log(n, old);
}
void main();
