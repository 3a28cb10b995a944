// expect: 6:60 ldexp's exponent 129 is greater than 128
// §ldexp: e2 > bias + 1 (128 for f32) is a pipeline-creation error when
// e2 is an override-expression.
override e: i32 = 128;
@group(0) @binding(0) var<storage, read_write> s: array<f32>;
@compute @workgroup_size(1) fn main() { s[0] = ldexp(s[1], e + 1); }
