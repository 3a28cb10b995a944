/*
 * test_subgroup.c — subgroup and quad built-in functions and the subgroup
 * built-in values, compiler and VM together, checked against a plain C
 * model of WGSL's definitions written here (a loop over the lanes of each
 * subgroup; nothing of lockstep's own code). Every kernel runs at W = 8,
 * 16, 32 and 64, on 1 and 2 threads, with the plain and the observed
 * interpreter, with full subgroups, a partial last subgroup and divergent
 * masks (inside an if, after an early return).
 *
 * The model follows lockstep's documented choices where the spec leaves
 * the value open (docs/spec-notes.md): subgroups are filled in
 * local_invocation_index order; a lane that reads from a lane that is not
 * active (or not in the subgroup) gets 0; float reductions and scans
 * combine in lane order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "unit_util.h"

#include "ir/lower.h"
#include "vm/vm.h"
#include "wgsl/wgsl.h"

static const unsigned widths[] = {8, 16, 32, 64};

/* ------------------------------------------------------------ the model */

/* What K outputs each invocation writes, in the kernel's order. */
enum {
  O_ADD_U, O_ADD_S, O_ADD_F, O_MUL_U, O_MUL_F, O_MIN_U, O_MIN_S, O_MIN_F, O_MAX_U, O_MAX_S,
  O_MAX_F, O_AND_U, O_OR_U, O_XOR_S, O_XADD_U, O_IADD_F, O_XMUL_S, O_IMUL_U, O_XADD_F,
  O_XMUL_F, O_IMUL_F, O_ALL, O_ANY, O_BALLOT /* 4 words */, O_ELECT = O_BALLOT + 4, O_BC_U,
  O_BCF_F, O_SHUF_U, O_SHUF_S, O_SHX_U, O_SHUP_F, O_SHDN_U, O_QBC_U, O_QX_U, O_QY_S, O_QD_F,
  O_VADD /* 3 */, O_VMAX = O_VADD + 3 /* 2 */, O_VBC = O_VMAX + 2 /* 4 */, O_VQX = O_VBC + 4 /* 2 */,
  O_SID = O_VQX + 2, O_SSIZE, O_SGID, O_NSG, O_SHX_OUT, K
};

/* One kernel: `ops` runs on the lanes the entry point lets through: all
 * (MODE 0), those with local index % 3 == 0 inside an if (MODE 1), or all
 * but the ones with index % 5 == 1, which return first (MODE 2). */
static const char *sg_src =
    "enable subgroups;\n"
    "diagnostic(off, subgroup_uniformity);\n"
    "override WG: u32 = 64;\n"
    "override MODE: u32 = 0;\n"
    "@group(0) @binding(0) var<storage, read> inp: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> out: array<u32>;\n"
    "const K = 55u;\n"
    "fn ops(g: u32, sid: u32, ss: u32, sg: u32, ns: u32) {\n"
    "  let u = inp[g * 3u];\n"
    "  let s = bitcast<i32>(inp[g * 3u + 1u]);\n"
    "  let f = bitcast<f32>(inp[g * 3u + 2u]);\n"
    "  let o = g * K;\n"
    "  out[o + 0u] = subgroupAdd(u);\n"
    "  out[o + 1u] = bitcast<u32>(subgroupAdd(s));\n"
    "  out[o + 2u] = bitcast<u32>(subgroupAdd(f));\n"
    "  out[o + 3u] = subgroupMul(u);\n"
    "  out[o + 4u] = bitcast<u32>(subgroupMul(f));\n"
    "  out[o + 5u] = subgroupMin(u);\n"
    "  out[o + 6u] = bitcast<u32>(subgroupMin(s));\n"
    "  out[o + 7u] = bitcast<u32>(subgroupMin(f));\n"
    "  out[o + 8u] = subgroupMax(u);\n"
    "  out[o + 9u] = bitcast<u32>(subgroupMax(s));\n"
    "  out[o + 10u] = bitcast<u32>(subgroupMax(f));\n"
    "  out[o + 11u] = subgroupAnd(u);\n"
    "  out[o + 12u] = subgroupOr(u);\n"
    "  out[o + 13u] = bitcast<u32>(subgroupXor(s));\n"
    "  out[o + 14u] = subgroupExclusiveAdd(u);\n"
    "  out[o + 15u] = bitcast<u32>(subgroupInclusiveAdd(f));\n"
    "  out[o + 16u] = bitcast<u32>(subgroupExclusiveMul(s));\n"
    "  out[o + 17u] = subgroupInclusiveMul(u);\n"
    "  out[o + 18u] = bitcast<u32>(subgroupExclusiveAdd(f));\n"
    "  out[o + 19u] = bitcast<u32>(subgroupExclusiveMul(f));\n"
    "  out[o + 20u] = bitcast<u32>(subgroupInclusiveMul(f));\n"
    "  out[o + 21u] = select(0u, 1u, subgroupAll(u % 7u != 0u));\n"
    "  out[o + 22u] = select(0u, 1u, subgroupAny(u % 11u == 0u));\n"
    "  let b = subgroupBallot((u & 1u) == 1u);\n"
    "  out[o + 23u] = b.x; out[o + 24u] = b.y; out[o + 25u] = b.z; out[o + 26u] = b.w;\n"
    "  out[o + 27u] = select(0u, 1u, subgroupElect());\n"
    "  out[o + 28u] = subgroupBroadcast(u, 5u);\n"
    "  out[o + 29u] = bitcast<u32>(subgroupBroadcastFirst(f));\n"
    "  out[o + 30u] = subgroupShuffle(u, (sid * 7u + 3u) % 64u);\n"
    "  out[o + 31u] = bitcast<u32>(subgroupShuffle(s, i32(sid) - 2));\n"
    "  out[o + 32u] = subgroupShuffleXor(u, 5u);\n"
    "  out[o + 33u] = bitcast<u32>(subgroupShuffleUp(f, 3u));\n"
    "  out[o + 34u] = subgroupShuffleDown(u, 2u);\n"
    "  out[o + 35u] = quadBroadcast(u, 2u);\n"
    "  out[o + 36u] = quadSwapX(u);\n"
    "  out[o + 37u] = bitcast<u32>(quadSwapY(s));\n"
    "  out[o + 38u] = bitcast<u32>(quadSwapDiagonal(f));\n"
    "  let va = subgroupAdd(vec3u(u, u * 2u, u ^ 9u));\n"
    "  out[o + 39u] = va.x; out[o + 40u] = va.y; out[o + 41u] = va.z;\n"
    "  let vm = subgroupMax(vec2f(f, -f));\n"
    "  out[o + 42u] = bitcast<u32>(vm.x); out[o + 43u] = bitcast<u32>(vm.y);\n"
    "  let vb = bitcast<vec4u>(subgroupBroadcast(vec4i(s, s + 1, s * 2, -s), 1));\n"
    "  out[o + 44u] = vb.x; out[o + 45u] = vb.y; out[o + 46u] = vb.z; out[o + 47u] = vb.w;\n"
    "  let vq = quadSwapX(vec2u(u, sid));\n"
    "  out[o + 48u] = vq.x; out[o + 49u] = vq.y;\n"
    "  out[o + 50u] = sid; out[o + 51u] = ss; out[o + 52u] = sg; out[o + 53u] = ns;\n"
    "  out[o + 54u] = subgroupShuffleXor(u, 64u);\n"
    "}\n"
    "@compute @workgroup_size(WG)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) i: u32,\n"
    "        @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) ss: u32,\n"
    "        @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) ns: u32) {\n"
    "  if (MODE == 2u && i % 5u == 1u) { return; }\n"
    "  if (MODE == 1u) {\n"
    "    if (i % 3u == 0u) { ops(gid.x, sid, ss, sg, ns); }\n"
    "  } else {\n"
    "    ops(gid.x, sid, ss, sg, ns);\n"
    "  }\n"
    "}\n";

