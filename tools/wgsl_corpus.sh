#!/bin/sh
# wgsl_corpus.sh PATH [LOCKSTEP] — runs `lockstep check` on every .wgsl file
# under PATH (skipping expected-output files such as *.expected.wgsl) and
# prints `accepted/total`, the same figure for the compute-only subset (no
# @vertex/@fragment, no texture or sampler use), then every rejected file
# with its first diagnostic. LOCKSTEP defaults to build-fe/lockstep, then
# build/lockstep, next to this script's repository. Set JOBS to run more
# checks in parallel (default: the number of CPUs).
set -u
root=${1:?usage: wgsl_corpus.sh PATH [LOCKSTEP]}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${2:-}
if [ -z "$bin" ]; then
  for b in "$here/build-fe/lockstep" "$here/build/lockstep"; do
    [ -x "$b" ] && { bin=$b; break; }
  done
fi
[ -x "${bin:-}" ] || { echo "wgsl_corpus.sh: no lockstep binary (build it first)" >&2; exit 2; }
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$root" -name '*.wgsl' ! -name '*.expected.*' | LC_ALL=C sort > "$tmp/all"
# files that use other stages or textures/samplers (not compute-only)
xargs -d '\n' grep -lE '@(vertex|fragment)|texture|sampler' < "$tmp/all" | LC_ALL=C sort > "$tmp/noncompute"
# one line per file: STATUS<TAB>FILE<TAB>FIRST-DIAGNOSTIC
export bin
xargs -P "$jobs" -d '\n' -n 64 sh -c '
  for f in "$@"; do
    out=$(timeout 20 "$bin" check "$f" 2>&1)
    if [ $? -eq 0 ]; then printf "ok\t%s\t\n" "$f"
    else printf "bad\t%s\t%s\n" "$f" "$(printf "%s\n" "$out" | grep -m1 -E "error" )"; fi
  done' sh < "$tmp/all" > "$tmp/res0"
awk -F'\t' 'NR==FNR {nc[$0]=1; next} {print $1 "\t" ($2 in nc ? 0 : 1) "\t" $2 "\t" $3}' \
  "$tmp/noncompute" "$tmp/res0" > "$tmp/res"
total=$(wc -l < "$tmp/res")
acc=$(awk -F'\t' '$1=="ok"' "$tmp/res" | wc -l)
ctotal=$(awk -F'\t' '$2==1' "$tmp/res" | wc -l)
cacc=$(awk -F'\t' '$2==1 && $1=="ok"' "$tmp/res" | wc -l)
echo "accepted: $acc/$total"
echo "compute-only accepted: $cacc/$ctotal"
echo "rejected:"
awk -F'\t' '$1!="ok" {print $3 ": " $4}' "$tmp/res" | LC_ALL=C sort
