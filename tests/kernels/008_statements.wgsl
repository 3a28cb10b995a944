// Statements: switch (case lists, default in the middle, `case N, default`,
// no fallthrough, break inside a case), loop with continuing and `break if`,
// for with a complex update, while, nested break/continue, every compound
// assignment on scalars, vector components and array elements, ++/--,
// phony assignment keeping the call's side effects, early return from nested
// loops. Every condition depends on the invocation's input, so each
// construct runs divergently inside a subgroup.
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

const K = 36u;  // output words per invocation

var<private> calls: u32;
var<private> ctr: u32;
var<private> trace: u32;

// Records the order of its calls in `trace`.
fn next() -> u32 {
  ctr += 1u;
  trace = trace * 10u + ctr;
  return ctr;
}

fn bump(k: u32) -> u32 {
  calls = calls * 3u + k;
  return calls;
}

// Default in the middle of the case list; case bodies never fall through.
fn classify(x: u32) -> u32 {
  var r = 0u;
  switch x % 8u {
    case 0u, 1u: { r = 10u + x % 8u; }
    case 2u: { r = 20u; }
    default: { r = 90u; }
    case 3u, 4u, 5u: {
      r = 30u + x % 8u;
      if x % 16u == 3u { break; }   // leaves the switch only
      r += 100u;
    }
  }
  return r;
}

// `case N, default` shares a body; i32 selector with negative cases.
fn classify_signed(x: u32) -> u32 {
  var r = 1u;
  switch i32(x % 7u) - 3 {
    case -3, -1: { r = 5u; }
    case 2, default: { r = 7u; }
    case 0: { r = 11u; }
  }
  switch x % 3u {
    default { r = r * 2u; }   // only a default
  }
  return r;
}

fn loop_continuing(x: u32) -> u32 {
  var i = 0u;
  var s = 0u;
  loop {
    if i == 3u {
      i += 1u;
      continue;   // runs the continuing block
    }
    s += i * i;
    continuing {
      i += 1u;
      break if i >= x % 9u + 2u;
    }
  }
  return s * 100u + i;
}

fn for_complex(x: u32) -> u32 {
  var n = 0u;
  var acc = 0u;
  for (var j = x % 5u; j < 200u; j = j * 3u + (x % 2u) + 1u) {
    acc = acc * 7u + j;
    n++;
  }
  var calls_seen = 0u;
  for (var k = 0u; k < x % 4u; _ = bump(k)) {   // a call as the update
    calls_seen += 1u;
    k++;
  }
  return acc ^ (n << 24u) ^ (calls_seen << 28u);
}

fn while_loop(x: u32) -> u32 {
  var j = x + 1u;
  var steps = 0u;
  while j != 1u {
    if j % 2u == 0u { j = j / 2u; } else { j = 3u * j + 1u; }
    steps++;
  }
  return steps;
}

fn nested(x: u32) -> u32 {
  var t = 0u;
  var outer = 0u;
  for (var a = 0u; a < 6u; a++) {
    outer = a;
    if a == x % 6u { continue; }
    for (var b = 0u; b < 6u; b++) {
      if b > a { break; }
      if (a + b + x) % 3u == 0u { continue; }
      t += a * 10u + b;
    }
    if t > 40u + x % 64u { break; }
  }
  return t * 8u + outer;
}

fn early(x: u32) -> u32 {
  for (var a = 1u; a < 8u; a++) {
    var b = 0u;
    loop {
      if a * b == x % 30u { return a * 16u + b; }
      b++;
      if b >= 8u { break; }
    }
  }
  return 999u;
}

// Moves the index variable it points at; the caller's reference must not move.
fn bumpk(p: ptr<function, u32>) -> u32 {
  *p = (*p + 1u) % 4u;
  return 50u + *p;
}

// switch inside a loop: continue goes to the loop, break leaves the switch
fn switch_in_loop(x: u32) -> u32 {
  var acc = 0u;
  for (var k = 0u; k < 10u; k++) {
    switch (k + x) % 4u {
      case 0u: { continue; }
      case 1u: { acc += k; break; }
      case 2u: {
        if k > 5u { break; }
        acc += 100u;
      }
      default: { acc += 1000u; }
    }
    acc += 1u;
  }
  return acc;
}

// && keeps the index in bounds: data[j] is never read with j == 6
fn guarded_while(x: u32) -> u32 {
  var j = 0u;
  let data = array<u32, 6>(3u, 1u, 4u, 1u, 5u, 0u);
  while j < 6u && data[j] != x % 7u {
    j++;
  }
  return j;
}

// return from a switch inside a loop
fn find_in_switch(x: u32) -> u32 {
  for (var k = 0u; k < 20u; k++) {
    switch k % 3u {
      case 0u: {
        if k * x > 50u { return k; }
      }
      default: {
        if k + x % 32u == 25u { return 1000u + k; }
      }
    }
  }
  return 7777u;
}

