#!/bin/sh
# tests/wgsl/hostile_pipeline.sh LOCKSTEP — hostile input for pipeline
# creation and the interpreter's memory, hostile.sh's sibling: that one runs
# `lockstep check`, this one compiles the whole pipeline (`lockstep disasm`,
# or `lockstep run` on a generated case file, which also runs it). Each
# module is generated at test time (nothing large is committed) and run
# under a virtual-memory limit (ulimit -v); the test asserts the exit status
# (0 valid, 2 refused, 3 the run failed) and the diagnostic's text, and for
# the runs the words read back, whose values come from the arithmetic in
# the comment above each case. The timeout only turns a hang into a
# failure; nothing asserts a duration. Cases named "..._found_*" reproduce
# a defect this test found (a crash, a stack overflow, quadratic or
# exponential time, a silent wrong result), kept as regressions.
bin=${1:?usage: hostile_pipeline.sh LOCKSTEP}
mem_kb=${HOSTILE_MEM_KB:-1048576}   # 1 GiB of address space per run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# gen NAME AWK-PROGRAM — writes $tmp/NAME.wgsl from an awk BEGIN block
gen() { awk "BEGIN { $2 }" > "$tmp/$1.wgsl"; }

# limited CMD... — runs the command under the memory limit and the timeout
limited() { (ulimit -v "$mem_kb"; timeout 120 "$@") 2>&1; }

# refused NAME MESSAGE — pipeline creation of $tmp/NAME.wgsl fails (exit 2)
# with MESSAGE in a file:line:col diagnostic
refused() {
  name=$1 msg=$2 f="$tmp/$1.wgsl"
  n=$((n + 1))
  out=$(limited "$bin" disasm "$f")
  rc=$?
  if [ "$rc" -ne 2 ]; then
    echo "FAIL $name: expected exit 2, got $rc"; printf '%s\n' "$out" | head -n 3 | cut -c1-300; fail=1
  elif ! printf '%s\n' "$out" | grep -E "^$f:[0-9]+:[0-9]+ error: " | grep -qF "$msg"; then
    echo "FAIL $name: expected '$f:LINE:COL error: ...$msg'"; printf '%s\n' "$out" | head -n 3 | cut -c1-300; fail=1
  fi
}

# runs NAME WORDS BUFFER-WORDS [INIT] [OPTIONS...] — a case with one
# storage buffer `out` (BUFFER-WORDS u32, INIT a JSON array or "") and one
# dispatch of one workgroup of $tmp/NAME.wgsl's `main`, on one thread;
# the first words read back must be WORDS
runs() {
  name=$1 want=$2 count=$3 init=$4
  shift 4
  n=$((n + 1))
  init_json=""
  [ -n "$init" ] && init_json=", \"init\": { \"data\": $init }"
  cat > "$tmp/$name.json" <<EOF
{ "format": "wgsl-compute-case/1", "name": "$name", "shader": "$name.wgsl",
  "pipelines": { "main": { "entryPoint": "main" } },
  "buffers": [ { "name": "out", "binding": 0, "kind": "storage", "type": "u32", "count": $count$init_json } ],
  "dispatches": [ { "pipeline": "main", "workgroups": [1, 1, 1] } ], "readback": ["out"] }
EOF
  out=$(limited "$bin" run "$tmp/$name.json" --threads 1 --print 8 "$@")
  rc=$?
  got=$(printf '%s\n' "$out" | sed -n 's/^ *\[0\] \(.*\)$/\1/p' | tail -n 1)
  if [ "$rc" -ne 0 ] || [ "$got" != "$want" ]; then
    echo "FAIL $name: expected exit 0 and '$want', got exit $rc and '$got'"
    printf '%s\n' "$out" | head -n 3 | cut -c1-300; fail=1
  fi
}

OUT='print "@group(0) @binding(0) var<storage, read_write> out: array<u32>;";'

