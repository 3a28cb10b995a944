// Workgroup sums of 256 u32 through subgroupAdd: each subgroup's first
// invocation adds its subgroup's sum into a workgroup atomic. u32 addition
// wraps and is associative, so the sums do not depend on the width.
enable subgroups;
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
var<workgroup> acc: atomic<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3u, @builtin(subgroup_invocation_id) sid: u32) {
  let s = subgroupAdd(src[g.x]);
  if (sid == 0u) {
    atomicAdd(&acc, s);
  }
  workgroupBarrier();
  if (li == 0u) {
    sums[wid.x] = atomicLoad(&acc);
  }
}
