// expect: 3:10 must be a scalar
// §override Declarations: an override is a concrete scalar.
override o: vec2f;
@compute @workgroup_size(1) fn main() {}
