// expect: 6:43 index -2 is out of bounds for array<u32> (an index is never negative)
// An override-expression index that is negative is a pipeline-creation
// error for a runtime-sized array too (§Array Access Expression).
override k: i32 = -2;
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1) fn main() { x[k] = 1u; }
