#!/usr/bin/env bash
# The WebGPU CTS on lockstep: builds the conformance suite for Node from a
# source snapshot (cached per snapshot) and runs a list of its queries through
# run.mjs with a GPU provider (lockstep's Node binding, or Dawn's for a
# comparison row). docs/conformance.md ("WebGPU CTS") describes it all.
#
#   tests/cts/cts.sh [OPTIONS] [QUERY...]
#     --snapshot FILE     CTS source tarball (default ../shared/cts.tar.xz beside the repository,
#                         or ../../shared/ for a worktree; $CTS_SNAPSHOT)
#     --build-dir DIR     where the CTS is unpacked and built (default build/cts)
#     --provider NAME     lockstep (default) or dawn, or the path of a provider module
#     --binding DIR       lockstep's bindings/node to load (default the repository's)
#     --subgroup-size W   8, 16, 32 or 64 (lockstep's subgroup width)
#     --profile NAME      lockstep vendor profile
#     --threads N         lockstep worker threads
#     --flag K=V          any other provider flag (repeatable)
#     --compat            a compatibility-mode adapter (default: core)
#     --queries FILE      one query per line (# comments); added to the QUERY arguments
#     --timeout S         seconds per query before it is killed (default 600)
#     --out FILE          every case's status as TSV (default BUILD_DIR/results/last.tsv)
#     --json FILE         the per-query summary as JSON too
#     --expect FILE       expected failures (exit status 1 on a failure not listed there,
#                         or on any failure without --expect)
#     --jobs N            queries run side by side (default 1)
#     --shader-errors     lockstep: write each shader that fails to compile, with its
#                         messages, to the query's log
#     --build-only        build the CTS and stop
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
# The snapshot sits in shared/ beside the checkout (or beside its worktree folder).
SNAPSHOT="${CTS_SNAPSHOT:-}"
if [ -z "$SNAPSHOT" ]; then
  SNAPSHOT="$ROOT/../shared/cts.tar.xz"
  [ -f "$SNAPSHOT" ] || [ ! -f "$ROOT/../../shared/cts.tar.xz" ] || SNAPSHOT="$ROOT/../../shared/cts.tar.xz"
fi
BUILD="${CTS_BUILD_DIR:-$ROOT/build/cts}"
BUILD_ONLY=0
RUN_ARGS=()
while (($#)); do
  case "$1" in
    --snapshot) SNAPSHOT="$2"; shift 2 ;;
    --build-dir) BUILD="$2"; shift 2 ;;
    --build-only) BUILD_ONLY=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    *) RUN_ARGS+=("$1"); shift ;;
  esac
done
[ -f "$SNAPSHOT" ] || { echo "cts.sh: snapshot $SNAPSHOT not found (--snapshot FILE)" >&2; exit 2; }
command -v node >/dev/null || { echo "cts.sh: node is not installed (scripts/deps.sh)" >&2; exit 2; }
mkdir -p "$BUILD"
BUILD="$(cd "$BUILD" && pwd)"
SRC="$BUILD/src"

# The cache key: the snapshot's contents and this recipe's version.
RECIPE=1
key="$(sha256sum "$SNAPSHOT" | cut -d' ' -f1) recipe $RECIPE"
exec 9>"$BUILD/.lock"
flock 9   # one build at a time (ctest and a manual run may share the tree)
if [ "$(cat "$BUILD/stamp" 2>/dev/null)" != "$key" ]; then
  echo "cts.sh: building the CTS from $SNAPSHOT into $SRC (a few minutes)" >&2
  rm -rf "$SRC" "$BUILD/stamp"
  mkdir -p "$SRC"
  tar -xJf "$SNAPSHOT" -C "$SRC" --strip-components=1
  (
    cd "$SRC"
    # The lockfile names no registry: point it at npm's configured one.
    reg="$(npm config get registry)"
    sed -i "s#\"REGISTRY/#\"${reg%/}/#" package-lock.json
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    node node_modules/typescript/lib/tsc.js --project node.tsconfig.json --outDir out-node/
    # Case-cache blobs missing from the snapshot: drop their hashes so
    # gen_cache builds them instead of reporting them stale.
    node "$HERE/fix_cache_hashes.cjs" src/resources/cache/hashes.json
    node tools/gen_cache src/webgpu >/dev/null
    cp -r src/resources out-node/resources
  )
  echo "$key" > "$BUILD/stamp"
fi
exec 9>&-
((BUILD_ONLY)) && exit 0
exec node "$HERE/run.mjs" --cts "$SRC" --root "$ROOT" "${RUN_ARGS[@]}"
