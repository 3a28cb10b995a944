#!/usr/bin/env bash
# Regenerate the expected results tests/results/NAME.json:
#   1. run the case on Dawn (the reference WebGPU implementation) with the
#      runner from $LOCKSTEP_PEER_DIR (default ~/.cache/lockstep-peer), its
#      device created with the limits dawn_device.mjs asks for;
#   2. compare Dawn's full output with the case's independent JS model
#      (tests/checks/, via verify.mjs) -- they must agree, or nothing is written;
#   3. compact it (compact_result.mjs) and record how it was produced.
# With --model, step 1 is skipped and the model's own result is written
# instead (for cases the reference implementation cannot run).
# Cases that need the device feature "subgroups" (device.requiredFeatures)
# have one result per subgroup width, NAME.W8.json, NAME.W32.json and
# NAME.W64.json, written from the model at that width (verify.mjs --width):
# the Dawn build here (GL backend) does not offer the subgroups feature.
# Cases with textures (a buffer entry with a "texture" object) run on Dawn
# through tests/tools/dawn_textures.mjs instead of the kit's runner, which
# knows buffers only; the same preload and checks apply.
#
#   tests/tools/make_results.sh [--model] [NAME ...]     (default: every case)
set -euo pipefail
TESTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$TESTS/tools"
PEER="${LOCKSTEP_PEER_DIR:-$HOME/.cache/lockstep-peer}"
export LOCKSTEP_PEER_DIR="$PEER"
MODEL=0
if [ "${1:-}" = "--model" ]; then MODEL=1; shift; fi
if [ $# -eq 0 ]; then
  set -- $(cd "$TESTS/cases" && ls *.json | sed 's/\.json$//')
fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

for name in "$@"; do
  case_file="$TESTS/cases/$name.json"
  full="$TMP/$name.json"
  check="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).check)' "$case_file")"
  sub="$(node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log((c.device?.requiredFeatures ?? []).includes("subgroups") ? 1 : 0)' "$case_file")"
  if [ "$sub" = 1 ]; then
    for w in 8 32 64; do
      node "$TOOLS/verify.mjs" "$case_file" --emit "$full" --width $w
      how="Produced by the case's independent JS model at subgroup width $w, not by Dawn: Dawn here (GL backend) does not offer the subgroups feature. node tests/tools/verify.mjs tests/cases/$name.json --emit FILE --width $w (model tests/checks/${check##*/}), then compacted with tests/tools/compact_result.mjs."
      node "$TOOLS/compact_result.mjs" "$full" --case "$case_file" --out "$TESTS/results/$name.W$w.json" --notes "$how"
      rm -f "$full"
    done
    continue
  fi
  tex="$(node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log(c.buffers.some((b) => b.texture) ? 1 : 0)' "$case_file")"
  runner="$PEER/run_dawn.mjs"; runner_doc='$LOCKSTEP_PEER_DIR/run_dawn.mjs'; tex_doc=""
  if [ "$tex" = 1 ]; then
    runner="$TOOLS/dawn_textures.mjs"; runner_doc=tests/tools/dawn_textures.mjs
    tex_doc=" (textures filled with queue.writeTexture from the case's init words, bound through explicit texture / storageTexture layout entries, read back with copyTextureToBuffer at 256-byte rows and unpadded into tightly packed words)"
  fi
  if [ $MODEL -eq 1 ]; then
    node "$TOOLS/verify.mjs" "$case_file" --emit "$full"
    how="Produced by the case's independent model, not by Dawn: node tests/tools/verify.mjs tests/cases/$name.json --emit FILE (model tests/checks/${check##*/}), then compacted with tests/tools/compact_result.mjs."
  else
    EGL_PLATFORM=surfaceless node --import "$TOOLS/dawn_device.mjs" "$runner" "$case_file" --out "$full" \
      2> >(grep -v -e XDG_RUNTIME_DIR -e 'artificially reduced' | tee "$TMP/$name.stderr" >&2)
    wait
    limits="$(sed -n 's/^dawn_device: requestDevice requiredLimits //p' "$TMP/$name.stderr" | head -1)"
    impl="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).implementation.name)' "$full")"
    verdict="$(node "$TOOLS/verify.mjs" "$case_file" "$full")" || { echo "$verdict" >&2; echo "$name: Dawn and the model disagree; result not written" >&2; exit 1; }
    echo "$verdict"
    agree="$(echo "$verdict" | sed -n 's/^  \([a-z_]*\): \([0-9]*\/[0-9]*\) words agree.*/\1 \2/p' | paste -sd ',' | sed 's/,/, /g')"
    how="Produced by $impl (see implementation): EGL_PLATFORM=surfaceless node --import tests/tools/dawn_device.mjs $runner_doc tests/cases/$name.json --out FILE$tex_doc, device requiredLimits $limits; then compacted with tests/tools/compact_result.mjs. Checked word by word against the independent model tests/checks/${check##*/} (tests/tools/verify.mjs): $agree words agree."
  fi
  node "$TOOLS/compact_result.mjs" "$full" --case "$case_file" --out "$TESTS/results/$name.json" --notes "$how"
  rm -f "$full"
done
