/*
 * test_f16.c — f16 end to end: the VM's rounding op (portable and F16C
 * paths) and its half-word encodings against an independent C model (every
 * f16 encoding; ties, overflow, subnormals), const-evaluation's rounding,
 * memory layout offsets, half-word stores next to each other from
 * different lanes and workgroups, every encoding copied through memory and
 * bitcasts bit for bit, the memory paths with runtime indices, runtime
 * conversions and clamps, each arithmetic step rounded, transcendentals
 * rounded once from double, frexp/modf/refract, the observer's 2-byte
 * events, const-evaluation and override errors, and the "shader-f16"
 * device feature.
 *
 * The model: the finite f16 values, built from the format's definition
 * (sign, 5-bit exponent biased by 15, 10 fraction bits; subnormals m * 2^-24)
 * with ldexp in double, in increasing order; rounding x picks the nearer of
 * the two neighbours by binary search, a tie going to the even encoding, and
 * above 65504 gives 65504 below the midpoint 65520, infinity from it on
 * (IEEE-754: 65520 ties with 2^16, whose encoding is even).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit_util.h"

#include "ir/ir.h"
#include "ir/lower.h"
#include "lockstep.h"
#include "vm/vm.h"
#include "wgsl/eval.h"
#include "wgsl/sema.h"
#include "wgsl/wgsl.h"

/* ------------------------------------------------------------- the model */

/* The 31744 non-negative finite f16 values (encodings 0x0000..0x7bff) in
 * increasing order: the encoding order of positive IEEE values. */
static double pos[0x7c00];

static double model_value(uint32_t h) {
  const int e = (int)((h >> 10) & 31), m = (int)(h & 1023);
  const double s = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 31) return m ? NAN : s * INFINITY;
  if (e == 0) return s * ldexp((double)m, -24);
  return s * ldexp(1024.0 + m, e - 25);
}

static void model_init(void) {
  for (uint32_t h = 0; h < 0x7c00; h++) pos[h] = model_value(h);
}

/* The encoding of the f16 nearest x (finite or not; NaN not asked for). */
static uint32_t model_round(double x) {
  const uint32_t sign = signbit(x) ? 0x8000u : 0;
  const double a = fabs(x);
  if (a >= 65520.0) return sign | 0x7c00u;
  if (a >= 65504.0) return sign | 0x7bffu;
  uint32_t lo = 0, hi = 0x7bff; /* pos[lo] <= a < pos[hi] */
  if (a == pos[hi]) return sign | hi;
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (pos[mid] <= a) lo = mid;
    else hi = mid;
  }
  const double dl = a - pos[lo], dh = pos[hi] - a;
  if (dl < dh) return sign | lo;
  if (dh < dl) return sign | hi;
  return sign | ((lo & 1) ? hi : lo);
}

/* ------------------------------------------------------ rounding op (VM) */

/* Every encoding: decode gives the model's value, encode gives it back, and
 * rounding an f16 value leaves it alone (NaNs keep their payload). */
static void test_every_encoding(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 65536; h++) {
    const uint32_t f = vm_f16_decode(h);
    const double v = model_value(h);
    if (isnan(v)) {
      assert_true(isnan(vm_bits_f(f)));
    } else {
      assert_true((double)vm_bits_f(f) == v);
      assert_int_equal(f >> 31, h >> 15); /* -0 stays -0 */
    }
    assert_int_equal(vm_f16_encode(f), h);
    assert_int_equal(vm_f16_round_bits(f), f);
  }
}

/* f32 inputs around every f16 value: the value itself, the midpoints to its
 * neighbours and one f32 step either side of them, plus a stride through
 * all f32 bit patterns. */
static void check_round(uint32_t x) {
  const float f = vm_bits_f(x);
  if (isnan(f)) return;
  const uint32_t want = model_round((double)f);
  const uint32_t got = vm_f16_encode(x);
  if (got != want) {
    fprintf(stderr, "f32 0x%08x (%.10g): got f16 0x%04x want 0x%04x\n", x, (double)f, got, want);
    fail();
  }
  /* the register form is the f32 of that f16 */
  assert_int_equal(vm_f16_round_bits(x), vm_f16_decode(want));
}

static void test_round_against_model(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 0x7c00; h++) {
    const double v = pos[h], nx = h + 1 < 0x7c00 ? pos[h + 1] : 65536.0;
    const float mid = (float)((v + nx) / 2); /* exact: midpoints have 12 bits */
    assert_true((double)mid == (v + nx) / 2);
    const uint32_t mb = vm_f2u_bits(mid), vb = vm_f2u_bits((float)v);
    for (uint32_t s = 0; s < 2; s++) {
      const uint32_t sg = s << 31;
      check_round(sg | vb);
      check_round(sg | mb);
      check_round(sg | (mb + 1));
      if (mb & 0x7fffffffu) check_round(sg | (mb - 1));
    }
  }
  for (uint64_t x = 0; x < UINT64_C(0x100000000); x += 65537) check_round((uint32_t)x);
}

/* The hardware path of F16R (F16C where the host has it) against the same
 * model, on the same inputs; NaN stays NaN. */
