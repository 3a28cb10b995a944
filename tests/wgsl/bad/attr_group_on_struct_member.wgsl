// expect: 3:12 '@group' is not allowed here
// §group: must only be applied to a resource variable.
struct S { @group(0) a: f32 }
@compute @workgroup_size(1) fn main() {}
