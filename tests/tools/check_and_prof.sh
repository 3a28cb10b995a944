#!/usr/bin/env bash
# The sanitizer and the profiler on one run must each give what they give
# alone.
#
#   check_and_prof.sh LOCKSTEP CASE.json MIN_FINDINGS [ARGS...]
#
# Runs CASE three times with ARGS: profiled alone (--prof-json, --report),
# checked alone (--check --json) and both at once. The profile JSON and the
# HTML report of the combined run must be byte for byte the profiled run's,
# its findings JSON the checked run's, and its exit status the checked
# run's (the profiled run alone must succeed); the checked run must find at
# least MIN_FINDINGS findings, so that a case meant to have some cannot
# pass by having none.
set -u
lockstep="$1"; case_file="$2"; min="$3"; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$lockstep" run "$case_file" "$@" --quiet --prof-json "$tmp/prof.json" --report "$tmp/prof.html" \
  > "$tmp/prof.out" 2>&1
rc_prof=$?
"$lockstep" run "$case_file" "$@" --check --json > "$tmp/check.json" 2> "$tmp/check.err"
rc_check=$?
"$lockstep" run "$case_file" "$@" --check --json --prof-json "$tmp/both.json" \
  --report "$tmp/both.html" > "$tmp/both-check.json" 2> "$tmp/both.err"
rc_both=$?
fail=0
if [ "$rc_prof" -ne 0 ]; then echo "the profiled run exited $rc_prof"; cat "$tmp/prof.out"; fail=1; fi
if [ "$rc_both" -ne "$rc_check" ]; then
  echo "exit status $rc_both with both, $rc_check with --check alone"; fail=1
fi
if ! cmp -s "$tmp/prof.json" "$tmp/both.json"; then
  echo "the profile differs from the profiled run's:"; diff "$tmp/prof.json" "$tmp/both.json" | head -20
  fail=1
fi
if ! cmp -s "$tmp/prof.html" "$tmp/both.html"; then
  echo "the HTML report differs from the profiled run's"; fail=1
fi
if [ ! -s "$tmp/check.json" ] || ! cmp -s "$tmp/check.json" "$tmp/both-check.json"; then
  echo "the findings differ from the checked run's:"; diff "$tmp/check.json" "$tmp/both-check.json" | head -20
  fail=1
fi
n=$(grep -c '"severity":' "$tmp/check.json")
if [ "$n" -lt "$min" ]; then echo "$n findings, expected at least $min"; fail=1; fi
exit $fail