static size_t hw_n, hw_bad;
static uint32_t hw_in[8];
static void hw_flush(void) {
  uint32_t out[8];
  if (!vm_f16_round_hw(out, hw_in, 8)) return;
  for (int i = 0; i < 8; i++) {
    const float f = vm_bits_f(hw_in[i]);
    if (isnan(f)) {
      hw_bad += !isnan(vm_bits_f(out[i]));
      continue;
    }
    if (out[i] != vm_f16_decode(model_round((double)f))) {
      if (hw_bad++ < 4) fprintf(stderr, "hw f16: 0x%08x -> 0x%08x\n", hw_in[i], out[i]);
    }
  }
}
static void hw_push(uint32_t x) {
  hw_in[hw_n++] = x;
  if (hw_n == 8) {
    hw_flush();
    hw_n = 0;
  }
}

static void test_round_hw(void **state) {
  (void)state;
  uint32_t probe[8] = {0}, out[8];
  if (!vm_f16_round_hw(out, probe, 8)) {
    fprintf(stderr, "no F16C on this host: F16R's hardware path not tested\n");
    return;
  }
  hw_bad = 0;
  for (uint32_t h = 0; h < 0x7c00; h++) {
    const double v = pos[h], nx = h + 1 < 0x7c00 ? pos[h + 1] : 65536.0;
    const uint32_t mb = vm_f2u_bits((float)((v + nx) / 2)), vb = vm_f2u_bits((float)v);
    for (uint32_t sg = 0; sg < 2; sg++) {
      hw_push(sg << 31 | vb);
      hw_push(sg << 31 | mb);
      hw_push(sg << 31 | (mb + 1));
      hw_push(sg << 31 | (mb - 1));
    }
  }
  for (uint64_t x = 0; x < UINT64_C(0x100000000); x += 65537) hw_push((uint32_t)x);
  while (hw_n) hw_push(0);
  assert_int_equal(hw_bad, 0);
}

static void test_round_edges(void **state) {
  (void)state;
  struct { float in; uint32_t h; } e[] = {
      {1.0f + 0x1p-11f, 0x3c00},      /* tie: stays at the even 1.0 */
      {1.0f + 3 * 0x1p-11f, 0x3c02},  /* tie: up to the even 1 + 2^-9 */
      {65504.0f, 0x7bff},             /* the largest f16 */
      {65519.99f, 0x7bff},            /* below the midpoint */
      {65520.0f, 0x7c00},             /* the midpoint: ties to 2^16, overflows */
      {1e30f, 0x7c00},                /* overflow to infinity */
      {-1e30f, 0xfc00},
      {0x1p-24f, 0x0001},             /* the smallest subnormal */
      {0x1p-25f, 0x0000},             /* tie with 0: the even 0 */
      {0x1.8p-25f, 0x0001},           /* above the tie */
      {0x3p-25f, 0x0002},             /* 1.5 * 2^-24: tie, up to the even 2^-23 */
      {0x1p-14f, 0x0400},             /* the smallest normal */
      {0x1.ff8p-15f, 0x03ff},         /* the largest subnormal, 1023 * 2^-24 */
      {0x1.ffcp-15f, 0x0400},         /* 1023.5 * 2^-24: a tie, up to the even 2^-14 */
      {-0.0f, 0x8000},
      {0x1p-149f, 0x0000},            /* f32 subnormal: rounds to 0 */
      {INFINITY, 0x7c00},
  };
  for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
    assert_int_equal(vm_f16_encode(vm_f2u_bits(e[i].in)), e[i].h);
    assert_int_equal(model_round((double)e[i].in), e[i].h);
  }
  /* NaN: stays NaN; an f16 NaN keeps its payload */
  assert_true(isnan(vm_bits_f(vm_f16_round_bits(0x7fc00000u))));
  assert_int_equal(vm_f16_encode(vm_f16_decode(0x7c01)), 0x7c01);
}

/* Const-evaluation rounds doubles (not only f32s) once to f16. */
static void test_const_rounding(void **state) {
  (void)state;
  uint64_t s = 12345;
  for (int i = 0; i < 200000; i++) {
    s = s * 6364136223846793005u + 1442695040888963407u;
    /* doubles with random significands over the whole f16 range */
    const double x = ldexp((double)(s >> 11), -53 + (int)((s >> 3) % 44) - 26) * ((s & 1) ? -1 : 1);
    const double r = eval_round_f16(x);
    const uint32_t want = model_round(x);
    if ((want & 0x7fff) == 0x7c00) assert_true(isinf(r));
    else assert_true(r == model_value(want));
  }
  assert_true(eval_round_f16(65519.999) == 65504.0);
  assert_true(isinf(eval_round_f16(65520.0)));
  assert_true(eval_round_f16(0x1p-25) == 0.0);
  assert_true(eval_round_f16(0x1.0000001p-25) == 0x1p-24);
  assert_true(eval_round_f16(0.1) == 0.0999755859375);
}

/* ------------------------------------------------------------ layout */

