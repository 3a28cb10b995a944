#!/bin/sh
# fuzz/run.sh [SECONDS] [TINT_TEST_DIR] — builds a libFuzzer target with
# clang (-fsanitize=fuzzer,address,undefined) and runs it for SECONDS
# (default 1800). FUZZ_TARGET picks the target:
#   wgsl (default)  fuzz/fuzz_wgsl.c: WGSL source through the front end and
#                   lowering. The seed corpus is copied to /tmp (never into
#                   the repository): the .wgsl files of tests/ and, when
#                   TINT_TEST_DIR is given (a checkout of Dawn's test/tint),
#                   a subset of its compute shaders.
#   verify          fuzz/fuzz_verify.c: the bytecode verifier on programs
#                   lowered from the .wgsl files of tests/ with their
#                   operands changed (the inputs are mutation records, so
#                   the corpus starts empty).
# Crash reproducers land in $FUZZ_DIR/artifacts (default /tmp/lockstep-fuzz,
# /tmp/lockstep-fuzz-verify for verify); add each one found to
# tests/wgsl/regress/ named after what it found (for verify, the bug goes
# into tests/unit/test_verify.c). FUZZ_JOBS (default 1) fuzzes with that
# many worker processes.
set -eu
secs=${1:-1800}
tint=${2:-}
target=${FUZZ_TARGET:-wgsl}
here=$(cd "$(dirname "$0")/.." && pwd)
case "$target" in
  wgsl) dir=${FUZZ_DIR:-/tmp/lockstep-fuzz} ;;
  verify) dir=${FUZZ_DIR:-/tmp/lockstep-fuzz-verify} ;;
  *) echo "fuzz/run.sh: FUZZ_TARGET is wgsl or verify, not '$target'" >&2; exit 2 ;;
esac
mkdir -p "$dir/corpus" "$dir/seeds" "$dir/artifacts"
command -v clang >/dev/null || { echo "fuzz/run.sh: needs clang (apt-get install clang)" >&2; exit 2; }
srcs=$(ls "$here"/src/util/*.c "$here"/src/wgsl/*.c "$here"/src/ir/*.c "$here"/src/vm/*.c "$here"/src/api/*.c "$here"/src/check/*.c "$here"/src/prof/*.c)
clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -I"$here/src" -I"$here/include" \
  "$here/fuzz/fuzz_$target.c" $srcs -o "$dir/fuzz_$target" -lm -lpthread
if [ "$target" = wgsl ]; then
  find "$here/tests" -name '*.wgsl' -exec cp {} "$dir/seeds/" \;
  if [ -n "$tint" ] && [ -d "$tint" ]; then
    n=0
    for f in $(find "$tint" -name '*.wgsl' ! -name '*.expected.*' | LC_ALL=C sort | awk 'NR % 8 == 0'); do
      grep -Eq '@(vertex|fragment)' "$f" && continue
      n=$((n + 1))
      cp "$f" "$dir/seeds/tint_$n.wgsl"
    done
  fi
fi
cd "$dir"
export FUZZ_VERIFY_SEEDS="$here/tests"
exec ./fuzz_$target -fork="${FUZZ_JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$dir/artifacts/" -print_final_stats=1 corpus seeds
