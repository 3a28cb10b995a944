#!/usr/bin/env bash
# Runs one lockstep command and checks its exit status and output.
#
#   run_cli.sh STATUS 'WANT1|WANT2|...' [--absent FILE] -- COMMAND [ARGS...]
#
# STATUS: the exit status the command must give. WANT: substrings that must
# all appear in stdout + stderr ('|' separates them; empty = none).
# --absent FILE: FILE must not exist afterwards (nothing half-written).
set -u
want_status="$1"; wants="$2"; shift 2
absent=""
if [ "${1:-}" = "--absent" ]; then absent="$2"; shift 2; fi
[ "${1:-}" = "--" ] && shift
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
status=$?
fail=0
if [ "$status" -ne "$want_status" ]; then
  echo "exit status: expected $want_status, got $status"; fail=1
fi
IFS='|' read -r -a list <<<"$wants"
for w in "${list[@]}"; do
  [ -z "$w" ] && continue
  if ! grep -qF -- "$w" "$out"; then echo "missing: $w"; fail=1; fi
done
if [ -n "$absent" ] && [ -e "$absent" ]; then echo "exists but must not: $absent"; fail=1; fi
if [ "$fail" -ne 0 ]; then echo "--- output of: $*"; head -c 4000 "$out"; fi
exit "$fail"
