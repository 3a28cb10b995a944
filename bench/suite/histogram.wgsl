// 256-bin histogram of the low byte of each u32: workgroup atomics first,
// then one atomic add per bin and workgroup into the global bins.
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 256>;
var<workgroup> h: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) li: u32) {
  atomicAdd(&h[src[g.x] & 255u], 1u);
  workgroupBarrier();
  atomicAdd(&bins[li], atomicLoad(&h[li]));
}