# ---- chains of lets: each let is lowered once and referred to after
# v0 = out[0] = 7, vI = v(I-1) + 1: v50000 = 50007
gen let_chain_found_stack_overflow "$OUT"' print "@compute @workgroup_size(1) fn main() {"; print "  let v0 = out[0];"; for (i = 1; i <= 50000; i++) printf "  let v%d = v%d + 1u;\n", i, i - 1; print "  out[1] = v50000;\n}"'
runs let_chain_found_stack_overflow "7 50007" 2 "[7, 0]"
# vI = 2 v(I-1): v31 = 5 * 2^31 = 2^31 (mod 2^32, 5 is odd), v40 = 5 * 2^40 = 0
gen let_doubling_found_exponential "$OUT"' print "@compute @workgroup_size(1) fn main() {"; print "  let v0 = out[0];"; for (i = 1; i <= 40; i++) printf "  let v%d = v%d + v%d;\n", i, i - 1, i - 1; print "  out[1] = v31;\n  out[2] = v40;\n}"'
runs let_doubling_found_exponential "5 2147483648 0" 3 "[5, 1, 1]"
# pointer lets, each naming the one before, each stored through: x = 0 +
# 50000 increments
gen pointer_let_chain_found_quadratic "$OUT"' print "@compute @workgroup_size(1) fn main() {"; print "  var x = out[0];"; print "  let p0 = &x;"; for (i = 1; i <= 50000; i++) printf "  let p%d = &*p%d; *p%d += 1u;\n", i, i - 1, i; print "  out[0] = x;\n}"'
runs pointer_let_chain_found_quadratic "50000" 1 ""

# ---- size: a million statements, each with its own constant: a = 0 +
# 1 + 2 + ... + 10^6 = 500000500000 = 1784293664 (mod 2^32)
gen statements_1m_distinct_constants "$OUT"' print "@compute @workgroup_size(1) fn main() {"; print "  var a = out[0];"; for (i = 1; i <= 1000000; i++) printf "  a += %du;\n", i; print "  out[0] = a;\n}"'
runs statements_1m_distinct_constants "1784293664" 1 ""
# the listing of a function inlined 100,000 times: its spans go back to
# line 2 after every call (the last call's line is 100004)
gen disasm_100k_lines_found_quadratic "$OUT"' print "fn f(x: u32) -> u32 { return x + 1u; }"; print "@compute @workgroup_size(1) fn main() {"; print "  var a = out[0];"; for (i = 1; i <= 100000; i++) print "  a = f(a);"; print "  out[0] = a;\n}"'
n=$((n + 1))
f="$tmp/disasm_100k_lines_found_quadratic.wgsl"
out=$(limited "$bin" disasm "$f")
rc=$?
calls=$(printf '%s\n' "$out" | grep -c "; line 2$")
last=$(printf '%s\n' "$out" | grep "; line 100004$" | tail -n 1)
if [ "$rc" -ne 0 ] || [ "$calls" -lt 100000 ] || [ -z "$last" ]; then
  echo "FAIL disasm_100k_lines_found_quadratic: exit $rc, $calls instructions of line 2, last call: '$last'"; fail=1
fi

# ---- nesting through calls: bounded by the resolver (2048 levels), so no
# later phase can exhaust the C stack. Each fI (I = 1..3) nests I0 ifs and
# a sum of 480 terms whose first is the call of f(I-1): 3 x (I0 + 482)
# levels + main's 2; with I0 = 199 that is 2045, with 201 it is 2051
nest_gen() {
  gen "$1" "$OUT"' print "fn f0(x: u32) -> u32 { return x; }"; for (f = 1; f <= 3; f++) { printf "fn f%d(x: u32) -> u32 { var r = x; ", f; for (i = 0; i < '"$2"'; i++) printf "if x < %du { ", i + 1000; printf "r = f%d(x)", f - 1; for (i = 0; i < 480; i++) printf " + 1u"; printf ";"; for (i = 0; i < '"$2"'; i++) printf " }"; print " return r; }" }; print "@compute @workgroup_size(1) fn main() { out[0] = f3(out[0]); }"'
}
# x = 1 < 1000 takes every if: f3(1) = 1 + 3 x 480 = 1441
nest_gen nesting_through_calls_at_limit 199
runs nesting_through_calls_at_limit "1441" 1 "[1]"
nest_gen nesting_through_calls_over_limit 201
refused nesting_through_calls_over_limit "statements and expressions nest 2051 levels deep here, counting through this call of 'f2'"
# 64 such functions (as deep as lowering inlines) overflowed the C stack
# when lowering inlined them
gen nesting_through_64_calls_found_stack_overflow "$OUT"' print "fn f0(x: u32) -> u32 { return x; }"; for (f = 1; f < 64; f++) { printf "fn f%d(x: u32) -> u32 { var r = x; ", f; for (i = 0; i < 120; i++) printf "if x > %du { ", i; printf "r = f%d(x)", f - 1; for (i = 0; i < 500; i++) printf " + 1u"; printf ";"; for (i = 0; i < 120; i++) printf " }"; print " return r; }" }; print "@compute @workgroup_size(1) fn main() { out[0] = f63(out[0]); }"'
refused nesting_through_64_calls_found_stack_overflow "more than 2048 (a limit of lockstep)"

