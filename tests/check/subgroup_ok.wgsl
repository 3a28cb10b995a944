// Each subgroup's elected lane writes the subgroup's sum to its own word;
// every lane writes its neighbour's index: no two invocations write one
// word, so the sanitizer finds nothing (at any width).
enable subgroups;
requires subgroup_id;
@group(0) @binding(0) var<storage, read_write> sums: array<u32>;
@group(0) @binding(1) var<storage, read_write> swapped: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u,
        @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) ns: u32) {
  let s = subgroupAdd(gid.x);
  if (subgroupElect()) { sums[wid.x * ns + sg] = s; }
  swapped[gid.x] = quadSwapX(gid.x);
}
