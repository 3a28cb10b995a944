// Subgroup reductions, scans and votes over the active lanes (lesson 006).
// Three pipelines (override MODE) run the same calls on different lanes:
// MODE 0 every invocation; MODE 1 only inside `if (i % 3 == 0)`; MODE 2 after
// the invocations with i % 5 == 1 returned. Workgroups of 100: the last
// subgroup is partial at W = 8, 32 and 64. Each invocation writes K words
// at out[(MODE * N + g) * K], N = invocations of the dispatch.
enable subgroups;
diagnostic(off, subgroup_uniformity);

override MODE: u32 = 0u;
const K = 34u;

// inp: N words u in [0, 1000), N words s + 1000 in [0, 2000), N words x in
// [0, 2^24) from which f = 0.75 + x / 2^25 in [0.75, 1.25)
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

fn ops(g: u32) {
  let n = arrayLength(&inp) / 3u;
  let u = inp[g];
  let s = i32(inp[n + g]) - 1000;
  let f = 0.75 + f32(inp[2u * n + g]) * (1.0 / 33554432.0);
  let o = (MODE * n + g) * K;
  out[o + 0u] = subgroupAdd(u);
  out[o + 1u] = bitcast<u32>(subgroupAdd(s));
  out[o + 2u] = bitcast<u32>(subgroupAdd(f));
  out[o + 3u] = subgroupMul(u);
  out[o + 4u] = bitcast<u32>(subgroupMul(f));
  out[o + 5u] = subgroupMin(u);
  out[o + 6u] = bitcast<u32>(subgroupMin(s));
  out[o + 7u] = bitcast<u32>(subgroupMin(f));
  out[o + 8u] = subgroupMax(u);
  out[o + 9u] = bitcast<u32>(subgroupMax(s));
  out[o + 10u] = bitcast<u32>(subgroupMax(f));
  out[o + 11u] = subgroupAnd(u | 0x400u);
  out[o + 12u] = subgroupOr(u);
  out[o + 13u] = bitcast<u32>(subgroupXor(s));
  out[o + 14u] = subgroupExclusiveAdd(u);
  out[o + 15u] = bitcast<u32>(subgroupInclusiveAdd(f));
  out[o + 16u] = bitcast<u32>(subgroupExclusiveMul(s));
  out[o + 17u] = subgroupInclusiveMul(u);
  out[o + 18u] = bitcast<u32>(subgroupExclusiveAdd(f));
  out[o + 19u] = bitcast<u32>(subgroupInclusiveMul(f));
  out[o + 20u] = bitcast<u32>(subgroupExclusiveMul(f));
  out[o + 21u] = bitcast<u32>(subgroupInclusiveAdd(s));
  let vm = subgroupMin(vec2i(s, -s));
  out[o + 22u] = bitcast<u32>(vm.x);
  out[o + 23u] = bitcast<u32>(vm.y);
  let vs = subgroupInclusiveAdd(vec3f(f, 2.0 * f, -f));
  out[o + 24u] = bitcast<u32>(vs.x);
  out[o + 25u] = bitcast<u32>(vs.y);
  out[o + 26u] = bitcast<u32>(vs.z);
  out[o + 27u] = select(0u, 1u, subgroupAll(u % 7u != 0u));
  out[o + 28u] = select(0u, 1u, subgroupAny(u % 11u == 0u));
  let b = subgroupBallot((u & 1u) == 1u);
  out[o + 29u] = b.x;
  out[o + 30u] = b.y;
  out[o + 31u] = b.z;
  out[o + 32u] = b.w;
  out[o + 33u] = select(0u, 1u, subgroupElect());
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
