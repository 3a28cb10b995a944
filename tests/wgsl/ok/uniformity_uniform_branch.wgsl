@group(0) @binding(0) var<uniform> n: u32;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) wg: vec3<u32>) {
  if (n > 3u && wg.x == 0u) {
    workgroupBarrier();
  }
  for (var i = 0u; i < n; i++) {
    workgroupBarrier();
  }
}
