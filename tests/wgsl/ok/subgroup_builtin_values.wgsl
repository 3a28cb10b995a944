enable subgroups;
requires subgroup_id;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(100)
fn main(@builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) sid: u32,
        @builtin(subgroup_size) ss: u32, @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) ns: u32) {
  out[li] = sid + ss * (sg + ns * 1000u) + subgroupShuffleUp(li, 1u) + quadSwapDiagonal(li);
}