static int lane_active(unsigned mode, uint32_t li, uint32_t wg) {
  if (li >= wg) return 0; /* the empty tail of a partial subgroup */
  if (mode == 1) return li % 3 == 0;
  if (mode == 2) return li % 5 != 1;
  return 1;
}

/* x from lane src of the subgroup, or 0 when src is not an active lane. */
static uint32_t from_lane(const uint32_t *x, const int *act, int64_t src, unsigned w) {
  return src >= 0 && src < (int64_t)w && act[src] ? x[src] : 0;
}

/* The expected output of one workgroup (wg invocations, starting at global
 * invocation base) at width w. */
static void model_group(uint32_t *out, const uint32_t *inp, uint32_t base, uint32_t wg,
                        unsigned mode, unsigned w) {
  const uint32_t nsub = (wg + w - 1) / w;
  for (uint32_t s = 0; s < nsub; s++) {
    uint32_t u[64], sv[64], f[64];
    int act[64];
    for (unsigned l = 0; l < w; l++) {
      const uint32_t li = s * w + l, g = base + li;
      act[l] = lane_active(mode, li, wg);
      u[l] = act[l] ? inp[g * 3] : 0;
      sv[l] = act[l] ? inp[g * 3 + 1] : 0;
      f[l] = act[l] ? inp[g * 3 + 2] : 0;
    }
    /* reductions: in lane order from the lowest active lane */
    uint32_t r[O_SHX_OUT] = {0};
    int first = -1;
    uint32_t ballot = 0, ballot_hi = 0;
    int all = 1, any = 0;
    for (unsigned l = 0; l < w; l++) {
      if (!act[l]) continue;
      const int32_t si = (int32_t)sv[l];
      const float fl = vm_bits_f(f[l]);
      if (first < 0) {
        first = (int)l;
        r[O_ADD_U] = r[O_MUL_U] = r[O_MIN_U] = r[O_MAX_U] = r[O_AND_U] = r[O_OR_U] = u[l];
        r[O_ADD_S] = r[O_MIN_S] = r[O_MAX_S] = r[O_XOR_S] = sv[l];
        r[O_ADD_F] = r[O_MUL_F] = r[O_MIN_F] = r[O_MAX_F] = f[l];
        r[O_VADD] = u[l];
        r[O_VADD + 1] = u[l] * 2;
        r[O_VADD + 2] = u[l] ^ 9;
        r[O_VMAX] = f[l];
        r[O_VMAX + 1] = vm_f2u_bits(-fl);
      } else {
        r[O_ADD_U] += u[l];
        r[O_MUL_U] *= u[l];
        if (u[l] < r[O_MIN_U]) r[O_MIN_U] = u[l];
        if (u[l] > r[O_MAX_U]) r[O_MAX_U] = u[l];
        r[O_AND_U] &= u[l];
        r[O_OR_U] |= u[l];
        r[O_ADD_S] += sv[l];
        if (si < (int32_t)r[O_MIN_S]) r[O_MIN_S] = sv[l];
        if (si > (int32_t)r[O_MAX_S]) r[O_MAX_S] = sv[l];
        r[O_XOR_S] ^= sv[l];
        r[O_ADD_F] = vm_f2u_bits(vm_bits_f(r[O_ADD_F]) + fl);
        r[O_MUL_F] = vm_f2u_bits(vm_bits_f(r[O_MUL_F]) * fl);
        if (fl < vm_bits_f(r[O_MIN_F])) r[O_MIN_F] = f[l];
        if (fl > vm_bits_f(r[O_MAX_F])) r[O_MAX_F] = f[l];
        r[O_VADD] += u[l];
        r[O_VADD + 1] += u[l] * 2;
        r[O_VADD + 2] += u[l] ^ 9;
        if (fl > vm_bits_f(r[O_VMAX])) r[O_VMAX] = f[l];
        if (-fl > vm_bits_f(r[O_VMAX + 1])) r[O_VMAX + 1] = vm_f2u_bits(-fl);
      }
      if (u[l] % 7 == 0) all = 0;
      if (u[l] % 11 == 0) any = 1;
      if (u[l] & 1) {
        if (l < 32) ballot |= 1u << l;
        else ballot_hi |= 1u << (l - 32);
      }
    }
    /* scans */
    uint32_t xadd_u = 0, imul_u = 1, xmul_s = 1, iadd_f = 0, xadd_f = 0, xmul_f = vm_f2u_bits(1.0f),
             imul_f = vm_f2u_bits(1.0f);
    int started = 0;
    for (unsigned l = 0; l < w; l++) {
      if (!act[l]) continue;
      const uint32_t li = s * w + l, g = base + li;
      uint32_t *o = out + (size_t)g * K;
      memcpy(o, r, sizeof r);
      /* exclusive: what came before; inclusive: that combined with this lane */
      o[O_XADD_U] = xadd_u;
      o[O_XMUL_S] = xmul_s;
      o[O_XADD_F] = xadd_f;
      o[O_XMUL_F] = xmul_f;
      imul_u = started ? imul_u * u[l] : u[l];
      iadd_f = started ? vm_f2u_bits(vm_bits_f(iadd_f) + vm_bits_f(f[l])) : f[l];
      imul_f = started ? vm_f2u_bits(vm_bits_f(imul_f) * vm_bits_f(f[l])) : f[l];
      o[O_IMUL_U] = imul_u;
      o[O_IADD_F] = iadd_f;
      o[O_IMUL_F] = imul_f;
      xadd_u = started ? xadd_u + u[l] : u[l];
      xmul_s = started ? xmul_s * sv[l] : sv[l];
      xadd_f = started ? vm_f2u_bits(vm_bits_f(xadd_f) + vm_bits_f(f[l])) : f[l];
      xmul_f = started ? vm_f2u_bits(vm_bits_f(xmul_f) * vm_bits_f(f[l])) : f[l];
      started = 1;

      o[O_ALL] = (uint32_t)all;
      o[O_ANY] = (uint32_t)any;
      o[O_BALLOT] = ballot;
      o[O_BALLOT + 1] = ballot_hi;
      o[O_BALLOT + 2] = o[O_BALLOT + 3] = 0;
      o[O_ELECT] = (int)l == first;
      o[O_BC_U] = from_lane(u, act, 5, w);
      o[O_BCF_F] = f[first];
      o[O_SHUF_U] = from_lane(u, act, (l * 7 + 3) % 64, w);
      o[O_SHUF_S] = from_lane(sv, act, (int64_t)l - 2, w);
      o[O_SHX_U] = from_lane(u, act, l ^ 5u, w);
      o[O_SHUP_F] = from_lane(f, act, (int64_t)l - 3, w);
      o[O_SHDN_U] = from_lane(u, act, (int64_t)l + 2, w);
      /* quad q = lanes 4q..4q+3; quad invocation id = lane & 3 */
      o[O_QBC_U] = from_lane(u, act, (l & ~3u) | 2u, w);
      o[O_QX_U] = from_lane(u, act, l ^ 1u, w);
      o[O_QY_S] = from_lane(sv, act, l ^ 2u, w);
      o[O_QD_F] = from_lane(f, act, l ^ 3u, w);
      const int b1 = act[1];
      const int32_t s1 = (int32_t)sv[1];
      o[O_VBC] = b1 ? (uint32_t)s1 : 0;
      o[O_VBC + 1] = b1 ? (uint32_t)s1 + 1u : 0;
      o[O_VBC + 2] = b1 ? (uint32_t)s1 * 2u : 0;
      o[O_VBC + 3] = b1 ? 0u - (uint32_t)s1 : 0;
      o[O_VQX] = from_lane(u, act, l ^ 1u, w);
      o[O_VQX + 1] = (l ^ 1u) < w && act[l ^ 1u] ? (l ^ 1u) : 0;
      o[O_SID] = l;
      o[O_SSIZE] = w;
      o[O_SGID] = s;
      o[O_NSG] = nsub;
      o[O_SHX_OUT] = from_lane(u, act, l ^ 64u, w);
    }
  }
}

