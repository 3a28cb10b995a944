#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (unit tests, the case
# corpus under several subgroup widths and thread counts, the error corpus),
# then runs them again in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (without the multi-million-invocation cases,
# and without wgsl.hostile and wgsl.hostile_pipeline, whose address-space
# limit ASan cannot run under). Its programs are linked without PIE: the
# sanitizers' metadata gives a position-independent lockstep some 370,000
# relocations, which made every process start a third slower, and most of
# these tests are many short processes. LOCKSTEP_SANITIZE=0 skips the second
# pass. A third pass builds the thread, queue, API and handle unit tests
# with clang's ThreadSanitizer (build-tsan; about a minute of building and
# 10 s of tests) and runs them:
# TSan makes a test exit non-zero when it reports a race, so any race fails
# the pass (tests/tsan.supp lists what is suppressed, and why).
# LOCKSTEP_TSAN=0 skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)")
if [ "${LOCKSTEP_SANITIZE:-1}" != 0 ]; then
  san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  dir="${SANITIZE_BUILD_DIR:-build-sanitize}"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_BENCH=OFF -DCMAKE_C_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="$san -no-pie" -DCMAKE_SHARED_LINKER_FLAGS="$san" >/dev/null
  cmake --build "$dir" -j"$(nproc)" >/dev/null
  (cd "$dir" && ctest --output-on-failure -j"$(nproc)" -LE case-large -E '^wgsl\.hostile(_pipeline)?$')
fi
if [ "${LOCKSTEP_TSAN:-1}" != 0 ]; then
  tsan="-fsanitize=thread -g -fno-omit-frame-pointer"
  dir="${TSAN_BUILD_DIR:-build-tsan}"
  supp="$(pwd)/tests/tsan.supp"
  cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_BENCH=OFF \
    -DCMAKE_C_FLAGS="$tsan" -DCMAKE_EXE_LINKER_FLAGS="$tsan" -DCMAKE_SHARED_LINKER_FLAGS="$tsan" \
    >/dev/null
  cmake --build "$dir" -j"$(nproc)" --target test_threads test_queue test_lifetime test_api test_handles >/dev/null
  # one at a time: test_queue and test_lifetime time their dispatches
  (cd "$dir" && TSAN_OPTIONS="suppressions=$supp exitcode=66 ${TSAN_OPTIONS:-}" \
    ctest --output-on-failure -R '^unit\.test_(threads|queue|lifetime|api|handles)$')
fi
