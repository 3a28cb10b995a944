#!/usr/bin/env bash
# Configures and builds lockstep (Release) into build/. Used by demo.sh and
# test.sh; BUILD_DIR overrides the folder.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" >/dev/null
