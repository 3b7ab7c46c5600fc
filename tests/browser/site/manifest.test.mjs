// custom-elements.json: named by package.json "customElements" and shipped in "files"; up to
// date with the figures (scripts/manifest.mjs regenerates it from their schemas and rendered
// parts); every figure registered in the browser is declared with exactly the attributes it
// observes, the events it dispatches, its CSS parts and the theme's custom properties.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSession, root } from '../harness.mjs';
import { generateManifest, MANIFEST } from '../../../scripts/manifest.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const committed = readFileSync(MANIFEST, 'utf8');
const manifest = JSON.parse(committed);
const declarations = manifest.modules.flatMap((m) => m.declarations.map((d) => ({ ...d, module: m.path })));

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name))
    : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
}

describe('custom-elements.json', () => {
  let session;
  let collected;
  let regenerated;
  before(async () => {
    session = await startSession();
    [regenerated, collected] = await generateManifest({ browser: session.browser, serverUrl: session.server.url });
  });
  after(() => session?.close());

  it('is named by package.json and shipped with the package', () => {
    assert.equal(pkg.customElements, 'custom-elements.json');
    assert.ok(pkg.files.includes('custom-elements.json'));
    assert.match(manifest.schemaVersion, /^2\.\d+\.\d+$/);
  });

  it('is up to date with the figures (node scripts/manifest.mjs regenerates it)', () => {
    assert.equal(committed, regenerated, 'custom-elements.json is stale: run `npm run manifest`');
  });

  it('declares every registered figure with exactly the attributes it observes, its events, parts and properties',
    async () => {
    const registered = collected.figures.filter((f) => f.registered).map((f) => f.tag).sort();
    assert.equal(registered.length, collected.figures.length, 'each figure of FIGURES is the registered class');
    assert.deepEqual(declarations.map((d) => d.tagName).sort(), registered);
    const themeCss = readFileSync(join(root, 'web/components/base/figure-styles.js'), 'utf8');
    const themeProperties = [...new Set(themeCss.match(/--gatelab-[a-z0-9-]+/g))].sort();
    for (const figure of collected.figures) {
      const declared = declarations.find((d) => d.tagName === figure.tag);
      assert.deepEqual(declared.attributes.map((a) => a.name).sort(), [...figure.observed].sort(), figure.tag);
      assert.deepEqual(declared.cssParts.map((p) => p.name), figure.parts, `${figure.tag} parts`);
      assert.deepEqual(declared.cssProperties.map((p) => p.name).sort(), themeProperties,
        `${figure.tag} custom properties`);
      for (const name of ['ready', 'change', 'error', ...Object.keys(figure.events)]) {
        assert.ok(declared.events.some((e) => e.name === name), `${figure.tag} declares ${name}`);
      }
      for (const attribute of declared.attributes) {
        assert.ok(attribute.type.text && attribute.default !== undefined, attribute.name);
      }
      assert.ok(declared.description.length > 20, `${figure.tag} has a description`);
    }
    // Every event a figure file dispatches is declared by a figure (or common to all).
    const declaredEvents = new Set(declarations.flatMap((d) => d.events.map((e) => e.name)));
    const dispatched = sourceFiles(join(root, 'web/components')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/new CustomEvent\('([a-z-]+)'/g)].map((m) => m[1]));
    for (const name of new Set(dispatched)) assert.ok(declaredEvents.has(name), `event ${name} is declared`);
  });
});
