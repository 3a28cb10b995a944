// expect: 3:12 @align must be a power of two
// §Attributes (align): the value must be a power of two.
struct S { @align(12) a: f32 }
@compute @workgroup_size(1) fn main() {}
