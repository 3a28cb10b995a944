// expect: 5:12 shift by 32 is not less than the bit width
// A constant shift amount must be less than the bit width of the shifted value.
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@compute @workgroup_size(1) fn main() {
  out[1] = out[0] >> 32u;
}