/* The LCG of the case files, for inputs that are not too regular. */
static uint32_t lcg(uint32_t *st) {
  *st = *st * 1664525u + 1013904223u;
  return *st;
}

/* A trivial observer: only counts issued instructions, so the observed
 * interpreter runs. */
static void t_mem(void *u, unsigned th, const vm_mem_event *e) {
  (void)th, (void)e;
  ++*(uint64_t *)u;
}

static void run_case(uint32_t wg, unsigned mode, uint32_t groups) {
  ls_constant_entry cs[2] = {{"WG", wg}, {"MODE", mode}};
  wgsl_module *m;
  ir_program *p = tu_build(sg_src, cs, 2, &m);
  const uint32_t n = wg * groups;
  uint32_t *inp = malloc((size_t)n * 3 * 4);
  uint32_t st = 12345u + wg * 7u + mode;
  for (uint32_t g = 0; g < n; g++) {
    const uint32_t r = lcg(&st);
    /* u: small, with zeros and multiples of 7 and 11 now and then; odd and
     * even mixed. s: either sign. f: in [0.75, 1.25) with every mantissa bit
     * used, so sums and products round and depend on the order. */
    inp[g * 3] = (r >> 8) % 1000u;
    inp[g * 3 + 1] = (uint32_t)((int32_t)((lcg(&st) >> 8) % 2001u) - 1000);
    inp[g * 3 + 2] = vm_f2u_bits(0.75f + (float)(lcg(&st) >> 8) / 33554432.0f);
  }
  uint32_t *out = malloc((size_t)n * K * 4), *want = malloc((size_t)n * K * 4);
  for (unsigned t = 1; t <= 2; t++) {
    vm_pool *pool = vm_pool_create(t);
    assert_non_null(pool);
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
      const unsigned w = widths[wi];
      for (size_t i = 0; i < (size_t)n * K; i++) want[i] = 0xdeadbeefu;
      for (uint32_t gr = 0; gr < groups; gr++) model_group(want, inp, gr * wg, wg, mode, w);
      for (int observed = 0; observed < 2; observed++) {
        for (size_t i = 0; i < (size_t)n * K; i++) out[i] = 0xdeadbeefu;
        vm_binding b[2] = {{(uint8_t *)inp, (uint64_t)n * 12}, {(uint8_t *)out, (uint64_t)n * K * 4}};
        uint64_t events = 0;
        vm_observer ob;
        memset(&ob, 0, sizeof ob);
        ob.user = &events;
        ob.mem = t_mem;
        vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {groups, 1, 1},
                                 .width = w, .budget = 0, .observer = observed ? &ob : NULL};
        vm_result res;
        assert_int_equal(vm_dispatch(pool, &desc, &res), VM_OK);
        if (observed) assert_true(events > 0);
        for (size_t i = 0; i < (size_t)n * K; i++) {
          if (out[i] != want[i]) {
            fprintf(stderr,
                    "WG=%u MODE=%u W=%u threads=%u observed=%d: invocation %zu output %zu: "
                    "got 0x%08x want 0x%08x\n",
                    wg, mode, w, t, observed, i / K, i % K, out[i], want[i]);
            fail();
          }
        }
      }
    }
    vm_pool_destroy(pool);
  }
  free(inp);
  free(out);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* 64 invocations: whole subgroups at every width */
