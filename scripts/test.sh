#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (unit tests, the case
# corpus under several subgroup widths and thread counts, the error corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)"
