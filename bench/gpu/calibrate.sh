#!/usr/bin/env bash
# Times bench/gpu's cases on the GPU of this machine through Dawn's Vulkan
# backend and writes the log (bench/gpu/README.md):
#   bench/gpu/calibrate.sh OUT.json [NAME ...]
# Needs node and the reference kit in $LOCKSTEP_PEER_DIR (tests/tools/peer.mjs)
# and a Vulkan driver. The log names the GPU, the driver (nvidia-smi) and the date.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:?usage: calibrate.sh OUT.json [NAME ...]}"; shift
export LOCKSTEP_PEER_DIR="${LOCKSTEP_PEER_DIR:-$HOME/.cache/lockstep-peer}"
if command -v nvidia-smi >/dev/null; then
  export LOCKSTEP_GPU_DRIVER="$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | head -1)"
  nvidia-smi >&2 || true
fi
node "$HERE/calibrate.mjs" --out "$OUT" "$@"
