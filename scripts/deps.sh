#!/usr/bin/env bash
# Installs what lockstep needs to build and test on Debian 12 (idempotent):
# a C compiler, dpkg-dev (dpkg-shlibdeps: the Debian package's dependencies,
# tests/install), CMake, pkg-config, jansson (JSON for case files), nettle
# (SHA-256 of compact reference results), cmocka (unit tests) and chromium
# (the profiler's HTML report is checked in headless Chromium). Run by
# demo.sh and test.sh.
set -euo pipefail
need=()
for p in build-essential dpkg-dev cmake pkg-config libjansson-dev libcmocka-dev nettle-dev chromium; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if ((${#need[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
