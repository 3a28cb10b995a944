// expect: 6:29 offset 2 is not a multiple of vec4<u32>'s alignment (16)
// §bufferView: a const offset that is not a multiple of RequiredAlignOf(T)
// is a shader-creation error.
@group(0) @binding(0) var<storage> b: buffer;
@compute @workgroup_size(1) fn main() {
  _ = bufferView<vec4u>(&b, 2);
}
