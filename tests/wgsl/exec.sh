#!/bin/sh
# tests/wgsl/exec.sh LOCKSTEP DIR — runs DIR/exec/*.json (case files of
# features the front end gained) at subgroup widths 8 and 32 and compares
# the read-back buffer's words (all of them: each case reads back one
# buffer) with NAME.expect, "[0] " and the words on one line. The expected
# words come from the arithmetic each shader's header comment shows.
bin=${1:?usage: exec.sh LOCKSTEP DIR}
dir=${2:?usage: exec.sh LOCKSTEP DIR}
fail=0
n=0
for c in "$dir"/exec/*.json; do
  [ -e "$c" ] || continue
  want=$(cat "${c%.json}.expect")
  for w in 8 32; do
    n=$((n + 1))
    got="[0] $(timeout 60 "$bin" run "$c" -W "$w" --print 100000 2>&1 |
      sed -n 's/^ *\[[0-9]*\] \(.*\)$/\1/p' | tr '\n' ' ' | sed 's/ $//')"
    if [ "$got" != "$want" ]; then
      echo "FAIL $c (W=$w): expected '$want', got '$got'"; fail=1
    fi
  done
done
[ $fail -eq 0 ] && echo "wgsl exec tests: $n passed"
exit $fail