static const type *struct_named(wgsl_module *m, const char *name) {
  for (int i = 0; i < m->ast->ndecls; i++) {
    const ast_decl *d = m->ast->decls[i];
    if (d->kind == DECL_STRUCT && !strcmp(d->name, name)) return d->rtype;
  }
  fail_msg("no struct %s", name);
  return NULL;
}

static void test_layout(void **state) {
  (void)state;
  wgsl_module *m = tu_compile(
      "enable f16;\n"
      "struct A { a: f16, b: vec2h, c: vec3h, d: f16, e: vec4h, f: f16 }\n"
      "struct M { x: f16, m22: mat2x2h, m23: mat2x3h, m24: mat2x4h, m32: mat3x2h,\n"
      "           m33: mat3x3h, m44: mat4x4h, y: f16 }\n"
      "struct N { h: array<f16, 3>, v: array<vec3h, 2>, a: array<A, 2>, z: f16 }\n");
  /* A: f16 2/2, vec2h 4/4, vec3h 6/8, vec4h 8/8 */
  const type *A = struct_named(m, "A");
  const uint32_t ao[] = {0, 4, 8, 14, 16, 24};
  for (int i = 0; i < 6; i++) assert_int_equal(A->fields[i].offset, ao[i]);
  assert_int_equal(A->align, 8);
  assert_int_equal(A->size, 32);
  const type *t = A->fields[2].type;
  assert_int_equal(t->size, 6);
  assert_int_equal(t->align, 8);
  /* matCxR<f16>: C columns of vecR<f16> at stride roundUp(align, size) */
  const type *M = struct_named(m, "M");
  const uint32_t mo[] = {0, 4, 16, 32, 48, 64, 88, 120};
  for (int i = 0; i < 8; i++) assert_int_equal(M->fields[i].offset, mo[i]);
  assert_int_equal(M->fields[1].type->size, 8);   /* mat2x2h: 2 x 4 */
  assert_int_equal(M->fields[2].type->size, 16);  /* mat2x3h: 2 x 8 */
  assert_int_equal(M->fields[2].type->stride, 8);
  assert_int_equal(M->fields[4].type->size, 12);  /* mat3x2h: 3 x 4 */
  assert_int_equal(M->fields[5].type->size, 24);  /* mat3x3h: 3 x 8 */
  assert_int_equal(M->fields[6].type->size, 32);  /* mat4x4h: 4 x 8 */
  assert_int_equal(M->size, 128);
  /* arrays: stride roundUp(align, size) of the element */
  const type *N = struct_named(m, "N");
  assert_int_equal(N->fields[0].type->stride, 2);
  assert_int_equal(N->fields[0].type->size, 6);
  assert_int_equal(N->fields[1].offset, 8);
  assert_int_equal(N->fields[1].type->stride, 8);
  assert_int_equal(N->fields[2].offset, 24);
  assert_int_equal(N->fields[2].type->stride, 32);
  assert_int_equal(N->fields[3].offset, 88);
  assert_int_equal(N->size, 96);
  wgsl_module_free(m);
}

/* -------------------------------------------------------------- running */

static const unsigned widths[] = {8, 16, 32, 64};

/* Runs p over `groups` workgroups at every width on 1 and 2 threads, `reps`
 * times each, with buffer 0 reset from init; buffer 0 must equal want. */
static void run_check(ir_program *p, uint32_t groups, const uint32_t *init, const uint32_t *want,
                      size_t words, int reps) {
  uint32_t *mem = malloc(words * 4);
  assert_non_null(mem);
  for (unsigned t = 1; t <= 2; t++) {
    vm_pool *pool = vm_pool_create(t);
    assert_non_null(pool);
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
      for (int r = 0; r < reps; r++) {
        memcpy(mem, init, words * 4);
        vm_binding b = {(uint8_t *)mem, words * 4};
        vm_dispatch_desc desc = {.prog = p, .bindings = &b, .groups = {groups, 1, 1},
                                 .width = widths[w], .budget = 0};
        vm_result res;
        assert_int_equal(vm_dispatch(pool, &desc, &res), VM_OK);
        for (size_t k = 0; k < words; k++)
          if (mem[k] != want[k]) {
            fprintf(stderr, "W=%u threads=%u word %zu: got 0x%08x want 0x%08x\n", widths[w], t, k,
                    mem[k], want[k]);
            fail();
          }
      }
    vm_pool_destroy(pool);
  }
  free(mem);
}

/* Neighbouring halves written by different lanes, subgroups and workgroups:
 * storage (workgroup g writes halves g, g + G, g + 2G, ...: every word is
 * shared by two workgroups), workgroup memory and function memory. The last
 * word of the buffer keeps its sentinel: nothing writes past the end. */
