// Arithmetic per element with the lessons' control-flow patterns, for the
// cost model's calibration (bench/gpu/README.md): workgroup size, loop trip
// counts per lane, a branch split by lane parity. The trip counts come from
// a uniform buffer so that no compiler folds them.
struct Params { n: u32, lo: u32, hi: u32, mask: u32 };
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> o: array<u32>;
override WG: u32 = 64;

fn lcg(x: u32, k: u32) -> u32 {
  var y = x;
  for (var j = 0u; j < k; j++) { y = y * 1664525u + 1013904223u; }
  return y;
}

// every element runs p.lo rounds; the workgroup size is the override
@compute @workgroup_size(WG)
fn rounds(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < p.n) { o[g.x] = lcg(g.x, p.lo); }
}

// lanes whose index is 0 modulo 32 loop p.hi times, the others p.lo
@compute @workgroup_size(128)
fn trips(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= p.n) { return; }
  let t = select(p.lo, p.hi, (g.x & 31u) == 0u);
  var y = g.x;
  for (var j = 0u; j < t; j++) { y = y * 1664525u + 1013904223u; }
  o[g.x] = y;
}

// (i & p.mask) == 0 takes one side, else the other: mask 1 splits every
// subgroup by parity, mask 0 sends every lane the same way
@compute @workgroup_size(128)
fn parity(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= p.n) { return; }
  var y = g.x;
  if ((g.x & p.mask) == 0u) {
    for (var j = 0u; j < p.lo; j++) { y = y * 1664525u + 1013904223u; }
  } else {
    for (var j = 0u; j < p.lo; j++) { y = (y ^ (y >> 7u)) * 22695477u + 1u; }
  }
  o[g.x] = y;
}
