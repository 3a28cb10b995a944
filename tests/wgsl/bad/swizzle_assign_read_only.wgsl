// expect: 5:3 cannot assign to this
// §Memory Access Mode: read-only storage cannot be written, by swizzle or not.
@group(0) @binding(0) var<storage> buf: vec4u;
@compute @workgroup_size(1) fn main() {
  buf.xy = vec2u();
}
