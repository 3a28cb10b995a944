#!/usr/bin/env bash
# The sanitizer on the compiled tier (observed compiled code, jit_emit.c
# with obs, for an observer that does not summarise): every case of
# check/ under --check --json, once on the observed interpreter
# (LOCKSTEP_JIT=off) and once with its programs compiled (LOCKSTEP_JIT=on),
# on one thread, at W 8 and 64 in turn; every third case also with the
# profiler beside it (--prof-json: the multiplexer hands both their
# events). The findings, and the profile, must be the same bytes.
#
#   jit_check.sh LOCKSTEP TESTS_DIR
#
# Exits 77 (ctest: skipped) when the host has no C compiler.
set -u
lockstep="$1"; tests="$2"
command -v "${LOCKSTEP_CC:-cc}" > /dev/null || { echo "no C compiler (cc): skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export LOCKSTEP_JIT_CACHE="$tmp/cache"
fail=0; n=0; w=64
for c in "$tests"/check/*.json; do
  name=$(basename "$c" .json)
  w=$((w == 64 ? 8 : 64))
  n=$((n + 1))
  prof=()
  [ $((n % 3)) = 0 ] && prof=(--prof-json "$tmp/PROF.json")
  for mode in off on; do
    LOCKSTEP_JIT=$mode "$lockstep" run "$c" --check --json -W "$w" --threads 1 --quiet \
      "${prof[@]/PROF/prof-$mode}" > "$tmp/$mode.json" 2> "$tmp/$mode.err"
    echo "exit $?" >> "$tmp/$mode.json"
  done
  if ! cmp -s "$tmp/off.json" "$tmp/on.json" ||
     { [ ${#prof[@]} -gt 0 ] && ! cmp -s "$tmp/prof-off.json" "$tmp/prof-on.json"; }; then
    echo "FAIL: $name at W = $w${prof:+ with the profiler}: the compiled run's findings or profile differ"
    diff "$tmp/off.json" "$tmp/on.json" | head -10
    fail=1
  fi
done
compiled=$(ls "$tmp/cache"/*.so 2>/dev/null | wc -l)
echo "$n cases checked, $compiled programs compiled"
[ "$compiled" -gt 0 ] || { echo "FAIL: nothing was compiled"; fail=1; }
exit $fail
