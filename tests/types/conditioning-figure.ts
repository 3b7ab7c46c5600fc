// Compiled with tsc --noEmit (tests/js/paper-a/types.test.mjs): <gatelab-conditioning> as a page script uses it.
import { FIGURES, type ConditioningState, type GateLabConditioning } from '../../web/components/index.js';

const figure: GateLabConditioning = document.createElement('gatelab-conditioning');
figure.task = 'spiral';
figure.optimizer = 'adam';
figure.learningRate = 0.01;
figure.budget = 336;
const state: ConditioningState = figure.state;
figure.addEventListener('computed', () => {
  const swiglu = figure.results.find((r) => r.label === 'SwiGLU');
  const kappa: number | undefined = swiglu?.kappa.value[0];
  const loss: Float32Array | undefined = swiglu?.loss.trainLoss;
  console.log(state.steps, kappa, loss, swiglu?.parameters);
});
console.log(FIGURES['gatelab-conditioning'],
  (document.querySelector('gatelab-conditioning') as GateLabConditioning).rows);
