#!/bin/sh
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
bin=${1:?usage: run.sh LOCKSTEP DIR}
dir=${2:?usage: run.sh LOCKSTEP DIR}
fail=0
n=0
for f in "$dir"/bad/*.wgsl; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  exp=$(head -n1 "$f" | sed -n 's#^// expect: ##p')
  pos=${exp%% *}
  msg=${exp#* }
  out=$(timeout 20 "$bin" check "$f" 2>&1)
  rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL $f: expected rejection (exit 2), got exit $rc"; fail=1
  elif ! printf '%s\n' "$out" | grep -F "$f:$pos " | cut -d' ' -f2- | grep -qF "$msg"; then
    echo "FAIL $f: expected '$f:$pos ... $msg', got:"; printf '%s\n' "$out" | head -n 6; fail=1
  fi
  # an optional second line "// note: LINE:COL text" names the note that
  # shows where the offending value comes from
  note=$(sed -n '2s#^// note: ##p' "$f")
  if [ -n "$note" ] && ! printf '%s\n' "$out" | grep -F "$f:${note%% *} note: " | cut -d' ' -f3- |
       grep -qF "${note#* }"; then
    echo "FAIL $f: expected note '$f:$note', got:"; printf '%s\n' "$out" | head -n 6; fail=1
  fi
done
for f in "$dir"/ok/*.wgsl; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  out=$(timeout 20 "$bin" check "$f" 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $f: expected acceptance, got exit $rc:"; printf '%s\n' "$out" | head -n 6; fail=1
  fi
done
for f in "$dir"/refuse/*.wgsl; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  exp=$(head -n1 "$f" | sed -n 's#^// expect: ##p')
  pos=${exp%% *}
  msg=${exp#* }
  if ! timeout 20 "$bin" check "$f" >/dev/null 2>&1; then
    echo "FAIL $f: expected 'lockstep check' to accept it"; fail=1; continue
  fi
  out=$(timeout 20 "$bin" disasm "$f" 2>&1)
  rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL $f: expected pipeline creation to refuse it (exit 2), got exit $rc"; fail=1
  elif ! printf '%s\n' "$out" | grep -F "$f:$pos " | cut -d' ' -f2- | grep -qF "$msg"; then
    echo "FAIL $f: expected '$f:$pos ... $msg', got:"; printf '%s\n' "$out" | head -n 6; fail=1
  fi
done
for f in "$dir"/warn/*.wgsl; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  exp=$(head -n1 "$f" | sed -n 's#^// expect: ##p')
  out=$(timeout 20 "$bin" check "$f" 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $f: expected acceptance, got exit $rc:"; printf '%s\n' "$out" | head -n 6; fail=1
  elif [ "$exp" = nothing ]; then
    if printf '%s\n' "$out" | grep -qE "^$f:[0-9]+:[0-9]+ "; then
      echo "FAIL $f: expected no diagnostic, got:"; printf '%s\n' "$out" | head -n 6; fail=1
    fi
  else
    pos=${exp%% *}
    msg=${exp#* }
    if ! printf '%s\n' "$out" | grep -F "$f:$pos " | cut -d' ' -f2- | grep -qF "$msg"; then
      echo "FAIL $f: expected '$f:$pos $msg', got:"; printf '%s\n' "$out" | head -n 6; fail=1
    fi
  fi
done
for f in "$dir"/regress/*.wgsl; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  timeout 20 "$bin" check "$f" >/dev/null 2>&1
  rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
    echo "FAIL $f: exit $rc (crash or hang)"; fail=1
  fi
done
[ $fail -eq 0 ] && echo "wgsl rule tests: $n passed"
exit $fail
