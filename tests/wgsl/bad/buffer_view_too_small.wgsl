// expect: 6:7 needs 32 bytes, more than buffer<16> holds
// §bufferView (sized): it is a shader-creation error if MinTypeSize(T) > N.
@group(0) @binding(0) var<storage> b: buffer<16>;
@group(0) @binding(1) var<storage, read_write> out: vec4u;
@compute @workgroup_size(1) fn main() {
  _ = bufferView<array<vec4u, 2>>(&b, 0);
}
