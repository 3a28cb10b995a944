// expect: 5:26 index -1 is out of bounds for array<u32> (an index is never negative)
// §Array Access Expression: a negative const-expression index is a
// shader-creation error, also for a runtime-sized array.
@group(0) @binding(0) var<storage> x: array<u32>;
fn y() -> u32 { return x[-1]; }
