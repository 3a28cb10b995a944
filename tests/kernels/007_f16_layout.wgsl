// f16 in memory: where each byte of a struct with vec3<f16>, f16 matrices
// and nested arrays goes (storage, function memory), f16 in a uniform
// struct, half-word stores next to each other from different invocations
// and workgroups, workgroup memory, and f16 matrix arithmetic.
enable f16;

struct Inner {
  v: vec3h,            // bytes 0..5
  s: f16,              // bytes 6..7 (size 8, align 8)
}

struct Rec {
  a: f16,              // 0..1    (2..7 padding: v3 is 8-aligned)
  v3: vec3h,           // 8..13
  b: f16,              // 14..15
  m: mat2x3h,          // 16..31: two vec3<f16> columns, stride 8 (6 bytes + 2 padding)
  arr: array<vec2h, 3>,// 32..43: stride 4
  inner: array<Inner, 2>, // 48..63 (44..47 padding)
  m2: mat3x2h,         // 64..75: three vec2<f16> columns, stride 4
  c: f16,              // 76..77  (78..79 padding: size 80)
}

struct UM {
  m: mat3x3h,          // 0..23: columns stride 8
  v: vec3h,            // 24..29
  k: f16,              // 30..31
}

struct MOut {
  mv: vec3h,           // 0..5
  det: f16,            // 6..7
  mm: mat3x3h,         // 8..31
  t: mat3x3h,          // 32..55
  vm: vec3h,           // 56..61 (size 64)
}

@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read_write> recs: array<Rec>;
@group(0) @binding(2) var<storage, read_write> halves: array<f16>;
@group(0) @binding(3) var<storage, read_write> mats: array<MOut>;
@group(0) @binding(4) var<uniform> um: UM;

var<workgroup> wh: array<f16, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3u,
        @builtin(num_workgroups) nwg: vec3u) {
  let i = wg.x * 64u + l;
  // 32 f16 leaves from 32 f32 inputs, in declaration order
  var h: array<f16, 32>;
  for (var k = 0u; k < 32u; k++) {
    h[k] = f16(xs[32u * i + k]);
  }
  var r: Rec;
  r.a = h[0];
  r.v3 = vec3h(h[1], h[2], h[3]);
  r.b = h[4];
  r.m = mat2x3h(h[5], h[6], h[7], h[8], h[9], h[10]);
  for (var k = 0u; k < 3u; k++) {
    r.arr[k] = vec2h(h[11u + 2u * k], h[12u + 2u * k]);
  }
  for (var k = 0u; k < 2u; k++) {
    r.inner[k].v = vec3h(h[17u + 4u * k], h[18u + 4u * k], h[19u + 4u * k]);
    r.inner[k].s = h[20u + 4u * k];
  }
  r.m2 = mat3x2h(vec2h(h[25], h[26]), vec2h(h[27], h[28]), vec2h(h[29], h[30]));
  r.c = h[31];
  recs[i] = r;

  // neighbouring halves of one word from two workgroups (maybe two threads)
  halves[l * nwg.x + wg.x] = f16(i) + 0.5h;
  // workgroup memory: write one half each, read the mirror lane's
  wh[l] = f16(l) * 0.25h;
  workgroupBarrier();
  halves[128u + i] = wh[63u - l];

  // f16 matrices from the uniform, small integers: every step is exact
  let s = f16(l & 3u) + um.k;
  let m = um.m * s;
  var o: MOut;
  o.mv = m * um.v;
  o.vm = um.v * m;
  o.mm = m * um.m;
  o.t = transpose(m);
  o.det = determinant(um.m) + f16(l & 7u);
  mats[i] = o;
}
