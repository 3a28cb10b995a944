// Reads with a stride of p.stride words, or at hashed positions, from a
// source of p.mask + 1 words (a power of two), for the cost model's
// calibration (bench/gpu/README.md).
struct Params { n: u32, stride: u32, mask: u32 };
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> o: array<u32>;

@compute @workgroup_size(256)
fn strided(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < p.n) { o[g.x] = src[(g.x * p.stride) & p.mask]; }
}

fn hash(x: u32) -> u32 {
  var h = x * 0x9e3779b9u;
  h ^= h >> 16u;
  h *= 0x85ebca6bu;
  h ^= h >> 13u;
  return h;
}

@compute @workgroup_size(256)
fn random(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < p.n) { o[g.x] = src[hash(g.x) & p.mask]; }
}

// every lane reads the same word in p.stride rounds (a uniform load)
@compute @workgroup_size(256)
fn same_word(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= p.n) { return; }
  var s = 0u;
  for (var j = 0u; j < p.stride; j++) { s += src[j & p.mask]; }
  o[g.x] = s;
}

// p.stride rounds of reading the whole source (p.mask + 1 words), each
// round a coalesced grid-stride sweep: a source that fits the L2 is read
// from it
@compute @workgroup_size(256)
fn sweep(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let step = nw.x * 256u;
  var s = 0u;
  for (var j = 0u; j < p.stride; j++) {
    for (var i = g.x; i <= p.mask; i += step) { s += src[i]; }
  }
  o[g.x] = s;
}
