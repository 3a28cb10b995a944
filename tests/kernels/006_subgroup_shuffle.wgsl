// Broadcasts, shuffles and quad operations (lesson 006), with the three
// masks of 006_subgroup_reduce (override MODE: all lanes, inside
// `if (i % 3 == 0)`, after the lanes with i % 5 == 1 returned) and
// workgroups of 100 (a partial last subgroup). A read from a lane that is
// not active, or not in the subgroup, gives 0 in lockstep (the spec leaves
// it indeterminate). Each invocation writes K words at
// out[(MODE * N + g) * K].
enable subgroups;
diagnostic(off, subgroup_uniformity);

override MODE: u32 = 0u;
const K = 26u;

// inp: N words u in [0, 1000), N words s + 1000, N words x; f = 0.75 + x / 2^25
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

fn ops(g: u32, sid: u32) {
  let n = arrayLength(&inp) / 3u;
  let u = inp[g];
  let s = i32(inp[n + g]) - 1000;
  let f = 0.75 + f32(inp[2u * n + g]) * (1.0 / 33554432.0);
  let o = (MODE * n + g) * K;
  out[o + 0u] = subgroupBroadcast(u, 5u);
  out[o + 1u] = bitcast<u32>(subgroupBroadcast(s, 0));
  let vb = subgroupBroadcast(vec2f(f, -f), 3u);
  out[o + 2u] = bitcast<u32>(vb.x);
  out[o + 3u] = bitcast<u32>(vb.y);
  out[o + 4u] = bitcast<u32>(subgroupBroadcastFirst(s));
  out[o + 5u] = bitcast<u32>(subgroupBroadcastFirst(f));
  out[o + 6u] = subgroupShuffle(u, (sid * 7u + 3u) % 64u);
  out[o + 7u] = bitcast<u32>(subgroupShuffle(s, i32(sid) - 2));
  out[o + 8u] = subgroupShuffleXor(u, 5u);
  out[o + 9u] = bitcast<u32>(subgroupShuffleXor(f, 64u));
  out[o + 10u] = bitcast<u32>(subgroupShuffleUp(f, 3u));
  out[o + 11u] = subgroupShuffleDown(u, 2u);
  let vd = subgroupShuffleDown(vec2u(u, sid), 1u);
  out[o + 12u] = vd.x;
  out[o + 13u] = vd.y;
  out[o + 14u] = quadBroadcast(u, 2u);
  let vq = bitcast<vec3u>(quadBroadcast(vec3f(f, 2.0 * f, 3.0), 0));
  out[o + 15u] = vq.x;
  out[o + 16u] = vq.y;
  out[o + 17u] = vq.z;
  out[o + 18u] = quadSwapX(u);
  out[o + 19u] = bitcast<u32>(quadSwapY(s));
  out[o + 20u] = bitcast<u32>(quadSwapDiagonal(f));
  let vx = quadSwapX(vec2u(u, sid));
  out[o + 21u] = vx.x;
  out[o + 22u] = vx.y;
  let vy = quadSwapY(vec2i(s, i32(sid)));
  out[o + 23u] = bitcast<u32>(vy.x);
  out[o + 24u] = bitcast<u32>(vy.y);
  out[o + 25u] = quadSwapDiagonal(sid);
}

@compute @workgroup_size(100)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) i: u32,
        @builtin(subgroup_invocation_id) sid: u32) {
  if (MODE == 2u && i % 5u == 1u) { return; }
  if (MODE == 1u) {
    if (i % 3u == 0u) { ops(gid.x, sid); }
  } else {
    ops(gid.x, sid);
  }
}
