#!/usr/bin/env bash
# The demo: installs dependencies, builds lockstep, then runs every compute
# example of the seed lessons (tests/cases/) on the emulated SIMT device and
# checks each against its reference result from Dawn. Each case prints its
# one-line account (its title), the dispatches as they ran, and whether the
# read-back buffers match. Then a few examples the lessons say must fail.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
L="${BUILD_DIR:-build}/lockstep"

echo "== The seed lessons' compute examples (subgroup width 32, $(nproc) threads)"
for c in tests/cases/00[012]_*.json; do
  n=$(basename "$c" .json)
  echo
  "$L" run "$c" --summary --expect "tests/results/$n.json" 2>&1 | sed '2,$s/^/    /'
done

echo
echo "== What the limits reject"
for e in err_workgroup_too_many_invocations err_device_limit_over_adapter \
         err_workgroup_storage_over_limit err_dispatch_over_limit; do
  echo
  "$L" run "tests/errors/$e.json" --summary 2>&1 | sed '2,$s/^/    /' || true
done

echo
echo "== The same guarded kernel on 8-lane and 64-lane subgroups"
for w in 8 64; do
  "$L" run tests/cases/000_guard_3000001.json --summary -W "$w" \
    --expect tests/results/000_guard_3000001.json 2>&1 | sed '1d;s/^/    /'
done
