// expect: 5:12 integer remainder by zero
// Any zero component of a constant divisor is an error.
@group(0) @binding(0) var<storage, read_write> out: array<vec2i>;
@compute @workgroup_size(1) fn main() {
  out[1] = out[0] % vec2i(3, 0);
}
