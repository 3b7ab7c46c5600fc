// The activation catalogue (docs/MATH.md §A10) as the lab exposes it: what the core knows of
// each σ (homogeneity degree, linearity), samples of σ, σ' and σ(z)/z on a grid, and the grid
// options shared with lab.symmetry.exchangePlane.
import { GateLabError, throwCoreError } from '../core/errors.js';
import { finiteNumber, integer, optionsOf } from '../core/validate.js';

/** { name, homogeneity: null | number, linear } of a catalogue activation. */
export function activationProperties(core, name) {
  const index = core.activationIndex(name);
  const degree = core.module._activationDegree(index);
  return { name, homogeneity: degree < 0 ? null : degree, linear: core.module._activationLinear(index) };
}

/**
 * The grid of a curve or plane: { index, beta, min, max, n } with the defaults filled in; entry is the
 * catalogue's name of the call ('activationCurve', 'symmetry.exchangePlane').
 */
export function curveOptions(core, activation, options, defaultN, entry) {
  const index = core.activationIndex(activation);
  const o = optionsOf('options', options, entry);
  const min = o.min === undefined ? -3 : finiteNumber('options.min', o.min);
  const max = o.max === undefined ? 3 : finiteNumber('options.max', o.max);
  if (!(min < max)) {
    throw new GateLabError(`options.min (${min}) must be less than options.max (${max})`,
      { argument: 'options.min', code: 'invalid-value' });
  }
  const n = o.n === undefined ? defaultN : integer('options.n', o.n, { min: 2, max: core.module._maxCurvePoints });
  const beta = o.beta === undefined ? 1 : finiteNumber('options.beta', o.beta);
  if (Math.abs(beta) > core.module._maxSwishBeta) {
    throw new GateLabError(`options.beta must satisfy |beta| <= ${core.module._maxSwishBeta} (got ${beta})`,
      { argument: 'options.beta', code: 'out-of-range' });
  }
  return { index, beta, min, max, n };
}

/** Samples of σ on [min, max]: { z, value, derivative, ratio } with ratio = σ(z)/z (σ'(0) at 0). */
export function activationCurve(core, name, options) {
  const { index, beta, min, max, n } = curveOptions(core, name, options, 256, 'activationCurve');
  const [error, z, value, derivative, ratio] = core.heap.call([], [n, n, n, n],
    (pz, pv, pd, pr) => core.module._activationCurve(index, beta, min, max, n, pz, pv, pd, pr));
  throwCoreError(error, { argument: 'options', prefix: 'options', fields: ['min', 'max', 'n', 'beta'] });
  return { z, value, derivative, ratio };
}
