// `npm pack` produces a tarball that installs into an empty folder and works there: the
// package's exports resolve (and only the public entries do), the wasm loads from inside
// node_modules, and the files whitelist ships what a user needs and nothing of the repository's
// insides.
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
      'web/dist/gatelab_wasm.wasm', 'web/dist/gatelab.embed.js', 'web/components/index.js', 'package.json']) {
      assert.ok(files.includes(needed), `tarball lacks ${needed}`);
    }
    assert.ok(!files.some((f) => f.startsWith('cpp/') || f.startsWith('tests/') || f.startsWith('build/')));

    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--no-audit', '--no-fund', '--offline', join(dir, listing.filename)], app);
    assert.ok(existsSync(join(app, 'node_modules/gatelab/web/dist/gatelab_wasm.wasm')));
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
        figures: Object.keys(FIGURES).length, internal }));
    `);
    const out = JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' }));
    assert.equal(out.version, out.pkg);
    assert.ok(Number.isFinite(out.y) && out.y !== 0);
    assert.equal(out.refused, true);
    assert.equal(out.live, 0);
    assert.equal(out.figures, 11, 'gatelab/components exports FIGURES');
    assert.equal(out.internal, 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'component internals are not public');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
