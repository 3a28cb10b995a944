#!/usr/bin/env bash
# The sanitizer on the compiled tier (observed compiled code for an
# observer that does not summarise, jit_emit.c with obs): every case of
# check/, and the f16, texture and sampling cases of cases/ (007, 009,
# 010: the operations observed code reports through the library's row
# functions; jit.prof runs the whole of cases/ observed), under --check
# --json, once on the observed interpreter (LOCKSTEP_JIT=off) and once
# with its programs compiled (LOCKSTEP_JIT=on), on one thread, at W 32 and
# 8 in turn. The findings, their counts and the read-back buffers must be
# the same bytes, and so must the exit status.
#
#   jit_check.sh LOCKSTEP TESTS_DIR
#
# Exits 77 (ctest: skipped) when the host has no C compiler.
set -u
lockstep="$1"; tests="$2"
command -v "${LOCKSTEP_CC:-cc}" > /dev/null || { echo "no C compiler (cc): skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export LOCKSTEP_JIT_CACHE="$tmp/cache"
fail=0; n=0; w=32
for c in "$tests"/check/*.json "$tests"/cases/00[79]_*.json "$tests"/cases/010_*.json; do
  name=$(basename "$c" .json)
  # the corpus's own options (a budget, say) for its runaway cases
  more=()
  [ -f "${c%.json}.expect" ] && read -r -a more <<< "$(sed -n 's/^args //p' "${c%.json}.expect")"
  w=$((w == 32 ? 8 : 32))
  n=$((n + 1))
  for t in off on; do
    LOCKSTEP_JIT=$t "$lockstep" run "$c" --check --json -W "$w" --threads 1 --out "$tmp/$t.res" \
      "${more[@]}" > "$tmp/$t.json" 2> "$tmp/$t.err"
    echo $? > "$tmp/$t.rc"
  done
  same=1
  cmp -s "$tmp/off.rc" "$tmp/on.rc" && cmp -s "$tmp/off.json" "$tmp/on.json" || same=0
  # a lost device reads nothing back: neither run writes the file
  if [ -e "$tmp/off.res" ] || [ -e "$tmp/on.res" ]; then
    cmp -s "$tmp/off.res" "$tmp/on.res" || same=0
  fi
  if [ "$same" = 0 ]; then
    echo "FAIL: $name at W = $w: the compiled run's findings differ" \
      "(exit $(cat "$tmp/off.rc") / $(cat "$tmp/on.rc"))"
    diff "$tmp/off.json" "$tmp/on.json" | head -10
    fail=1
  fi
  rm -f "$tmp/off.res" "$tmp/on.res"
done
compiled=$(ls "$tmp/cache"/*.so 2>/dev/null | wc -l)
echo "$n cases checked, $compiled programs compiled"
[ "$compiled" -gt 0 ] || { echo "FAIL: nothing was compiled"; fail=1; }
exit $fail
