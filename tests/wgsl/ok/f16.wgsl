// f16 accepted with 'enable f16;': literals, aliases, overrides, and
// const-evaluation rounded to f16 (round to nearest, ties to even).
enable f16;

// 0.1 = 1.6 * 2^-4; 0.6 * 1024 = 614.4 -> 614: (1024 + 614) / 16384
const_assert 0.1h == 0.0999755859375h;
const_assert f16(0.1) == 0.0999755859375h;
// ulp(1) = 2^-10: 1 + 2^-11 is a tie and stays at the even 1.0;
// (1 + 2^-10) + 2^-11 is a tie that goes up to the even 1 + 2^-9
const_assert 1h + 0x1p-11h == 1h;
const_assert (1h + 0x1p-10h) + 0x1p-11h == 1h + 0x1p-9h;
// subnormals: 2^-24 / 2 is a tie with 0 (even); 3 * 2^-25 rounds to 2^-23
const_assert 0x1p-24h / 2h == 0h;
const_assert 0x3p-24h / 2h == 0x1p-23h;
const_assert 0x1p-14h / 4h == 0x1p-16h;
// sqrt(2) = 1.41421356...; 0.41421356 * 1024 = 424.15 -> 424
const_assert sqrt(2h) == 1.4140625h;
// conversions: float -> integer truncates and clamps
const_assert i32(-2.75h) == -2;
const_assert u32(-1.5h) == 0u;
const_assert f16(2049) == 2048h;
const_assert f16(2051u) == 2052h;
const_assert f32(0.1h) == 0.0999755859375f;
const_assert f16(0.1f) == 0.0999755859375h;
const_assert determinant(mat2x2h(1h, 2h, 3h, 4h)) == -2h;
const_assert 65504h == 0x1.ffcp15h;
// geometric built-ins fold with every step rounded to f16, as at run time.
// dot: 1 * 0.1h = 0.0999755859375; 2 * 0.2h = 0.39990234375; their sum
// 0.4998779296875 is 2047.5 * 2^-12, a tie -> 0.5; 3 * 0.3h = 3 *
// 0.300048828125 = 0.900146484375 = 1843.5 * 2^-11, a tie -> 0.900390625;
// 0.5 + 0.900390625 = 1.400390625, exact
const_assert dot(vec3h(1h, 2h, 3h), vec3h(0.1h, 0.2h, 0.3h)) == 1.400390625h;
const_assert length(vec2h(3h, 4h)) == 5h;
const_assert length(-2.5h) == 2.5h;
const_assert distance(vec2h(1h, 1h), vec2h(4h, 5h)) == 5h;
const_assert all(cross(vec3h(1h, 0h, 0h), vec3h(0h, 1h, 0h)) == vec3h(0h, 0h, 1h));
// 3 / 5 and 4 / 5 rounded to f16, like the literals 0.6h and 0.8h
const_assert all(normalize(vec2h(3h, 4h)) == vec2h(0.6h, 0.8h));
// x - 2 * dot(y, x) * y = (1, -1) - 2 * (-1) * (0, 1)
const_assert all(reflect(vec2h(1h, -1h), vec2h(0h, 1h)) == vec2h(1h, 1h));
// dot(z, y) = 1 >= 0: -x
const_assert all(faceForward(vec2h(1h, 2h), vec2h(1h, 0h), vec2h(1h, 0h)) == vec2h(-1h, -2h));
const_assert any(vec2<bool>(false, true)) && !all(vec2<bool>(false, true));
// the f32 built-ins that go through f16 fold too
const_assert quantizeToF16(0.1f) == 0.0999755859375f;
const_assert all(quantizeToF16(vec2f(1.00048828125, 65504.0)) == vec2f(1.0, 65504.0));
const_assert pack2x16float(vec2f(1.0, -2.0)) == 0xc0003c00u;
const_assert all(unpack2x16float(0xc0003c00u) == vec2f(1.0, -2.0));
const_assert unpack2x16float(0x00000001u).x == 0x1p-24f;
// frexp, modf and refract fold: 1.5 = 0.75 * 2^1, -0.375 = -0.75 * 2^-1;
// refract with k = 1 - 4 * (1 - 0.36) < 0 (total internal reflection) is 0
const_assert frexp(1.5h).fract == 0.75h && frexp(1.5h).exp == 1;
const_assert all(frexp(vec2f(8.0, -0.375)).exp == vec2i(4, -1));
const_assert frexp(0.0f).fract == 0.0f && frexp(0.0f).exp == 0;
const_assert modf(-2.75h).fract == -0.75h && modf(-2.75h).whole == -2h;
const_assert all(refract(vec2h(0.8h, -0.6h), vec2h(0h, 1h), 2h) == vec2h());
// ldexp folds: x * 2^e, rounded to the type
const_assert ldexp(1.0f, 2) == 4.0f;
const_assert ldexp(3h, -14) == 0x3p-14h;
const_assert all(ldexp(vec2h(1h, 2h), vec2i(3, -1)) == vec2h(8h, 1h));
// bitcast: an f16 pair is one 32-bit word, the first component in the low
// half. 1h = 0x3c00, -2h = 0xc000, 1.875h = 0x3f80, 0x1p-24h = 0x0001,
// 65504h = 0x7bff; the f32 with bits 0x3f800000 is 1.0
const_assert bitcast<u32>(vec2h(1h, -2h)) == 0xc0003c00u;
const_assert all(bitcast<vec2h>(0x3c00bc00u) == vec2h(-1h, 1h));
const_assert all(bitcast<vec4h>(vec2u(0x00010000u, 0x7bff8000u)) == vec4h(0h, 0x1p-24h, -0h, 65504h));
const_assert bitcast<f32>(vec2h(0h, 1.875h)) == 1.0f;
const_assert all(bitcast<vec2i>(vec4h(1h, -2h, 0h, 0h)) == vec2i(-1073726464, 0));

override scale: f16 = 1.5h;

struct Packed {
  a: f16,
  v: vec3h,   // offset 8: vec3<f16> has align 8, size 6
  m: mat3x2h, // offset 16: columns of vec2<f16>, 4 bytes each
  w: vec4<f16>,
}

@group(0) @binding(0) var<storage, read_write> out: array<Packed>;

@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let v2: vec2h = vec2h(1h, 2h);
  let v4: vec4h = vec4h(v2, 3.0h, 4.0);
  let m2: mat2x2h = mat2x2h(v2, v2);
  let m4: mat4x4h = mat4x4h();
  let m23: mat2x3h = mat2x3h();
  let m32: mat3x2<f16> = mat3x2<f16>();
  out[id.x].a = scale * f16(id.x);
  out[id.x].v = v4.xyz;
  out[id.x].m = m32;
  out[id.x].w = v4 + m4[0] + vec4h(m23[0], 1h) + vec4h(m2[1], 0h, 0h);
  let bits: u32 = bitcast<u32>(v2);
  let back: vec2h = bitcast<vec2h>(bits);
  let wide: vec2u = bitcast<vec2u>(v4);
  out[id.x].a += back.x + f16(wide.y & 1u);
}
