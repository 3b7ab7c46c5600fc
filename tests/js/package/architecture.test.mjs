// The house plan, checked on every `npm test` so the layout stays the way docs/ and the READMEs
// describe it: where Emscripten may be included, which C++ area may include which, that the
// library has no DOM, that figures reach the library only through its public entry, that the raw
// module's names are marked private, how long a source file and the bindings may grow, how wide
// a TypeScript line may be (ESLint holds the JavaScript), and that every registered figure is
// declared and documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path) => readFileSync(join(root, path), 'utf8');

/** Every file under dir (relative to the repository), skipping build output. */
function files(dir, keep = () => true) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === 'web/dist' || e.name === 'node_modules' ? [] : files(path, keep);
    return keep(path) ? [path] : [];
  });
}

const CPP = /\.(cpp|hpp|h)$/;
const JS = /\.(js|mjs|d\.ts)$/;
/** Code without its comments, so a comment that names `document` or an include does not count. */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

test('Emscripten headers appear only in cpp/bindings/ and the named benchmark modules', () => {
  // The benchmarks time kernels in the browser: bench_support.hpp reads performance.now() through
  // EM_ASM and bench/module/ is the benchmark's own wasm entry. Nothing else may include them.
  const allowed = new Set(['bench/bench_support.hpp', 'bench/module/bench_module.cpp']);
  const offenders = [...files('cpp', (p) => CPP.test(p)), ...files('tests/cpp', (p) => CPP.test(p)),
    ...files('bench', (p) => CPP.test(p))]
    .filter((p) => !p.startsWith('cpp/bindings/') && !allowed.has(p))
    .filter((p) => /#\s*include\s*[<"]emscripten/.test(read(p)));
  assert.deepEqual(offenders, []);
  assert.ok(files('cpp/bindings', (p) => CPP.test(p)).some((p) => /#\s*include\s*<emscripten\/bind\.h>/.test(read(p))),
    'the bindings are where Embind is included (the check above would pass vacuously otherwise)');
});

// The floor plan, written here once: each C++ area may include only itself and the areas before it.
// README.md quotes it (checked below); docs and comments point here.
const FLOORS = ['base', 'paper_a', 'cem', 'model', 'train', 'gp'];
const FLOOR_SENTENCE = `The areas, bottom up: ${FLOORS.map((a) => `\`${a}\``).join(' ← ')}.`;

test(`C++ areas include only the areas below them: ${FLOORS.join(' ← ')}`, () => {
  const order = FLOORS;
  assert.deepEqual(readdirSync(join(root, 'cpp/include/gatelab')).sort(), [...FLOORS].sort(), 'every area is a floor');
  assert.deepEqual(readdirSync(join(root, 'cpp/src')).sort(), [...FLOORS].sort(), 'every source area is a floor');
  const bad = [];
  for (const area of order) {
    const mayInclude = new Set(order.slice(0, order.indexOf(area) + 1));
    const sources = [...files(`cpp/include/gatelab/${area}`), ...files(`cpp/src/${area}`)].filter((p) => CPP.test(p));
    for (const path of sources) {
      for (const [, used] of code(read(path)).matchAll(/#\s*include\s*"gatelab\/([a-z_]+)\//g)) {
        if (!mayInclude.has(used)) bad.push(`${path} includes gatelab/${used}/`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

test('README quotes the floor plan as the architecture test writes it', () => {
  assert.ok(read('README.md').includes(FLOOR_SENTENCE), `README.md must say: ${FLOOR_SENTENCE}`);
});

test('web/lib uses no DOM (it runs in Node, workers and pages alike)', () => {
  const dom = /\b(document|window|HTMLElement|customElements|requestAnimationFrame|localStorage)\b/;
  // `typeof window` only asks which environment this is; it uses nothing of the DOM.
  const offenders = files('web/lib', (p) => /\.js$/.test(p))
    .filter((p) => dom.test(code(read(p)).replace(/typeof\s+\w+/g, '')));
  assert.deepEqual(offenders, []);
});

// The catalogue (generated from the core) is the second public entry: figure schemas need its
// names before any wasm loads.
const PUBLIC_ENTRIES = new Set(['web/lib/gatelab.js', 'web/lib/catalogue.js']);

test('figures import web/lib only through its public entries, web/lib/gatelab.js and web/lib/catalogue.js', () => {
  const bad = [];
  for (const path of files('web/components', (p) => /\.js$/.test(p))) {
    for (const [, spec] of code(read(path)).matchAll(/(?:from\s*|import\s*\(\s*)'([^']+)'/g)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, join(root, path, '..', spec));
      if (target.startsWith('web/lib/') && !PUBLIC_ENTRIES.has(target)) bad.push(`${path} imports ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('the raw module is private: every module-level Embind name starts with _', () => {
  // Functions and constants on the module; a class's methods are reached only through its handles.
  const names = files('cpp/bindings', (f) => CPP.test(f)).flatMap((f) => {
    const text = code(read(f));
    return [...text.matchAll(/^\s*function\(\s*"(\w+)"/gm), ...text.matchAll(/\{"(\w+)", [\w.]+\}/g)]
      .map((m) => `${f}: ${m[1]}`);
  });
  assert.ok(names.length > 60, `found the registrations (${names.length})`);
  assert.deepEqual(names.filter((n) => !/: _\w/.test(n)), []);
});

test('no source file in cpp/ or web/ exceeds 500 lines', () => {
  const sources = [...files('cpp', (p) => CPP.test(p)), ...files('web', (p) => JS.test(p) || /\.(html|css)$/.test(p))];
  const long = sources.map((p) => [p, read(p).split('\n').length - 1]).filter(([, n]) => n > 500);
  assert.deepEqual(long, []);
});

test('no TypeScript file (.ts, .d.ts) has a line over 120 columns', () => {
  // ESLint holds the .js and .mjs files to 120 columns (max-len in eslint.config.js) and clang-format
  // the C++; it does not read TypeScript, so the declarations and the type tests are checked here.
  const typeFiles = ['web', 'tests/types'].flatMap((dir) => files(dir, (p) => /\.ts$/.test(p)));
  assert.ok(typeFiles.length >= 10, `the .ts files are found (${typeFiles.length})`);
  const long = typeFiles.flatMap((p) => read(p).split('\n').map((line, i) => [`${p}:${i + 1}`, line.length])
    .filter(([, n]) => n > 120));
  assert.deepEqual(long, []);
});

test('the bindings stay thin: cpp/bindings/ holds at most 930 lines of C++', () => {
  // Registrations and conversions only; what computes or checks belongs in the core, where the
  // native and sanitizer tests reach it. Counted like `wc -l cpp/bindings/*.cpp cpp/bindings/*.hpp`.
  // 900 until the symmetry contract (NTK, teleport, balance, gradient norm, symmetrize) added its
  // registrations and conversions; the NTK, orbit and trainer logic they reach lives in the core.
  // 920 until the option catalogue (bind_catalogue.cpp, one registration of the core's JSON), which
  // took the place of twelve registrations of single names and labels; 960 since the orbit probe,
  // the grid search and the balance drift (three one-call registrations) and since the figures asked
  // the library for what they draw (drawParams, the seed bands, the rank table's row width):
  // registrations only; base/param_draw.hpp and base/stats.cpp compute. 930 since the catalogue
  // moved to a native build-time tool (cpp/tools/gatelab_catalogue), the API spellings into the core
  // (api_names), and lab.gp and the trainer's weights onto the shared readers and the module face.
  const sources = files('cpp/bindings', (p) => CPP.test(p));
  const lines = sources.reduce((sum, p) => sum + read(p).split('\n').length - 1, 0);
  assert.ok(sources.length >= 7, `the binding files are found (${sources.length})`);
  assert.ok(lines <= 930, `cpp/bindings/ has ${lines} lines; move logic into the core`);
});

test('every registered figure is declared in the types and documented in both READMEs', () => {
  const index = read('web/components/index.js');
  const figuresAt = index.indexOf('export const FIGURES');
  const block = index.slice(figuresAt, index.indexOf('};', figuresAt));
  const tags = [...block.matchAll(/'(gatelab-[a-z-]+)'/g)].map((m) => m[1]);
  assert.ok(tags.length >= 12, `${tags.length} figures found`);
  const types = ['index.d.ts', 'paper-a/figures.d.ts', 'paper-b/figures.d.ts']
    .map((f) => read(`web/components/${f}`)).join('\n');
  const readme = read('web/components/README.md');
  assert.deepEqual(tags.filter((t) => !types.includes(`'${t}'`)), [], 'missing from the .d.ts files');
  assert.deepEqual(tags.filter((t) => !readme.includes(`<${t}>`) && !readme.includes(`\`${t}\``)), [],
    'missing from the README');
  // The top README's figure list ("Figures: `gatelab-…`, … (paper B).") names every one.
  const top = read('README.md');
  const start = top.indexOf('Figures: `gatelab-');
  const list = top.slice(start, top.indexOf('(paper B)', start));
  assert.deepEqual(tags.filter((t) => !list.includes(`\`${t}\``)), [], 'missing from the figure list of README.md');
});
