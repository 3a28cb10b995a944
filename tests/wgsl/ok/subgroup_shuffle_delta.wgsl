// A delta from a uniform value is fine; subgroupShuffle's id may vary.
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3u,
        @builtin(subgroup_size) n: u32) {
  out[i] = subgroupShuffleUp(i, w.x % 4u) + subgroupShuffleXor(i, n / 2u) + subgroupShuffle(i, i ^ 1u);
}