static void test_full(void **state) {
  (void)state;
  run_case(64, 0, 3);
}

/* 100 and 20 invocations: the last subgroup is partial at most widths */
static void test_partial(void **state) {
  (void)state;
  run_case(100, 0, 2);
  run_case(20, 0, 3);
}

/* inside `if (i % 3 == 0)` */
static void test_divergent_if(void **state) {
  (void)state;
  run_case(64, 1, 2);
  run_case(100, 1, 2);
}

/* after an early return of the lanes with i % 5 == 1 */
static void test_after_return(void **state) {
  (void)state;
  run_case(64, 2, 2);
  run_case(20, 2, 2);
}

/* ---------------------------------------------------- f16 operands */

/* The f16 value nearest to x, as a float: ties to even, f16 subnormals
 * kept, overflow to infinity (the inputs have no NaN). Written from the
 * format's definition: f16's spacing at x is 2^(e - 11) for x in
 * [2^(e-1), 2^e) with e >= -13, and 2^-24 below, so x / spacing is exact in
 * double and rint rounds it to nearest even. */
static float r16(float x) {
  if (x != x || x - x != 0) return x; /* infinities */
  int e;
  frexp((double)x, &e);
  if (e < -13) e = -13;
  const double q = ldexp(1.0, e - 11);
  const double r = rint((double)x / q) * q;
  if (fabs(r) > 65504.0) return x < 0 ? -INFINITY : INFINITY;
  return (float)r;
}

static uint32_t addh(uint32_t a, uint32_t b) { return vm_f2u_bits(r16(vm_bits_f(a) + vm_bits_f(b))); }
static uint32_t mulh(uint32_t a, uint32_t b) { return vm_f2u_bits(r16(vm_bits_f(a) * vm_bits_f(b))); }
static uint32_t minh(uint32_t a, uint32_t b) { return vm_bits_f(b) < vm_bits_f(a) ? b : a; }
static uint32_t maxh(uint32_t a, uint32_t b) { return vm_bits_f(b) > vm_bits_f(a) ? b : a; }

/* r16 on values worked out from the format, and against the compiler's
 * own f16 type where it has one (an f32 converted to _Float16 is rounded
 * once, to nearest even). */
