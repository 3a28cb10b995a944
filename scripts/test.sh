#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (unit tests, the case
# corpus under several subgroup widths and thread counts, the error corpus),
# then runs them again in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (without the multi-million-invocation cases,
# and without wgsl.hostile, whose address-space limit ASan cannot run
# under). LOCKSTEP_SANITIZE=0 skips the second pass.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)")
if [ "${LOCKSTEP_SANITIZE:-1}" != 0 ]; then
  san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  dir="${SANITIZE_BUILD_DIR:-build-sanitize}"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" >/dev/null
  cmake --build "$dir" -j"$(nproc)" >/dev/null
  (cd "$dir" && ctest --output-on-failure -j"$(nproc)" -LE case-large -E '^wgsl\.hostile$')
fi
