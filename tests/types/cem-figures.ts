// Compiled with tsc --noEmit (tests/js/cem/types.test.mjs): the paper-B figures as a page script uses them.
import { FIGURES, type GateLabEnergy, type GateLabPrecond } from '../../web/components/index.js';

const energy: GateLabEnergy = document.createElement('gatelab-energy');
energy.steps = 4;
energy.diagonal = 'per-head';
energy.addEventListener('change', () => console.log(energy.result?.energies.length));
const precond = document.querySelector('gatelab-precond') as GateLabPrecond;
precond.reflectGradient();
const tying = document.createElement('gatelab-tying');
tying.layer = 'mlp';
void tying.settled().then((t) => console.log(t.result?.tieHolds, precond.result?.crossing));
console.log(FIGURES['gatelab-energy'], energy.plotArea?.extent);
const gp = document.createElement('gatelab-gp');
gp.highlight = '4';
gp.trainSteps = 500;
gp.eta = 0.125;
gp.learnEta = true;
gp.evalSteps = 4;
const best = gp.results?.models.map((m) => m.rmse / (gp.results?.baselines.posterior.rmse ?? 1));
console.log(FIGURES['gatelab-gp'], best, gp.results?.models[0].rmseByPosition.length,
  gp.results?.models[0].stepSizes[0]);
