// f16 overloads of the numeric built-ins. Each invocation i converts three
// f32 inputs in [-4, 4) to f16 (a, b, c; t = fract(c) in [0, 1)) and writes
// one f16 result per function, widened exactly to f32, at out[128k + i] for
// function k: first the correctly rounded ones (compared exactly), then
// those WGSL gives an error bound for, then frexp and modf (exact) and
// refract.
enable f16;

@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let n = arrayLength(&xs) / 3u;
  let a = f16(xs[3u * i]);
  let b = f16(xs[3u * i + 1u]);
  let t = fract(f16(xs[3u * i + 2u]));
  var r: array<f16, 25>;
  // correctly rounded
  r[0] = sign(a);
  r[1] = step(b, a);
  r[2] = saturate(a);
  r[3] = ldexp(a, 3);
  r[4] = fract(a);
  // with error bounds
  r[5] = exp2(a);
  r[6] = log2(abs(a) + 0.5h);
  r[7] = inverseSqrt(abs(a) + 0.25h);
  r[8] = atan2(a, abs(b) + 0.5h);
  r[9] = atan(a);
  r[10] = tanh(a);
  r[11] = pow(abs(a) + 0.5h, b);
  r[12] = mix(a, b, t);
  r[13] = smoothstep(-2.0h, 2.0h, a);
  r[14] = dot(vec3h(a, b, t), vec3h(b, t, a));
  r[15] = normalize(vec2h(a, b) + vec2h(0.5h, 0.5h)).x;
  r[16] = cross(vec3h(a, b, t), vec3h(b, t, a)).y;
  r[17] = degrees(a);
  r[18] = determinant(mat2x2h(a, b, t, a));
  r[19] = length(vec3h(a, b, t));
  r[20] = distance(vec2h(a, b), vec2h(t, a));
  // frexp and modf: exact; refract: inherited from its formula
  let fr = frexp(a);
  r[21] = fr.fract;
  r[22] = f16(fr.exp);
  r[23] = modf(a).fract;
  r[24] = refract(vec2h(t, 0.5h), vec2h(0.0h, 1.0h), 0.75h).x;
  for (var k = 0u; k < 25u; k++) {
    out[k * n + i] = f32(r[k]);
  }
}
