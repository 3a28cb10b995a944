#!/usr/bin/env bash
# The profiler's HTML page in headless Chromium (Debian's chromium package,
# installed through scripts/deps.sh when missing):
#   html_test.sh LOCKSTEP CASE.json OUTDIR
# writes OUTDIR/report.html with `lockstep run --report`, loads it, and
# checks that no console error was logged, that the sections exist and that
# the script drew the lane picture (it marks <body data-drawn="1"> last).
# Leaves OUTDIR/report.png, a screenshot.
set -u
lockstep="$1"; case_file="$2"; out="$3"
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v chromium >/dev/null 2>&1; then
  bash "$here/../../scripts/deps.sh" || { echo "cannot install chromium"; exit 1; }
fi
command -v chromium >/dev/null 2>&1 || { echo "chromium is not installed"; exit 1; }
rm -rf "$out"; mkdir -p "$out"
"$lockstep" run "$case_file" --report "$out/report.html" --trace-group 1 >/dev/null || {
  echo "lockstep run --report failed"; exit 1; }
profile_dir="$(mktemp -d)"
trap 'rm -rf "$profile_dir"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$profile_dir" --enable-logging=stderr --v=0)
timeout 120 chromium "${flags[@]}" --dump-dom "file://$out/report.html" \
  >"$out/dom.html" 2>"$out/console.log"
timeout 120 chromium "${flags[@]}" --window-size=1280,1500 --hide-scrollbars \
  --screenshot="$out/report.png" "file://$out/report.html" >/dev/null 2>>"$out/console.log"
fail=0
if grep -E 'CONSOLE' "$out/console.log" | grep -qiE 'error|uncaught'; then
  echo "console errors:"; grep -E 'CONSOLE' "$out/console.log"; fail=1
fi
for want in 'id="summary"' 'id="heatmap"' 'id="lanes"' 'id="lanecanvas"' 'id="source"' \
            'class="ln"' 'data-drawn="1"' 'SIMT efficiency' 'divergent branches'; do
  grep -qF "$want" "$out/dom.html" || { echo "missing in the page: $want"; fail=1; }
done
if grep -qF 'id="lanecanvas" width="10"' "$out/dom.html"; then
  echo "the lane picture was not drawn"; fail=1
fi
[ -s "$out/report.png" ] || { echo "no screenshot"; fail=1; }
if grep -qE 'https?://' "$out/report.html"; then echo "the page refers to the network"; fail=1; fi
[ "$fail" -eq 0 ] && echo "html ok: $out/report.html, $out/report.png"
exit "$fail"
