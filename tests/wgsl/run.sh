#!/usr/bin/env bash
# tests/wgsl/run.sh LOCKSTEP DIR — the front end's rule tests.
#   DIR/bad/*.wgsl      must be rejected; the first line says
#                       "// expect: LINE:COL message substring" and the
#                       diagnostics must contain FILE:LINE:COL and the text
#                       (an optional line 2 "// note: LINE:COL text" names
#                       a note the diagnostics must contain too)
#   DIR/ok/*.wgsl       must be accepted (exit 0)
#   DIR/refuse/*.wgsl   valid, but pipeline creation (`lockstep disasm`) must
#                       refuse them (a pipeline-creation error, or "... is
#                       not supported by lockstep yet"); the first line is
#                       "// expect: LINE:COL message"
#   DIR/warn/*.wgsl     must be accepted (exit 0) with a diagnostic: the
#                       first line is "// expect: LINE:COL SEVERITY: message"
#                       (SEVERITY warning or note), or "// expect: nothing"
#                       for a module that must print no diagnostic at all
#   DIR/regress/*.wgsl  fuzzing finds: must exit 0 or 2 (never crash or hang)
# The modules of bad/, ok/ and warn/ go through one `lockstep check` per
# folder (it takes many files, each on its own, on one device), and the
# rest is bash's builtins: a process per module, and grep and sed for each,
# cost seconds in the plain build and over a minute in the sanitizer's,
# whose leak check alone costs some 40 ms a process. A folder whose run
# crashes or hangs is run again a module at a time to name the module.
bin=${1:?usage: run.sh LOCKSTEP DIR}
dir=${2:?usage: run.sh LOCKSTEP DIR}
shopt -s nullglob
fail=0
n=0

# line N (1 or 2) of file $1 with the prefix $3 removed, into $2; empty
# when the line does not start with the prefix
header_line() {
  local l1="" l2=""
  { IFS= read -r l1; IFS= read -r l2; } < "$1" || true
  local l; [ "$4" = 2 ] && l=$l2 || l=$l1
  if [[ $l == "$3"* ]]; then printf -v "$2" '%s' "${l#"$3"}"; else printf -v "$2" '%s' ""; fi
}

# `lockstep check` on every file given, in one process; out[FILE] gets the
# lines it printed about FILE (a line starting "FILE:", and the source
# lines under it). A status other than 0 or 2 (a crash, a hang) fails the
# test, and each file is then checked alone to find the one.
declare -A out
check_all() {
  local text rc line key="" k
  declare -A mine=()
  for k in "$@"; do mine[$k]=1; out[$k]=""; done
  text=$(timeout 600 "$bin" check "$@" 2>&1)
  rc=$?
  check_rc=$rc
  while IFS= read -r line; do
    k=${line%%:*}
    [ -n "$k" ] && [ -n "${mine[$k]+x}" ] && key=$k
    [ -n "$key" ] && out[$key]+="$line"$'\n'
  done <<< "$text"
  if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
    echo "FAIL: lockstep check on $# files exited $rc (crash or hang); one at a time:"; fail=1
    for k in "$@"; do
      timeout 20 "$bin" check "$k" >/dev/null 2>&1
      rc=$?
      [ $rc -eq 0 ] || [ $rc -eq 2 ] || echo "FAIL $k: exit $rc (crash or hang)"
    done
  fi
}

# whether a line of $1 holds "$2 " and, after it, $3
has_diag() {
  local line
  while IFS= read -r line; do
    [[ $line == *"$2 "* && ${line#*"$2 "} == *"$3"* ]] && return 0
  done <<< "$1"
  return 1
}

# whether lockstep said FILE is valid
valid() { [[ ${out[$1]} == *"$1: valid ("* ]]; }

# the first six lines of $1
show() {
  local line k=0
  while IFS= read -r line && ((k++ < 6)); do printf '%s\n' "$line"; done <<< "$1"
}

files=("$dir"/bad/*.wgsl)
if ((${#files[@]})); then
  check_all "${files[@]}"
  [ $check_rc -eq 2 ] || { echo "FAIL: lockstep check on bad/ exited $check_rc, not 2"; fail=1; }
fi
for f in "${files[@]}"; do
  n=$((n + 1))
  header_line "$f" exp "// expect: " 1
  pos=${exp%% *}
  msg=${exp#* }
  if valid "$f"; then
    echo "FAIL $f: expected rejection, it was accepted"; fail=1
  elif ! has_diag "${out[$f]}" "$f:$pos" "$msg"; then
    echo "FAIL $f: expected '$f:$pos ... $msg', got:"; show "${out[$f]}"; fail=1
  fi
  # an optional second line "// note: LINE:COL text" names the note that
  # shows where the offending value comes from
  header_line "$f" note "// note: " 2
  if [ -n "$note" ] && ! has_diag "${out[$f]}" "$f:${note%% *} note:" "${note#* }"; then
    echo "FAIL $f: expected note '$f:$note', got:"; show "${out[$f]}"; fail=1
  fi
done
files=("$dir"/ok/*.wgsl)
if ((${#files[@]})); then
  check_all "${files[@]}"
  [ $check_rc -eq 0 ] || { echo "FAIL: lockstep check on ok/ exited $check_rc, not 0"; fail=1; }
fi
for f in "${files[@]}"; do
  n=$((n + 1))
  if ! valid "$f"; then
    echo "FAIL $f: expected acceptance, got:"; show "${out[$f]}"; fail=1
  fi
done
for f in "$dir"/refuse/*.wgsl; do
  n=$((n + 1))
  header_line "$f" exp "// expect: " 1
  pos=${exp%% *}
  msg=${exp#* }
  if ! timeout 20 "$bin" check "$f" >/dev/null 2>&1; then
    echo "FAIL $f: expected 'lockstep check' to accept it"; fail=1; continue
  fi
  text=$(timeout 20 "$bin" disasm "$f" 2>&1)
  rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL $f: expected pipeline creation to refuse it (exit 2), got exit $rc"; fail=1
  elif ! has_diag "$text" "$f:$pos" "$msg"; then
    echo "FAIL $f: expected '$f:$pos ... $msg', got:"; show "$text"; fail=1
  fi
done
files=("$dir"/warn/*.wgsl)
((${#files[@]})) && check_all "${files[@]}"
for f in "${files[@]}"; do
  n=$((n + 1))
  header_line "$f" exp "// expect: " 1
  if ! valid "$f"; then
    echo "FAIL $f: expected acceptance, got:"; show "${out[$f]}"; fail=1
  elif [ "$exp" = nothing ]; then
    re="^$f:[0-9]+:[0-9]+ "
    while IFS= read -r line; do
      if [[ $line =~ $re ]]; then
        echo "FAIL $f: expected no diagnostic, got:"; show "${out[$f]}"; fail=1; break
      fi
    done <<< "${out[$f]}"
  else
    pos=${exp%% *}
    msg=${exp#* }
    if ! has_diag "${out[$f]}" "$f:$pos" "$msg"; then
      echo "FAIL $f: expected '$f:$pos $msg', got:"; show "${out[$f]}"; fail=1
    fi
  fi
done
for f in "$dir"/regress/*.wgsl; do
  n=$((n + 1))
  timeout 20 "$bin" check "$f" >/dev/null 2>&1
  rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
    echo "FAIL $f: exit $rc (crash or hang)"; fail=1
  fi
done
[ $fail -eq 0 ] && echo "wgsl rule tests: $n passed"
exit $fail
