#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks: the toolchain from Debian's packages and the
# npm packages from the committed lockfile. Does nothing when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v cmake >/dev/null || need_apt+=(cmake)
command -v g++ >/dev/null || need_apt+=(g++)
command -v emcc >/dev/null || need_apt+=(emscripten)
command -v clang-format >/dev/null || need_apt+=(clang-format)
[ -d /usr/share/nodejs/acorn ] || need_apt+=(node-acorn)
[ -f /usr/include/xtensor/xtensor.hpp ] || need_apt+=(xtensor-dev)
[ -f /usr/include/xtl/xtl_config.hpp ] || need_apt+=(xtl-dev)
[ -f /usr/src/googletest/CMakeLists.txt ] || need_apt+=(googletest)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v gzip >/dev/null || need_apt+=(gzip)
# The blog generators whose shipped templates (web/hosts/) the browser tests render.
command -v hugo >/dev/null || need_apt+=(hugo)
command -v jekyll >/dev/null || need_apt+=(jekyll)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${need_apt[@]}"
fi

# npm packages: reinstall only when the lockfile changed since the last install.
stamp=node_modules/.gatelab-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
