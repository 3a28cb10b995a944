// Declarations: the entry point comes first and uses names declared further
// down (module scope is order-independent); const and override (with @id,
// defaults, values from the pipeline's constants, override-expressions over
// other overrides, an override-sized workgroup array and workgroup size);
// let, var and const in functions; private and workgroup variables
// (zero-initialised, workgroup ones once per workgroup); type aliases;
// const_assert at module and function scope; shadowing of module-scope
// names and of built-in functions; pointer parameters to function and
// private memory; functions returning structs and arrays.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u,
        @builtin(global_invocation_id) gid: vec3u) {
  const_assert C1 < 10;
  const LOCAL = C2 + 1u;
  let x = gid.x;
  base = x * K;

  // overrides, including the ones computed from other overrides
  put(WG);
  put(bitcast<u32>(scale));
  put(bitcast<u32>(doubled));
  put(bitcast<u32>(bias * 2.0));
  put(u32(flag) + 2u * u32(!flag));
  put(off);

  // const, let, var, aliases
  var v: u32;                 // zero
  var v2 = x * 2u;
  let l = v2 + LOCAL;
  v += l;
  let pr: Pair = Pair(x, LOCAL);
  var ar: Arr8;
  ar[x % 8u] = CARR[x % 4u];
  put(v + (pr.y << 8u) + (ar[x % 8u] << 16u) + (ar[(x + 1u) % 8u] << 24u));

  // private variables: zero, initialised, through pointers
  put(pv + bitcast<u32>(privi));
  acc_priv(&pv, x);
  acc_priv(&pv, 1000u);
  fill_arr(&privarr, x);
  privi -= 2;
  put(pv + privarr[7] * 10000u + bitcast<u32>(privi));

  // function pointers, shadowing
  var s1 = x;
  var s2 = x + 77u;
  swap(&s1, &s2);
  put(s1 * 1000u + s2);
  {
    let min = 3u;             // shadows the built-in function
    let pv = 99u;             // shadows the module-scope variable
    put(min * 10u + pv);
  }
  put(min(x, 5u) + pv);     // both are back
  put(shadow_param(x));
  put(reverseBits(x));        // the module's own reverseBits, not the built-in

  // functions returning structs and arrays
  let rec = make_rec(x);
  put(rec.p.x + rec.p.y * 100u + bitcast<u32>(rec.k) * 7u);
  let arr = make_arr(x);
  put(arr[x % 4u] + arr[3]);
  put(make_arr(x + 1u)[2]);

  // pointers passed on through a second function; a struct held in
  // registers, its vector indexed at run time through the pointer
  var r2 = Rec2(vec3u(x, x + 1u, x + 2u), 0u, vec2<bool>());
  r2.v[x % 3u] += 1u;
  fq(&r2, x);
  put(r2.v.x + r2.v.y * 100u + r2.v.z * 10000u + r2.k * 1000000u);
  var bv: vec3<bool>;
  bv[x % 3u] = true;
  bv[(x + 1u) % 3u] = !bv[(x + 2u) % 3u];
  put(u32(r2.b.x) + u32(r2.b.y) * 2u + u32(bv.x) * 4u + u32(bv.y) * 8u + u32(bv.z) * 16u);
  wt_outer(&wt, lid);

  // workgroup variables: zero at the start of every workgroup
  let seen = wg_slots[lid] + atomicLoad(&wg_sum) + wg_flag;
  workgroupBarrier();
  wg_slots[lid] = x * 3u + 1u;
  atomicAdd(&wg_sum, x);
  if lid == 0u {
    wg_flag = wid.x + 100u;
  }
  workgroupBarrier();
  put(seen);
  put(wg_slots[(lid + 1u) % WG]);
  put(atomicLoad(&wg_sum));
  put(wg_flag);
  put(wt[31u - lid % 32u]);
}

fn put(w: u32) {
  out[base + cursor] = w;
  cursor++;
}

const K = 24u;
const C1 = 7;
const C2: u32 = C1 * 3;
const CARR = array<u32, 4>(5u, 6u, 7u, 8u);
const_assert C2 == 21u;
const_assert CARR[2] == 7u;

override WG: u32 = 16u;
@id(7) override scale: i32 = 3;
override bias: f32;
override doubled = scale * 2;
override flag: bool = true;
override off: u32 = WG / 4u + 1u;

alias Pair = vec2<u32>;
alias Arr8 = array<u32, 8>;

struct Rec {
  p: Pair,
  k: i32,
}

struct Rec2 {
  v: vec3u,
  k: u32,
  b: vec2<bool>,
}

var<private> base: u32;
var<private> cursor: u32;
var<private> pv: u32;
var<private> privi: i32 = -5;
var<private> privarr: Arr8;
var<workgroup> wg_sum: atomic<u32>;
var<workgroup> wg_slots: array<u32, WG>;
var<workgroup> wg_flag: u32;
var<workgroup> wt: array<u32, 32>;

fn swap(a: ptr<function, u32>, b: ptr<function, u32>) {
  let t = *a;
  *a = *b;
  *b = t;
}

fn acc_priv(p: ptr<private, u32>, w: u32) {
  *p += w;
}

fn fill_arr(p: ptr<private, Arr8>, b: u32) {
  for (var k = 0u; k < 8u; k++) {
    (*p)[k] = b + k;
  }
}

fn fp(p: ptr<function, Rec2>, i: u32) {
  p.v[i % 3u] += 7u;
  p.b[i % 2u] = true;
}

fn fq(p: ptr<function, Rec2>, i: u32) {
  fp(p, i);
  p.k = p.v[(i + 1u) % 3u];
}

fn wt_inner(p: ptr<workgroup, array<u32, 32>>, i: u32) {
  p[i % 32u] = i * 2u + 5u;
}

fn wt_outer(p: ptr<workgroup, array<u32, 32>>, i: u32) {
  wt_inner(p, i);
}

fn shadow_param(C1: u32) -> u32 {   // the parameter shadows the module's C1
  return C1 * 2u + 1u;
}

fn reverseBits(w: u32) -> u32 {     // hides the built-in for the whole module
  return w + 0x10000u;
}

fn make_rec(w: u32) -> Rec {
  return Rec(Pair(w, w + 1u), i32(w) * scale);
}

fn make_arr(w: u32) -> array<u32, 4> {
  return array(w, w * 2u, w * 3u, w * 4u);
}
