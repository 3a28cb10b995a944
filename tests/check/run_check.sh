#!/usr/bin/env bash
# Runs one case of the sanitizer corpus and compares its findings.
#
#   run_check.sh LOCKSTEP NAME.expect [ARGS...]
#
# NAME.json is run as `lockstep run NAME.json --check ARGS` (NAME.wgsl,
# when there is no NAME.json, as `lockstep check NAME.wgsl ARGS`).
# NAME.expect: a line "exit N"; one line "SEVERITY ID LINE:COL" per finding
# expected (the findings printed must be exactly these, in any order); lines
# "has TEXT" with text that must appear in the output; a line "same-results"
# also runs the case unchecked and requires identical result files (--out).
# Lines starting with #
# are comments; "args OPTIONS" adds options to the command. With CHECK_INPUT=FILE.wgsl in the environment, that shader
# is checked instead (the seed kernels' expectations in kernels/).
set -u
lockstep="$1"; expect="$2"; shift 2
base="${expect%.expect}"
# "args ..." in the expect file: more options for lockstep (e.g. --budget)
read -r -a more <<< "$(sed -n 's/^args //p' "$expect")"
set -- "$@" "${more[@]}"
if [ -n "${CHECK_INPUT:-}" ]; then
  out=$("$lockstep" check "$CHECK_INPUT" "$@" 2>&1); rc=$?
elif [ -f "$base.json" ]; then
  out=$("$lockstep" run "$base.json" --check --quiet "$@" 2>&1); rc=$?
else
  out=$("$lockstep" check "$base.wgsl" "$@" 2>&1); rc=$?
fi
fail=0
want_rc=$(sed -n 's/^exit //p' "$expect")
if [ "$rc" != "$want_rc" ]; then echo "exit status $rc, expected $want_rc"; fail=1; fi
got=$(printf '%s\n' "$out" | sed -n -E 's/^[^ ].*:([0-9]+):([0-9]+) (error|warning|note): .* \[([a-z0-9-]+)\]$/\3 \4 \1:\2/p' | sort)
want=$(grep -E '^(error|warning|note) ' "$expect" | sort)
if [ "$got" != "$want" ]; then
  echo "findings differ:"; echo "--- expected"; echo "$want"; echo "--- got"; echo "$got"; fail=1
fi
while IFS= read -r line; do
  case "$line" in
    has\ *) t="${line#has }"
      if ! printf '%s\n' "$out" | grep -qF -- "$t"; then echo "missing: $t"; fail=1; fi ;;
  esac
done < "$expect"
if grep -qx 'same-results' "$expect" && [ -f "$base.json" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  "$lockstep" run "$base.json" --check --quiet --out "$tmp/checked.json" "$@" > /dev/null 2>&1
  "$lockstep" run "$base.json" --quiet --out "$tmp/plain.json" "$@" > /dev/null 2>&1
  if [ ! -s "$tmp/plain.json" ] || ! cmp -s "$tmp/checked.json" "$tmp/plain.json"; then
    echo "results of the checked run differ from an unchecked run"; fail=1
  fi
fi
if [ $fail -ne 0 ]; then echo "--- output"; printf '%s\n' "$out"; fi
exit $fail
