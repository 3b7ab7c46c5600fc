// The training half of the lab (docs/MATH.md §A5 layers on 2-D tasks): datasets named by a
// seed, a trainer stepped in coarse calls, and the race. Every number comes from the C++ core
// (cpp/src/train/); this file validates, copies arrays in and out, and throws GateLabError.
// installTrain(core) returns the members gatelab.js puts on the lab.
import { throwCoreError } from '../core/errors.js';
import { fail, optionsOf } from '../core/validate.js';
import { dataOptions, nestedData, TASKS, trainOptions } from './options.js';
import { race } from './race.js';
import { Trainer } from './trainer.js';

const OPTIONS = { argument: 'options', prefix: 'options' };

export function installTrain(core) {
  const m = core.module;

  const datasets = Object.freeze({
    /** The task names; the first six are generated, 'user' takes options.points. */
    tasks: TASKS,
    /** { task, xTrain, yTrain, xTest, yTest } of one task, named by its options. */
    make(task, options) {
      const { data, points } = dataOptions(core, task, options, 'options');
      const sizes = m._paDatasetSizes(data, points.count);
      throwCoreError(sizes.error, OPTIONS);
      const [error, xTrain, yTrain, xTest, yTest] = core.heap.call([points.x, points.y],
        [2 * sizes.train, sizes.train, 2 * sizes.test, sizes.test],
        (px, py, a, b, c, d) => m._paMakeDataset(data, points.count ? px : 0, points.count ? py : 0, points.count,
          a, b, c, d));
      throwCoreError(error, OPTIONS);
      return { task, xTrain, yTrain, xTest, yTest };
    },
  });

  /** A trainer; see train.d.ts for the options. Dispose it when done. */
  function createTrainer(options) {
    if (options === undefined) fail('options', 'an options object', options, 'invalid-type');
    const o = optionsOf('options', options, 'createTrainer');
    const train = trainOptions(core, o);
    const { data, points } = nestedData(core, o);
    const [handle] = core.heap.call([points.x, points.y], [], (px, py) => {
      const x = points.count ? px : 0, y = points.count ? py : 0;
      throwCoreError(m._paValidateTrainer(train, data, x, y, points.count), OPTIONS);
      return m._paCreateTrainer(train, data, x, y, points.count);
    });
    return new Trainer(core, handle, { ...train, data: { ...data } });
  }

  return { datasets, createTrainer, race: (options) => race(core, options) };
}
