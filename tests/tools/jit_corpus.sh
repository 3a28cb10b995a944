#!/usr/bin/env bash
# The case corpus on the compiled tier (LOCKSTEP_JIT=on; src/vm/jit.c):
# every case of cases/ with its expected result (--expect) at W 8 and 32 on
# one thread (the multi-million-element ones at W 32 only), with the
# programs compiled by the host's C compiler before their first dispatch.
# (W = 64 is the unit tests' and the benchmarks': its compiles are the
# slowest, and this test is most of the compiled tier's share of the run.)
# The expected results are the interpreter's, so this checks that the two
# tiers give the same bits.
#
#   jit_corpus.sh LOCKSTEP TESTS_DIR
#
# Exits 77 (ctest: skipped) when the host has no C compiler.
set -u
lockstep="$1"; tests="$2"
command -v "${LOCKSTEP_CC:-cc}" > /dev/null || { echo "no C compiler (cc): skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export LOCKSTEP_JIT=on LOCKSTEP_JIT_CACHE="$tmp/cache"
large=" 000_guard_3000000 000_guard_3000001 000_dispatch2d_4194241 000_dispatch2d_8000000 "
fail=0; n=0
for c in "$tests"/cases/*.json; do
  name=$(basename "$c" .json)
  widths="8 32"
  case "$large" in *" $name "*) widths=32 ;; esac
  for w in $widths; do
    expect="$tests/results/$name.json"
    [ -f "$tests/results/$name.W$w.json" ] && expect="$tests/results/$name.W$w.json"
    [ -f "$expect" ] || continue
    n=$((n + 1))
    if ! "$lockstep" run "$c" --expect "$expect" -W "$w" --threads 1 --quiet > "$tmp/out" 2>&1; then
      echo "FAIL: $name at W = $w on the compiled tier:"; head -20 "$tmp/out"; fail=1
    fi
  done
done
compiled=$(ls "$tmp/cache"/*.so 2>/dev/null | wc -l)
echo "$n runs, $compiled programs compiled"
[ "$compiled" -gt 0 ] || { echo "FAIL: nothing was compiled"; fail=1; }
exit $fail
