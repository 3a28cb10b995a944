// Subgroup reductions, scans and votes over the active lanes (lesson 006).
// Three pipelines (override MODE) run the same calls on different lanes:
// MODE 0 every invocation; MODE 1 only inside `if (i % 3 == 0)`; MODE 2 after
// the invocations with i % 5 == 1 returned. Workgroups of 100: the last
// subgroup is partial at W = 8, 32 and 64. Each invocation writes K words
// at out[(MODE * N + g) * K] (integers, f32 min/max: exact by the spec) and
// KS words at sums[(MODE * N + g) * KS] (f32 sums and products, whose order
// of combination WGSL leaves open), N = invocations of the dispatch.
enable subgroups;
diagnostic(off, subgroup_uniformity);

override MODE: u32 = 0u;
const K = 25u;
const KS = 9u;

// inp: N words u in [0, 1000), N words s + 1000 in [0, 2000), N words x in
// [0, 2^22) from which f = 0.75 + x / 2^23 in [0.75, 1.25): every such value
// is an f32, so f is exact under either rounding direction WGSL allows.
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<f32>;

fn ops(g: u32) {
  let n = arrayLength(&inp) / 3u;
  let u = inp[g];
  let s = i32(inp[n + g]) - 1000;
  let f = 0.75 + f32(inp[2u * n + g]) * (1.0 / 8388608.0);
  let o = (MODE * n + g) * K;
  out[o + 0u] = subgroupAdd(u);
  out[o + 1u] = bitcast<u32>(subgroupAdd(s));
  out[o + 2u] = subgroupMul(u);
  out[o + 3u] = subgroupMin(u);
  out[o + 4u] = bitcast<u32>(subgroupMin(s));
  out[o + 5u] = bitcast<u32>(subgroupMin(f));
  out[o + 6u] = subgroupMax(u);
  out[o + 7u] = bitcast<u32>(subgroupMax(s));
  out[o + 8u] = bitcast<u32>(subgroupMax(f));
  out[o + 9u] = subgroupAnd(u | 0x400u);
  out[o + 10u] = subgroupOr(u);
  out[o + 11u] = bitcast<u32>(subgroupXor(s));
  out[o + 12u] = subgroupExclusiveAdd(u);
  out[o + 13u] = bitcast<u32>(subgroupExclusiveMul(s));
  out[o + 14u] = subgroupInclusiveMul(u);
  out[o + 15u] = bitcast<u32>(subgroupInclusiveAdd(s));
  let vm = subgroupMin(vec2i(s, -s));
  out[o + 16u] = bitcast<u32>(vm.x);
  out[o + 17u] = bitcast<u32>(vm.y);
  out[o + 18u] = select(0u, 1u, subgroupAll(u % 7u != 0u));
  out[o + 19u] = select(0u, 1u, subgroupAny(u % 11u == 0u));
  let b = subgroupBallot((u & 1u) == 1u);
  out[o + 20u] = b.x;
  out[o + 21u] = b.y;
  out[o + 22u] = b.z;
  out[o + 23u] = b.w;
  out[o + 24u] = select(0u, 1u, subgroupElect());
  let os = (MODE * n + g) * KS;
  sums[os + 0u] = subgroupAdd(f);
  sums[os + 1u] = subgroupMul(f);
  sums[os + 2u] = subgroupInclusiveAdd(f);
  sums[os + 3u] = subgroupExclusiveAdd(f);
  sums[os + 4u] = subgroupInclusiveMul(f);
  sums[os + 5u] = subgroupExclusiveMul(f);
  let vs = subgroupInclusiveAdd(vec3f(f, 2.0 * f, -f));
  sums[os + 6u] = vs.x;
  sums[os + 7u] = vs.y;
  sums[os + 8u] = vs.z;
}

@compute @workgroup_size(100)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) i: u32) {
  if (MODE == 2u && i % 5u == 1u) { return; }
  if (MODE == 1u) {
    if (i % 3u == 0u) { ops(gid.x); }
  } else {
    ops(gid.x);
  }
}
