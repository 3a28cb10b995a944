// expect: 3:24 matrix components must be f32 or f16
// §Matrix Types: the component type is f32 or f16.
var<private> m: mat2x2<u32>;
@compute @workgroup_size(1) fn main() {}
