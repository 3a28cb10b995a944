// f16 races are per half-word: neighbouring halves of one word written by
// different invocations (own, and the mirror read of wh) are no race; two
// invocations writing the same half (pairs, wpairs) or two workgroups
// writing the same half (across) are.
enable f16;
@group(0) @binding(0) var<storage, read_write> own: array<f16>;
@group(0) @binding(1) var<storage, read_write> pairs: array<f16>;
@group(0) @binding(2) var<storage, read_write> across: array<f16>;
var<workgroup> wh: array<f16, 64>;
var<workgroup> wpairs: array<f16, 32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) l: u32) {
  let v = f16(gid.x) + 0.5h;
  own[gid.x] = v;
  wh[l] = v;
  workgroupBarrier();
  own[128u + gid.x] = wh[63u - l];
  pairs[gid.x / 2u] = v;
  wpairs[l / 2u] = v;
  across[l] = v;
}
