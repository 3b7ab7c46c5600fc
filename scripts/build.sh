#!/usr/bin/env bash
# Builds the native core + tests + benchmarks and the wasm module + wasm tests, then the
# one-file embed bundle, then the posters. Incremental: with nothing changed it only checks timestamps.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

# Configure unless a configure finished (a failed one leaves a cache but no Makefile).
if [ ! -f build/native/Makefile ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/native -j"$jobs"

if [ ! -f build/wasm/Makefile ]; then
  # emcmake would pass --experimental-wasm-threads to node, which Node 20 rejects.
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
fi
cmake --build build/wasm -j"$jobs"

node scripts/bundle.mjs
# The posters (PNG + alt text) and the static oEmbed answers of the built site, in headless
# Chromium; only when the bundle or the articles changed.
node scripts/posters.mjs --if-stale
