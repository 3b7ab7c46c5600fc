// The tasks of <gatelab-teleport> and <gatelab-conservation> (docs/MATH.md §A14, §A21): what a
// symmetry does to training. Every number is the library's: trainer.probeOrbit along one unit's
// orbit, trainer.bestFactors and trainer.teleport, the training curves, lab.stats over seeds, and
// trainer.balance / balanceDrift. Each task rebuilds its trainers from the options (a seed names
// them exactly), so a state names its picture and no session has to outlive a worker.

/** The four layers both figures offer, as trainer options; 'swiglu' has no orbit (SiLU is not homogeneous). */
export const ORBIT_LAYERS = {
  reglu: { kind: 'gated', activation: 'relu' },
  bilinear: { kind: 'gated', activation: 'identity' },
  symmetric: { kind: 'symmetric', activation: 'relu' },
  swiglu: { kind: 'gated', activation: 'silu' },
};

/** n factors log-spaced on [1/reach, reach] (odd n: c = 1 in the middle). */
export function logGrid(reach, n) {
  return Float32Array.from({ length: n }, (_, i) => (i === (n - 1) / 2 ? 1 : reach ** ((2 * i) / (n - 1) - 1)));
}

/** The library's refusal of a layer without the orbit, as a value: null when the layer has one. */
function refusal(error) {
  if (error?.code === 'unsupported') return error.message;
  throw error;
}

function seedOptions(options, s) {
  return { ...options, seed: options.seed + s, data: { ...options.data, seed: (options.data.seed ?? 0) + s } };
}

/** lab.stats.summary of every record over seeds: mean and the 95 % interval (the mean alone for one seed). */
function band(lab, curves) {
  const length = Math.min(...curves.map((c) => c.length));
  const mean = new Float64Array(length), lo = new Float64Array(length), hi = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const values = curves.map((c) => c[i]);
    if (!values.every(Number.isFinite)) {
      mean[i] = lo[i] = hi[i] = NaN;
      continue;
    }
    const s = lab.stats.summary(values);
    mean[i] = s.mean;
    [lo[i], hi[i]] = values.length > 1 ? s.ci95 : [s.mean, s.mean];
  }
  return { mean, lo, hi };
}

