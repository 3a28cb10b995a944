#!/usr/bin/env bash
# The demo: installs dependencies, builds lockstep, then runs every compute
# example of the seed lessons (tests/cases/) on the emulated SIMT device and
# checks each against its reference result from Dawn. Each case prints its
# one-line account (its title), the dispatches as they ran, and whether the
# read-back buffers match. Then a few examples the lessons say must fail,
# what the SIMT profiler says a GPU would spend on lesson 002's divergent
# kernel, and what the sanitizer finds in an unguarded and a racy kernel.
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

echo
echo "== What a GPU would spend: lesson 002's divergent branches, profiled as on an NVIDIA GPU (W = 32)"
"$L" run tests/cases/002_divergence.json --prof --profile nvidia 2>&1 |
  sed -n '/-- Launch/,/-- Loops/p' | sed '$d;s/^/    /'
"$L" run tests/cases/002_workgroup_100.json --prof --profile nvidia 2>&1 |
  grep -E 'lanes allocated|idle lanes' | sed 's/^/    @workgroup_size(100):/'

echo
echo "== What is wrong: the sanitizer on lesson 000's kernel without its guard, and a reduction without a barrier"
for k in oob_unguarded race_reduction_no_barrier; do
  echo
  "$L" run "tests/check/$k.json" --check --quiet 2>&1 | sed 's/^/    /' || true
done

echo
echo "== The front door: lesson 000's kernel as browser JavaScript (navigator.gpu), unchanged, at W = 32 and 8"
if command -v node >/dev/null 2>&1; then
  for w in 32 8; do
    LOCKSTEP_SUBGROUP_SIZE=$w node --import ./bindings/node/register.mjs \
      bindings/node/examples/guard.mjs 2>&1 | sed 's/^/    /'
  done
else
  echo "    (node is not installed: skipped)"
fi
