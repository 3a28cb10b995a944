// expect: 3:11 overflows u32
// §Arithmetic Expressions: a const u32 result below zero overflows.
const a = 0u - 1u;
@compute @workgroup_size(1) fn main() {}