static void test_f16_model(void **state) {
  (void)state;
  /* fixed points of the format: ties to even at 1 (spacing 2^-10) and at
   * 2048 (spacing 2), the top of the range (65504; 65520 is the tie that
   * rounds past it), the subnormal spacing 2^-24 */
  static const float pairs[][2] = {
      {0x1.002p0f, 1.0f},         {0x1.006p0f, 0x1.008p0f}, {0x1.0021p0f, 0x1.004p0f},
      {2049.0f, 2048.0f},         {2051.0f, 2052.0f},       {65519.0f, 65504.0f},
      {65520.0f, INFINITY},       {-65520.0f, -INFINITY},   {0x1p-25f, 0.0f},
      {0x1.8p-25f, 0x1p-24f},     {0x1.8p-24f, 0x1p-23f},   {-0x1.ffcp-15f, -0x1p-14f},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    if (vm_f2u_bits(r16(pairs[i][0])) != vm_f2u_bits(pairs[i][1]))
      fprintf(stderr, "r16(%a) = %a, want %a\n", pairs[i][0], r16(pairs[i][0]), pairs[i][1]);
    assert_int_equal(vm_f2u_bits(r16(pairs[i][0])), vm_f2u_bits(pairs[i][1]));
  }
#ifdef __FLT16_MAX__
  uint32_t st = 99u;
  for (int i = 0; i < 200000; i++) {
    st = st * 1664525u + 1013904223u;
    /* exponents from f16's subnormals to past its overflow */
    const uint32_t b = (st & 0x807fffffu) | ((uint32_t)(100 + (st >> 8) % 45) << 23);
    const float x = vm_bits_f(b);
    const float want = (float)(_Float16)x;
    if (vm_f2u_bits(r16(x)) != vm_f2u_bits(want)) fprintf(stderr, "r16(%a) = %a, _Float16 gives %a\n", x, r16(x), want);
    assert_int_equal(vm_f2u_bits(r16(x)), vm_f2u_bits(want));
  }
#endif
}

/* Outputs of the f16 kernel, each an f16 result widened to f32 bits. */
enum {
  H_ADD, H_MUL, H_MIN, H_MAX, H_IADD, H_XADD, H_IMUL, H_XMUL, H_BC, H_BCF, H_SHUF, H_SHX,
  H_SHUP, H_SHDN, H_QBC, H_QX, H_QY, H_QD, H_V2ADD /* 2 */, H_V3XMUL = H_V2ADD + 2 /* 3 */,
  H_V4MAX = H_V3XMUL + 3 /* 4 */, H_V4MIN = H_V4MAX + 4 /* 4 */, H_V2IADD = H_V4MIN + 4 /* 2 */,
  H_V3SHX = H_V2IADD + 2 /* 3 */, H_V2QX = H_V3SHX + 3 /* 2 */, HK = H_V2QX + 2
};

/* The same three modes as sg_src. Input lane g holds h (an f16 value in
 * f32 bits): every operand is an exact f16, so the conversion to f16
 * is exact and the result's widening to f32 too. */
static const char *sgh_src =
    "enable f16;\n"
    "enable subgroups;\n"
    "diagnostic(off, subgroup_uniformity);\n"
    "override WG: u32 = 64;\n"
    "override MODE: u32 = 0;\n"
    "@group(0) @binding(0) var<storage, read> inp: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> out: array<u32>;\n"
    "const K = 38u;\n"
    "fn put(o: u32, x: f16) { out[o] = bitcast<u32>(f32(x)); }\n"
    "fn ops(g: u32) {\n"
    "  let h = f16(bitcast<f32>(inp[g]));\n"
    "  let o = g * K;\n"
    "  put(o + 0u, subgroupAdd(h));\n"
    "  put(o + 1u, subgroupMul(h));\n"
    "  put(o + 2u, subgroupMin(h));\n"
    "  put(o + 3u, subgroupMax(h));\n"
    "  put(o + 4u, subgroupInclusiveAdd(h));\n"
    "  put(o + 5u, subgroupExclusiveAdd(h));\n"
    "  put(o + 6u, subgroupInclusiveMul(h));\n"
    "  put(o + 7u, subgroupExclusiveMul(h));\n"
    "  put(o + 8u, subgroupBroadcast(h, 5u));\n"
    "  put(o + 9u, subgroupBroadcastFirst(h));\n"
    "  put(o + 10u, subgroupShuffle(h, (g * 7u + 3u) % 64u));\n"
    "  put(o + 11u, subgroupShuffleXor(h, 5u));\n"
    "  put(o + 12u, subgroupShuffleUp(h, 3u));\n"
    "  put(o + 13u, subgroupShuffleDown(h, 2u));\n"
    "  put(o + 14u, quadBroadcast(h, 2u));\n"
    "  put(o + 15u, quadSwapX(h));\n"
    "  put(o + 16u, quadSwapY(h));\n"
    "  put(o + 17u, quadSwapDiagonal(h));\n"
    "  let v2 = subgroupAdd(vec2h(h, -h * 3h));\n"
    "  put(o + 18u, v2.x); put(o + 19u, v2.y);\n"
    "  let v3 = subgroupExclusiveMul(vec3h(h, h * 0.5h, -h));\n"
    "  put(o + 20u, v3.x); put(o + 21u, v3.y); put(o + 22u, v3.z);\n"
    "  let v4 = subgroupMax(vec4h(h, -h, h - 1h, 1h - h));\n"
    "  put(o + 23u, v4.x); put(o + 24u, v4.y); put(o + 25u, v4.z); put(o + 26u, v4.w);\n"
    "  let n4 = subgroupMin(vec4h(h, -h, h - 1h, 1h - h));\n"
    "  put(o + 27u, n4.x); put(o + 28u, n4.y); put(o + 29u, n4.z); put(o + 30u, n4.w);\n"
    "  let i2 = subgroupInclusiveAdd(vec2h(h * 8h, h + 0.125h));\n"
    "  put(o + 31u, i2.x); put(o + 32u, i2.y);\n"
    "  let s3 = subgroupShuffleXor(vec3h(h, -h, h * 2h), 3u);\n"
    "  put(o + 33u, s3.x); put(o + 34u, s3.y); put(o + 35u, s3.z);\n"
    "  let q2 = quadSwapX(vec2h(h, h + 2h));\n"
    "  put(o + 36u, q2.x); put(o + 37u, q2.y);\n"
    "}\n"
    "@compute @workgroup_size(WG)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) i: u32) {\n"
    "  if (MODE == 2u && i % 5u == 1u) { return; }\n"
    "  if (MODE == 1u) {\n"
    "    if (i % 3u == 0u) { ops(gid.x); }\n"
    "  } else {\n"
    "    ops(gid.x);\n"
    "  }\n"
    "}\n";

