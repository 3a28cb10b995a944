// Atomics: atomicLoad, atomicStore, atomicAdd, atomicSub, atomicMax,
// atomicMin, atomicAnd, atomicOr, atomicXor and atomicExchange on i32 and
// u32, in storage and workgroup memory, every invocation hitting the same
// atomics. Only order-independent facts are stored: the final value of a
// commutative operation, and for atomicExchange and a ticket counter which
// values came back (a mark per value, so each must be seen exactly once).
// `finish`, a second dispatch, folds the exchange chains' last values into
// the marks and loads every storage atomic.
struct Counters {
  add_u: atomic<u32>,
  sub_u: atomic<u32>,
  max_u: atomic<u32>,
  min_u: atomic<u32>,
  and_u: atomic<u32>,
  or_u: atomic<u32>,
  xor_u: atomic<u32>,
  xchg_u: atomic<u32>,
  add_i: atomic<i32>,
  sub_i: atomic<i32>,
  max_i: atomic<i32>,
  min_i: atomic<i32>,
  and_i: atomic<i32>,
  or_i: atomic<i32>,
  xor_i: atomic<i32>,
  xchg_i: atomic<i32>,
  ticket: atomic<u32>,
  winners: atomic<u32>,
}

// atomics as members of a workgroup struct, next to a plain member
struct WS {
  hits: atomic<u32>,
  top: atomic<i32>,
  plain: u32,
  bits: array<atomic<u32>, 4>,
}

const WG = 64u;
const GROUPS = 4u;
const T = WG * GROUPS;        // invocations of main
const MARK_U = 0u;            // marks[0 .. T]: values atomicExchange gave back on xchg_u
const MARK_I = T + 1u;        // the same for xchg_i
const MARK_T = 2u * T + 2u;   // marks of the ticket counter's results
const WOUT = 96u;             // out words per workgroup

@group(0) @binding(0) var<storage, read_write> c: Counters;
@group(0) @binding(1) var<storage, read_write> marks: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read> vals: array<u32>;

var<workgroup> w_u: array<atomic<u32>, 8>;
var<workgroup> w_i: array<atomic<i32>, 8>;
var<workgroup> wmarks: array<atomic<u32>, 65>;
var<workgroup> wmarks_i: array<atomic<u32>, 65>;
var<workgroup> ws: WS;

// atomics through pointer parameters
fn sadd(p: ptr<storage, atomic<u32>, read_write>, k: u32) -> u32 {
  return atomicAdd(p, k);
}

