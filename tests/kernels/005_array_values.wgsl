// Runtime indices into array values (let-bound arrays, constructor results,
// const arrays, function parameters, arrays of vectors, structs and arrays).
// Every index is in range, so the result is the same on any implementation.
struct P {
  a: u32,
  v: vec3u,
}

@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

const T = array<u32, 8>(3, 1, 4, 1, 5, 9, 2, 6);

fn pick(a: array<i32, 5>, i: u32) -> i32 {
  return a[i];
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let x = inp[i];
  let a = array<u32, 4>(x, x * 2u, x + 7u, 11u);
  let b = array(vec2u(i, x), vec2u(5u, 6u), vec2u(x ^ 3u, i * 3u));
  let s = array<P, 3>(P(1u, vec3u(x)), P(i, vec3u(2u, 3u, 4u)), P(x + i, vec3u(i, 0u, 9u)));
  let nested = array<array<u32, 3>, 2>(array<u32, 3>(1u, 2u, x), array<u32, 3>(i, 5u, 6u));
  let k = x % 4u;
  let m = i % 3u;
  out[i * 8u + 0u] = a[k];
  out[i * 8u + 1u] = b[m].x + b[m].y * 1000u;
  out[i * 8u + 2u] = s[m].a + s[m].v[k % 3u] * 100u;
  out[i * 8u + 3u] = nested[i % 2u][m] + nested[1u - i % 2u][k % 3u] * 100u;
  out[i * 8u + 4u] = T[x % 8u];
  out[i * 8u + 5u] = u32(pick(array<i32, 5>(-1, -2, -3, -4, -5), i % 5u) + 100);
  out[i * 8u + 6u] = array<u32, 3>(7u, 8u, 9u)[m] + a[(k + 1u) % 4u] * 10u;
  let f = array<f32, 2>(0.5, f32(x));
  out[i * 8u + 7u] = bitcast<u32>(f[i % 2u]);
}