/* Lane-order reduction and scans of one component over the active lanes. */
static uint32_t h_reduce(const uint32_t *x, const int *act, unsigned w,
                         uint32_t (*op)(uint32_t, uint32_t)) {
  uint32_t acc = 0;
  int started = 0;
  for (unsigned l = 0; l < w; l++) {
    if (!act[l]) continue;
    acc = started ? op(acc, x[l]) : x[l];
    started = 1;
  }
  return acc;
}

/* d[l] for every active lane l: inclusive or exclusive scan. */
static void h_scan(uint32_t *d, const uint32_t *x, const int *act, unsigned w,
                   uint32_t (*op)(uint32_t, uint32_t), uint32_t identity, int exclusive) {
  uint32_t acc = identity;
  int started = 0;
  for (unsigned l = 0; l < w; l++) {
    if (!act[l]) continue;
    const uint32_t next = started ? op(acc, x[l]) : x[l];
    d[l] = exclusive ? acc : next;
    acc = next;
    started = 1;
  }
}

static void model_group_h(uint32_t *out, const uint32_t *inp, uint32_t base, uint32_t wg,
                          unsigned mode, unsigned w) {
  const uint32_t nsub = (wg + w - 1) / w, one = vm_f2u_bits(1.0f);
  for (uint32_t s = 0; s < nsub; s++) {
    /* c[k][l]: component k of lane l's operands, each rounded to f16 as
     * the kernel's f16 arithmetic rounds it */
    enum { NC = 17 };
    uint32_t c[NC][64];
    int act[64];
    for (unsigned l = 0; l < w; l++) {
      const uint32_t li = s * w + l;
      act[l] = lane_active(mode, li, wg);
      const float h = act[l] ? vm_bits_f(inp[base + li]) : 0.0f;
      const float v[NC] = {h, r16(-h * 3), h, r16(h * 0.5f), -h, h, -h, r16(h - 1), r16(1 - h),
                           r16(h * 8), r16(h + 0.125f), h, -h, r16(h * 2), h, r16(h + 2), 0};
      for (int k = 0; k < NC; k++) c[k][l] = vm_f2u_bits(v[k]);
    }
    uint32_t sc[10][64];
    h_scan(sc[0], c[0], act, w, addh, 0, 0);
    h_scan(sc[1], c[0], act, w, addh, 0, 1);
    h_scan(sc[2], c[0], act, w, mulh, one, 0);
    h_scan(sc[3], c[0], act, w, mulh, one, 1);
    for (int k = 0; k < 3; k++) h_scan(sc[4 + k], c[2 + k], act, w, mulh, one, 1);
    h_scan(sc[7], c[9], act, w, addh, 0, 0);
    h_scan(sc[8], c[10], act, w, addh, 0, 0);
    int first = -1;
    for (unsigned l = 0; l < w && first < 0; l++)
      if (act[l]) first = (int)l;
    for (unsigned l = 0; l < w; l++) {
      if (!act[l]) continue;
      uint32_t *o = out + (size_t)(base + s * w + l) * HK;
      const uint32_t *x = c[0];
      o[H_ADD] = h_reduce(x, act, w, addh);
      o[H_MUL] = h_reduce(x, act, w, mulh);
      o[H_MIN] = h_reduce(x, act, w, minh);
      o[H_MAX] = h_reduce(x, act, w, maxh);
      o[H_IADD] = sc[0][l];
      o[H_XADD] = sc[1][l];
      o[H_IMUL] = sc[2][l];
      o[H_XMUL] = sc[3][l];
      o[H_BC] = from_lane(x, act, 5, w);
      o[H_BCF] = x[first];
      o[H_SHUF] = from_lane(x, act, ((base + s * w + l) * 7 + 3) % 64, w); /* g's */
      o[H_SHX] = from_lane(x, act, l ^ 5u, w);
      o[H_SHUP] = from_lane(x, act, (int64_t)l - 3, w);
      o[H_SHDN] = from_lane(x, act, (int64_t)l + 2, w);
      o[H_QBC] = from_lane(x, act, (l & ~3u) | 2u, w);
      o[H_QX] = from_lane(x, act, l ^ 1u, w);
      o[H_QY] = from_lane(x, act, l ^ 2u, w);
      o[H_QD] = from_lane(x, act, l ^ 3u, w);
      o[H_V2ADD] = h_reduce(c[0], act, w, addh);
      o[H_V2ADD + 1] = h_reduce(c[1], act, w, addh);
      for (int k = 0; k < 3; k++) o[H_V3XMUL + k] = sc[4 + k][l];
      for (int k = 0; k < 4; k++) {
        o[H_V4MAX + k] = h_reduce(c[5 + k], act, w, maxh);
        o[H_V4MIN + k] = h_reduce(c[5 + k], act, w, minh);
      }
      o[H_V2IADD] = sc[7][l];
      o[H_V2IADD + 1] = sc[8][l];
      for (int k = 0; k < 3; k++) o[H_V3SHX + k] = from_lane(c[11 + k], act, l ^ 3u, w);
      for (int k = 0; k < 2; k++) o[H_V2QX + k] = from_lane(c[14 + k], act, l ^ 1u, w);
    }
  }
}

