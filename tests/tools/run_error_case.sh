#!/usr/bin/env bash
# Run lockstep on one error case and check what it says.
#
#   run_error_case.sh LOCKSTEP NAME.expect [INPUT [ARGS...]]
#
# NAME.expect: first line "exit N" (the expected exit status), every further
# non-empty line a substring that must appear in stderr (compared without
# regard to case). INPUT defaults to NAME.json beside the .expect file, run
# as `lockstep run NAME.json`, or else NAME.wgsl, run as `lockstep check
# NAME.wgsl`; ARGS are passed on after INPUT. Exit 0 when the status and
# every substring match; otherwise print what differed and exit 1.
set -u
if [ $# -lt 2 ]; then
  echo "usage: run_error_case.sh LOCKSTEP NAME.expect [INPUT [ARGS...]]" >&2
  exit 2
fi
lockstep="$1"; expect="$2"; shift 2
base="${expect%.expect}"
if [ $# -ge 1 ]; then
  input="$1"; shift
elif [ -f "$base.json" ]; then
  input="$base.json"
elif [ -f "$base.wgsl" ]; then
  input="$base.wgsl"
else
  echo "run_error_case: no $base.json or $base.wgsl" >&2
  exit 2
fi
case "$input" in
  *.wgsl) cmd=("$lockstep" check "$input" "$@") ;;
  *) cmd=("$lockstep" run "$input" "$@") ;;
esac

want_status="$(head -n 1 "$expect" | sed -n 's/^exit \([0-9][0-9]*\)[[:space:]]*$/\1/p')"
if [ -z "$want_status" ]; then
  echo "run_error_case: $expect: first line must be 'exit N'" >&2
  exit 2
fi

err="$(mktemp)"
trap 'rm -f "$err"' EXIT
"${cmd[@]}" >/dev/null 2>"$err"
status=$?

fail=0
if [ "$status" -ne "$want_status" ]; then
  echo "exit status: expected $want_status, got $status"
  fail=1
fi
while IFS= read -r want || [ -n "$want" ]; do
  [ -z "$want" ] && continue
  if ! grep -qiF -- "$want" "$err"; then
    echo "stderr lacks: $want"
    fail=1
  fi
done < <(tail -n +2 "$expect")

if [ $fail -ne 0 ]; then
  echo "command: ${cmd[*]}"
  echo "--- stderr:"
  cat "$err"
  echo "---"
  exit 1
fi
exit 0