# ---- overrides: settled once each, in dependency order
gen override_chain_without_value_found_quadratic "$OUT"' print "override o0: u32;"; for (i = 1; i <= 50000; i++) printf "override o%d = o%d + 1u;\n", i, i - 1; print "@compute @workgroup_size(1) fn main() { out[0] = o50000; }"'
refused override_chain_without_value_found_quadratic "override 'o50000' has no value: it depends on override 'o0', which has no initializer"
# oI = o(I-1) ^ o(I-1) = 0 for I >= 1, whatever o0 is
gen override_doubling "$OUT"' print "override o0: u32 = 9u;"; for (i = 1; i <= 40; i++) printf "override o%d = o%d ^ o%d;\n", i, i - 1, i - 1; print "@compute @workgroup_size(1) fn main() { out[0] = o0; out[1] = o40 + 3u; }"'
runs override_doubling "9 3" 2 ""

# ---- private memory: sizes in 64 bits, 1 MiB per invocation
# 3 GiB + 2 GiB wrapped to 1 GiB before, and b[1] aliased a word of a
gen private_past_4gib_found_aliasing "$OUT"' print "var<private> a: array<u32, 0x30000000>;\nvar<private> b: array<u32, 0x20000000>;"; print "@compute @workgroup_size(1) fn main() { a[0] = 1u; b[1] = 2u; out[0] = a[0]; }"'
refused private_past_4gib_found_aliasing "entry point 'main' uses 5368709120 bytes of private memory per invocation ('a' 3221225472 bytes, 'b' 2147483648 bytes), over lockstep's limit of 1048576 bytes"
gen private_64mib_array "$OUT"' print "var<private> big: array<vec4<u32>, 4194304>;"; print "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { big[i] = vec4u(i); out[i] = big[i].x; }"'
refused private_64mib_array "uses 67108864 bytes of private memory per invocation ('big' 67108864 bytes), over lockstep's limit of 1048576 bytes"
# private variables the entry point does not use take nothing (a 64 MiB
# one another function uses made this dispatch run out of memory)
gen private_unused_found_allocated "$OUT"' print "var<private> big: array<u32, 16777216>;\nvar<private> small: array<u32, 4>;"; print "fn other() { big[0] = 1u; }"; print "@compute @workgroup_size(1) fn main() { small[3] = 6u; out[0] = small[3] * 7u; }"'
runs private_unused_found_allocated "42" 1 ""
# exactly the limit, 2 x 512 KiB, in 64 invocations: invocation i writes
# a[i] = i + 1 and b[131071 - i] = 2 i; out[i] = a[i] + b[131071 - i] +
# a[i + 1] (never written in this invocation: 0) = 3 i + 1
gen private_at_limit "$OUT"' print "var<private> a: array<u32, 131072>;\nvar<private> b: array<u32, 131072>;"; print "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n  a[i] = i + 1u;\n  b[131071u - i] = i * 2u;\n  out[i] = a[i] + b[131071u - i] + a[i + 1u];\n}"'
runs private_at_limit "1 4 7 10 13 16 19 22" 64 ""
gen private_over_limit "$OUT"' print "var<private> a: array<u32, 131072>;\nvar<private> b: array<u32, 131072>;\nvar<private> c: u32;\nvar<private> d: array<u32, 1>;"; print "@compute @workgroup_size(1) fn main() { a[0] = 1u; b[0] = 1u; c = 1u; d[0] = 1u; out[0] = a[0] + b[0] + c + d[0]; }"'
refused private_over_limit "uses 1048580 bytes of private memory per invocation ('a' 524288 bytes, 'b' 524288 bytes, 'd' 4 bytes), over lockstep's limit of 1048576 bytes"

