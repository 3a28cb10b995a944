#!/bin/sh
# tests/wgsl/hostile.sh LOCKSTEP — hostile input for `lockstep check`.
# Each case generates its module at test time (nothing large is committed),
# runs `lockstep check` under a virtual-memory limit (ulimit -v) and asserts
# the exit status (0 valid, 2 rejected; anything else is a crash or a
# hang), and for rejections the file:line:col diagnostic's text. The
# timeout only turns a hang into a failure; nothing asserts a duration.
# Cases named "..._found_*" reproduce a defect this test found (a crash,
# a stack overflow or quadratic time), kept as regressions.
bin=${1:?usage: hostile.sh LOCKSTEP}
mem_kb=${HOSTILE_MEM_KB:-1048576}   # 1 GiB of address space per run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# run NAME EXPECTED_STATUS MESSAGE — checks $tmp/NAME.wgsl
run() {
  name=$1 want=$2 msg=$3
  f="$tmp/$name.wgsl"
  n=$((n + 1))
  out=$( (ulimit -v "$mem_kb"; timeout 120 "$bin" check "$f") 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: expected exit $want, got $rc"; printf '%s\n' "$out" | head -n 3 | cut -c1-200; fail=1
  elif [ -n "$msg" ] && ! printf '%s\n' "$out" | grep -E "^$f:[0-9]+:[0-9]+ error: " | grep -qF "$msg"; then
    echo "FAIL $name: expected '$f:LINE:COL error: ...$msg'"; printf '%s\n' "$out" | head -n 3 | cut -c1-200; fail=1
  fi
}

# gen NAME AWK-PROGRAM — writes $tmp/NAME.wgsl from an awk BEGIN block
gen() { awk "BEGIN { $2 }" > "$tmp/$1.wgsl"; }

# ---- nesting: bounded by the parser, never by the C stack
gen deep_parens 'printf "const a = "; for (i = 0; i < 100000; i++) printf "("; printf "1"; for (i = 0; i < 100000; i++) printf ")"; print ";"'
run deep_parens 2 "nesting too deep"
gen deep_blocks 'printf "fn f() "; for (i = 0; i < 100000; i++) printf "{"; for (i = 0; i < 100000; i++) printf "}"; print ""'
run deep_blocks 2 "nesting too deep"
gen deep_loops 'printf "fn f() {"; for (i = 0; i < 50000; i++) printf "loop { "; for (i = 0; i < 50000; i++) printf "}"; print "}"'
run deep_loops 2 "nesting too deep"
gen long_sum 'printf "const a = 1"; for (i = 0; i < 100000; i++) printf " + 1"; print ";"'
run long_sum 2 "expression nesting too deep"
gen deep_unary 'printf "const a = "; for (i = 0; i < 100000; i++) printf "-"; print "1;"'
run deep_unary 2 "expression nesting too deep"
gen deep_types 'printf "var<private> a: "; for (i = 0; i < 100000; i++) printf "array<"; printf "f32"; for (i = 0; i < 100000; i++) printf ", 1>"; print ";"'
run deep_types 2 "nesting too deep"
gen long_else_if 'print "fn f(x: i32) {"; printf "  if x == 0 {}"; for (i = 1; i < 100000; i++) printf " else if x == %d {}", i; print "\n}"'
run long_else_if 2 "nesting too deep"
gen nested_comments 'for (i = 0; i < 200000; i++) printf "/*"; for (i = 0; i < 200000; i++) printf "*/"; print "\nconst a = 1;"'
run nested_comments 0 ""
gen unterminated_comment 'printf "const a = 1;\n/* "; for (i = 0; i < 100000; i++) printf "x"; print ""'
run unterminated_comment 2 "unterminated block comment"

# ---- declarations used before they are declared: a resolver limit, not a
# stack overflow (each of these crashed before)
gen reverse_consts_found_stack_overflow 'for (i = 0; i < 100000; i++) printf "const c%d = c%d + 1;\n", i, i + 1; print "const c100000 = 0;"'
run reverse_consts_found_stack_overflow 2 "a limit of lockstep"
gen reverse_structs_found_stack_overflow 'for (i = 0; i < 100000; i++) printf "struct S%d { a: S%d }\n", i, i + 1; print "struct S100000 { a: f32 }"'
run reverse_structs_found_stack_overflow 2 "a limit of lockstep"
gen reverse_aliases_found_stack_overflow 'for (i = 0; i < 100000; i++) printf "alias A%d = A%d;\n", i, i + 1; print "alias A100000 = f32;"'
run reverse_aliases_found_stack_overflow 2 "a limit of lockstep"
gen reverse_calls_found_stack_overflow 'print "@compute @workgroup_size(1) fn main() { _ = f0(); }"; for (i = 0; i < 100000; i++) printf "fn f%d() -> i32 { return f%d(); }\n", i, i + 1; print "fn f100000() -> i32 { return 1; }"'
run reverse_calls_found_stack_overflow 2 "a limit of lockstep"
gen call_chain_found_stack_overflow 'print "fn f0() -> i32 { return 1; }"; for (i = 1; i < 100000; i++) printf "fn f%d() -> i32 { return f%d() + 1; }\n", i, i - 1; print "@compute @workgroup_size(1) fn main() { _ = f99999(); }"'
run call_chain_found_stack_overflow 2 "calls nest more than 512 deep"
gen struct_chain_found_quadratic 'print "struct S0 { a: f32 }"; for (i = 1; i < 100000; i++) printf "struct S%d { a: S%d }\n", i, i - 1'
run struct_chain_found_quadratic 2 "nests more than 255 levels deep"

# pointer lets, each naming the one before and stored through: the
# uniformity and alias analyses walked back to the variable at every store
gen pointer_let_chain_found_quadratic 'print "@compute @workgroup_size(1) fn main() {"; print "  var x = 0u;"; print "  let p0 = &x;"; for (i = 1; i <= 50000; i++) printf "  let p%d = &*p%d; *p%d += 1u;\n", i, i - 1, i; print "}"'
run pointer_let_chain_found_quadratic 0 ""
gen pointer_let_chain_in_loop_found_quadratic 'print "@compute @workgroup_size(1) fn main() {"; print "  var x = 0u;"; print "  let p0 = &x;"; print "  loop {"; for (i = 1; i <= 50000; i++) printf "    let p%d = p%d; *p%d += 1u;\n", i, i - 1, i; print "    break;\n  }\n}"'
run pointer_let_chain_in_loop_found_quadratic 0 ""
# functions called before they are declared, each nesting 100 ifs and an
# expression 480 deep around the call: the resolver recursed through them
# until the C stack ran out; nesting through calls is bounded (2048 levels)
gen nesting_through_calls_found_stack_overflow 'print "@compute @workgroup_size(1) fn main() { _ = f1(1u); }"; for (f = 1; f < 500; f++) { printf "fn f%d(x: u32) -> u32 { var r = x; ", f; for (i = 0; i < 100; i++) printf "if x > %du { ", i; printf "r = f%d(x)", f + 1; for (i = 0; i < 480; i++) printf " + 1u"; printf ";"; for (i = 0; i < 100; i++) printf " }"; print " return r; }" }; print "fn f500(x: u32) -> u32 { return x; }"'
run nesting_through_calls_found_stack_overflow 2 "more than 2048 (a limit of lockstep)"
# members that add up past 4 GiB wrapped the structure's size
gen struct_past_4gib_found_wrapping 'print "struct S { a: array<u32, 0x30000000>, b: array<u32, 0x30000000> }"; print "var<private> s: S;"'
run struct_past_4gib_found_wrapping 2 "struct 'S' is too large (its members add up past 4 GiB"

# ---- big literals and odd bytes
gen huge_int 'printf "const a = 1"; for (i = 0; i < 10000; i++) printf "0"; print ";"'
run huge_int 2 "integer literal is too large"
gen huge_exponent 'print "const a = 1e999999;"'
run huge_exponent 2 "float literal is out of range"
gen long_mantissa 'printf "const a = 1."; for (i = 0; i < 100000; i++) printf "5"; print ";"'
run long_mantissa 0 ""
printf 'const a\377\376 = 1;\n' > "$tmp/invalid_utf8.wgsl"
run invalid_utf8 2 "invalid UTF-8 byte"
printf '// caf\303\251 \303( broken\nconst a = 1;\n' > "$tmp/invalid_utf8_in_comment.wgsl"
run invalid_utf8_in_comment 2 "invalid UTF-8 byte"
printf 'const a = 1;\000\nconst b = 2;\n' > "$tmp/nul_byte.wgsl"
run nul_byte 2 "a NUL byte"
gen random_bytes 'srand(7); for (i = 0; i < 200000; i++) printf "%c", 1 + int(rand() * 255)'
run random_bytes 2 ""
gen long_identifier 'printf "const "; for (i = 0; i < 1000000; i++) printf "a"; print " = 1;"'
run long_identifier 0 ""

# ---- many declarations: linear, within the memory limit
gen ten_megabytes 'print "@group(0) @binding(0) var<storage, read_write> out: array<u32>;"; for (i = 0; i < 230000; i++) printf "fn f%d(x: u32) -> u32 { return x * %du + 1u; }\n", i, i; print "@compute @workgroup_size(1) fn main() { out[0] = f229999(3u); }"'
run ten_megabytes 0 ""
gen many_consts 'for (i = 0; i < 400000; i++) printf "const c%d = %d;\n", i, i'
run many_consts 0 ""
gen many_locals_found_quadratic 'print "@compute @workgroup_size(1) fn main() {"; for (i = 0; i < 100000; i++) printf "  var v%d = %d;\n", i, i; print "}"'
run many_locals_found_quadratic 0 ""
gen many_cases_found_quadratic 'printf "fn f(x: i32) { switch x { "; for (i = 0; i < 100000; i++) printf "case %d: {} ", i; print "default: {} } }"'
run many_cases_found_quadratic 0 ""
gen many_members_found_quadratic 'print "struct S {"; for (i = 0; i < 100000; i++) printf "  m%d: f32,\n", i; print "}"'
run many_members_found_quadratic 0 ""
# each function calls the next twice: the lint's walks over what the entry
# point reaches went 2^40 times into the last one
gen doubling_calls_found_exponential 'print "var<workgroup> w: array<f32, 4>;\n@group(0) @binding(0) var t: texture_depth_2d;\n@group(0) @binding(1) var s: sampler;\n@group(0) @binding(2) var<storage, read_write> o: f32;"; print "fn g40() -> f32 { return textureSampleLevel(t, s, vec2f(0.5), 0) + w[0]; }"; for (i = 39; i >= 0; i--) printf "fn g%d() -> f32 { return g%d() + g%d(); }\n", i, i + 1, i + 1; print "@compute @workgroup_size(1) fn main() { o = g0(); }"'
run doubling_calls_found_exponential 0 ""
gen many_types_found_quadratic 'for (i = 0; i < 100000; i++) printf "alias A%d = array<vec4f, %d>;\n", i, i + 1'
run many_types_found_quadratic 0 ""
gen many_attributes_found_quadratic 'printf "@compute "; for (i = 0; i < 100000; i++) printf "@workgroup_size(1) "; print "fn main() {}"'
run many_attributes_found_quadratic 2 "duplicate attribute '@workgroup_size'"
gen many_vars_and_loops_found_quadratic_memory 'print "@compute @workgroup_size(1) fn main() {"; for (i = 0; i < 20000; i++) printf "  var v%d = %d;\n", i, i; for (i = 0; i < 20000; i++) printf "  loop { v%d = 1; break; }\n", i; print "}"'
run many_vars_and_loops_found_quadratic_memory 0 ""
gen many_vars_and_branches_found_quadratic 'print "@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) li: u32) {"; for (i = 0; i < 50000; i++) printf "  var v%d = %d;\n", i, i; for (i = 0; i < 50000; i++) printf "  if li > %du { v%d = 1; } else { v%d = 2; }\n  switch li { case 1u { v%d = 3; } default { } }\n", i, i, i, i; print "}"'
run many_vars_and_branches_found_quadratic 0 ""
gen many_arguments 'printf "const a = array("; for (i = 0; i < 200000; i++) printf "%d, ", i % 7; print "1);"'
run many_arguments 0 ""

[ $fail -eq 0 ] && echo "wgsl hostile input: $n passed"
exit $fail
