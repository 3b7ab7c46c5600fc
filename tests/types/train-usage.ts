// Compiled with tsc --noEmit (tests/js/train/types.test.mjs): datasets, trainers and the race as a
// figure or a page script uses them.
import { loadGateLab, type Curves, type Dataset, type RaceResult, type Trainer, type TrainerOptions,
  type TrainerWeights } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  const tasks: readonly string[] = lab.datasets.tasks;
  const data: Dataset = lab.datasets.make('spiral', { count: 120, noise: 0.05, trainFraction: 0.75, seed: 3 });
  const teacher = lab.datasets.make('teacher',
    { teacher: { kind: 'symmetric', activation: 'tanh', hidden: 4, rank: 1 } });
  const user = lab.datasets.make('user', { points: { x: new Float32Array(8), y: new Float32Array(4) } });

  const options: TrainerOptions = { kind: 'gated', activation: 'silu', hidden: 8, rank: 1, seed: 5, biasFeature: true,
    loss: 'cross_entropy', optimizer: 'adam', learningRate: 0.03, beta1: 0.9, beta2: 0.999, epsilon: 1e-8,
    batchSize: 32, evalEvery: 1, data: { task: 'xor', seed: 2 } };
  const trainer: Trainer = lab.createTrainer(options);
  const minimal: Trainer = lab.createTrainer({ kind: 'mlp' });
  const r = trainer.step(150);
  const done: number = r.done;
  const records: Curves = r.records;
  if (r.divergence) console.log(r.divergence.cause === 'gradient', r.divergence.message, r.divergence.rolledBackTo);
  const history: Float32Array = trainer.history().testAccuracy;
  const grid: Float32Array = trainer.grid(16, 1.2);
  const xTrain: Float32Array = trainer.data().xTrain;
  const weights: TrainerWeights = trainer.weights();
  const json: string = JSON.stringify(weights);
  const task: string = trainer.options.data.task;
  const rate: number = trainer.options.learningRate;
  trainer.setLearningRate(0.01);
  const steps: number = trainer.stepsDone;
  [trainer, minimal].forEach((t) => t.dispose());

  const race: RaceResult = lab.race({ data: { task: 'gaussians', count: 120 }, steps: 60, seeds: 2, learningRate: 0.03,
    models: [{ kind: 'mlp' }, { kind: 'gated', activation: 'silu' }, 'bilinear',
      { kind: 'gated', activation: 'silu', symmetrize: 1 }],
    widthRule: 'budget', budget: 128 });
  const lambda: number = race.models[3].symmetrize;
  const layerLambda: number = lab.createTrainer({ kind: 'gated', symmetrize: 1 }).weights().layer.symmetrize;
  const first = race.models[0];
  const band: Float32Array = first.curves.testAccuracy.mean;
  const finals: number[] = first.final.testAccuracy.values;
  const summary = lab.stats.summary(first.final.testLoss.values);
  const shazeer = lab.race({ steps: 10, widthRule: 'shazeer', mlpHidden: 30 });
  const widths: number[] = shazeer.models.map((m) => m.hidden);
  const defaults: string[] = lab.race().options.models;
  console.log(tasks, data, teacher, user, done, records, history, grid, xTrain, json, task, rate, steps, band, finals,
    summary.ci95, widths, defaults, first.label, first.parameters, lambda, layerLambda);
}
async function languageModel(): Promise<void> {
  const lab = await loadGateLab();
  const corpus = lab.lm.createCorpus('the gate and the key. '.repeat(60), { devFraction: 0.05 });
  const size: number = corpus.sizes.validation;
  const session = lab.lm.createSession({ corpus, mlp: { kind: 'gated', activation: 'silu', symmetrize: 1 }, d: 16,
    layers: 1, heads: 2, context: 8, batch: 2, optimizer: 'adamw', learningRate: 0.004, seed: 3 });
  const losses: Float64Array = session.train(10);
  const loss: number = session.evaluate('dev', 8);
  const text: string = session.sample({ count: 20, temperature: 0.8 });
  const share: number = session.diagnostics()[0].antisymmetricShare;
  const bytes: Uint8Array = session.checkpoint();
  session.restore(bytes);
  const hidden: number = session.options.mlp.hidden;
  const width: number = lab.lm.hiddenForBudget({ kind: 'symmetric', rank: 2, d: 64, budget: 24576 });
  console.log(size, losses, loss, text, share, hidden, width, corpus.baselines.unigram);
  session.dispose();
  corpus.dispose();
}
void main();
void languageModel();