# ---- function memory: the variables of the functions active at once
# main holds 512 KiB and calls g, which holds 512 KiB more: exactly the
# limit. g(i) fills its array with i + k and returns w[5] + w[131071]
# = 2 i + 131076; main's own v[0] = 10 is untouched: out[i] = 2 i + 131086
gen function_memory_at_limit "$OUT"' print "fn g(i: u32) -> u32 {\n  var w: array<u32, 131072>;\n  for (var k = 0u; k < 131072u; k += 4096u) { w[k] = i + k; }\n  w[5] = i + 5u;\n  w[131071] = i + 131071u;\n  return w[5] + w[131071];\n}"; print "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n  var v: array<u32, 131072>;\n  v[0] = 10u;\n  out[i] = g(i) + v[0] + v[1];\n}"'
runs function_memory_at_limit "131086 131088 131090 131092" 4 ""
# one word more, in the callee: named with what the caller already holds
gen function_memory_over_limit "$OUT"' print "fn g() -> u32 {\n  var w: array<u32, 131072>;\n  var x: array<u32, 1>;\n  return w[0] + x[0];\n}"; print "@compute @workgroup_size(1) fn main() {\n  var v: array<u32, 131072>;\n  out[0] = g() + v[0];\n}"'
refused function_memory_over_limit "function variable 'x' (4 bytes) brings the function memory of one invocation to 1048580 bytes, over lockstep's limit of 1048576 bytes (the function variables of every function active at once along the calls from the entry point); already held: 'v' 524288 bytes in 'main', 'w' 524288 bytes in 'g'"
# a block's variables are freed when it ends and an inlined call's when it
# returns: 64 calls of a function with a 512 KiB array, and two blocks of
# 512 KiB, take 1 MiB, not 33 MiB. s = 64 x (0 + 1 + 2) = 192, plus the
# blocks' 4 + 5
gen function_memory_reused "$OUT"' print "fn h(k: u32) -> u32 { var w: array<u32, 131072>; w[k] = k; return w[0] + w[1] + w[2]; }"; printf "@compute @workgroup_size(1) fn main() {\n  var s = 0u;\n"; for (i = 0; i < 64; i++) printf "  s += h(%du) + h(%du) + h(%du);\n", 0, 1, 2; print "  { var a: array<u32, 131072>; a[9] = 4u; s += a[9]; }\n  { var b: array<u32, 131072>; b[9] += 5u; s += b[9]; }\n  out[0] = s;\n}"'
runs function_memory_reused "201" 1 ""

# ---- the interpreter's memory per dispatch: a workgroup of 64 invocations
# at 1 MiB of private memory each needs more than 50,000,000 bytes
n=$((n + 1))
out=$(limited "$bin" run "$tmp/private_at_limit.json" --threads 1 --memory-limit 50000000)
rc=$?
if [ "$rc" -ne 3 ] || ! printf '%s\n' "$out" | grep -q "out of memory: one workgroup of 64 x 1 x 1 invocations needs [0-9]* bytes of interpreter memory .*over the device's limit of 50000000 bytes per dispatch"; then
  echo "FAIL dispatch_memory_limit: expected exit 3 and the out-of-memory message, got $rc"
  printf '%s\n' "$out" | head -n 3 | cut -c1-300; fail=1
fi

[ $fail -eq 0 ] && echo "pipeline hostile input: $n passed"
exit $fail
