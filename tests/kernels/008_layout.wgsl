// Host-shareable memory layout (WGSL §Memory Layout): structs with vec3
// members followed by scalars, @align and @size, nested structs, arrays of
// structs and of vec3, matrices inside structs, a runtime-sized array of
// structs as the last member (with arrayLength), and a uniform buffer under
// the uniform address space's stricter rules. Every member is written
// through storage, so the expected result says where each byte goes.
struct A {
  v: vec3f,            // offset 0, size 12
  s: u32,              // 12: fills the vec3's tail
  w: vec3u,            // 16
  t: f32,              // 28
  @align(16) u: u32,   // 32
  @size(12) k: i32,    // 36, takes 12 bytes
  x: vec2f,            // 48
}                      // align 16, size 64

struct Inner {
  a: u32,              // 0
  b: vec3f,            // 16
}                      // align 16, size 32

struct B {
  p: f32,                  // 0
  inner: Inner,            // 16
  q: u32,                  // 48
  arr3: array<vec3f, 2>,   // 64, stride 16
  m: mat3x3f,              // 96, column stride 16
  r: u32,                  // 144
  m2: mat2x2f,             // 152, column stride 8
  m3: mat3x2f,             // 168
  @align(32) z: u32,       // 192
  pairs: array<vec2u, 3>,  // 200, stride 8
}                          // align 32, size 224

struct Elem {
  v: vec3u,            // 0
  s: f32,              // 12
  h: vec2u,            // 16
}                      // align 16, size 32

struct Top {
  a: A,                // 0
  b: B,                // 64 (B's alignment is 32)
  n: u32,              // 288
  two: array<A, 2>,    // 304, stride 64
  elems: array<Elem>,  // 432, stride 32
}

// Uniform rules: struct members and arrays start at multiples of 16, array
// strides are multiples of 16, the member after a struct starts at least
// roundUp(16, size) after it.
struct Pad16 {
  @size(16) x: u32,
}

struct UInner {
  a: vec2u,            // 0
  b: u32,              // 8
}                      // align 8, size 16

struct U {
  k: u32,                           // 0
  @align(16) inner: UInner,         // 16
  after: u32,                       // 32
  @align(16) arr: array<Pad16, 3>,  // 48, stride 16
  v: vec3f,                         // 96
  f: f32,                           // 108
  m: mat2x3f,                       // 112, column stride 16
  w: vec4u,                         // 144
  arr4: array<vec4i, 2>,            // 160
}                                   // size 192

@group(0) @binding(0) var<uniform> uni: U;
@group(0) @binding(1) var<storage, read_write> top: Top;
@group(0) @binding(2) var<storage, read_write> ucopy: U;

fn make_a(base: f32, tag: u32) -> A {
  return A(vec3f(base, base + 1.0, base + 2.0), tag, vec3u(tag + 1u, tag + 2u, tag + 3u), base + 3.0,
           tag + 4u, -i32(tag) - 5, vec2f(base + 4.0, base + 5.0));
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let one = uni.k;   // 1: keeps the values out of the constant folder
  if i == 0u {
    top.a.v = vec3f(1.0, 2.0, 3.0) * f32(one);
    top.a.s = 10u * one;
    top.a.w = vec3u(11u, 12u, 13u);
    top.a.t = 14.0;
    top.a.u = 15u;
    top.a.k = -16;
    top.a.x = vec2f(17.0, 18.0);
  } else if i == 1u {
    top.b.p = 20.0;
    top.b.inner.a = 21u;
    top.b.inner.b = vec3f(22.0, 23.0, 24.0);
    top.b.q = 25u;
    top.b.arr3[0] = vec3f(26.0, 27.0, 28.0);
    top.b.arr3[one] = vec3f(29.0, 30.0, 31.0);
    top.b.m = mat3x3f(32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0);
    top.b.m[one + 1u].y = -39.0;
    top.b.r = 41u;
    top.b.m2 = mat2x2f(42.0, 43.0, 44.0, 45.0);
    top.b.m3 = mat3x2f(46.0, 47.0, 48.0, 49.0, 50.0, 51.0);
    top.b.z = 52u;
    for (var j = 0u; j < 3u; j++) { top.b.pairs[j] = vec2u(53u + 2u * j, 54u + 2u * j); }
  } else if i == 2u {
    top.n = arrayLength(&top.elems);
    top.two[0] = make_a(60.0, 70u);     // whole struct
    var a1 = make_a(80.0, 90u);
    a1.w.y = 1000u;
    a1.x.x = -1.0;
    top.two[one] = a1;
  } else if i == 3u {
    ucopy = uni;                         // uniform -> storage, whole struct
    ucopy.inner.b += 100u;
    ucopy.m[1].z = uni.m[0].y * 2.0;
    ucopy.arr[2].x = uni.arr[0].x + uni.arr[1].x;
    ucopy.arr4[one].w = uni.arr4[0].x - uni.arr4[1].z;
    ucopy.v.y = uni.f;
    ucopy.w = uni.w.wzyx;
  }
  if (i % 2u) == 0u {
    top.elems[i] = Elem(vec3u(i, i * 2u, i * 3u), f32(i) + 0.5, vec2u(i + 1000u, i + 2000u));
  } else {
    let e = &top.elems[i];
    e.v.x = i;
    e.v[one] = i * 2u;
    e.v.z = i * 3u;
    e.s = f32(i) + 0.5;
    e.h = vec2u(i + 1000u, 0u);
    e.h[1] = i + 2000u;
  }
}
