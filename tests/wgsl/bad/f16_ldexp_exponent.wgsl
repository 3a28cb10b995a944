// expect: 5:70 ldexp's exponent 17 is greater than 16
enable f16;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
// a constant exponent above bias + 1 (15 + 1 for f16) is an error even for a runtime e1
@compute @workgroup_size(64) fn main() { o[0] = f32(ldexp(f16(o[1]), 17)); }
