// expect: 6:12 integer division by zero
// A run-time value divided by a constant 0 is a shader-creation error (the
// run-time rule x / 0 = x is for divisors not known in advance).
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  out[1] = out[0] / 0u;
}
