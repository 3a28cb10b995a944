// The subgroup built-in values in a 2D workgroup of 6 x 5 = 30 invocations
// (lesson 006). lockstep fills subgroups in local_invocation_index order, so
// subgroup_invocation_id = index % W, subgroup_id = index / W,
// num_subgroups = ceil(30 / W); the last subgroup is partial at every
// width. Each invocation writes 8 words at out[global index * 8].
enable subgroups;
requires subgroup_id;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(6, 5, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(local_invocation_id) lid: vec3u,
        @builtin(workgroup_id) wid: vec3u,
        @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) ss: u32,
        @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) ns: u32) {
  let o = (wid.x * 30u + li) * 8u;
  out[o + 0u] = sid;
  out[o + 1u] = ss;
  out[o + 2u] = sg;
  out[o + 3u] = ns;
  out[o + 4u] = subgroupAdd(lid.x);
  out[o + 5u] = subgroupBroadcastFirst(lid.y);
  out[o + 6u] = subgroupMax(li);
  out[o + 7u] = subgroupBallot(true).x;
}
