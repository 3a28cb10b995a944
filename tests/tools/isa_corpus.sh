#!/usr/bin/env bash
# The case corpus under one of the interpreter's instruction-set variants
# (LOCKSTEP_ISA; src/vm/vm.c): every variant must give the same results.
#
#   isa_corpus.sh LOCKSTEP ISA TESTS_DIR [small]
#
# With "small" (the AddressSanitizer build, where every process start is
# slow) only the case corpus runs, without its multi-million-element cases:
# the byte-for-byte comparisons with sse2 are the plain build's.
#
# Exits 77 (ctest: skipped) when this CPU does not run ISA. Otherwise:
#  - every case of cases/ with its expected result (--expect) at W 8, 32 and
#    64 on one thread (the multi-million-element ones at W 32 only);
#  - the sanitizer (--check --json) on every case of check/, and the
#    profiler (--prof-json) on every case of prof/cases/, at W 8 and 32:
#    the findings, the profile and the exit status must be byte for byte
#    what the baseline variant (sse2) gives. These runs have a budget of
#    50M subgroup-instructions per workgroup and no time limit, so that a
#    runaway case ends at the same instruction in both, however fast each
#    variant (with the 60 s default, a slower variant on a loaded machine
#    could reach the time limit first and report that instead).
set -u
lockstep="$1"; isa="$2"; tests="$3"; small="${4:-}"
got=$(LOCKSTEP_ISA="$isa" "$lockstep" --version | sed -n 's/.*(interpreter: \(.*\)).*/\1/p')
if [ "$got" != "$isa" ]; then
  echo "this CPU does not run the $isa variant (the interpreter falls back to $got); skipped"
  exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
large=" 000_guard_3000000 000_guard_3000001 000_dispatch2d_4194241 000_dispatch2d_8000000 "
fail=0; n=0
for c in "$tests"/cases/*.json; do
  name=$(basename "$c" .json)
  widths="8 32 64"
  case "$large" in *" $name "*) [ -n "$small" ] && continue; widths=32 ;; esac
  for w in $widths; do
    expect="$tests/results/$name.json"
    [ -f "$tests/results/$name.W$w.json" ] && expect="$tests/results/$name.W$w.json"
    [ -f "$expect" ] || continue
    n=$((n + 1))
    if ! LOCKSTEP_ISA="$isa" "$lockstep" run "$c" --expect "$expect" -W "$w" --threads 1 --quiet \
        > "$tmp/out" 2>&1; then
      echo "FAIL: $name at W = $w under $isa:"; head -20 "$tmp/out"; fail=1
    fi
  done
done
if [ -n "$small" ]; then
  echo "$n runs under $isa (small)"
  exit $fail
fi
# The observed interpreter: the same output as the baseline's.
lim="--budget 50000000 --time-limit none"
same() { # label, then the command
  local label="$1"; shift
  LOCKSTEP_ISA=sse2 "$@" > "$tmp/base" 2>&1; local rb=$?
  [ -f "$tmp/p.json" ] && mv "$tmp/p.json" "$tmp/base.json"
  LOCKSTEP_ISA="$isa" "$@" > "$tmp/var" 2>&1; local rv=$?
  n=$((n + 1))
  if [ "$rb" -ne "$rv" ] || ! cmp -s "$tmp/base" "$tmp/var" ||
     { [ -f "$tmp/base.json" ] && ! cmp -s "$tmp/base.json" "$tmp/p.json"; }; then
    echo "FAIL: $label: $isa differs from sse2 (exit $rv vs $rb)"; diff "$tmp/base" "$tmp/var" | head -10
    fail=1
  fi
  rm -f "$tmp/base.json" "$tmp/p.json"
}
for c in "$tests"/check/*.json; do
  for w in 8 32; do same "--check $(basename "$c") W $w" "$lockstep" run "$c" --check --json -W "$w" --threads 1 $lim; done
done
for c in "$tests"/prof/cases/*.json; do
  for w in 8 32; do
    same "--prof $(basename "$c") W $w" "$lockstep" run "$c" --quiet --prof-json "$tmp/p.json" -W "$w" --threads 1 $lim
  done
done
echo "$n runs under $isa"
exit $fail