static void test_adjacent_half_stores(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(
      "enable f16;\n"
      "@group(0) @binding(0) var<storage, read_write> hs: array<f16>;\n"
      "var<workgroup> wh: array<f16, 66>;\n"
      "@compute @workgroup_size(33)\n"
      "fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3u,\n"
      "        @builtin(num_workgroups) n: vec3u) {\n"
      "  let v = f16(wg.x) + f16(l) * 0.0625h;\n"
      "  hs[l * n.x + wg.x] = v;\n"
      "  wh[l] = v;\n"
      "  wh[33u + l] = -v;\n"
      "  workgroupBarrier();\n"
      "  var loc: array<f16, 5>;\n"
      "  for (var k = 0u; k < 5u; k++) { loc[(k + l) % 5u] = f16(k); }\n"
      "  let base = 33u * n.x;\n"
      "  let nl = (l + 1u) % 33u;\n"
      "  hs[base + 2u * (wg.x * 33u + l)] = wh[nl] + loc[(l + 2u) % 5u];\n"
      "  hs[base + 2u * (wg.x * 33u + l) + 1u] = wh[33u + nl];\n"
      "}\n", NULL, 0,
      &m);
  enum { G = 64, L = 33 };
  const size_t halves = L * G + 2 * L * G, words = halves / 2 + 1;
  uint32_t *init = malloc(words * 4), *want = malloc(words * 4);
  assert_non_null(init);
  assert_non_null(want);
  for (size_t k = 0; k < words; k++) init[k] = 0xdeadbeefu;
  uint16_t *wh = (uint16_t *)want;
  for (size_t k = 0; k < words; k++) want[k] = 0xdeadbeefu;
  for (uint32_t g = 0; g < G; g++)
    for (uint32_t l = 0; l < L; l++) {
      const double v = g + l * 0.0625; /* exact in f16: below 66, step 2^-4 */
      wh[l * G + g] = (uint16_t)model_round(v);
      const uint32_t nl = (l + 1) % L;
      const double nv = g + nl * 0.0625;
      /* loc[(k + l) % 5] = k, so loc[(l + 2) % 5] = 2 */
      const size_t o = (size_t)L * G + 2 * ((size_t)g * L + l);
      wh[o] = (uint16_t)model_round(nv + 2.0);
      wh[o + 1] = (uint16_t)model_round(-nv);
    }
  run_check(p, G, init, want, words, 8);
  free(init);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* Every encoding through memory and back: loads and stores of whole
 * subgroups on consecutive halves (one copy each) and scattered ones (lane
 * by lane), in storage and workgroup memory, and bitcasts to u32 and back.
 * A copy keeps every bit, NaN payloads and signalling NaNs included;
 * negation flips only the sign. */
static void test_copy_every_encoding(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(
      "enable f16;\n"
      "@group(0) @binding(0) var<storage, read_write> hs: array<f16>;\n"
      "var<workgroup> wh: array<f16, 64>;\n"
      "@compute @workgroup_size(64)\n"
      "fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32) {\n"
      "  let x = hs[g.x];\n"
      "  wh[l] = x;\n"
      "  workgroupBarrier();\n"
      "  hs[65536u + g.x] = wh[l];\n"
      "  hs[131072u + g.x] = -x;\n"
      "  let s = (g.x * 37u) % 65536u;\n"
      "  hs[196608u + g.x] = hs[s];\n"
      "  let j = g.x & 32767u;\n"
      "  let v = bitcast<vec2h>(bitcast<u32>(vec2h(hs[2u * j], hs[2u * j + 1u])));\n"
      "  hs[262144u + 2u * j + (g.x >> 15u)] = v[g.x >> 15u];\n"
      "}\n", NULL, 0,
      &m);
  const size_t words = 5 * 65536 / 2;
  uint32_t *init = calloc(words, 4), *want = calloc(words, 4);
  assert_non_null(init);
  assert_non_null(want);
  uint16_t *hi = (uint16_t *)init, *hw = (uint16_t *)want;
  for (uint32_t h = 0; h < 65536; h++) {
    hi[h] = hw[h] = (uint16_t)h;
    hw[65536 + h] = (uint16_t)h;
    hw[131072 + h] = (uint16_t)(h ^ 0x8000u);
    hw[196608 + h] = (uint16_t)((h * 37u) % 65536u);
    hw[262144 + h] = (uint16_t)h; /* through bitcast<u32> and back */
  }
  run_check(p, 1024, init, want, words, 1);
  free(init);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* An integer to f16 (WGSL §Floating Point Conversion): rounded when inside
 * the finite range, an infinity beyond 65504 (there are no extra bits to
 * discard, so the 65504 that rounding gives up to 65519 is not allowed). */
static uint32_t int_to_f16(double k) {
  if (fabs(k) > 65504.0) return k < 0 ? 0xfc00u : 0x7c00u;
  return model_round(k);
}

/* Runtime conversions: f16 -> i32/u32 truncate and clamp to the f16 range
 * (infinity -> +-65504: the nearest integer the f16 type represents), NaN
 * aside; i32/u32/f32 -> f16 round to nearest even; bool <-> f16. */
static void test_conversions(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(
      "enable f16;\n"
      "@group(0) @binding(0) var<storage, read_write> io: array<u32>;\n"
      "@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {\n"
      "  let x = bitcast<vec2h>(io[i]).x;\n"
      "  let k = bitcast<i32>(io[8u + i]);\n"
      "  let f = bitcast<f32>(io[16u + i]);\n"
      "  io[24u + i] = u32(x);\n"
      "  io[32u + i] = bitcast<u32>(i32(x));\n"
      "  io[40u + i] = bitcast<u32>(vec2h(f16(k), f16(u32(k) & 0xffffu)));\n"
      "  io[48u + i] = bitcast<u32>(vec2h(f16(f), f16(x != 0.0h)));\n"
      "  io[56u + i] = u32(bool(x)) | (bitcast<u32>(f32(x)) & 0xffff0000u);\n"
      "}\n", NULL, 0,
      &m);
  /* f16 inputs (low half), i32 inputs, f32 inputs */
  static const uint16_t xh[8] = {0x7c00, 0xfc00, 0xc300, 0x4b80, 0x0001, 0x8000, 0x7bff, 0xd140};
  static const int32_t ki[8] = {2049, 4102, -4097, 65504, 70000, -70000, 33, 65519};
  static const float ff[8] = {0.1f, 65519.0f, 65520.0f, -1e9f, 0x1p-25f, 0x3p-25f, 2.5f, -0.0f};
  uint32_t init[64] = {0}, want[64] = {0};
  for (int i = 0; i < 8; i++) {
    init[i] = want[i] = xh[i];
    init[8 + i] = want[8 + i] = (uint32_t)ki[i];
    init[16 + i] = want[16 + i] = vm_f2u_bits(ff[i]);
    const double x = model_value(xh[i]);
    const double c = x > 65504.0 ? 65504.0 : x < -65504.0 ? -65504.0 : x;
    want[24 + i] = c <= 0 ? 0u : (uint32_t)trunc(c);
    want[32 + i] = (uint32_t)(int32_t)trunc(c);
    want[40 + i] = int_to_f16((double)ki[i]) | int_to_f16((double)((uint32_t)ki[i] & 0xffffu)) << 16;
    want[48 + i] = model_round((double)ff[i]) | (x != 0.0 ? 0x3c00u : 0u) << 16;
    want[56 + i] = (x != 0.0) | (vm_f2u_bits((float)x) & 0xffff0000u);
  }
  run_check(p, 1, init, want, 64, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* f16 arithmetic is rounded after every operation (not only when stored):
 * (1 + 2^-11) computed in f16 is 1, so ((1 + d) - 1) * 4096 is 0, while f32
 * would keep 2^-11 and give 2; and 60000 + 10000 - 10000 overflows to
 * infinity in f16. */
static void test_each_step_rounds(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(
      "enable f16;\n"
      "@group(0) @binding(0) var<storage, read_write> io: array<f32>;\n"
      "@compute @workgroup_size(1) fn main() {\n"
      "  let one = f16(io[0]);\n"
      "  let d = f16(io[1]);\n"
      "  io[2] = f32(((one + d) - one) * 4096.0h);\n"
      "  io[3] = f32((f16(io[4]) + 10000.0h) - 10000.0h);\n"
      "  io[5] = f32(sqrt(f16(io[6])));\n"
      "  io[7] = f32(f16(io[6]) / 3.0h);\n"
      "}\n", NULL, 0,
      &m);
  uint32_t init[8] = {vm_f2u_bits(1.0f), vm_f2u_bits(0x1p-11f), 0, 0, vm_f2u_bits(60000.0f), 0,
                      vm_f2u_bits(2.0f), 0};
  uint32_t want[8];
  memcpy(want, init, sizeof want);
  want[2] = vm_f2u_bits(0.0f);
  want[3] = vm_f2u_bits(INFINITY);
  want[5] = vm_f2u_bits((float)model_value(model_round(sqrt(2.0))));
  want[7] = vm_f2u_bits((float)model_value(model_round(2.0 / 3.0)));
  run_check(p, 1, init, want, 8, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* f16 through the other memory paths: runtime indices into vectors in
 * private memory and into matrices in function memory (column and row),
 * a runtime index into an array value, workgroupUniformLoad, and a struct
 * with an f16 matrix passed by value. */
static void test_memory_paths(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(
      "enable f16;\n"
      "@group(0) @binding(0) var<storage, read_write> io: array<f32>;\n"
      "var<private> pv: array<vec3h, 4>;\n"
      "var<workgroup> wv: array<f16, 8>;\n"
      "struct S { a: f16, m: mat3x3h }\n"
      "fn pick(s: S, i: u32) -> f16 { return s.m[i][2u - i]; }\n"
      "@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) l: u32) {\n"
      "  let i = l % 3u;\n"
      "  for (var k = 0u; k < 4u; k++) { pv[k] = vec3h(f16(k), f16(k) + 0.5h, -f16(l)); }\n"
      "  var mm = mat3x3h(1h, 2h, 3h, 4h, 5h, 6h, 7h, 8h, 9h);\n"
      "  mm[i][i] = f16(l);\n"
      "  let arr = array<f16, 4>(1.5h, 2.5h, 3.5h, 4.5h);\n"
      "  wv[l] = f16(l) * 2h;\n"
      "  let u = workgroupUniformLoad(&wv[3]);\n"
      "  var s: S;\n"
      "  s.a = 1h;\n"
      "  s.m = mm;\n"
      "  io[4u * l] = f32(pv[l % 4u][i]);\n"
      "  io[4u * l + 1u] = f32(mm[i][i] + mm[2u][i]);\n"
      "  io[4u * l + 2u] = f32(arr[l % 4u] + u);\n"
      "  io[4u * l + 3u] = f32(pick(s, i) + s.a);\n"
      "}\n", NULL, 0,
      &m);
  uint32_t init[32] = {0}, want[32];
  for (uint32_t l = 0; l < 8; l++) {
    const uint32_t i = l % 3, k = l % 4;
    const float pvk[3] = {(float)k, k + 0.5f, -(float)l};
    /* column c, row r of the matrix before the store: 3c + r + 1 */
    const float m2i = i == 2 ? (float)l : (float)(7 + i);
    const float pk = i == 1 ? (float)l : (float)(3 * i + (2 - i) + 1);
    want[4 * l] = vm_f2u_bits(pvk[i]);
    want[4 * l + 1] = vm_f2u_bits((float)l + m2i);
    want[4 * l + 2] = vm_f2u_bits(1.5f + (float)k + 6.0f);
    want[4 * l + 3] = vm_f2u_bits(pk + 1.0f);
  }
  run_check(p, 1, init, want, 32, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* The observed interpreter reports f16 accesses as 2-byte events at the
 * halves' byte addresses; out of bounds is address + 2 > size. */
typedef struct htally {
  uint64_t loads, stores, other, oob, bad_addr;
} htally;

static void h_mem(void *u, unsigned th, const vm_mem_event *e) {
  htally *t = u;
  (void)th;
  if (e->bytes != 2 || e->space != VM_SPACE_BUFFER) {
    t->other++;
    return;
  }
  if (e->access == VM_LOAD) t->loads++;
  if (e->access == VM_STORE) t->stores++;
  for (unsigned l = 0; l < e->where->width; l++) {
    if (!(e->mask >> l & 1)) continue;
    const uint64_t gid = (uint64_t)e->where->subgroup * e->where->width + l;
    if (e->addr[l] != 2 * gid) t->bad_addr++;
    if (e->addr[l] + e->bytes > e->size) t->oob++;
  }
}

static void test_observed_halves(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build("enable f16;\n"
                        "@group(0) @binding(0) var<storage, read_write> hs: array<f16>;\n"
                        "@compute @workgroup_size(16) fn main(@builtin(local_invocation_index) i: u32) {\n"
                        "  hs[i] = hs[i] + 1.0h;\n"
                        "}\n", NULL, 0,
                        &m);
  vm_pool *pool = vm_pool_create(1);
  assert_non_null(pool);
  for (unsigned w = 8; w <= 16; w *= 2) {
    uint32_t mem[5] = {0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u};
    vm_binding b = {(uint8_t *)mem, sizeof mem};
    htally t = {0};
    vm_observer o = {0};
    o.user = &t;
    o.mem = h_mem;
    vm_dispatch_desc desc = {.prog = p, .bindings = &b, .groups = {1, 1, 1}, .width = w,
                             .observer = &o};
    vm_result res;
    assert_int_equal(vm_dispatch(pool, &desc, &res), VM_OK);
    assert_int_equal(t.other, 0);
    assert_int_equal(t.loads, 16 / w);
    assert_int_equal(t.stores, 16 / w);
    assert_int_equal(t.bad_addr, 0);
    assert_int_equal(t.oob, 2 * 6); /* invocations 10..15, load and store */
    for (int k = 0; k < 5; k++) assert_int_equal(mem[k], 0x40004000u); /* 1 + 1 = 2 */
  }
  vm_pool_destroy(pool);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* frexp, modf and refract for f32 and f16 (C's frexp as the model; modf
 * and refract by WGSL's formulas, in f32 in the order WGSL gives them). */
static void test_frexp_modf_refract(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(
      "enable f16;\n"
      "@group(0) @binding(0) var<storage, read_write> io: array<f32>;\n"
      "@compute @workgroup_size(16) fn main(@builtin(local_invocation_index) i: u32) {\n"
      "  let x = io[i];\n"
      "  let fr = frexp(x);\n"
      "  let mf = modf(x);\n"
      "  let h = f16(x);\n"
      "  let fh = frexp(vec2h(h, -h));\n"
      "  let mh = modf(h);\n"
      "  io[16u + i] = fr.fract;\n"
      "  io[32u + i] = bitcast<f32>(fr.exp);\n"
      "  io[48u + i] = mf.fract;\n"
      "  io[64u + i] = mf.whole;\n"
      "  io[80u + i] = f32(fh.fract.y);\n"
      "  io[96u + i] = bitcast<f32>(fh.exp.x);\n"
      "  io[112u + i] = f32(mh.fract);\n"
      "  io[128u + i] = f32(mh.whole);\n"
      "  let r = refract(vec2f(x, 0.6), vec2f(0.0, 1.0), 0.5);\n"
      "  io[144u + i] = r.x;\n"
      "  io[160u + i] = r.y;\n"
      "  io[176u + i] = refract(vec2f(0.0, 0.6), vec2f(0.0, 1.0), x).y;\n"
      "}\n", NULL, 0,
      &m);
  static const float in[16] = {0.75f, -3.5f, 1e-3f, 1234.5678f, -0.0f, 0.0f, 1.0f, 0.5f,
                               -0.25f, 65504.0f, 3e-40f, 2.0f, -7.0f, 100.25f, 0.3f, 5e-5f};
  uint32_t init[192] = {0}, want[192] = {0};
  for (int i = 0; i < 16; i++) {
    const float x = in[i];
    init[i] = want[i] = vm_f2u_bits(x);
    int e;
    const float fr = frexpf(x, &e);
    want[16 + i] = vm_f2u_bits(fr);
    want[32 + i] = (uint32_t)(x == 0 ? 0 : e);
    /* WGSL: whole = trunc(e), fract = e - trunc(e) (so -0 has fract +0) */
    const float whole = truncf(x), fract = x - whole;
    want[48 + i] = vm_f2u_bits(fract);
    want[64 + i] = vm_f2u_bits(whole);
    const double h = model_value(model_round((double)x));
    int eh;
    const double frh = frexp(-h, &eh);
    want[80 + i] = vm_f2u_bits((float)frh);
    frexp(h, &eh);
    want[96 + i] = (uint32_t)(h == 0 ? 0 : eh);
    const double wh = trunc(h), fh = h - wh;
    want[112 + i] = vm_f2u_bits((float)fh);
    want[128 + i] = vm_f2u_bits((float)wh);
    /* e1 = (x, 0.6), e2 = (0, 1), e3 = 0.5 */
    {
      const float e1[2] = {x, 0.6f}, e2[2] = {0.0f, 1.0f}, e3 = 0.5f;
      float d = e2[0] * e1[0];
      d = d + e2[1] * e1[1];
      float k = d * d;
      k = 1.0f - k;
      k = (e3 * e3) * k;
      k = 1.0f - k;
      const float c = e3 * d + sqrtf(k);
      for (int j = 0; j < 2; j++) {
        const float r = k < 0 ? 0.0f : e3 * e1[j] - c * e2[j];
        want[144 + 16 * j + i] = vm_f2u_bits(r);
      }
    }
    { /* e1 = (0, 0.6), e2 = (0, 1), e3 = x: total internal reflection for big x */
      float d = 0.0f * 0.0f;
      d = d + 1.0f * 0.6f;
      float k = d * d;
      k = 1.0f - k;
      k = (x * x) * k;
      k = 1.0f - k;
      const float c = x * d + sqrtf(k);
      want[176 + i] = vm_f2u_bits(k < 0 ? 0.0f : x * 0.6f - c * 1.0f);
    }
  }
  run_check(p, 1, init, want, 192, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* f16 transcendentals are the double result rounded once to f16: for
 * every f16 x in (-8, 8), exp, sin and atan2 against the C model's rounding
 * of the same libm values. */
static void test_transcendental_rounding(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(
      "enable f16;\n"
      "@group(0) @binding(0) var<storage, read_write> io: array<u32>;\n"
      "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
      "  let n = arrayLength(&io) / 4u;\n"
      "  let x = bitcast<vec2h>(io[g.x]).x;\n"
      "  io[n + g.x] = bitcast<u32>(vec2h(exp(x), 0h));\n"
      "  io[2u * n + g.x] = bitcast<u32>(vec2h(sin(x), 0h));\n"
      "  io[3u * n + g.x] = bitcast<u32>(vec2h(atan2(x, 0.75h), 0h));\n"
      "}\n", NULL, 0,
      &m);
  enum { N = 2 * 0x4800 };
  uint32_t *init = calloc(4 * N, 4), *want = calloc(4 * N, 4);
  assert_non_null(init);
  assert_non_null(want);
  for (uint32_t k = 0; k < N; k++) {
    const uint32_t h = (k < 0x4800 ? k : (k - 0x4800) | 0x8000u);
    const double x = model_value(h);
    init[k] = want[k] = h;
    want[N + k] = model_round(exp(x));
    want[2 * N + k] = model_round(sin(x));
    want[3 * N + k] = model_round(atan2(x, 0.75));
  }
  run_check(p, N / 64, init, want, 4 * N, 1);
  free(init);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* ---------------------------------------------------- validation errors */

static void expect_error(const char *src, const char *text) {
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "test.wgsl");
  assert_non_null(m);
  assert_false(wgsl_module_ok(m));
  char *t = diag_format(wgsl_module_diags(m), src, strlen(src), "test.wgsl");
  if (!strstr(t, text)) fprintf(stderr, "expected '%s' in:\n%s", text, t);
  assert_non_null(strstr(t, text));
  free(t);
  wgsl_module_free(m);
}

static void test_const_errors(void **state) {
  (void)state;
  expect_error("var<private> x: f16;\n", "f16 needs 'enable f16;'");
  expect_error("const x = 2.0h;\n", "f16 literals need 'enable f16;'");
  expect_error("enable f16;\nconst x = 65504h * 2h;\n", "not a finite f16");
  expect_error("enable f16;\nconst x: f16 = 1e5;\n", "not representable in f16");
  expect_error("enable f16;\nconst x = f16(65536u);\n", "not representable in f16");
  expect_error("enable f16;\nconst x = f16(1e10f);\n", "not representable in f16");
  expect_error("enable f16;\nconst x = 1h / 0h;\n", "division by zero");
  expect_error("enable f16;\nconst x = exp2(16h);\n", "does not fit its type");
  expect_error("enable f16;\nconst x = 0x1p16h;\n", "f16");
  expect_error("enable f16;\nvar<workgroup> a: atomic<f16>;\n", "atomic<T> needs T = i32 or u32");
  /* what rounds to 65504 is no overflow */
  wgsl_module *m = tu_compile("enable f16;\nconst_assert 65504h + 8h == 65504h;\n"
                              "const_assert f16(65519.0) == 65504h;\n");
  wgsl_module_free(m);
}

/* An f16 override value that does not fit is a pipeline-creation error. */
static void test_override_range(void **state) {
  (void)state;
  const char *src = "enable f16;\n"
                    "override k: f16;\n"
                    "@group(0) @binding(0) var<storage, read_write> o: array<f32>;\n"
                    "@compute @workgroup_size(1) fn main() { o[0] = f32(k); }\n";
  wgsl_module *m = tu_compile(src);
  ls_limits lim;
  ls_limits_default(&lim);
  for (int i = 0; i < 2; i++) {
    ls_constant_entry c = {"k", i ? 65520.0 : 0.1};
    diag_list d;
    diag_init(&d);
    ir_program *p = lower_pipeline(m, NULL, &c, 1, &lim, &d);
    if (i) {
      assert_null(p);
      char *t = diag_format(&d, src, strlen(src), "test.wgsl");
      assert_non_null(strstr(t, "not a finite f16"));
      free(t);
    } else {
      assert_non_null(p);
      /* 0.1 becomes the nearest f16, 0.0999755859375, as an f32 constant */
      int found = 0;
      for (uint32_t r = 0; r < p->nconsts; r++) found |= p->consts[r] == vm_f2u_bits(0.0999755859375f);
      assert_true(found);
      ir_program_free(p);
    }
    diag_free(&d);
  }
  wgsl_module_free(m);
}

/* ------------------------------------------------------- device feature */

static int api_errors;
static void on_error(void *user, ls_error_type type, const char *message) {
  (void)user;
  (void)type;
  (void)message;
  api_errors++;
}

static void test_feature(void **state) {
  (void)state;
  ls_adapter_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.threads = 1;
  ls_adapter *a = ls_adapter_create(&o, NULL, 0);
  assert_non_null(a);
  assert_true(ls_adapter_has_feature(a, "shader-f16"));
  assert_false(ls_adapter_has_feature(a, "float32-filterable-x"));
  const char *code = "enable f16;\n@compute @workgroup_size(1) fn main() { let x = 1h; }\n";
  for (int with = 0; with < 2; with++) {
    const char *feat[] = {"shader-f16"};
    ls_device_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.required_features = feat;
    d.required_feature_count = (size_t)with;
    ls_status st;
    ls_device *dev = ls_adapter_create_device(a, &d, &st, NULL, 0);
    assert_non_null(dev);
    assert_int_equal(ls_device_has_feature(dev, "shader-f16"), with);
    ls_device_set_error_callback(dev, on_error, NULL);
    api_errors = 0;
    ls_shader_module_desc sd = {.code = code, .label = "f16.wgsl"};
    ls_shader_module *sm = ls_device_create_shader_module(dev, &sd);
    assert_non_null(sm);
    assert_int_equal(ls_shader_module_is_valid(sm), with);
    assert_int_equal(api_errors, with ? 0 : 1);
    if (!with) {
      const ls_compilation_message *msg = ls_shader_module_message(sm, 0);
      assert_non_null(msg);
      assert_non_null(strstr(msg->message, "shader-f16"));
      assert_int_equal(msg->line, 1);
      assert_int_equal(msg->column, 8);
    }
    ls_shader_module_release(sm);
    ls_device_release(dev);
  }
  ls_adapter_release(a);
}

int main(void) {
  model_init();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_encoding),
      cmocka_unit_test(test_round_against_model),
      cmocka_unit_test(test_round_hw),
      cmocka_unit_test(test_round_edges),
      cmocka_unit_test(test_const_rounding),
      cmocka_unit_test(test_layout),
      cmocka_unit_test(test_adjacent_half_stores),
      cmocka_unit_test(test_copy_every_encoding),
      cmocka_unit_test(test_conversions),
      cmocka_unit_test(test_each_step_rounds),
      cmocka_unit_test(test_memory_paths),
      cmocka_unit_test(test_frexp_modf_refract),
      cmocka_unit_test(test_transcendental_rounding),
      cmocka_unit_test(test_observed_halves),
      cmocka_unit_test(test_const_errors),
      cmocka_unit_test(test_override_range),
      cmocka_unit_test(test_feature),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
