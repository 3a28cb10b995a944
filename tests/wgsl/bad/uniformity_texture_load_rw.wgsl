// expect: 6:44 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: textureLoad of a read_write storage texture
// is ReturnValueMayBeNonUniform.
@group(0) @binding(0) var t: texture_storage_2d<r32uint, read_write>;
@compute @workgroup_size(64) fn main() {
  if (textureLoad(t, vec2u(0u)).x == 0u) { workgroupBarrier(); }
}
