#!/usr/bin/env bash
# The SIMT profiler on the compiled tier (observed compiled code, jit_emit.c
# with obs): every case of cases/ under --prof-json, once on the observed
# interpreter (LOCKSTEP_JIT=off) and once with its programs compiled
# (LOCKSTEP_JIT=on), on one thread, at W 32 and 8 in turn (the
# multi-million-element cases left out). The two profiles must be the same
# bytes: every count, summary and figure derived from them.
#
#   jit_prof.sh LOCKSTEP TESTS_DIR
#
# Exits 77 (ctest: skipped) when the host has no C compiler.
set -u
lockstep="$1"; tests="$2"
command -v "${LOCKSTEP_CC:-cc}" > /dev/null || { echo "no C compiler (cc): skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export LOCKSTEP_JIT_CACHE="$tmp/cache"
large=" 000_guard_3000000 000_guard_3000001 000_dispatch2d_4194241 000_dispatch2d_8000000 "
fail=0; n=0; w=32
for c in "$tests"/cases/*.json; do
  name=$(basename "$c" .json)
  case "$large" in *" $name "*) continue ;; esac
  w=$((w == 32 ? 8 : 32))
  n=$((n + 1))
  LOCKSTEP_JIT=off "$lockstep" run "$c" --prof-json "$tmp/off.json" -W "$w" --threads 1 --quiet > "$tmp/off.out" 2>&1
  r1=$?
  LOCKSTEP_JIT=on "$lockstep" run "$c" --prof-json "$tmp/on.json" -W "$w" --threads 1 --quiet > "$tmp/on.out" 2>&1
  r2=$?
  if [ "$r1" != "$r2" ] || ! cmp -s "$tmp/off.json" "$tmp/on.json"; then
    echo "FAIL: $name at W = $w: the compiled profile differs (exit $r1 / $r2)"
    diff "$tmp/off.json" "$tmp/on.json" | head -10
    fail=1
  fi
done
compiled=$(ls "$tmp/cache"/*.so 2>/dev/null | wc -l)
echo "$n cases profiled, $compiled programs compiled"
[ "$compiled" -gt 0 ] || { echo "FAIL: nothing was compiled"; fail=1; }
exit $fail