static void run_case_h(uint32_t wg, unsigned mode, uint32_t groups) {
  ls_constant_entry cs[2] = {{"WG", wg}, {"MODE", mode}};
  wgsl_module *m;
  ir_program *p = tu_build(sgh_src, cs, 2, &m);
  const uint32_t n = wg * groups;
  uint32_t *inp = malloc((size_t)n * 4);
  uint32_t st = 777u + wg * 3u + mode;
  for (uint32_t g = 0; g < n; g++) {
    /* f16 values in [0.75, 1.25) with all 10 fraction bits used, either
     * sign now and then: running sums pass 16 and 32, where f16's spacing
     * is 2^-6 and 2^-5, so nearly every step rounds */
    const float h = r16(0.75f + (float)(lcg(&st) >> 8) / 33554432.0f);
    inp[g] = vm_f2u_bits((lcg(&st) >> 20) % 9u == 0 ? -h : h);
  }
  uint32_t *out = malloc((size_t)n * HK * 4), *want = malloc((size_t)n * HK * 4);
  vm_pool *pool = vm_pool_create(2);
  assert_non_null(pool);
  for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
    const unsigned w = widths[wi];
    for (size_t i = 0; i < (size_t)n * HK; i++) want[i] = 0xdeadbeefu;
    for (uint32_t gr = 0; gr < groups; gr++) model_group_h(want, inp, gr * wg, wg, mode, w);
    for (int observed = 0; observed < 2; observed++) {
      for (size_t i = 0; i < (size_t)n * HK; i++) out[i] = 0xdeadbeefu;
      vm_binding b[2] = {{(uint8_t *)inp, (uint64_t)n * 4}, {(uint8_t *)out, (uint64_t)n * HK * 4}};
      uint64_t events = 0;
      vm_observer ob;
      memset(&ob, 0, sizeof ob);
      ob.user = &events;
      ob.mem = t_mem;
      vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {groups, 1, 1},
                               .width = w, .budget = 0, .observer = observed ? &ob : NULL};
      assert_int_equal(vm_dispatch(pool, &desc, NULL), VM_OK);
      for (size_t i = 0; i < (size_t)n * HK; i++) {
        if (out[i] != want[i]) {
          fprintf(stderr, "f16 WG=%u MODE=%u W=%u observed=%d: invocation %zu output %zu: got %a want %a\n",
                  wg, mode, w, observed, i / HK, i % HK, vm_bits_f(out[i]), vm_bits_f(want[i]));
          fail();
        }
      }
    }
  }
  vm_pool_destroy(pool);
  free(inp);
  free(out);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* full, partial (100 and 20 invocations), divergent (if, early return) */
static void test_f16_operands(void **state) {
  (void)state;
  run_case_h(64, 0, 2);
  run_case_h(100, 0, 2);
  run_case_h(20, 0, 2);
  run_case_h(64, 1, 2);
  run_case_h(100, 1, 1);
  run_case_h(64, 2, 2);
  run_case_h(20, 2, 2);
}

/* ---------------------------------------------- loops, break, and masks */

/* A loop in which lanes leave one by one: each trip's reduction sees only
 * the lanes still in the loop. Lane l runs l % 5 + 1 trips. */
static const char *loop_src =
    "enable subgroups;\n"
    "diagnostic(off, subgroup_uniformity);\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  var acc = 0u;\n"
    "  var k = 0u;\n"
    "  loop {\n"
    "    if (k > i % 5u) { break; }\n"
    "    acc += subgroupAdd(1u) * (k + 1u) + select(0u, 1000u, subgroupElect());\n"
    "    k++;\n"
    "  }\n"
    "  out[i] = acc;\n"
    "}\n";

static void test_loop_masks(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(loop_src, NULL, 0, &m);
  uint32_t out[64], want[64];
  vm_pool *pool = vm_pool_create(1);
  for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
    const unsigned w = widths[wi];
    for (uint32_t li = 0; li < 64; li++) {
      const uint32_t s = li / w;
      uint32_t acc = 0;
      for (uint32_t k = 0; k <= li % 5; k++) {
        /* lanes of this subgroup still looping at trip k */
        uint32_t live = 0, lowest = UINT32_MAX;
        for (uint32_t l = 0; l < w; l++) {
          const uint32_t o = s * w + l;
          if (o % 5 >= k) {
            live++;
            if (lowest == UINT32_MAX) lowest = o;
          }
        }
        acc += live * (k + 1) + (lowest == li ? 1000u : 0u);
      }
      want[li] = acc;
    }
    memset(out, 0, sizeof out);
    vm_binding b[1] = {{(uint8_t *)out, sizeof out}};
    vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {1, 1, 1}, .width = w};
    assert_int_equal(vm_dispatch(pool, &desc, NULL), VM_OK);
    for (int i = 0; i < 64; i++) {
      if (out[i] != want[i]) fprintf(stderr, "W=%u lane %d: got %u want %u\n", w, i, out[i], want[i]);
      assert_int_equal(out[i], want[i]);
    }
  }
  vm_pool_destroy(pool);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* ----------------------------------------- pipeline-creation checks */

