// `npm pack` produces a tarball that installs into an empty folder and works there: the
// package's exports resolve (and only the public entries do), the wasm loads from inside
// node_modules, the files whitelist ships what a user needs and nothing of the repository's
// insides, and the symmetry contract (symmetrize, lab.symmetry.ntk, the trainer's gradientNorm,
// teleport and balance, symmetrised race models) works as an outside script calls it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('the packed tarball installs into an empty folder and works from node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatelab-pack-'));
  try {
    const listing = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], root))[0];
    const files = listing.files.map((f) => f.path);
    for (const needed of ['web/lib/gatelab.js', 'web/lib/gatelab.d.ts', 'web/dist/gatelab_wasm.mjs',
      'web/dist/gatelab_wasm.wasm', 'web/dist/gatelab.embed.js', 'web/dist/lm-text.txt', 'web/components/index.js',
      'package.json', 'custom-elements.json', 'web/demos/frame.html', 'web/demos/frame.js', 'web/hosts/frame-host.js',
      'web/hosts/oembed.js',
      'web/hosts/hugo/layouts/shortcodes/gatelab.html', 'web/hosts/jekyll/_includes/gatelab.html']) {
      assert.ok(files.includes(needed), `tarball lacks ${needed}`);
    }
    assert.ok(!files.some((f) => f.startsWith('cpp/') || f.startsWith('tests/') || f.startsWith('build/')));

    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--no-audit', '--no-fund', '--offline', join(dir, listing.filename)], app);
    assert.ok(existsSync(join(app, 'node_modules/gatelab/web/dist/gatelab_wasm.wasm')));
    // <gatelab-lm> fetches its text from beside the wasm.
    assert.ok(existsSync(join(app, 'node_modules/gatelab/web/dist/lm-text.txt')));
    writeFileSync(join(app, 'main.mjs'), `
      import { loadGateLab, GateLabError } from 'gatelab';
      import pkg from 'gatelab/package.json' with { type: 'json' };
      const lab = await loadGateLab();
      const layer = lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 2, hidden: 4, dOut: 1, seed: 1 });
      const y = layer.forward(new Float32Array([1, 2]), 1);
      let refused = false;
      try { lab.createLayer({ kind: 'nope' }); } catch (e) { refused = e instanceof GateLabError; }
      layer.dispose();
      // The figures' entry loads without a DOM (defining nothing); their internals are not exported.
      const { FIGURES } = await import('gatelab/components');
      const internal = await import('gatelab/components/base/labels.js').then(() => 'exported', (e) => e.code);
      console.log(JSON.stringify({ version: lab.version, pkg: pkg.version, y: y[0], refused, live: lab.liveObjects(),
        figures: Object.keys(FIGURES).length, internal, symmetry: symmetryContract(lab, GateLabError) }));

      // The symmetry contract as an outside user calls it (docs/MATH.md §A11, §A14, §A21, §A22).
      function symmetryContract(lab, GateLabError) {
        const code = (fn) => {
          try {
            fn();
            return 'ok';
          } catch (e) {
            return e instanceof GateLabError ? e.argument + ':' + e.code : String(e);
          }
        };
        const options = { kind: 'gated', activation: 'silu', dIn: 2, hidden: 4, dOut: 1, rank: 2, seed: 1 };
        const x = Float32Array.of(1, 2, -1, 0.5), g = Float32Array.of(1, -1);
        const plain = lab.createLayer(options), zero = lab.createLayer({ ...options, symmetrize: 0 });
        const sym = lab.createLayer({ ...options, symmetrize: 1 }), swapped = sym.exchanged(), scaled = sym.rescaled(2);
        const sameBits = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
        const ntk = lab.symmetry.ntk(sym, x, 2);
        const trainer = lab.createTrainer({ kind: 'gated', activation: 'relu', symmetrize: 0.5, optimizer: 'sgd',
          batchSize: 0 });
        const norm = trainer.gradientNorm(), moved = trainer.teleport(new Float32Array(8).fill(2));
        const balance = trainer.balance();
        const swiglu = lab.createTrainer({ kind: 'gated', activation: 'silu' });
        const race = lab.race({ steps: 5, seeds: 1, models: [{ kind: 'gated', activation: 'silu', symmetrize: 1 }] });
        const out = {
          lambda: [plain.options.symmetrize, sym.options.symmetrize, swapped.options.symmetrize,
            scaled.options.symmetrize],
          zeroSameBits: sameBits(zero.forward(x, 2), plain.forward(x, 2))
            && sameBits(zero.backward(x, 2, g).dQ, plain.backward(x, 2, g).dQ),
          exchangeGap: lab.symmetry.exchangeGap(sym, x, 2),
          swappedSame: sameBits(swapped.forward(x, 2), sym.forward(x, 2)),
          ntk: [ntk.gram.constructor.name, ntk.gram.length, ntk.eigenvalues.length, ntk.conditionNumber > 1],
          teleport: [Math.abs(moved.lossAfter - moved.lossBefore) <= 1e-6 * moved.lossBefore,
            moved.gradNormBefore === norm, moved.gradNormAfter !== moved.gradNormBefore, balance.constructor.name,
            balance.length],
          race: [race.models[0].label, race.models[0].symmetrize],
          refusals: [code(() => lab.createLayer({ ...options, symmetrize: 2 })),
            code(() => lab.createLayer({ ...options, kind: 'mlp', symmetrize: 0.5 })),
            code(() => lab.symmetry.ntk(sym, new Float32Array(2 * 300), 300)), code(() => swiglu.teleport(2)),
            code(() => trainer.teleport(0))],
        };
        for (const h of [plain, zero, sym, swapped, scaled, trainer, swiglu]) h.dispose();
        out.live = lab.liveObjects();
        return out;
      }
    `);
    const out = JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' }));
    assert.equal(out.version, out.pkg);
    assert.ok(Number.isFinite(out.y) && out.y !== 0);
    assert.equal(out.refused, true);
    assert.equal(out.live, 0);
    assert.equal(out.figures, 15, 'gatelab/components exports FIGURES');
    assert.equal(out.internal, 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'component internals are not public');
    assert.deepEqual(out.symmetry, { lambda: [0, 1, 1, 1], zeroSameBits: true, exchangeGap: 0, swappedSame: true,
      ntk: ['Float64Array', 4, 2, true], teleport: [true, true, true, 'Float32Array', 8], race: ['symgated (SiLU)', 1],
      refusals: ['symmetrize:out-of-range', 'symmetrize:unsupported', 'rows:out-of-range', 'this:unsupported',
        'factors:out-of-range'], live: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