fn wor(p: ptr<workgroup, atomic<u32>>, m: u32) {
  atomicOr(p, m);
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u,
        @builtin(global_invocation_id) gid: vec3u) {
  let x = gid.x;
  let v = vals[x];
  let sv = bitcast<i32>(v);

  // storage, contended by every invocation of every workgroup
  atomicAdd(&c.add_u, v);
  atomicSub(&c.sub_u, v >> 4u);
  atomicMax(&c.max_u, v);
  atomicMin(&c.min_u, v);
  atomicAnd(&c.and_u, v | 0xf0f0f0f0u);
  atomicOr(&c.or_u, v & 0x0f0f00ffu);
  atomicXor(&c.xor_u, v);
  let old_u = atomicExchange(&c.xchg_u, x + 1u);
  atomicAdd(&marks[MARK_U + old_u], 1u);
  atomicAdd(&c.add_i, sv >> 6u);
  atomicSub(&c.sub_i, sv >> 6u);
  atomicMax(&c.max_i, sv);
  atomicMin(&c.min_i, sv);
  atomicAnd(&c.and_i, sv | 0x0ff00ff0);
  atomicOr(&c.or_i, sv & i32(0x80000300u));
  atomicXor(&c.xor_i, sv);
  let old_i = atomicExchange(&c.xchg_i, i32(x) + 1);
  atomicAdd(&marks[MARK_I + u32(old_i)], 1u);
  let t = atomicAdd(&c.ticket, 1u);
  atomicAdd(&marks[MARK_T + t], 1u);

  // workgroup, started by one invocation
  if lid == 0u {
    atomicStore(&w_u[1], 1000000u);
    atomicStore(&w_u[3], 0xffffffffu);
    atomicStore(&w_u[4], 0xffffffffu);
    atomicStore(&w_i[1], 5);
    atomicStore(&w_i[2], i32(-2147483647 - 1));
    atomicStore(&w_i[3], 2147483647);
    atomicStore(&w_i[4], -1);
  }
  workgroupBarrier();
  atomicAdd(&w_u[0], v & 0xffffu);
  atomicSub(&w_u[1], lid * 3u);
  atomicMax(&w_u[2], v);
  atomicMin(&w_u[3], v);
  atomicAnd(&w_u[4], v | 0xff00ff00u);
  atomicOr(&w_u[5], 1u << (lid % 32u));
  atomicXor(&w_u[6], v);
  let wold = atomicExchange(&w_u[7], lid + 1u);
  atomicAdd(&wmarks[wold], 1u);
  atomicAdd(&w_i[0], sv >> 8u);
  atomicSub(&w_i[1], i32(lid));
  atomicMax(&w_i[2], sv);
  atomicMin(&w_i[3], sv);
  atomicAnd(&w_i[4], sv | 0x7fff0000);
  atomicOr(&w_i[5], sv & 0x00f0000f);
  atomicXor(&w_i[6], sv);
  let wold_i = atomicExchange(&w_i[7], -i32(lid) - 1);
  atomicAdd(&wmarks_i[u32(-wold_i)], 1u);
  // exactly one invocation per workgroup sees the counter at 0
  if atomicAdd(&ws.hits, 1u) == 0u {
    sadd(&c.winners, 1u);
    ws.plain = 77u + wid.x;
  }
  atomicMax(&ws.top, i32(lid) - 40);
  wor(&ws.bits[lid % 4u], 1u << (lid / 4u));
  workgroupBarrier();
  let o = wid.x * WOUT;
  if lid < 7u {
    out[o + lid] = atomicLoad(&w_u[lid]);
    out[o + 8u + lid] = bitcast<u32>(atomicLoad(&w_i[lid]));
  }
  // every value but the last one written comes back once; the last one is
  // what remains in the atomic
  let last_u = atomicLoad(&w_u[7]);
  let last_i = u32(-atomicLoad(&w_i[7]));
  out[o + 16u + lid] = atomicLoad(&wmarks[lid]) + u32(last_u == lid) +
                       ((atomicLoad(&wmarks_i[lid]) + u32(last_i == lid)) << 8u);
  if lid == 0u {
    out[o + 80u] = atomicLoad(&wmarks[64]) + u32(last_u == 64u) +
                   ((atomicLoad(&wmarks_i[64]) + u32(last_i == 64u)) << 8u);
    out[o + 85u] = atomicLoad(&ws.hits);
    out[o + 86u] = bitcast<u32>(atomicLoad(&ws.top));
    out[o + 87u] = ws.plain;
  }
  if lid < 4u {
    out[o + 81u + lid] = atomicLoad(&ws.bits[lid]);
  }
}

@compute @workgroup_size(1)
fn finish() {
  let fu = atomicLoad(&c.xchg_u);
  atomicAdd(&marks[MARK_U + fu], 1u);
  atomicStore(&c.xchg_u, 0xaaaa5555u);
  let fi = atomicLoad(&c.xchg_i);
  atomicAdd(&marks[MARK_I + u32(fi)], 1u);
  atomicStore(&c.xchg_i, -77);
  let o = GROUPS * WOUT;
  out[o + 0u] = atomicLoad(&c.add_u);
  out[o + 1u] = atomicLoad(&c.sub_u);
  out[o + 2u] = atomicLoad(&c.max_u);
  out[o + 3u] = atomicLoad(&c.min_u);
  out[o + 4u] = atomicLoad(&c.and_u);
  out[o + 5u] = atomicLoad(&c.or_u);
  out[o + 6u] = atomicLoad(&c.xor_u);
  out[o + 7u] = atomicLoad(&c.xchg_u);
  out[o + 8u] = bitcast<u32>(atomicLoad(&c.add_i));
  out[o + 9u] = bitcast<u32>(atomicLoad(&c.sub_i));
  out[o + 10u] = bitcast<u32>(atomicLoad(&c.max_i));
  out[o + 11u] = bitcast<u32>(atomicLoad(&c.min_i));
  out[o + 12u] = bitcast<u32>(atomicLoad(&c.and_i));
  out[o + 13u] = bitcast<u32>(atomicLoad(&c.or_i));
  out[o + 14u] = bitcast<u32>(atomicLoad(&c.xor_i));
  out[o + 15u] = bitcast<u32>(atomicLoad(&c.xchg_i));
  out[o + 16u] = atomicLoad(&c.ticket);
  out[o + 17u] = atomicLoad(&c.winners);
}
