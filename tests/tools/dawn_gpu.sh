#!/usr/bin/env bash
# Run cases on Dawn with its Vulkan backend on a machine with a GPU (core
# feature level), and check each full result against the case's independent
# JS model (verify.mjs). This is the second reference behind tests/results/:
# it can run what Dawn on the CPU driver cannot (the "subgroups" feature).
#
#   tests/tools/dawn_gpu.sh OUTDIR [NAME ...]       (default: every case)
#
# Needs node and the reference kit in $LOCKSTEP_PEER_DIR (see peer.mjs) and a
# Vulkan driver. Writes OUTDIR/NAME.json (Dawn's full result), OUTDIR/NAME.log
# (the verdict) and OUTDIR/summary.txt; exits 1 if any case disagrees.
# Cases with textures run through tests/tools/dawn_textures.mjs (the kit's
# runner knows buffers only).
set -uo pipefail
TESTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:?usage: dawn_gpu.sh OUTDIR [NAME ...]}"; shift
mkdir -p "$OUT"
export DAWN_BACKEND="${DAWN_BACKEND:-vulkan}" DAWN_FEATURE_LEVEL="${DAWN_FEATURE_LEVEL:-core}"
PEER="${LOCKSTEP_PEER_DIR:-$HOME/.cache/lockstep-peer}"
export LOCKSTEP_PEER_DIR="$PEER"
if [ $# -eq 0 ]; then set -- $(cd "$TESTS/cases" && ls *.json | sed 's/\.json$//'); fi
# The adapter's features and subgroup width: a case that needs a feature the
# adapter lacks is skipped (and says so); models of cases whose output
# depends on the width (device.requiredFeatures has "subgroups") are checked
# at that width, which must be fixed (subgroupMinSize = subgroupMaxSize).
probe="$(node --input-type=module -e '
  const { create, globals } = await import(process.env.LOCKSTEP_PEER_DIR + "/node_modules/webgpu/index.js");
  Object.assign(globalThis, globals);
  const a = await create(["backend=" + process.env.DAWN_BACKEND]).requestAdapter({ featureLevel: process.env.DAWN_FEATURE_LEVEL });
  const i = a?.info;
  console.log(i && i.subgroupMinSize === i.subgroupMaxSize ? i.subgroupMinSize : 0);
  console.log(a ? [...a.features].join(" ") : "");
  process.exit(0);' 2>/dev/null)"
width="$(printf '%s\n' "$probe" | sed -n 1p)"
features=" $(printf '%s\n' "$probe" | sed -n 2p) "
bad=0
: > "$OUT/summary.txt"
for name in "$@"; do
  case_file="$TESTS/cases/$name.json"
  wargs=()
  missing=""
  for f in $(node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log((c.device?.requiredFeatures ?? []).join(" "))' "$case_file"); do
    case "$features" in *" $f "*) ;; *) missing="$missing $f" ;; esac
  done
  if [ -n "$missing" ]; then echo "$name: skipped (the adapter lacks$missing)" >> "$OUT/summary.txt"; continue; fi
  if grep -q '"subgroups"' "$case_file"; then
    if [ "${width:-0}" = 0 ]; then echo "$name: skipped (the adapter's subgroup width is not fixed)" >> "$OUT/summary.txt"; continue; fi
    wargs=(--width "$width")
  fi
  runner="$PEER/run_dawn.mjs"
  if node -e 'process.exit(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).buffers.some((b) => b.texture) ? 0 : 1)' "$case_file"; then
    runner="$TESTS/tools/dawn_textures.mjs"
  fi
  if node --import "$TESTS/tools/dawn_device.mjs" "$runner" "$case_file" --out "$OUT/$name.json" \
       > "$OUT/$name.log" 2>&1 &&
     node "$TESTS/tools/verify.mjs" "$case_file" "$OUT/$name.json" "${wargs[@]}" >> "$OUT/$name.log" 2>&1; then
    echo "$name: agrees with the model" >> "$OUT/summary.txt"
  else
    echo "$name: DISAGREES or failed (see $name.log)" >> "$OUT/summary.txt"; bad=1
  fi
done
cat "$OUT/summary.txt"
exit $bad
