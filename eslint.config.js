// ESLint (flat config), run first by `npm test` (scripts/test.sh) and alone by `npm run lint`.
// The recommended rules of @eslint/js, with the globals of where each file runs.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    // Generated or installed: dependencies, build trees, the emscripten glue (gatelab_wasm*.mjs
    // and the benchmarks' <name>.mjs, all written under web/dist/ or build/) and the bundle.
    ignores: ['node_modules/', 'build/', 'web/dist/', 'test-artifacts/', '**/gatelab_wasm*.mjs'],
  },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // Lines of at most 120 columns, as .clang-format's ColumnLimit for the C++; the .ts and .d.ts
      // files, which ESLint does not read, are held to it by tests/js/package/architecture.test.mjs.
      'max-len': ['error', { code: 120, ignoreUrls: true }],
      'no-unused-vars': ['error', {
        args: 'after-used',
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        caughtErrorsIgnorePattern: '^_',
        destructuredArrayIgnorePattern: '^_',
      }],
    },
  },
  {
    // The library and the figures: browser pages (the library also runs in workers and under
    // node, where it only uses what they share with the browser).
    files: ['web/**/*.js', 'web/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Module workers: the runner's worker entry and its message loop, and the embed bundle's
    // entry, which is also the runner's worker when loaded with `new Worker`.
    files: ['web/components/runner/lab-worker.js', 'web/components/runner/worker-loop.js', 'web/components/embed.js'],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // Loads the wasm under node too (reads node's globals behind a typeof check).
    files: ['web/lib/core/wasm-loader.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // A classic <script> for host pages, not a module.
    files: ['web/hosts/frame-host.js'],
    languageOptions: { sourceType: 'script' },
  },
  {
    files: ['scripts/**/*.{js,mjs}', 'tests/**/*.{js,mjs}', 'bench/**/*.{js,mjs}', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Browser tests and the scripts that drive headless Chromium run under node but hand
    // functions to page.evaluate, which run in the page. The benchmark's page and its shared
    // suite run in Chromium too.
    files: ['tests/browser/**/*.{js,mjs}', 'bench/browser/**/*.{js,mjs}', 'bench/suite/**/*.{js,mjs}',
      'bench/lm-figure.mjs', 'scripts/manifest.mjs', 'scripts/posters.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The benchmark's module worker (one C++ benchmark per worker).
    files: ['bench/browser/cpp-worker.mjs'],
    languageOptions: { globals: { ...globals.worker } },
  },
];
