// §Uniformity Rules for Function Calls: textureLoad of a read-only storage texture
// at a uniform coordinate is uniform (NoRestriction).
@group(0) @binding(0) var t: texture_storage_2d<r32uint, read>;
@compute @workgroup_size(64) fn main() {
  if (textureLoad(t, vec2u(0u)).x == 0u) { workgroupBarrier(); }
}
