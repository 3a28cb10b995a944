// expect: 3:12 @size must be at least
// §Attributes (size): the value must be at least the byte-size of the member type.
struct S { @size(8) a: vec4f }
@compute @workgroup_size(1) fn main() {}
