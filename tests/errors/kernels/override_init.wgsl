// An override whose initializer divides by another override: with that one
// set to 0 the initializer fails at pipeline creation, and the error names
// the division rather than a missing value.
override divisor: u32 = 2u;
override quotient = 8u / divisor;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main() {
  out[0] = quotient;
}