static int lowers(const char *src, const ls_constant_entry *cs, size_t ncs, const char *msg,
                  uint32_t *sg_size) {
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "t.wgsl");
  assert_non_null(m);
  assert_true(wgsl_module_ok(m));
  ls_limits lim;
  ls_limits_default(&lim);
  diag_list d;
  diag_init(&d);
  ir_program *p = lower_pipeline(m, NULL, cs, ncs, &lim, &d);
  int ok = p != NULL;
  if (!ok && msg) {
    char *t = diag_format(&d, src, strlen(src), "t.wgsl");
    if (!strstr(t, msg)) fprintf(stderr, "expected '%s' in:\n%s", msg, t);
    assert_non_null(strstr(t, msg));
    free(t);
  }
  if (p && sg_size) *sg_size = p->subgroup_size;
  ir_program_free(p);
  diag_free(&d);
  wgsl_module_free(m);
  return ok;
}

static void test_pipeline_checks(void **state) {
  (void)state;
  /* override-expression shuffle ids must be in [0, 128) at pipeline creation */
  const char *shuf =
      "enable subgroups;\n"
      "override D: u32 = 1u;\n"
      "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
      "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n"
      "  out[i] = subgroupShuffleDown(i, D);\n"
      "}\n";
  ls_constant_entry d127 = {"D", 127}, d128 = {"D", 128};
  assert_true(lowers(shuf, &d127, 1, NULL, NULL));
  assert_false(lowers(shuf, &d128, 1, "must be in [0, 128), found 128", NULL));

  /* @subgroup_size(N): power of two, dividing workgroup size x */
  const char *sz =
      "enable subgroup_size_control;\n"
      "override N: i32 = 32;\n"
      "override X: u32 = 64u;\n"
      "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
      "@compute @workgroup_size(X) @subgroup_size(N)\n"
      "fn main(@builtin(subgroup_invocation_id) i: u32) { out[i] = i; }\n";
  uint32_t got = 0;
  assert_true(lowers(sz, NULL, 0, NULL, &got));
  assert_int_equal(got, 32);
  ls_constant_entry n24 = {"N", 24}, x48[2] = {{"N", 32}, {"X", 48}};
  assert_false(lowers(sz, &n24, 1, "@subgroup_size must be a power of two, found 24", NULL));
  assert_false(lowers(sz, x48, 2, "workgroup size x = 48 is not a multiple of @subgroup_size(32)", NULL));

  /* f16 operands run (test_f16_operands); the sums use the f16 steps */
  const char *h =
      "enable f16;\n"
      "enable subgroups;\n"
      "@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n"
      "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n"
      "  out[i] = f32(subgroupAdd(f16(i))) + f32(subgroupExclusiveMul(vec2h(f16(i))).y);\n"
      "}\n";
  assert_true(lowers(h, NULL, 0, NULL, NULL));
}

/* The disassembler names the subgroup opcodes and their sub-operations. */
static void test_disassembly(void **state) {
  (void)state;
  ls_constant_entry cs[2] = {{"WG", 64}, {"MODE", 0}};
  wgsl_module *m;
  ir_program *p = tu_build(sg_src, cs, 2, &m);
  char *t = ir_disassemble(p);
  assert_non_null(t);
  static const char *const want[] = {"SRED", "ADD_I", "ADD_F", "MIN_S", "MAX_F", "XOR",
                                     "SCANX", "SCANI", "MUL_F", "SHUF", "IDX", "FIRST",
                                     "UP", "DOWN", "QUAD", "VOTE", "ALL", "ELECT", "BALLOT",
                                     "subgroup_invocation_id", "num_subgroups"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    if (!strstr(t, want[i])) fprintf(stderr, "no '%s' in the listing\n", want[i]);
    assert_non_null(strstr(t, want[i]));
  }
  free(t);
  ir_program_free(p);
  wgsl_module_free(m);
  /* f16 sums and products: their own sub-operations; min/max the float ones */
  p = tu_build(sgh_src, cs, 2, &m);
  t = ir_disassemble(p);
  assert_non_null(t);
  static const char *const want_h[] = {"ADD_H", "MUL_H", "MIN_F", "MAX_F"};
  for (size_t i = 0; i < sizeof want_h / sizeof want_h[0]; i++) {
    if (!strstr(t, want_h[i])) fprintf(stderr, "no '%s' in the f16 listing\n", want_h[i]);
    assert_non_null(strstr(t, want_h[i]));
  }
  assert_null(strstr(t, "ADD_F"));
  assert_null(strstr(t, "MUL_F"));
  free(t);
  ir_program_free(p);
  wgsl_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_full),          cmocka_unit_test(test_partial),
      cmocka_unit_test(test_divergent_if),  cmocka_unit_test(test_after_return),
      cmocka_unit_test(test_loop_masks),    cmocka_unit_test(test_pipeline_checks),
      cmocka_unit_test(test_disassembly),   cmocka_unit_test(test_f16_model),
      cmocka_unit_test(test_f16_operands),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
