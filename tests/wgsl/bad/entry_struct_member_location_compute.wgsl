// expect: 4:55 a compute entry point has no @location inputs
// §location: must not be included in compute shader stage inputs, members
// of a structure parameter included.
struct In { @builtin(local_invocation_index) li: u32, @location(0) x: f32 }
@compute @workgroup_size(1) fn main(in: In) {}
