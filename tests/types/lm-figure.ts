// Compiled with tsc --noEmit (tests/js/paper-a/types.test.mjs): <gatelab-lm> as a page script uses it.
import { FIGURES, type GateLabLm, type LmState } from '../../web/components/index.js';

const lm: GateLabLm = document.createElement('gatelab-lm');
lm.models = 'swiglu,symgated-silu';
lm.seeds = 3;
lm.temperature = 0.6;
const state: LmState = lm.state;
lm.addEventListener('trained', () => {
  const r = lm.results;
  const gap = r?.standings?.gaps[0];
  const interval: [number, number] | null | undefined = gap?.ci95;
  const curve: number[] | undefined = r?.runs[0].curveValLoss;
  const share: number | undefined = r?.runs[0].diagnostics.at(-1)?.[0].antisymmetricShare;
  console.log(state.steps, interval, curve, share, r?.throughput.charsPerSecond, r?.modes.includes('main'));
});
console.log(FIGURES['gatelab-lm'], (document.querySelector('gatelab-lm') as GateLabLm).paused);
