#!/bin/sh
# fuzz/run.sh [SECONDS] [TINT_TEST_DIR] — builds a libFuzzer target with
# clang (-fsanitize=fuzzer,address,undefined) and runs it for SECONDS
# (default 1800). FUZZ_TARGET picks the target:
#   wgsl (default)  fuzz/fuzz_wgsl.c: WGSL source through the front end and
#                   lowering. Seeds: the .wgsl files of tests/ and, when
#                   TINT_TEST_DIR is given (a checkout of Dawn's test/tint),
#                   a subset of its compute shaders.
#   verify          fuzz/fuzz_verify.c: the bytecode verifier on programs
#                   lowered from the .wgsl files of tests/ with their
#                   operands changed (the inputs are mutation records, so
#                   the corpus starts empty).
#   case            fuzz/fuzz_case.c: the command's case-file and result-file
#                   readers (src/cli/case.c, case2.c, result.c), nothing run. Seeds:
#                   the .json files of tests/ (case, result, error files).
#   run             fuzz/fuzz_run.c: WGSL source compiled and dispatched
#                   through the public API with resources for each binding,
#                   under small instruction budgets and a time limit.
#                   Seeds: as wgsl.
#   jit             fuzz/fuzz_run.c built with FUZZ_JIT: each input runs on
#                   the interpreter and on the compiled tier (every program
#                   compiled by cc -O2, or with FUZZ_JIT_ASAN=1 by clang -O1
#                   under AddressSanitizer), and a
#                   difference in results, errors or budget stops (or in
#                   the profile or the sanitizer's findings, when the
#                   input's hash attaches them to both runs) is a crash. Seeds: as wgsl. Each compiled input costs a
#                   compile, so expect a few inputs a second.
# FUZZ_DIR is where the target is built and its corpus, seeds and crash
# reproducers (artifacts/) live (default /tmp/lockstep-fuzz-TARGET,
# /tmp/lockstep-fuzz for wgsl); the seeds are copied there, never into the
# repository. FUZZ_JOBS (default 1) fuzzes with that many worker
# processes. The run's log is FUZZ_DIR/fuzz.log; at the end the script
# prints the executions, the coverage of the corpus (libFuzzer's cov and
# ft: edges and features) and its size, and the reproducers found. Add
# each one to tests/ named after what it found (tests/wgsl/regress/ for
# wgsl and run, tests/unit/test_verify.c for verify, tests/unit/test_case.c
# for case) with the fix.
set -eu
secs=${1:-1800}
tint=${2:-}
target=${FUZZ_TARGET:-wgsl}
here=$(cd "$(dirname "$0")/.." && pwd)
case "$target" in
  wgsl) dir=${FUZZ_DIR:-/tmp/lockstep-fuzz} ;;
  verify | case | run | jit) dir=${FUZZ_DIR:-/tmp/lockstep-fuzz-$target} ;;
  *) echo "fuzz/run.sh: FUZZ_TARGET is wgsl, verify, case, run or jit, not '$target'" >&2; exit 2 ;;