fn compound_scalar(x: u32) -> vec4u {
  var s: i32 = i32(x) - 500;
  s += 7;
  s -= 3;
  s *= -5;
  let a = u32(s);
  s /= 3;
  s %= 97;
  let b = u32(s);
  s &= 0x7ff;
  s |= 0x1000;
  s ^= 0x0ff0;
  s <<= 19u;   // into the sign bit for some inputs
  let c = u32(s);
  s >>= 5u;    // arithmetic shift
  s++;
  s--;
  s--;
  var u = x;
  u <<= x % 32u;
  u >>= (x / 7u) % 32u;
  u %= 1000u + x;
  u /= 3u;
  return vec4u(a, b, c, u32(s) ^ (u << 1u));
}

fn compound_vector(x: u32) -> vec4u {
  var v = vec4i(i32(x), -i32(x), 3, -7);
  v.x += 100;
  v.y -= i32(x % 13u);
  v.z *= v.w;
  v.w /= 2;
  v[x % 4u] %= 5;
  v.x &= 0xff;
  v.y |= 1;
  v.z ^= i32(x);
  v[(x + 1u) % 4u] <<= 2u;
  v.w >>= 1u;
  v += vec4i(1, 2, 3, 4);
  v *= 3;
  v.x++;
  v[(x + 2u) % 4u]--;
  return bitcast<vec4u>(v);
}

fn compound_array(x: u32) -> vec4u {
  var arr = array<u32, 6>(x, x + 1u, x + 2u, 40u, 50u, 60u);
  arr[0] += 9u;
  arr[1] -= 4u;
  arr[2] *= 3u;
  arr[3] /= 7u;
  arr[4] %= 7u;
  arr[x % 6u] &= 0xf0u;
  arr[(x + 1u) % 6u] |= 0x100u;
  arr[(x + 2u) % 6u] ^= 0x55u;
  arr[(x + 3u) % 6u] <<= x % 8u;
  arr[(x + 4u) % 6u] >>= 1u;
  arr[x % 3u]++;
  arr[5]--;
  return vec4u(arr[0] + (arr[1] << 16u), arr[2] + (arr[3] << 16u), arr[4] + (arr[5] << 16u), arr[x % 6u]);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let x = inp[i];
  let o = i * K;
  calls = 0u;
  out[o + 0u] = classify(x);
  out[o + 1u] = classify(i);
  out[o + 2u] = classify_signed(x);
  out[o + 3u] = classify_signed(i);
  out[o + 4u] = loop_continuing(x);
  out[o + 5u] = for_complex(x);
  out[o + 6u] = calls;
  out[o + 7u] = while_loop(x);
  out[o + 8u] = nested(x);
  out[o + 9u] = nested(i);
  out[o + 10u] = early(x);
  out[o + 11u] = early(i * 3u);
  let cs = compound_scalar(x);
  out[o + 12u] = cs.x;
  out[o + 13u] = cs.y;
  out[o + 14u] = cs.z;
  out[o + 15u] = cs.w;
  let cv = compound_vector(x);
  out[o + 16u] = cv.x;
  out[o + 17u] = cv.y;
  out[o + 18u] = cv.z;
  out[o + 19u] = cv.w;
  let ca = compound_array(x);
  out[o + 20u] = ca.x ^ (ca.w << 7u);
  out[o + 21u] = ca.y;
  out[o + 22u] = ca.z;
  out[o + 24u] = switch_in_loop(x);
  out[o + 25u] = guarded_while(x);
  out[o + 26u] = find_in_switch(x);
  // evaluation order: an assignment evaluates its left-hand side first; a
  // compound assignment evaluates its reference once
  var arr = array<u32, 8>();
  ctr = x % 3u;
  trace = 0u;
  arr[next()] = next() * 10u;
  arr[next() % 8u] += next();
  out[o + 27u] = arr[0] + arr[1] * 3u + arr[2] * 5u + arr[3] * 7u + arr[4] * 11u + arr[5] * 13u + arr[6] * 17u + arr[7] * 19u;
  out[o + 28u] = trace;
  var w = vec4u(x);
  trace = 0u;
  w[next() % 4u]++;
  w[next() % 4u] *= next();
  out[o + 29u] = w.x + w.y * 3u + w.z * 5u + w.w * 7u;
  out[o + 30u] = trace + ctr * 100000u;
  calls = 1u;
  _ = bump(x % 10u);     // the call runs although its value is dropped
  _ = bump(2u);
  if (x & 1u) == 1u { _ = bump(5u); }
  out[o + 23u] = calls;
  out[o + 31u] = K;
  var k = x % 4u;
  w[k] = bumpk(&k);        // w[old k]
  w[k] += bumpk(&k);
  var a4 = array<u32, 4>(1u, 2u, 3u, 4u);
  var j = (x / 4u) % 4u;
  a4[j] = bumpk(&j);
  a4[j] *= bumpk(&j);
  out[o + 32u] = w.x + w.y * 3u + w.z * 5u + w.w * 7u + k * 1000000u;
  out[o + 33u] = a4[0] + a4[1] * 3u + a4[2] * 5u + a4[3] * 7u + j * 1000000u;
  // e1 op= e2 reads e1 before e2 runs, and built-in arguments run left to
  // right, even when a call on the right stores to the variable
  var c2 = x % 100u;
  c2 += bumpk(&c2);
  calls = x % 100u;
  calls *= bump(1u);
  out[o + 34u] = c2 + calls * 1000u;
  var k2 = x % 4u;
  out[o + 35u] = select(k2, 99u, bumpk(&k2) > 51u) * 1000u + k2;
}
