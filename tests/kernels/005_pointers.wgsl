// Member access and indexing through pointers without '*'
// (pointer_composite_access): p.m, p[i], p.v.y, p.xy, p.arr[i] on pointers
// to function, private, workgroup and storage memory, passed to functions
// and bound with let; reads, writes and compound assignments.
struct Inner {
  v: vec4u,
  arr: array<u32, 4>,
}

struct Outer {
  x: u32,
  inner: Inner,   // byte 16
  m: mat2x2f,     // byte 48
}                 // 64 bytes

@group(0) @binding(0) var<storage, read_write> buf: array<Outer>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

var<private> state: Outer;
var<workgroup> wg: array<u32, 64>;

fn bump(p: ptr<function, Inner>, k: u32) {
  p.v.y += k;
  p.arr[k % 4u] = k * 3u;
  p.v[(k + 2u) % 4u] ^= 1u;
}

fn via_private(p: ptr<private, Outer>) -> u32 {
  p.inner.arr[1] = 77u;
  return p.x + p.inner.arr[1];
}

fn fill(p: ptr<workgroup, array<u32, 64>>, i: u32) {
  p[i] = i * 2u + 1u;
}

fn colsum(p: ptr<function, mat2x2f>) -> f32 {
  p[1] = p[0] * 2.0;
  return p[1].y + p[0][0];
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = gid.x;
  var o: Outer;
  o.x = i;
  o.inner.v = vec4u(i, i + 1u, i + 2u, i + 3u);
  bump(&o.inner, i);
  let pi = &o.inner;
  out[i * 8u + 0u] = pi.v.x + pi.v.y * 10u + pi.v.z * 100u + pi.v.w * 1000u;
  out[i * 8u + 1u] = pi.arr[i % 4u] + pi.arr[(i + 1u) % 4u] * 1000u;
  state.x = i * 3u;
  out[i * 8u + 2u] = via_private(&state);
  fill(&wg, lid);
  workgroupBarrier();
  out[i * 8u + 3u] = wg[(lid + 1u) % 64u];
  var m = mat2x2f(1.0, 2.0, 3.0, 4.0) * f32(i);
  out[i * 8u + 4u] = u32(colsum(&m));
  let pv = &o.inner.v;
  out[i * 8u + 5u] = dot(pv.xy, vec2u(1u, 100u)) + pv.w;
  let pb = &buf[i];
  pb.x = pb.x + i;
  pb.inner.arr[i % 4u] += 5u;
  pb.inner.v.z = pb.inner.v.x * 2u;
  let pm = &pb.m;
  out[i * 8u + 6u] = u32(pm[0].x + pm[1][1]);
  let pa = &o.inner.arr;
  pa[(i + 3u) % 4u] = 9u;
  out[i * 8u + 7u] = pa[0] + pa[1] * 10u + pa[2] * 100u + pa[3] * 1000u;
}
