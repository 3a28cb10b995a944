#!/bin/sh
# fuzz/corpus_run.sh PATH — builds fuzz/corpus_run.c with AddressSanitizer
# and UndefinedBehaviorSanitizer and runs every .wgsl file under PATH that
# has a @compute entry point (a checkout of Dawn's test/tint, say), one
# process per file, two at a time. Each entry point gets resources made to
# fit its layout "auto" and runs 2 workgroups at W = 8 and 64, with the
# bytecode verifier on at pipeline creation (an internal error aborts).
# Prints how many files ran, were refused at pipeline creation or are
# invalid, and every file whose run ended in a sanitizer report or a
# crash (with the
# report under $FUZZ_DIR/corpus_run, default /tmp/lockstep-fuzz); exits 1
# if there is one.
set -eu
root=${1:?usage: fuzz/corpus_run.sh PATH}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${FUZZ_DIR:-/tmp/lockstep-fuzz}/corpus_run
rm -rf "$dir" && mkdir -p "$dir/reports"
srcs=$(ls "$here"/src/util/*.c "$here"/src/wgsl/*.c "$here"/src/ir/*.c "$here"/src/vm/*.c "$here"/src/api/*.c "$here"/src/check/*.c "$here"/src/prof/*.c)
cc=${CC:-cc}
cmake -DOUT="$dir/vm_jit_text.c" -P "$here/cmake/embed.cmake" # the compiled tier's prelude
$cc -std=c11 -D_GNU_SOURCE -DLS_VERIFY_IR -g -O1 -ffp-contract=off -fsanitize=address,undefined \
  -fno-sanitize-recover=undefined -I"$here/src" -I"$here/include" \
  "$here/fuzz/corpus_run.c" $srcs "$dir/vm_jit_text.c" -o "$dir/corpus_run" -lm -lpthread
find "$root" -name '*.wgsl' ! -name '*.expected.*' | LC_ALL=C sort | xargs -d '\n' grep -l '@compute' > "$dir/files" || true
export dir
: > "$dir/results"
# each worker appends its lines whole (O_APPEND), so two never mix
xargs -d '\n' -P 2 -n 1 sh -c '
  f=$1; r="$dir/reports/$(printf "%s" "$f" | tr "/" "_").txt"
  if timeout 120 "$dir/corpus_run" "$f" > "$r.out" 2> "$r"; then rm -f "$r"; cat "$r.out" >> "$dir/results"
  else echo "$f: CRASHED (see $r)" >> "$dir/results"; fi
  rm -f "$r.out"' sh < "$dir/files"
echo "files with @compute: $(wc -l < "$dir/files")"
echo "ran: $(grep -c ': ran ' "$dir/results" || true)"
echo "refused at pipeline creation (no entry point ran): $(grep ': refused: ' "$dir/results" | cut -d: -f1 | sort -u | while read f; do grep -q "^$f: ran " "$dir/results" || echo "$f"; done | wc -l)"
echo "invalid modules: $(grep -c ': invalid$' "$dir/results" || true)"
crashed=$(grep -c ': CRASHED' "$dir/results" || true)
echo "sanitizer reports or crashes: $crashed"
grep ': CRASHED' "$dir/results" || true
[ "$crashed" = 0 ]
