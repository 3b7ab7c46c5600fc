// CemFigure: what the paper-B figures (<gatelab-energy>, <gatelab-precond>, <gatelab-tying>)
// share. Each computes on the page, in one synchronous pass over the library's CEM layers
// (small enough to need no worker), at start and after every change, then shows the result the
// same way. That life cycle is written once here; a figure implements two more hooks:
//   compute()  – compute and keep the result (its `result` getter gives it out),
//   summary()  – the readout's text for it.
// An error at start is the start's (the figure shows it and does not run); after a change it is
// shown in the readout. After each computation: the summary is announced, the canvases redrawn,
// and `computed` fires with { result, state }.
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createRange } from '../base/controls.js';

export class CemFigure extends GateLabFigure {
  async start() {
    this.#recompute();
  }

  update() {
    try {
      this.#recompute();
    } catch (error) {
      this.showError(error);
    }
  }

  #recompute() {
    this.compute();
    this.announce(this.summary());
    this.requestDraw();
    this.dispatchEvent(new CustomEvent('computed',
      { bubbles: true, detail: { result: this.result, state: { ...this.state } } }));
  }

  compute() {}
  summary() {
    return '';
  }
}

/** The step size η and the number of steps T, as the sliders of the energy figures show them. */
export function createStepRanges(figure) {
  const eta = createRange({
    label: 'Step η', min: 0.05, max: 3, step: 0.05, value: figure.state.eta, format: (v) => v.toFixed(2),
    onInput: (value) => figure.setState({ eta: value }, 'user'),
  });
  const steps = createRange({
    label: 'Steps T', min: 1, max: 12, step: 1, value: figure.state.steps, format: String,
    onInput: (value) => figure.setState({ steps: value }, 'user'),
  });
  return { eta, steps };
}
