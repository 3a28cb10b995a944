// expect: 5:18 cannot take the address of texture_2d<f32>
// §Address-Of Expression: it is a shader-creation error if the reference is
// in the handle address space.
@group(0) @binding(0) var t: texture_2d<f32>;
fn f() { let p = &t; }
@compute @workgroup_size(1) fn main() { f(); }
