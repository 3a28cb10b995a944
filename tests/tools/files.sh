#!/usr/bin/env bash
# The files of the `lockstep` command (src/cli/cli_io.h): what each output
# option does to what its path names, and how inputs are bounded. Issue 11
# found an output written onto /dev/null, a FIFO or a symbolic link
# replacing the node itself, and /dev/zero read for 2 GiB before it was
# refused.
#
#   files.sh LOCKSTEP TESTS_DIR SCENARIO [OPTION]
#
# OPTION is the output option a scenario writes with (--out, --prof-json or
# --report); each scenario checks the exit status, stderr and the file
# system afterwards, and exits 0 when all hold (else it prints what did not
# and exits 1).
set -u
lockstep="$1"; tests="$2"; scenario="$3"; opt="${4:---out}"
case_file="$tests/cases/002_divergence.json"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "$scenario $opt: $*"; fail=1; }

# run STATUS ARGS...: lockstep with ARGS, stderr into $tmp/err; the status
# must be STATUS.
run() {
  local want="$1"; shift
  "$lockstep" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || { say "exit status $got, expected $want (lockstep $*)"; cat "$tmp/err"; }
}
stderr_has() { grep -qF -- "$1" "$tmp/err" || { say "stderr lacks: $1"; cat "$tmp/err"; }; }
# What the option writes starts with: JSON ({) or the HTML page (<!DOCTYPE).
first_char() { [ "$opt" = --report ] && echo "<" || echo "{"; }
no_temp_left() {
  local left
  left="$(find "$1" -maxdepth 1 -name '.lockstep-*' | head -1)"
  [ -z "$left" ] || say "a temporary file was left behind: $left"
}

case "$scenario" in
  dev-null) # written in place; /dev/null stays the device it was
    run 0 run "$case_file" --quiet "$opt" /dev/null
    [ -c /dev/null ] || say "/dev/null is no longer a character device"
    no_temp_left /dev ;;
  fifo) # written into the FIFO, which stays a FIFO
    mkfifo "$tmp/pipe"
    cat "$tmp/pipe" >"$tmp/got" &
    reader=$!
    run 0 run "$case_file" --quiet "$opt" "$tmp/pipe"
    if [ -p "$tmp/pipe" ]; then wait "$reader"; else say "the FIFO was replaced"; kill "$reader"; fi
    [ "$(head -c 1 "$tmp/got")" = "$(first_char)" ] || say "the reader did not get the output"
    no_temp_left "$tmp" ;;
  symlink) # written through to the link's target; the link stays a link
    mkdir "$tmp/d"
    echo old >"$tmp/d/target"
    ln -s d/target "$tmp/link"
    run 0 run "$case_file" --quiet "$opt" "$tmp/link"
    [ -L "$tmp/link" ] || say "the link was replaced by a file"
    [ "$(head -c 1 "$tmp/d/target")" = "$(first_char)" ] || say "the target does not hold the output"
    no_temp_left "$tmp"; no_temp_left "$tmp/d" ;;
  dangling-symlink) # the target a link names is created
    ln -s absent "$tmp/link"
    run 0 run "$case_file" --quiet "$opt" "$tmp/link"
    [ -L "$tmp/link" ] || say "the link was replaced by a file"
    [ "$(head -c 1 "$tmp/absent")" = "$(first_char)" ] || say "the link's target was not written" ;;
  regular) # replaced whole, keeping the mode it had
    echo old >"$tmp/f"
    chmod 640 "$tmp/f"
    run 0 run "$case_file" --quiet "$opt" "$tmp/f"
    [ "$(head -c 1 "$tmp/f")" = "$(first_char)" ] || say "the file does not hold the output"
    [ "$(stat -c %a "$tmp/f")" = 640 ] || say "mode $(stat -c %a "$tmp/f"), expected 640"
    no_temp_left "$tmp" ;;
  folder) # refused before the run: output not written
    run 3 run "$case_file" --quiet "$opt" "$tmp"
    stderr_has "it is a folder" ;;
  no-folder) # an output into a folder that does not exist: exit 3 like --out
    run 3 run "$case_file" --quiet "$opt" "$tmp/none/x"
    stderr_has "cannot write '$tmp/none/x': No such file or directory"
    [ -e "$tmp/none" ] && say "something was created" ;;
  dev-full) # a device that refuses the write: output not written
    run 3 run "$case_file" --quiet "$opt" /dev/full
    stderr_has "No space left on device"
    [ -c /dev/full ] || say "/dev/full is no longer a character device" ;;
  case-dev-zero) # endless NULs: refused at the first one
    run 2 run /dev/zero
    stderr_has "/dev/zero:1:1 error: a NUL byte (a case file's JSON text cannot contain one)" ;;
  shader-dev-zero)
    run 2 check /dev/zero
    stderr_has "/dev/zero:1:1 error: a NUL byte (WGSL text cannot contain one)" ;;
  expect-dev-zero)
    run 2 run "$case_file" --quiet --expect /dev/zero
    stderr_has "/dev/zero:1:1 error: a NUL byte (a result file's JSON text cannot contain one)" ;;
  profile-dev-zero)
    run 2 run "$case_file" --prof --profile-file /dev/zero
    stderr_has "/dev/zero:1:1 error: a NUL byte" ;;
  too-large) # a regular file over the bound: refused by its size, unread
    truncate -s $((1024 * 1024 * 1024 + 1)) "$tmp/huge.json"
    run 2 run "$tmp/huge.json"
    stderr_has "1073741825 bytes is too large: lockstep reads input files of at most 1073741824 bytes (1 GiB)" ;;
  endless-pipe) # text without end: read up to the bound, then refused
    yes | "$lockstep" run /dev/stdin >"$tmp/out" 2>"$tmp/err"
    status=${PIPESTATUS[1]}
    [ "$status" -eq 2 ] || say "exit status $status, expected 2"
    stderr_has "/dev/stdin: more than 1073741824 bytes (1 GiB) to read" ;;
  case-out-of-memory) # a 1 GiB buffer under a 600 MB address-space limit: the run failed
    (ulimit -v 600000; "$lockstep" run "$tests/errors/oom_case_buffer.json" >"$tmp/out" 2>"$tmp/err")
    status=$?
    [ "$status" -eq 3 ] || { say "exit status $status, expected 3"; cat "$tmp/err"; }
    stderr_has "buffers[0]: out of memory for buffer 'big' (268435456 words)" ;;
  device-out-of-memory) # 256 MiB twice (the case's words, the device's buffer) under 400 MB
    (ulimit -v 400000; "$lockstep" run "$tests/errors/oom_device_buffer.json" --threads 1 \
      >"$tmp/out" 2>"$tmp/err")
    status=$?
    [ "$status" -eq 3 ] || { say "exit status $status, expected 3"; cat "$tmp/err"; }
    stderr_has "buffers[0] ('big'): createBuffer 'big': out of memory" ;;
  *) echo "files.sh: unknown scenario '$scenario'" >&2; exit 2 ;;
esac
exit $fail