esac
mkdir -p "$dir/corpus" "$dir/seeds" "$dir/artifacts"
command -v clang >/dev/null || { echo "fuzz/run.sh: needs clang (apt-get install clang)" >&2; exit 2; }
srcs=$(ls "$here"/src/util/*.c "$here"/src/wgsl/*.c "$here"/src/ir/*.c "$here"/src/vm/*.c "$here"/src/api/*.c "$here"/src/check/*.c "$here"/src/prof/*.c)
extra=""
libs="-lm -lpthread"
case "$target" in
  run) extra="-DLS_VERIFY_IR" ;;
  jit) extra="-DLS_VERIFY_IR -DFUZZ_JIT" ;;
  case)
    extra="-DCASE_MAX_WORDS=65536 -I$here/src/cli $here/src/cli/case.c $here/src/cli/case2.c $here/src/cli/result.c $here/src/cli/cli_io.c"
    libs="$libs $(pkg-config --libs jansson nettle)" ;;
esac
# built again only when a file of src/, include/ or fuzz/ is newer than it
src=fuzz_$target
[ "$target" = jit ] && src=fuzz_run
if [ ! -x "$dir/fuzz_$target" ] ||
   [ -n "$(find "$here/src" "$here/include" "$here/fuzz" -type f -newer "$dir/fuzz_$target" | head -n 1)" ]; then
  # the compiled tier's prelude, which the CMake build embeds
  cmake -DOUT="$dir/vm_jit_text.c" -P "$here/cmake/embed.cmake"
  # shellcheck disable=SC2086
  clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -I"$here/src" -I"$here/include" $extra \
    "$here/fuzz/$src.c" $srcs "$dir/vm_jit_text.c" -o "$dir/fuzz_$target" $libs
fi
max_len=65536
rm -f "$dir"/seeds/*
case "$target" in
  wgsl | run | jit)
    find "$here/tests" -name '*.wgsl' -exec cp {} "$dir/seeds/" \;
    if [ -n "$tint" ] && [ -d "$tint" ]; then
      n=0
      for f in $(find "$tint" -name '*.wgsl' ! -name '*.expected.*' | LC_ALL=C sort | awk 'NR % 8 == 0'); do
        grep -Eq '@(vertex|fragment)' "$f" && continue
        n=$((n + 1))
        cp "$f" "$dir/seeds/tint_$n.wgsl"
      done
    fi ;;
  case)
    # every case, result and error file small enough to be an input, named
    # by its path so that files of the same name do not overwrite each other
    find "$here/tests" -name '*.json' -size -64k | while read -r f; do
      cp "$f" "$dir/seeds/$(printf '%s' "${f#"$here"/tests/}" | tr '/' '_')"
    done ;;
esac
cd "$dir"
export FUZZ_VERIFY_SEEDS="$here/tests"
timeout=10
if [ "$target" = jit ]; then
  timeout=120 # each entry point is a compile
  # a fresh cache, so that every program compiles; the compiled code is
  # built as users get it (cc -O2), or with FUZZ_JIT_ASAN=1 by clang -O1
  # under the fuzzer's AddressSanitizer, whose runtime the fuzzer binary
  # carries (about twenty times slower to build: large programs then pass
  # the compiler's time limit, which is counted, not a crash)
  export LOCKSTEP_JIT_CACHE="$dir/jit-cache"
  if [ "${FUZZ_JIT_ASAN:-0}" = 1 ]; then
    export LOCKSTEP_CC=clang LOCKSTEP_JIT_CFLAGS="-g -O1 -fsanitize=address"
  fi
  rm -rf "$LOCKSTEP_JIT_CACHE"
fi
# crashes, timeouts and running out of memory are kept as reproducers and
# the run goes on; the script exits 1 when there are any
./fuzz_$target -fork="${FUZZ_JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2048 -max_len=$max_len \
  -artifact_prefix="$dir/artifacts/" -print_final_stats=1 corpus seeds 2>&1 | tee "$dir/fuzz.log"
# The figures to record: executions (the last status line of the fork
# loop), the coverage of the corpus and seeds (one pass over them, -runs=0), its size
# and the reproducers.
last=$(grep -E '^#[0-9]+' "$dir/fuzz.log" | tail -n 1)
execs=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
cov=$(./fuzz_$target -runs=0 -max_len=$max_len corpus seeds 2>&1 | grep -E 'INITED|DONE' | tail -n 1)
echo "fuzz/run.sh: target $target, $secs s, ${FUZZ_JOBS:-1} job(s), in $dir"
echo "  executions: ${execs:-?}"
echo "  coverage at the end of the run: $(printf '%s\n' "$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+' || echo '?')"
echo "  coverage of corpus + seeds, replayed: $(printf '%s\n' "$cov" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' || echo '?')"
echo "  corpus files: $(find corpus -type f | wc -l)"
found=$(find artifacts -type f | wc -l)
echo "  reproducers: $found in $dir/artifacts"
find artifacts -type f | head -n 20
[ "$found" -eq 0 ]
