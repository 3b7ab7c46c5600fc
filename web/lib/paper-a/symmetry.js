// lab.symmetry: the probes of paper A (docs/MATH.md §A7, §A8) over a layer and a batch, the
// exchange plane g(a, b) = σ(a)b − σ(b)a that makes the proof of §A7 visible, and the layer's
// empirical neural tangent kernel (§A22).
import { throwCoreError } from '../core/errors.js';
import { curveOptions } from '../base/activations.js';
import { fail, finiteNumber, floatArray } from '../core/validate.js';
import { checkBatch, layerHandle } from './layer.js';

const LAYER = { argument: 'layer', fields: [] };
const LAYER_ROWS = { argument: 'layer', fields: ['rows'] };

export function createSymmetry(core) {
  const m = core.module;
  const gap = (layer, x, rows, exchange, alpha) => {
    layerHandle(layer);
    const handle = checkBatch(layer, x, rows);
    const [result] = core.heap.call([x], [], (px) => m._symmetryGap(handle, px, rows, exchange, alpha));
    throwCoreError(result.error, LAYER);
    return result.value;
  };

  return Object.freeze({
    /** ‖f_{K,Q}(X) − f_{Q,K}(X)‖_F / ‖f_{Q,K}(X)‖_F. */
    exchangeGap(layer, x, rows) {
      return gap(layer, x, rows, true, 1);
    },

    /** ‖f_{αQ,K/α}(X) − f(X)‖_F / ‖f(X)‖_F; alpha may be a number or a Float32Array with one α per unit. */
    scalingGap(layer, x, rows, alpha) {
      if (alpha instanceof Float32Array) {
        layerHandle(layer);
        const handle = checkBatch(layer, x, rows);
        floatArray('alpha', alpha, layer.options.hidden, `hidden = ${layer.options.hidden}`);
        if (alpha.some((a) => a === 0)) fail('alpha', 'non-zero in every unit', alpha, 'out-of-range');
        const [result] = core.heap.call([x, alpha], [], (px, pa) => m._scalingGapPerUnit(handle, px, rows, pa));
        throwCoreError(result.error, LAYER);
        return result.value;
      }
      finiteNumber('alpha', alpha, { nonZero: true });
      return gap(layer, x, rows, false, alpha);
    },

    /**
     * The empirical NTK of the layer on x (docs/MATH.md §A22): { gram, eigenvalues, conditionNumber }, computed
     * in double by the core from the layer's own backward.
     */
    ntk(layer, x, rows) {
      layerHandle(layer);
      const handle = checkBatch(layer, x, rows);
      const [r] = core.heap.call([x], [], (px) => m._symmetryNtk(handle, px, rows));
      throwCoreError(r.error, LAYER_ROWS);
      return { gram: r.gram, eigenvalues: r.eigenvalues, conditionNumber: r.conditionNumber };
    },

    /**
     * Float32Array n·n: row i is a_i, column j is b_j, value σ(a)b − σ(b)a; with options.symmetrize λ
     * (docs/MATH.md §A11, §A16) what the swap changes in the symmetrised unit, (1 − λ)(σ(a)b − σ(b)a).
     */
    exchangePlane(activation, options) {
      const { index, beta, min, max, n } = curveOptions(core, activation, options, 64, 'symmetry.exchangePlane');
      // Its range is the core's to check, with the layer's own rule (validate_symmetrize).
      const lambda = options?.symmetrize === undefined ? 0 : finiteNumber('options.symmetrize', options.symmetrize);
      const [error, plane] = core.heap.call([], [n * n],
        (p) => m._exchangePlane(index, beta, min, max, n, lambda, p));
      throwCoreError(error,
        { argument: 'options', prefix: 'options', fields: ['min', 'max', 'n', 'beta', 'symmetrize'] });
      return plane;
    },
  });
}
