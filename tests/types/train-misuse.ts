// Must NOT compile: tests/js/train/types.test.mjs checks that tsc rejects each line marked below.
import { loadGateLab } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  lab.datasets.make('moons'); // error: task name
  lab.createTrainer({ activation: 'silu' }); // error: kind is required
  lab.createTrainer({ kind: 'gated', optimizer: 'lion' }); // error: optimizer name
  lab.createTrainer({ kind: 'gated', data: { task: 'xor', points: [1, 2] } }); // error: points are Float32Arrays
  lab.race({ models: ['gated:relu'] }); // error: a model is { kind, activation } or 'bilinear'
  lab.race({ widthRule: 'chinchilla' }); // error: widthRule
  const t = lab.createTrainer({ kind: 'mlp' });
  const done: string = t.step(5).done; // error: number
  t.options.learningRate = 1; // error: read-only
  const cause: 'nan' = t.divergence!.cause; // error: 'gradient' | 'overflow'
  console.log(done, cause);
  const corpus = lab.lm.createCorpus('text '.repeat(300));
  lab.lm.createSession({ corpus, mlp: { kind: 'ffn' } }); // error: kind is 'mlp' | 'symmetric' | 'gated'
  lab.lm.createSession({ corpus, optimizer: 'lion' }); // error: optimizer name
  const s = lab.lm.createSession({ corpus });
  s.evaluate('test'); // error: split
  const n: string = s.stepsDone; // error: number
  lab.race({ symmetrize: 1 }); // error: symmetrize is per model
  const r: string = t.teleport(2).lossAfter; // error: number
  console.log(n, r);
}
void main();
