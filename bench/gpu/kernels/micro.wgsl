// Microbenchmarks that set the cost model's nvidia parameters
// (bench/gpu/README.md, docs/profiler.md "Cost model"): issue rates per
// operation class, launch cost per workgroup, DRAM bandwidth, atomics,
// barriers and workgroup-memory bank conflicts. p.k is the rounds.
struct Params { n: u32, k: u32, a: u32, b: u32 };
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> o: array<u32>;
@group(0) @binding(2) var<storage, read_write> q: array<atomic<u32>>;
var<workgroup> t: array<u32, 2048>;

// one store per workgroup: what a workgroup costs to launch
@compute @workgroup_size(64)
fn launch(@builtin(workgroup_id) w: vec3u, @builtin(local_invocation_index) li: u32) {
  if (li == 0u) { o[w.x & 1048575u] = w.x; }
}

// four independent integer chains
@compute @workgroup_size(256)
fn alu_int(@builtin(global_invocation_id) g: vec3u) {
  var a = g.x; var b = a ^ 1u; var c = a ^ 2u; var e = a ^ 3u;
  for (var j = 0u; j < p.k; j++) {
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    c = c * 1664525u + 1013904223u; e = e * 1664525u + 1013904223u;
  }
  o[g.x] = a + b + c + e;
}

@compute @workgroup_size(256)
fn alu_f32(@builtin(global_invocation_id) g: vec3u) {
  var a = f32(g.x); var b = a + 1.0; var c = a + 2.0; var e = a + 3.0;
  for (var j = 0u; j < p.k; j++) {
    a = a * 0.999 + 0.5; b = b * 0.999 + 0.5; c = c * 0.999 + 0.5; e = e * 0.999 + 0.5;
  }
  o[g.x] = bitcast<u32>(a + b + c + e);
}

@compute @workgroup_size(256)
fn sfu(@builtin(global_invocation_id) g: vec3u) {
  var a = f32(g.x) * 1e-6; var b = a + 0.25;
  for (var j = 0u; j < p.k; j++) { a = sin(a) + 0.5; b = exp2(-b) + 0.25; }
  o[g.x] = bitcast<u32>(a + b);
}

@compute @workgroup_size(256)
fn idiv(@builtin(global_invocation_id) g: vec3u) {
  var a = g.x | 0x40000000u; var b = a ^ 0x1234567u;
  let d = p.a | 3u;
  for (var j = 0u; j < p.k; j++) { a = a / d + 0x40000000u; b = b % d + 0x40000000u; }
  o[g.x] = a + b;
}

@compute @workgroup_size(256)
fn conv(@builtin(global_invocation_id) g: vec3u) {
  var a = g.x; var b = f32(g.x);
  for (var j = 0u; j < p.k; j++) { b = f32(a) * 0.5; a = u32(b) + 7u; }
  o[g.x] = a + bitcast<u32>(b);
}

// a copy of p.n words, grid-stride: DRAM bandwidth
@compute @workgroup_size(256)
fn copy(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let step = nw.x * 256u;
  for (var i = g.x; i < p.n; i += step) { o[i + p.n] = o[i]; }
}

// every lane adds to one word (p.a = 0) or to its own (p.a = 1)
@compute @workgroup_size(256)
fn atom(@builtin(global_invocation_id) g: vec3u) {
  for (var j = 0u; j < p.k; j++) { atomicAdd(&q[(g.x * p.a) & 1048575u], 1u); }
}

// p.k barriers, each after a workgroup-memory store
@compute @workgroup_size(256)
fn barrier(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) g: vec3u) {
  var s = 0u;
  for (var j = 0u; j < p.k; j++) {
    t[li] = s + j;
    workgroupBarrier();
    s += t[(li + 1u) & 255u];
    workgroupBarrier();
  }
  o[g.x] = s;
}

// workgroup memory read with a stride of p.a words (1: no conflict, 32:
// 32-way on 32 banks)
@compute @workgroup_size(256)
fn banks(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) g: vec3u) {
  for (var i = li; i < 2048u; i += 256u) { t[i] = i; }
  workgroupBarrier();
  var s = 0u;
  for (var j = 0u; j < p.k; j++) { s += t[((li + s) * p.a) & 2047u]; }
  o[g.x] = s;
}

// two chains of eight LCG steps a round: arithmetic with little control
@compute @workgroup_size(256)
fn alu_unroll(@builtin(global_invocation_id) g: vec3u) {
  var a = g.x; var b = a ^ 1u;
  for (var j = 0u; j < p.k; j++) {
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
    a = a * 1664525u + 1013904223u; b = b * 1664525u + 1013904223u;
  }
  o[g.x] = a + b;
}

// one subgroup per SM walks p.k dependent loads over p.a + 1 words (a
// power of two): each address needs the word the last load returned
@compute @workgroup_size(32)
fn chase(@builtin(global_invocation_id) g: vec3u) {
  var i = (g.x * 2654435761u) & p.a;
  for (var j = 0u; j < p.k; j++) { i = (o[i] + i * 1664525u + 1013904223u) & p.a; }
  o[g.x] = i;
}

// two chains of four xorshift-multiply steps a round, which no compiler
// folds: arithmetic with less control than alu_int's
@compute @workgroup_size(256)
fn alu_xs(@builtin(global_invocation_id) g: vec3u) {
  var a = g.x; var b = a ^ 1u;
  for (var j = 0u; j < p.k; j++) {
    a = (a ^ (a >> 7u)) * 22695477u + j; b = (b ^ (b >> 7u)) * 22695477u + j;
    a = (a ^ (a >> 9u)) * 22695477u + j; b = (b ^ (b >> 9u)) * 22695477u + j;
    a = (a ^ (a >> 7u)) * 22695477u + j; b = (b ^ (b >> 7u)) * 22695477u + j;
    a = (a ^ (a >> 9u)) * 22695477u + j; b = (b ^ (b >> 9u)) * 22695477u + j;
  }
  o[g.x] = a + b;
}