export const symmetryTasks = {
  /**
   * A layer trained `trained` full-batch steps, moved `teleports` times to bestFactors({ goal, reach }),
   * then probed along unit `unit`'s orbit (`points` factors on [1/10, 10]) and at c.
   * @returns {{ supported: boolean, message: string, lossNow: number, gradNow: number, orbit?: object,
   *   at?: object, here?: object, jumps: object[], best?: Float32Array, balance?: Float32Array }}
   */
  *teleportOrbit(lab, { options, trained, teleports, goal, reach, unit, c, points = 41 }) {
    const trainer = lab.createTrainer(options);
    try {
      if (trained > 0) trainer.step(trained);
      yield 0.2;
      const h = trainer.history();
      const out = { supported: true, message: '', stepsDone: trainer.stepsDone, lossNow: h.trainLoss.at(-1),
        gradNow: trainer.gradientNorm(), jumps: [] };
      const factors = new Float32Array(options.hidden).fill(1);
      try {
        out.here = trainer.probeOrbit(factors);
      } catch (error) {
        return { ...out, supported: false, message: refusal(error) };
      }
      for (let k = 0; k < teleports; k++) out.jumps.push(trainer.teleport(trainer.bestFactors({ goal, reach })));
      yield 0.4;
      const grid = logGrid(10, points);
      const orbit = { c: grid, loss: new Float64Array(points), gradNorm: new Float64Array(points),
        nextLoss: new Float64Array(points) };
      for (let i = 0; i < points; i++) {
        factors[unit] = grid[i];
        const p = trainer.probeOrbit(factors);
        [orbit.loss[i], orbit.gradNorm[i], orbit.nextLoss[i]] = [p.loss, p.gradNorm, p.nextLoss];
      }
      yield 0.9;
      factors[unit] = c;
      out.at = trainer.probeOrbit(factors);
      factors.fill(1);
      out.here = trainer.probeOrbit(factors);
      out.best = trainer.bestFactors({ goal, reach });
      out.balance = trainer.balance();
      out.orbit = orbit;
      return out;
    } finally {
      trainer.dispose();
    }
  },

  /**
   * Plain full-batch gradient descent against the same with a teleport to bestFactors({ goal, reach }) before
   * every `every` steps, over `seeds` seeds (seed s: init seed + s, data seed + s); bands from lab.stats.
   * @returns {{ step: Float32Array, plain: object, teleported: object|null, final: object, paired: object|null,
   *   supported: boolean, message: string, diverged: { plain: number, teleported: number } }}
   */
  *teleportRace(lab, { options, steps, every, goal, reach, seeds }) {
    const curves = { plain: [], teleported: [] };
    const diverged = { plain: 0, teleported: 0 };
    let step = null;
    let message = '';
    for (let s = 0; s < seeds; s++) {
      const o = seedOptions(options, s);
      const plain = lab.createTrainer(o);
      const moved = lab.createTrainer(o);
      try {
        for (let done = 0; done < steps; done += every) {
          const n = Math.min(every, steps - done);
          if (!plain.divergence) plain.step(n);
          if (!message && !moved.divergence) {
            try {
              moved.teleport(moved.bestFactors({ goal, reach }));
            } catch (error) {
              message = refusal(error);
            }
          }
          if (!message && !moved.divergence) moved.step(n);
          yield (s + (done + n) / steps) / seeds;
        }
        const h = plain.history();
        step = step && step.length <= h.step.length ? step : h.step;
        curves.plain.push(h.trainLoss);
        diverged.plain += plain.divergence ? 1 : 0;
        if (!message) {
          curves.teleported.push(moved.history().trainLoss);
          diverged.teleported += moved.divergence ? 1 : 0;
        }
      } finally {
        plain.dispose();
        moved.dispose();
      }
    }
    const finals = (list) => list.map((c) => c.at(-1));
    const plainBand = band(lab, curves.plain);
    const teleported = message ? null : band(lab, curves.teleported);
    const last = { plain: finals(curves.plain), teleported: message ? [] : finals(curves.teleported) };
    const comparable = !message && seeds > 1 && [...last.plain, ...last.teleported].every(Number.isFinite);
    return { step: step.slice(0, plainBand.mean.length), plain: plainBand, teleported, final: last,
      paired: comparable ? lab.stats.paired(last.teleported, last.plain) : null,
      supported: !message, message, diverged };
  },

  /**
   * Balance drift (trainer.balanceDrift) after the same time η·T at every rate of `rates` (rate i runs
   * baseSteps·2^i full-batch steps; rates halve), for every layer of ORBIT_LAYERS, with `optimizer`; and
   * the per-unit balance over the steps of one run (`layer` at rates[rung]).
   * @returns {{ rates: number[], steps: number[], drift: object, diverged: object, trace: object }}
   */
  *conservation(lab, { data, hidden, seed, optimizer, rates, baseSteps, layer, rung, samples = 40 }) {
    const names = Object.keys(ORBIT_LAYERS);
    const steps = rates.map((_, i) => baseSteps * 2 ** i);
    const drift = {}, diverged = {};
    const trace = { step: [], balance: [] };
    let done = 0;
    for (const name of names) {
      drift[name] = new Float64Array(rates.length);
      diverged[name] = rates.map(() => false);
      for (let i = 0; i < rates.length; i++) {
        const trainer = lab.createTrainer({ ...ORBIT_LAYERS[name], hidden, seed, data, loss: 'cross_entropy',
          optimizer, learningRate: rates[i], batchSize: 0, evalEvery: Math.min(100000, steps[i]) });
        try {
          if (name === layer && i === rung) {
            const chunk = Math.max(1, Math.round(steps[i] / samples));
            trace.step.push(0);
            trace.balance.push(trainer.balance());
            for (let t = 0; t < steps[i] && !trainer.divergence; t += chunk) {
              trainer.step(Math.min(chunk, steps[i] - t));
              trace.step.push(trainer.stepsDone);
              trace.balance.push(trainer.balance());
            }
          } else {
            trainer.step(steps[i]);
          }
          drift[name][i] = trainer.balanceDrift();
          diverged[name][i] = Boolean(trainer.divergence);
        } finally {
          trainer.dispose();
        }
        yield ++done / (names.length * rates.length);
      }
    }
    return { rates, steps, drift, diverged, trace };
  },
};
