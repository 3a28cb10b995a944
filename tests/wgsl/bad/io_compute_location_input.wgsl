// expect: 3:12 member 'x' of parameter 's': a compute entry point has no @location inputs
// §location: must not be included in compute shader stage inputs.
struct S { @location(0) x: f32 }
@compute @workgroup_size(1) fn main(s: S) {}
