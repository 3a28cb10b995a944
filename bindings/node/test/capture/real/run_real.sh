#!/usr/bin/env bash
# Captures of real programs: TensorFlow.js operations (ops.mjs) run by its
# WebGPU backend and onnxruntime-web models (ops_ort.mjs) run by its WebGPU
# execution provider, captured on lockstep and on Dawn (capture_real.mjs),
# each capture replayed on both and checked against the capture and against
# the library's CPU backend (check_real.mjs). The npm packages are
# installed here, from the registry, into the build tree (not a dependency
# of the package); Dawn is ../shared/peers/setup.sh's (its parts are skipped
# with a message when it is missing).
#
#   bindings/node/test/capture/real/run_real.sh [--build-dir DIR] [--set small|all] [--out DIR]
#     --build-dir DIR   where the npm packages go (default build/capture-real)
#     --set S           small (the committed set's operations, default) or all
#     --out DIR         where the captures go (default BUILD_DIR/captures)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../../../.." && pwd)"
BUILD="$ROOT/build/capture-real"
SET=small
OUT=""
while (($#)); do
  case "$1" in
    --build-dir) BUILD="$2"; shift 2 ;;
    --set) SET="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_real.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
OUT="${OUT:-$BUILD/captures}"
PKGS=(@tensorflow/tfjs-core@4.22.0 @tensorflow/tfjs-backend-webgpu@4.22.0 @tensorflow/tfjs-backend-cpu@4.22.0
  onnxruntime-web@1.20.1)
mkdir -p "$BUILD/npm"
exec 9>"$BUILD/.lock"
flock 9
if [ "$(cat "$BUILD/npm/stamp" 2>/dev/null)" != "${PKGS[*]}" ]; then
  echo "run_real.sh: installing ${PKGS[*]} into $BUILD/npm" >&2
  rm -rf "$BUILD/npm/node_modules" "$BUILD/npm/stamp"
  printf '{ "name": "lockstep-capture-real", "private": true }\n' > "$BUILD/npm/package.json"
  (cd "$BUILD/npm" && npm install --no-audit --no-fund --no-save --loglevel=error "${PKGS[@]}" >/dev/null) || {
    echo "run_real.sh: npm install failed; the first run needs the npm registry ($(npm config get registry))" >&2
    exit 1
  }
  echo "${PKGS[*]}" > "$BUILD/npm/stamp"
fi
exec 9>&-

PEER="${LOCKSTEP_PEER_DIR:-$HOME/.cache/lockstep-peer}"
impls=(lockstep)
if [ -f "$PEER/node_modules/webgpu/index.js" ]; then impls+=(dawn)
else echo "run_real.sh: Dawn is not installed in $PEER (../shared/peers/setup.sh): its parts are skipped" >&2; fi
export EGL_PLATFORM=surfaceless
quiet() { grep -v -e XDG_RUNTIME_DIR -e 'artificially reduced' -e 'tfjs-node' -e '^=*$' -e 'Hi, looks like' >&2 || true; }
rm -rf "$OUT"
for impl in "${impls[@]}"; do
  for lib in tfjs ort; do
    node "$HERE/capture_real.mjs" --lib "$lib" --impl "$impl" --out "$OUT/$impl" --modules "$BUILD/npm/node_modules" --set "$SET" 2> >(quiet)
  done
done
status=0
for made in "${impls[@]}"; do
  for on in "${impls[@]}"; do
    exact=(); [ "$made" = "$on" ] && exact=(--exact)
    node "$HERE/check_real.mjs" "$OUT/$made" --impl "$on" "${exact[@]}" 2> >(quiet) || status=1
  done
done
exit $status
