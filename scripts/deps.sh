#!/usr/bin/env bash
# Installs what lockstep needs to build and test on Debian 12 (idempotent):
# a C compiler, CMake, pkg-config, jansson (JSON for case files), nettle
# (SHA-256 of compact reference results), cmocka (unit tests), chromium
# (the profiler's HTML report is checked in headless Chromium), and Node.js
# with its Node-API headers for the Node.js binding (bindings/node). Run by
# demo.sh and test.sh.
set -euo pipefail
need=()
for p in build-essential cmake pkg-config libjansson-dev libcmocka-dev nettle-dev chromium; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
# Node.js: Debian's nodejs with libnode-dev (its headers in /usr/include/node)
# when there is no node at all; a node installed otherwise (nodesource's
# packages ship /usr/include/node) is kept as it is.
if ! command -v node >/dev/null 2>&1; then
  need+=(nodejs libnode-dev npm)
fi
if ((${#need[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# A node without headers in /usr/include/node: npm's node-api-headers in the
# build tree, where bindings/node/CMakeLists.txt looks for them.
if [ ! -f /usr/include/node/node_api.h ] && command -v npm >/dev/null 2>&1; then
  dir="${BUILD_DIR:-build}"
  [ -f "$dir/node_modules/node-api-headers/include/node_api.h" ] ||
    npm install --prefix "$dir" --no-save --no-audit --no-fund node-api-headers >/dev/null
fi
