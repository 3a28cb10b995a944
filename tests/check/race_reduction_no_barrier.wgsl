var<workgroup> part: array<f32, 64>;
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) gid: vec3u,
        @builtin(workgroup_id) wid: vec3u) {
  part[li] = data[gid.x];
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s / 2u) {
    if (li < s) {
      part[li] = part[li] + part[li + s];
    }
    // workgroupBarrier() missing
  }
  if (li == 0u) {
    sums[wid.x] = part[0];
  }
}
