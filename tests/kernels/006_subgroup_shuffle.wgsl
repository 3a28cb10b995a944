// Broadcasts, shuffles and quad operations (lesson 006), with the three
// masks of 006_subgroup_reduce (override MODE: all lanes, inside
// `if (i % 3 == 0)`, after the lanes with i % 5 == 1 returned) and
// workgroups of 100 (a partial last subgroup). WGSL makes a read from a lane
// that is not active (or not in the subgroup) indeterminate, and a dynamic
// error for subgroupBroadcast, so each call's source lane is tested against
// subgroupBallot(true), the active lanes: a shuffle's value is stored only
// where its source is active (NONE elsewhere), and a broadcast runs only
// when its lane is active. (lockstep --check still reports the shuffles'
// reads from inactive lanes: it cannot see that select() drops them.) Each
// invocation writes K words at out[(MODE * N + g) * K].
enable subgroups;
diagnostic(off, subgroup_uniformity);

override MODE: u32 = 0u;
const K = 26u;
// Stored where the source lane is not active.
const NONE = 0xbaadf00du;

// inp: N words u in [0, 1000), N words s + 1000, N words x; f = 0.75 + x / 2^23
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

// Whether subgroup lane `id` is in `act` (a ballot); ids past 127 never are.
fn on(act: vec4u, id: u32) -> bool {
  if (id >= 128u) { return false; }
  return ((act[id / 32u] >> (id % 32u)) & 1u) == 1u;
}

fn pick(act: vec4u, id: u32, v: u32) -> u32 {
  return select(NONE, v, on(act, id));
}

fn ops(g: u32, sid: u32) {
  let n = arrayLength(&inp) / 3u;
  let u = inp[g];
  let s = i32(inp[n + g]) - 1000;
  let f = 0.75 + f32(inp[2u * n + g]) * (1.0 / 8388608.0);
  let o = (MODE * n + g) * K;
  let act = subgroupBallot(true);
  let q = sid & ~3u;
  // act is the same in every active lane, so these branches do not diverge.
  if (on(act, 5u)) { out[o + 0u] = subgroupBroadcast(u, 5u); } else { out[o + 0u] = NONE; }
  if (on(act, 0u)) { out[o + 1u] = bitcast<u32>(subgroupBroadcast(s, 0)); } else { out[o + 1u] = NONE; }
  if (on(act, 3u)) {
    let vb = subgroupBroadcast(vec2f(f, -f), 3u);
    out[o + 2u] = bitcast<u32>(vb.x);
    out[o + 3u] = bitcast<u32>(vb.y);
  } else {
    out[o + 2u] = NONE;
    out[o + 3u] = NONE;
  }
  out[o + 4u] = bitcast<u32>(subgroupBroadcastFirst(s));
  out[o + 5u] = bitcast<u32>(subgroupBroadcastFirst(f));
  let id6 = (sid * 7u + 3u) % 64u;
  out[o + 6u] = pick(act, id6, subgroupShuffle(u, id6));
  out[o + 7u] = pick(act, sid - 2u, bitcast<u32>(subgroupShuffle(s, i32(sid) - 2)));
  out[o + 8u] = pick(act, sid ^ 5u, subgroupShuffleXor(u, 5u));
  out[o + 9u] = pick(act, sid ^ 64u, bitcast<u32>(subgroupShuffleXor(f, 64u)));
  out[o + 10u] = pick(act, sid - 3u, bitcast<u32>(subgroupShuffleUp(f, 3u)));
  out[o + 11u] = pick(act, sid + 2u, subgroupShuffleDown(u, 2u));
  let vd = subgroupShuffleDown(vec2u(u, sid), 1u);
  out[o + 12u] = pick(act, sid + 1u, vd.x);
  out[o + 13u] = pick(act, sid + 1u, vd.y);
  out[o + 14u] = pick(act, q | 2u, quadBroadcast(u, 2u));
  let vq = bitcast<vec3u>(quadBroadcast(vec3f(f, 2.0 * f, 3.0), 0));
  out[o + 15u] = pick(act, q, vq.x);
  out[o + 16u] = pick(act, q, vq.y);
  out[o + 17u] = pick(act, q, vq.z);
  out[o + 18u] = pick(act, sid ^ 1u, quadSwapX(u));
  out[o + 19u] = pick(act, sid ^ 2u, bitcast<u32>(quadSwapY(s)));
  out[o + 20u] = pick(act, sid ^ 3u, bitcast<u32>(quadSwapDiagonal(f)));
  let vx = quadSwapX(vec2u(u, sid));
  out[o + 21u] = pick(act, sid ^ 1u, vx.x);
  out[o + 22u] = pick(act, sid ^ 1u, vx.y);
  let vy = quadSwapY(vec2i(s, i32(sid)));
  out[o + 23u] = pick(act, sid ^ 2u, bitcast<u32>(vy.x));
  out[o + 24u] = pick(act, sid ^ 2u, bitcast<u32>(vy.y));
  out[o + 25u] = pick(act, sid ^ 3u, quadSwapDiagonal(sid));
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
