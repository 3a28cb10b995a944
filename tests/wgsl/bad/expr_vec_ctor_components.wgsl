// expect: 3:11 no constructor vec3<f32>
// §Value Constructor Built-in Functions: the components add up to the vector size.
const v = vec3f(1.0, 2.0);
@compute @workgroup_size(1) fn main() {}
