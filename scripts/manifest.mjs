// Generates custom-elements.json (Custom Elements Manifest, schema 2.1) from the figures
// themselves, so there is one source of truth: each registered figure's attributes and
// properties from its `static schema` (types, defaults, ranges; enum values from the loaded
// library), the common attributes, events and theme properties (base/figure-meta.js), its own
// events (`static events`), and its CSS parts as rendered in headless Chromium. The file is
// committed (editors and the npm package read it); `--check` fails when it is out of date,
// and tests/browser/site/manifest.test.mjs runs that check.
//   node scripts/manifest.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MANIFEST = join(root, 'custom-elements.json');

/** Which module declares each figure class, read from the imports of web/components/index.js. */
function classModules() {
  const source = readFileSync(join(root, 'web/components/index.js'), 'utf8');
  const modules = {};
  for (const [, name, path] of source.matchAll(/^import \{ (\w+) \} from '\.\/([^']+)';$/gm)) {
    modules[name] = `web/components/${path}`;
  }
  return modules;
}

/** Runs in the page: every figure's schema, statics and rendered parts. */
async function collectInPage() {
  const components = await import('/components/index.js');
  const meta = await import('/components/base/figure-meta.js');
  const lab = await components.sharedLab();
  const figures = [];
  for (const [tag, figureClass] of Object.entries(components.FIGURES)) {
    const element = document.createElement(tag);
    document.body.prepend(element);  // in view: figures start lazily
    element.scrollIntoView();
    await element.ready;
    // The Share dialog is built on first use: open it once so its parts are listed too.
    element.shadowRoot.querySelector('button[part~="share"]').click();
    // A figure whose Share button opens nothing fails here by name instead of hanging the run.
    const since = performance.now();
    await new Promise((resolve, reject) => {
      const wait = () => (element.shadowRoot.querySelector('dialog[open]') ? resolve()
        : performance.now() - since > 10000 ? reject(new Error(`<${tag}>: the Share button opened no dialog`))
          : setTimeout(wait, 10));
      wait();
    });
    element.shadowRoot.querySelector('dialog').close();
    const parts = new Set();
    for (const node of element.shadowRoot.querySelectorAll('[part]')) {
      for (const token of node.getAttribute('part').split(/\s+/)) if (token) parts.add(token);
    }
    const schema = Object.entries(figureClass.schema).map(([name, spec]) => ({
      name, type: spec.type, default: spec.default, min: spec.min, max: spec.max, pattern: spec.pattern?.source,
      description: spec.description,
      values: typeof spec.values === 'function' ? spec.values({ lab }) : spec.values,
    }));
    figures.push({ tag, className: figureClass.name, description: figureClass.description,
      events: figureClass.events, schema, observed: figureClass.observedAttributes, parts: [...parts].sort(),
      registered: customElements.get(tag) === figureClass });
    element.remove();
  }
  return { figures,
    common: { attributes: meta.COMMON_ATTRIBUTES, events: meta.COMMON_EVENTS, cssProperties: meta.THEME_PROPERTIES } };
}

const kebab = (name) => name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

function typeText(spec) {
  if (spec.type === 'integer' || spec.type === 'number') return 'number';
  if (spec.type === 'enum') return spec.values ? spec.values.map((v) => `'${v}'`).join(' | ') : 'string';
  return spec.type;
}

function describe(spec) {
  if (spec.description) return spec.description;
  const range = spec.min !== undefined ? ` in ${spec.min}…${spec.max}` : '';
  if (spec.type === 'integer') return `An integer${range}.`;
  if (spec.type === 'number') return `A number${range}.`;
  if (spec.type === 'enum') return `One of ${spec.values?.join(', ') ?? 'the library’s names'}.`;
  if (spec.type === 'boolean') return 'Present (or "true") or absent (or "false").';
  return spec.pattern ? `Text matching /${spec.pattern}/.` : 'Text.';
}

/** The manifest object from what collectInPage found. */
export function buildManifest({ figures, common }) {
  const modules = classModules();
  const base = { name: 'GateLabFigure', module: 'web/components/base/gatelab-figure.js' };
  const declarations = new Map();
  for (const figure of figures) {
    const path = modules[figure.className];
    if (!path) throw new Error(`manifest: no module for ${figure.className}`);
    const attributes = figure.schema.map((spec) => ({ name: kebab(spec.name), type: { text: typeText(spec) },
      default: JSON.stringify(spec.default), description: describe(spec), fieldName: spec.name }));
    for (const [name, description] of Object.entries(common.attributes)) {
      attributes.push({ name, type: { text: 'boolean' }, default: 'false', description });
    }
    const members = figure.schema.map((spec) => ({ kind: 'field', name: spec.name, type: { text: typeText(spec) },
      default: JSON.stringify(spec.default), description: describe(spec), attribute: kebab(spec.name),
      reflects: true }));
    const events = Object.entries({ ...common.events, ...figure.events })
      .map(([name, description]) => ({ name, type: { text: 'CustomEvent' }, description }));
    declarations.set(path, {
      kind: 'javascript-module',
      path,
      declarations: [{ kind: 'class', name: figure.className, description: figure.description, customElement: true,
        tagName: figure.tag, superclass: base, attributes, members, events,
        cssParts: figure.parts.map((name) => ({ name })),
        cssProperties: Object.entries(common.cssProperties).map(([name, description]) => ({ name, description })) }],
      exports: [
        { kind: 'js', name: figure.className, declaration: { name: figure.className, module: path } },
        { kind: 'custom-element-definition', name: figure.tag, declaration: { name: figure.className, module: path } },
      ],
    });
  }
  return { schemaVersion: '2.1.0', readme: 'web/components/README.md', modules: [...declarations.values()] };
}

/** Opens the figures in Chromium and returns [manifest text, what was collected]. */
export async function generateManifest({ browser, serverUrl }) {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, colorScheme: 'light' });
  const page = await context.newPage();
  // A page that registers the figures from web/components (not from the one-file bundle).
  await page.goto(`${serverUrl}demos/csp.html`);
  const collected = await page.evaluate(collectInPage);
  await context.close();
  return [`${JSON.stringify(buildManifest(collected), null, 2)}\n`, collected];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await startServer({ port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu'] });
  try {
    const [text] = await generateManifest({ browser, serverUrl: server.url });
    if (process.argv.includes('--check')) {
      const current = readFileSync(MANIFEST, 'utf8');
      if (current !== text) {
        console.error('custom-elements.json is out of date: run `node scripts/manifest.mjs`');
        process.exitCode = 1;
      }
    } else {
      writeFileSync(MANIFEST, text);
      console.log(`manifest: wrote ${MANIFEST}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
