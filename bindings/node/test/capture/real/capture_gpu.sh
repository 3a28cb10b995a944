#!/usr/bin/env bash
# Captures on a real GPU: the recorder's test program and the TensorFlow.js
# and onnxruntime-web operations, run by Dawn (npm webgpu) on Vulkan, into
# OUT/caps (and OUT/caps.tgz). The node_modules folder given holds webgpu
# and the libraries (nothing is installed here: such a machine may have no
# network). Replay the result on lockstep with check_real.mjs.
#
#   capture_gpu.sh NODE_MODULES OUT
#
# LOCKSTEP_DAWN_BACKEND=opengles runs the same on llvmpipe (how the script
# itself is checked where there is no GPU).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODULES="$(cd "$1" && pwd)"; OUT="$2"
mkdir -p "$OUT/caps"
export LOCKSTEP_PEER_DIR="$(dirname "$MODULES")" LOCKSTEP_DAWN_BACKEND="${LOCKSTEP_DAWN_BACKEND:-vulkan}"
for lib in tfjs ort; do
  node "$HERE/capture_real.mjs" --lib $lib --impl dawn --out "$OUT/caps" --modules "$MODULES" --set all
done
node "$HERE/capture_program.mjs" --impl dawn --out "$OUT/caps/program"
tar czf "$OUT/caps.tgz" -C "$OUT" caps
