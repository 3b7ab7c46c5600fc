#!/usr/bin/env bash
# Runs every test: the layout checks first (clang-format on the C++, ESLint on the JS: seconds, so
# they fail fast), then the C++ suite natively
# and as wasm under node, then the JS API tests and the browser tests (real wasm module, real
# headless Chromium) with node's runner.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

echo "== Layout: clang-format (C++) and ESLint (JS)"
bash scripts/format.sh --check
npm run --silent lint
echo "== C++ tests, native"
ctest --test-dir build/native --output-on-failure -j"$jobs"
echo "== C++ tests, wasm under node"
ctest --test-dir build/wasm --output-on-failure -j"$jobs"
echo "== JavaScript and browser tests"
# A hung test fails after 5 minutes instead of holding CI to its limit. A directory is searched
# recursively for *.test.mjs, so the area folders of tests/browser (base/, runner/, paper-a/,
# paper-b/, site/) are all found. Two test files at a time: most of a browser test is waiting on
# a page, so two overlap well on two cores.
node --test --test-concurrency=2 --test-timeout=300000 tests/js/ tests/browser/
