// lab.symmetry: the probes of paper A (MATH.md A7, A8) over a layer and a batch, and the
// exchange plane g(a, b) = σ(a)b − σ(b)a that makes the proof of A7 visible.
import { throwIfError } from '../core/errors.js';
import { Layer } from './layer.js';
import { fail, finiteNumber, floatArray, integer } from '../core/validate.js';

function checkLayer(layer) {
  if (!(layer instanceof Layer)) fail('layer', 'a layer made by lab.createLayer', layer);
  return layer.handle;  // throws when disposed
}

export function createSymmetry(lab) {
  const gap = (layer, x, rows, exchange, alpha) => {
    const handle = checkLayer(layer);
    integer('rows', rows, { min: 1, max: handle.maxRows() });
    floatArray('x', x, rows * layer.dIn, `rows·dIn = ${rows * layer.dIn}`);
    const [result] = lab.heap.call([x], [], (px) => lab.module.symmetryGap(handle, px, rows, exchange, alpha));
    throwIfError(result.error, 'layer');
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
        const handle = checkLayer(layer);
        integer('rows', rows, { min: 1, max: handle.maxRows() });
        floatArray('x', x, rows * layer.dIn, `rows·dIn = ${rows * layer.dIn}`);
        floatArray('alpha', alpha, layer.options.hidden, `hidden = ${layer.options.hidden}`);
        if (alpha.some((a) => a === 0)) fail('alpha', 'non-zero in every unit', alpha);
        const [result] = lab.heap.call([x, alpha], [], (px, pa) => lab.module.scalingGapPerUnit(handle, px, rows, pa));
        throwIfError(result.error, 'layer');
        return result.value;
      }
      finiteNumber('alpha', alpha, { nonZero: true });
      return gap(layer, x, rows, false, alpha);
    },

    /** Float32Array n·n: row i is a_i, column j is b_j, value σ(a)b − σ(b)a. */
    exchangePlane(activation, options) {
      const { index, beta, min, max, n } = lab.curveOptions(activation, options, 64);
      const [error, plane] = lab.heap.call([], [n * n], (p) => lab.module.exchangePlane(index, beta, min, max, n, p));
      throwIfError(error, 'options');
      return plane;
    },
  });
}
