// Reads from lanes that are not active: WGSL leaves the values
// indeterminate (lockstep gives 0), so the sanitizer warns at each call;
// the reads of active lanes (quadSwapX in uniform control flow over whole
// quads, subgroupBroadcastFirst) are fine.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(global_invocation_id) g: vec3u) {
  var r = quadSwapX(i) + subgroupBroadcastFirst(i);
  if (i % 2u == 0u) {
    r += quadSwapX(i);
  }
  r += subgroupShuffleUp(vec2u(i, r), 1u).x;
  out[g.x] = r;
}
