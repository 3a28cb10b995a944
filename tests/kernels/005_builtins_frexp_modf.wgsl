// frexp, modf and refract on f32 scalars and vectors: the result structs'
// members through let, var and direct member access, and constant calls.
@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read> ds: array<f32>;   // 3 per invocation
@group(0) @binding(2) var<storage, read> etas: array<f32>;
@group(0) @binding(3) var<storage, read_write> outf: array<f32>;
@group(0) @binding(4) var<storage, read_write> outi: array<i32>;

const N = 128u;
const cf = frexp(vec4f(0.1, -96.0, 6.0e-3, 12345.0));
const cm = modf(-7.75);
const cr = refract(vec3f(0.6, -0.8, 0.0), vec3f(0.0, 1.0, 0.0), 1.3);

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= N) { return; }
  let x = xs[i];
  // scalar frexp through a let, and by direct member access
  let f = frexp(x);
  outf[i] = f.fract;
  outi[i] = frexp(x).exp;
  // scalar modf
  let m = modf(x);
  outf[N + i] = m.fract;
  outf[2u * N + i] = modf(x).whole;
  // vector forms
  let fv = frexp(vec2f(x, x * 0.25));
  outf[3u * N + i] = fv.fract.y;
  outi[N + i] = fv.exp.y;
  let mv = modf(vec3f(x, -x, x * 0.5));
  outf[4u * N + i] = mv.fract.y;
  outf[5u * N + i] = mv.whole.z;
  // a var of the result type, a member assigned
  var r = frexp(x * 3.0);
  r.exp += 1;
  outi[2u * N + i] = r.exp;
  // refract with the normal (0, 1, 0): k < 0 gives the zero vector
  let e1 = vec3f(ds[3u * i], ds[3u * i + 1u], ds[3u * i + 2u]);
  let t = refract(e1, vec3f(0.0, 1.0, 0.0), etas[i]);
  outf[6u * N + i] = t.x;
  outf[7u * N + i] = t.y;
  outf[8u * N + i] = t.z;
  // constant calls
  outf[9u * N + i] = cf.fract[i % 4u];
  outi[3u * N + i] = cf.exp[i % 4u];
  outf[10u * N + i] = select(cm.whole, cm.fract, i % 2u == 1u);
  outf[11u * N + i] = cr[i % 3u];
}
