// A run-time value divided by, or shifted by, an override: a zero divisor or
// a shift amount >= 32 is a pipeline-creation error (WGSL §Arithmetic
// Expressions, §Bit Expressions), not the run-time x / 0 = x.
override divisor: u32 = 1u;
override shift: u32 = 1u;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main() {
  let x = out[0];
  out[1] = x / divisor;
  out[2] = x << shift;
}
