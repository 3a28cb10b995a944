// expect: 6:40 index 7 is out of bounds (valid: 0..3)
// An override index out of the bounds of the value it indexes is a
// pipeline-creation error (§Override Expressions; a constant one is a
// shader-creation error).
override k: u32 = 7u;
var<private> a = vec4u(10, 20, 30, 40)[k];
@group(0) @binding(0) var<storage, read_write> out: u32;
@compute @workgroup_size(1) fn main() { out = a; }
