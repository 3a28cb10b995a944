// §Uniformity Analysis: uniform buffers and read-only storage are uniform;
// a barrier under them is fine.
@group(0) @binding(0) var<uniform> u: u32;
@group(0) @binding(1) var<storage, read> r: u32;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) w: vec3u) {
  if (u > 0u && r > 0u && w.x == 0u) { workgroupBarrier(); }
}
