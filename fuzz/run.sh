#!/bin/sh
# fuzz/run.sh [SECONDS] [TINT_TEST_DIR] — builds fuzz/fuzz_wgsl.c with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for SECONDS (default
# 1800). The seed corpus is copied to /tmp (never into the repository): the
# .wgsl files of tests/ and, when TINT_TEST_DIR is given (a checkout of
# Dawn's test/tint), a subset of its compute shaders. Crash reproducers land
# in $FUZZ_DIR/artifacts (default /tmp/lockstep-fuzz); add each one found to
# tests/wgsl/regress/ named after what it found. FUZZ_JOBS (default 1)
# fuzzes with that many worker processes.
set -eu
secs=${1:-1800}
tint=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${FUZZ_DIR:-/tmp/lockstep-fuzz}
mkdir -p "$dir/corpus" "$dir/seeds" "$dir/artifacts"
command -v clang >/dev/null || { echo "fuzz/run.sh: needs clang (apt-get install clang)" >&2; exit 2; }
srcs=$(ls "$here"/src/util/*.c "$here"/src/wgsl/*.c "$here"/src/ir/*.c "$here"/src/vm/*.c "$here"/src/api/*.c "$here"/src/check/*.c "$here"/src/prof/*.c)
clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -I"$here/src" -I"$here/include" \
  "$here/fuzz/fuzz_wgsl.c" $srcs -o "$dir/fuzz_wgsl" -lm -lpthread
find "$here/tests" -name '*.wgsl' -exec cp {} "$dir/seeds/" \;
if [ -n "$tint" ] && [ -d "$tint" ]; then
  n=0
  for f in $(find "$tint" -name '*.wgsl' ! -name '*.expected.*' | LC_ALL=C sort | awk 'NR % 8 == 0'); do
    grep -Eq '@(vertex|fragment)' "$f" && continue
    n=$((n + 1))
    cp "$f" "$dir/seeds/tint_$n.wgsl"
  done
fi
cd "$dir"
exec ./fuzz_wgsl -fork="${FUZZ_JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$dir/artifacts/" -print_final_stats=1 corpus seeds
