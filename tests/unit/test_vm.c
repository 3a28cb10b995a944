/*
 * test_vm.c - unit tests of the SIMT VM (src/vm) and the bytecode utilities
 * (src/ir/ir.c): arithmetic, control flow, memory. Programs are assembled by
 * hand (vm_asm.h), the way lowering would emit them, and run through
 * vm_dispatch; results are checked against independent C reference code.
 * Atomics and the instruction budget are in test_vm_control.c.
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

#include <sys/mman.h>

#include "unit_util.h"
#include "vm_asm.h"

/* ------------------------------------------------------ integer operations */

static uint32_t shr_s(uint32_t a, uint32_t s) {
  int32_t v = (int32_t)a;
  s &= 31;
  return (uint32_t)(v >= 0 ? v >> s : ~(~v >> s));
}

/* WGSL semantics written out with branches, independently of the VM. */
static uint32_t ref_int(unsigned op, uint32_t a, uint32_t b) {
  const int32_t sa = (int32_t)a, sb = (int32_t)b;
  switch (op) {
  case IR_MOV: return a;
  case IR_IADD: return a + b;
  case IR_ISUB: return a - b;
  case IR_IMUL: return (uint32_t)((uint64_t)a * b);
  case IR_INEG: return 0u - a;
  case IR_SDIV:
    if (sb == 0 || (sa == INT32_MIN && sb == -1)) return a;
    return (uint32_t)(int32_t)((int64_t)sa / sb);
  case IR_UDIV: return b ? a / b : a;
  case IR_SREM:
    if (sb == 0 || (sa == INT32_MIN && sb == -1)) return 0;
    return (uint32_t)(int32_t)((int64_t)sa % sb);
  case IR_UREM: return b ? a % b : 0;
  case IR_AND: return a & b;
  case IR_OR: return a | b;
  case IR_XOR: return a ^ b;
  case IR_NOT: return ~a;
  case IR_SHL: return a << (b & 31);
  case IR_SHRU: return a >> (b & 31);
  case IR_SHRS: return shr_s(a, b);
  case IR_SMIN: return sa < sb ? a : b;
  case IR_SMAX: return sa > sb ? a : b;
  case IR_UMIN: return a < b ? a : b;
  case IR_UMAX: return a > b ? a : b;
  case IR_SABS: return sa < 0 ? 0u - a : a;
  case IR_IEQ: return a == b;
  case IR_INE: return a != b;
  case IR_SLT: return sa < sb;
  case IR_SLE: return sa <= sb;
  case IR_ULT: return a < b;
  case IR_ULE: return a <= b;
  case IR_AADD: return (uint64_t)a + b > UINT32_MAX ? UINT32_MAX : a + b;
  case IR_S2F: return vm_f2u_bits((float)sa);
  case IR_U2F: return vm_f2u_bits((float)a);
  default: fail_msg("no reference for %s", ir_op_name(op)); return 0;
  }
}

static int unary(unsigned op) { return ir_op_form(op)[2] == '-'; }

/* out[i] = op(pairs[2i], pairs[2i+1]) through the VM: one invocation per
 * pair, pairs read with a displacement for the second operand. */
static void run_pairs(unsigned op, const uint32_t *pairs, uint32_t n, uint32_t width,
                      vm_pool *pool, uint32_t *out) {
  ir_program *p = prog_new(n, 1, 1);
  prog_bindings(p, 2);
  E(p, IR_SHL, T(0), LIDX, K(p, 3), NO);
  E(p, IR_LDB, T(1), T(0), 0, 0);
  E(p, IR_LDB, T(2), T(0), 0, 4);
  if (unary(op))
    E(p, op, T(3), T(1), NO, NO);
  else
    E(p, op, T(3), T(1), T(2), NO);
  E(p, IR_SHL, T(4), LIDX, K(p, 2), NO);
  E(p, IR_STB, T(4), T(3), 1, 0);
  E(p, IR_END, 0, 0, 0, 0);
  memset(out, 0xEE, n * 4);
  vm_binding b[2] = {bind((void *)pairs, (uint64_t)n * 8), bind(out, (uint64_t)n * 4)};
  assert_int_equal(run(pool, p, b, 1, 1, 1, width, 0, NULL), VM_OK);
  ir_program_free(p);
}

static const uint32_t int_pairs[][2] = {
    {0, 0},           {1, 0},           {7, 0},           {0x80000000u, 0xFFFFFFFFu},
    {0x80000000u, 1}, {0x7FFFFFFF, 0xFFFFFFFFu},           {7, 2},
    {(uint32_t)-7, 2}, {7, (uint32_t)-2}, {(uint32_t)-7, (uint32_t)-2},
    {100, 7},         {0xFFFFFFFFu, 0xFFFFFFFFu},          {0xFFFFFFFFu, 1},
    {12345678, 33},   {1, 31},          {1, 32},          {0x80000000u, 31},
    {(uint32_t)-8, 1}, {(uint32_t)-8, 33}, {3, 5},         {5, 3},
    {0xDEADBEEFu, 0x12345}, {0x7FFFFFFF, 0x7FFFFFFF},      {0, 0xFFFFFFFFu},
    {0x80000000u, 0}, {0x80000000u, 2}, {16777217, 3},     {0xFFFFFFF0u, 0x20},
    {0xFFFFFFFFu, 0x80000000u},         {2147483647, 2},   {4294967295u, 2},
};
#define NPAIRS (sizeof int_pairs / sizeof int_pairs[0])

static const unsigned int_ops[] = {
    IR_MOV,  IR_IADD, IR_ISUB, IR_IMUL, IR_INEG, IR_SDIV, IR_UDIV, IR_SREM, IR_UREM, IR_AND,
    IR_OR,   IR_XOR,  IR_NOT,  IR_SHL,  IR_SHRU, IR_SHRS, IR_SMIN, IR_SMAX, IR_UMIN, IR_UMAX,
    IR_SABS, IR_IEQ,  IR_INE,  IR_SLT,  IR_SLE,  IR_ULT,  IR_ULE,  IR_AADD, IR_S2F,  IR_U2F};

static void test_int_ops(void **state) {
  (void)state;
  uint32_t out[NPAIRS];
  for (size_t k = 0; k < sizeof int_ops / sizeof int_ops[0]; k++) {
    for (int wi = 0; wi < 4; wi += 3) {
      run_pairs(int_ops[k], &int_pairs[0][0], NPAIRS, widths[wi], pool1, out);
      for (size_t i = 0; i < NPAIRS; i++) {
        uint32_t want = ref_int(int_ops[k], int_pairs[i][0], int_pairs[i][1]);
        if (out[i] != want)
          fail_msg("%s(0x%08x, 0x%08x) = 0x%08x, want 0x%08x (W=%u)", ir_op_name(int_ops[k]),
                   int_pairs[i][0], int_pairs[i][1], out[i], want, widths[wi]);
      }
    }
  }
}

/* The WGSL edge cases spelled out, so that the reference itself is held to
 * the spec. */
static uint32_t one(unsigned op, uint32_t a, uint32_t b) {
  uint32_t pair[2] = {a, b}, out;
  run_pairs(op, pair, 1, 8, NULL, &out);
  return out;
}

static void test_int_edges(void **state) {
  (void)state;
  const uint32_t MIN = 0x80000000u, M1 = 0xFFFFFFFFu;
  assert_int_equal(one(IR_SDIV, 7, 0), 7);
  assert_int_equal(one(IR_SDIV, MIN, M1), MIN);
  assert_int_equal(one(IR_SDIV, (uint32_t)-7, 2), (uint32_t)-3);
  assert_int_equal(one(IR_UDIV, 5, 0), 5);
  assert_int_equal(one(IR_UDIV, M1, 1), M1);
  assert_int_equal(one(IR_UDIV, M1, 2), 0x7FFFFFFFu);
  assert_int_equal(one(IR_SREM, (uint32_t)-7, 2), (uint32_t)-1);
  assert_int_equal(one(IR_SREM, 7, (uint32_t)-2), 1);
  assert_int_equal(one(IR_SREM, MIN, M1), 0);
  assert_int_equal(one(IR_SREM, 9, 0), 0);
  assert_int_equal(one(IR_UREM, 5, 0), 0);
  assert_int_equal(one(IR_SHL, 1, 33), 2);
  assert_int_equal(one(IR_SHRU, MIN, 63), 1);
  assert_int_equal(one(IR_SHRS, (uint32_t)-8, 1), (uint32_t)-4);
  assert_int_equal(one(IR_SHRS, MIN, 31), M1);
  assert_int_equal(one(IR_SABS, MIN, 0), MIN);
  assert_int_equal(one(IR_SABS, (uint32_t)-5, 0), 5);
  assert_int_equal(one(IR_SMIN, M1, 1), M1);
  assert_int_equal(one(IR_UMIN, M1, 1), 1);
  assert_int_equal(one(IR_SLT, M1, 0), 1);
  assert_int_equal(one(IR_ULT, M1, 0), 0);
  assert_int_equal(one(IR_IMUL, 0x10000, 0x10000), 0);
  assert_int_equal(one(IR_AADD, 0xFFFFFFF0u, 0x20), M1);
  assert_int_equal(one(IR_AADD, M1, 0), M1);
  assert_int_equal(one(IR_U2F, M1, 0), vm_f2u_bits(4294967296.0f));
  assert_int_equal(one(IR_S2F, 16777217, 0), vm_f2u_bits(16777216.0f));
  assert_int_equal(one(IR_S2F, MIN, 0), vm_f2u_bits(-2147483648.0f));
}

static uint32_t rng_state = 0x12345678u;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

/* Division goes through f64 in the VM: check many operand magnitudes. */
static void test_int_division_random(void **state) {
  (void)state;
  enum { N = 4096 };
  uint32_t *pairs = malloc(N * 8), *out = malloc(N * 4);
  assert_non_null(pairs);
  assert_non_null(out);
  for (int i = 0; i < N; i++) {
    uint32_t a = rnd(), b = rnd();
    a >>= rnd() % 32;
    b >>= rnd() % 32;
    if (rnd() & 1) a = 0u - a;
    if (rnd() & 1) b = 0u - b;
    if (i % 97 == 0) b = 0;
    if (i % 89 == 0) b = 1;
    if (i % 83 == 0) b = 0xFFFFFFFFu;
    if (i % 79 == 0) a = 0x80000000u;
    if (i % 73 == 0) b = a - (rnd() & 1); /* quotients 1 and just below */
    pairs[2 * i] = a;
    pairs[2 * i + 1] = b;
  }
  const unsigned ops[] = {IR_SDIV, IR_UDIV, IR_SREM, IR_UREM};
  for (int k = 0; k < 4; k++) {
    for (int c = 0; c < N; c += 256) { /* 256 invocations per dispatch */
      run_pairs(ops[k], pairs + 2 * c, 256, widths[(c / 256) % 4], pool2, out + c);
    }
    for (int i = 0; i < N; i++) {
      uint32_t want = ref_int(ops[k], pairs[2 * i], pairs[2 * i + 1]);
      if (out[i] != want)
        fail_msg("%s(0x%08x, 0x%08x) = 0x%08x, want 0x%08x", ir_op_name(ops[k]), pairs[2 * i],
                 pairs[2 * i + 1], out[i], want);
    }
  }
  free(pairs);
  free(out);
}

/* -------------------------------------------------------- float operations */

static float ftrunc_ref(float x) { return truncf(x); }

static uint32_t ref_float(unsigned op, float a, float b) {
  switch (op) {
  case IR_FADD: return vm_f2u_bits(a + b);
  case IR_FSUB: return vm_f2u_bits(a - b);
  case IR_FMUL: return vm_f2u_bits(a * b);
  case IR_FDIV: return vm_f2u_bits(a / b);
  case IR_FREM: {
    float q = ftrunc_ref(a / b);
    float m = b * q;
    return vm_f2u_bits(a - m);
  }
  case IR_FNEG: return vm_f2u_bits(a) ^ 0x80000000u;
  case IR_FABS: return vm_f2u_bits(a) & 0x7FFFFFFFu;
  case IR_FSQRT: return vm_f2u_bits(sqrtf(a));
  case IR_FFLOOR: return vm_f2u_bits(floorf(a));
  case IR_FCEIL: return vm_f2u_bits(ceilf(a));
  case IR_FMIN: return vm_f2u_bits(fminf(a, b));
  case IR_FMAX: return vm_f2u_bits(fmaxf(a, b));
  case IR_FEQ: return a == b;
  case IR_FNE: return a != b;
  case IR_FLT: return a < b;
  case IR_FLE: return a <= b;
  /* WGSL: the value nearest trunc(a) that f32 also represents exactly, so
   * the upper bounds are 2^31 - 128 and 2^32 - 256 (§Floating Point
   * Conversion: 1e20f -> 2147483520i, 4294967040u) */
  case IR_F2S:
    if (isnan(a)) return 0;
    if (a >= 2147483648.0f) return 2147483520u;
    if (a <= -2147483648.0f) return 0x80000000u;
    return (uint32_t)(int32_t)a;
  case IR_F2U:
    if (isnan(a) || a <= 0.0f) return 0;
    if (a >= 4294967296.0f) return 4294967040u;
    return (uint32_t)a;
  default: fail_msg("no reference for %s", ir_op_name(op)); return 0;
  }
}

static const float float_pairs[][2] = {
    {1.5f, 2.25f},      {-0.0f, 0.0f},     {0.0f, -0.0f},       {NAN, 1.0f},
    {1.0f, NAN},        {INFINITY, 1.0f},  {-INFINITY, INFINITY}, {5.5f, 2.0f},
    {-5.5f, 2.0f},      {7.0f, -3.0f},     {1e30f, 1e-30f},     {3e9f, 0.0f},
    {-3e9f, 1.0f},      {2147483520.0f, 3.0f}, {2147483648.0f, 0.5f}, {4294967040.0f, 7.0f},
    {4294967296.0f, 1.0f}, {-1.9f, 0.5f},  {-0.5f, 3.0f},       {0.5f, 0.0f},
    {8388607.5f, 1.0f}, {-8388607.5f, 1.0f}, {1e-45f, 2.0f},    {0.1f, 0.3f},
    {-2.5f, -0.0f},     {16777215.0f, 0.75f}, {-1e38f, 1e-38f}, {3.4e38f, 3.4e38f},
    {-7.25f, -7.25f},   {100.0f, 0.0f},    {-100.0f, 0.0f},     {2.0f, 1.5f},
};
#define NFPAIRS (sizeof float_pairs / sizeof float_pairs[0])

static const unsigned float_ops[] = {IR_FADD, IR_FSUB,  IR_FMUL, IR_FDIV, IR_FREM, IR_FNEG,
                                     IR_FABS, IR_FSQRT, IR_FFLOOR, IR_FCEIL, IR_FMIN, IR_FMAX,
                                     IR_FEQ,  IR_FNE,   IR_FLT,  IR_FLE,  IR_F2S,  IR_F2U};

static int float_result_ok(unsigned op, uint32_t got, uint32_t want) {
  if (got == want) return 1;
  if (op == IR_FEQ || op == IR_FNE || op == IR_FLT || op == IR_FLE || op == IR_F2S ||
      op == IR_F2U)
    return 0;
  if (isnan(vm_bits_f(got)) && isnan(vm_bits_f(want))) return 1; /* payloads may differ */
  /* min/max of +0 and -0 may give either zero */
  if ((op == IR_FMIN || op == IR_FMAX) && vm_bits_f(got) == 0.0f && vm_bits_f(want) == 0.0f) return 1;
  return 0;
}

static void test_float_ops(void **state) {
  (void)state;
  uint32_t in[NFPAIRS][2], out[NFPAIRS];
  for (size_t i = 0; i < NFPAIRS; i++) {
    in[i][0] = vm_f2u_bits(float_pairs[i][0]);
    in[i][1] = vm_f2u_bits(float_pairs[i][1]);
  }
  for (size_t k = 0; k < sizeof float_ops / sizeof float_ops[0]; k++) {
    for (int wi = 0; wi < 4; wi++) {
      run_pairs(float_ops[k], &in[0][0], NFPAIRS, widths[wi], pool1, out);
      for (size_t i = 0; i < NFPAIRS; i++) {
        uint32_t want = ref_float(float_ops[k], float_pairs[i][0], float_pairs[i][1]);
        if (!float_result_ok(float_ops[k], out[i], want))
          fail_msg("%s(%g, %g) = 0x%08x (%g), want 0x%08x (%g) (W=%u)", ir_op_name(float_ops[k]),
                   (double)float_pairs[i][0], (double)float_pairs[i][1], out[i],
                   (double)vm_bits_f(out[i]), want, (double)vm_bits_f(want), widths[wi]);
      }
    }
  }
}

static void test_float_edges(void **state) {
  (void)state;
  const uint32_t qnan = 0x7FC00000u;
  assert_int_equal(one(IR_F2S, qnan, 0), 0);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(3e9f), 0), 2147483520u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(-3e9f), 0), 0x80000000u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(INFINITY), 0), 2147483520u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(-INFINITY), 0), 0x80000000u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(2147483520.0f), 0), 2147483520u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(2147483648.0f), 0), 2147483520u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(1e20f), 0), 2147483520u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(-2147483648.0f), 0), 0x80000000u);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(-1.9f), 0), (uint32_t)-1);
  assert_int_equal(one(IR_F2S, vm_f2u_bits(1.9f), 0), 1);
  assert_int_equal(one(IR_F2U, qnan, 0), 0);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(-1.9f), 0), 0);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(-INFINITY), 0), 0);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(INFINITY), 0), 4294967040u);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(4294967040.0f), 0), 4294967040u);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(4294967296.0f), 0), 4294967040u);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(1e20f), 0), 4294967040u);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(3e9f), 0), 3000000000u);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(2147483648.0f), 0), 2147483648u);
  assert_int_equal(one(IR_F2U, vm_f2u_bits(2.9f), 0), 2);
  /* WGSL %: a - b * trunc(a / b), sign of a */
  assert_int_equal(one(IR_FREM, vm_f2u_bits(-5.5f), vm_f2u_bits(2.0f)), vm_f2u_bits(-1.5f));
  assert_int_equal(one(IR_FREM, vm_f2u_bits(5.5f), vm_f2u_bits(-2.0f)), vm_f2u_bits(1.5f));
  assert_int_equal(one(IR_FFLOOR, vm_f2u_bits(-0.5f), 0), vm_f2u_bits(-1.0f));
  assert_int_equal(one(IR_FFLOOR, vm_f2u_bits(-0.0f), 0), vm_f2u_bits(-0.0f));
  assert_int_equal(one(IR_FCEIL, vm_f2u_bits(-0.5f), 0), vm_f2u_bits(-0.0f));
  assert_int_equal(one(IR_FCEIL, vm_f2u_bits(0.25f), 0), vm_f2u_bits(1.0f));
  assert_int_equal(one(IR_FFLOOR, vm_f2u_bits(1e30f), 0), vm_f2u_bits(1e30f));
  assert_int_equal(one(IR_FMIN, qnan, vm_f2u_bits(2.0f)), vm_f2u_bits(2.0f));
  assert_int_equal(one(IR_FMAX, vm_f2u_bits(2.0f), qnan), vm_f2u_bits(2.0f));
  assert_int_equal(one(IR_FSQRT, vm_f2u_bits(2.0f), 0), vm_f2u_bits(sqrtf(2.0f)));
  assert_int_equal(one(IR_FNE, qnan, qnan), 1);
  assert_int_equal(one(IR_FEQ, qnan, qnan), 0);
  assert_int_equal(one(IR_FEQ, vm_f2u_bits(-0.0f), vm_f2u_bits(0.0f)), 1);
}

/* ----------------------------------------------- select, IDX, ARRLEN, MOVM */

static void test_select_idx_arrlen(void **state) {
  (void)state;
  enum { N = 20 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 2);
  E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
  E(p, IR_AND, T(1), LIDX, K(p, 1), NO);
  E(p, IR_SELECT, T(2), K(p, 500), LIDX, T(1)); /* odd ? lidx : 500 */
  E(p, IR_STB, T(0), T(2), 0, 0);
  E(p, IR_IDX, T(3), LIDX, 12, 10); /* lidx < 10 ? lidx*12 : ~0 */
  E(p, IR_STB, T(0), T(3), 0, N * 4);
  E(p, IR_IDX, T(3), LIDX, 0x20000000u, 0); /* no count; saturates from 8 on */
  E(p, IR_STB, T(0), T(3), 0, N * 8);
  E(p, IR_ARRLEN, T(4), 1, 8, 4); /* (100 - 4) / 8 */
  E(p, IR_STB, T(0), T(4), 0, N * 12);
  E(p, IR_ARRLEN, T(4), 1, 8, 200); /* size < offset */
  E(p, IR_STB, T(0), T(4), 0, N * 16);
  E(p, IR_MOV, T(5), T(2), NO, NO);
  E(p, IR_MOVM, T(5), LIDX, NO, NO); /* all lanes live: plain copy */
  E(p, IR_STB, T(0), T(5), 0, N * 20);
  E(p, IR_IDX, T(3), LIDX, 4, 10); /* power-of-two strides shift */
  E(p, IR_STB, T(0), T(3), 0, N * 24);
  E(p, IR_IDX, T(3), LIDX, 1, 0);
  E(p, IR_STB, T(0), T(3), 0, N * 28);
  E(p, IR_END, 0, 0, 0, 0);
  uint32_t out[N * 8], other[25];
  memset(out, 0xEE, sizeof out);
  vm_binding b[2] = {bind(out, sizeof out), bind(other, 100)};
  for (int wi = 0; wi < 4; wi++) {
    assert_int_equal(run(pool1, p, b, 1, 1, 1, widths[wi], 0, NULL), VM_OK);
    for (uint32_t l = 0; l < N; l++) {
      assert_int_equal(out[l], (l & 1) ? l : 500);
      assert_int_equal(out[N + l], l < 10 ? l * 12 : 0xFFFFFFFFu);
      assert_int_equal(out[2 * N + l], l < 8 ? l * 0x20000000u : 0xFFFFFFFFu);
      assert_int_equal(out[3 * N + l], 12);
      assert_int_equal(out[4 * N + l], 0);
      assert_int_equal(out[5 * N + l], l);
      assert_int_equal(out[6 * N + l], l < 10 ? l * 4 : 0xFFFFFFFFu);
      assert_int_equal(out[7 * N + l], l);
    }
    memset(out, 0xEE, sizeof out);
  }
  ir_program_free(p);
}

/* -------------------------------------------------------------- built-ins */

/* Every invocation writes its 13 built-in words to record
 * (linear workgroup * N + local index) and counts itself atomically. */
static void builtins_case(uint32_t sx, uint32_t sy, uint32_t sz, uint32_t gx, uint32_t gy,
                          uint32_t gz, uint32_t width, vm_pool *pool) {
  const uint32_t n = sx * sy * sz, groups = gx * gy * gz;
  ir_program *p = prog_new(sx, sy, sz);
  prog_bindings(p, 2);
  E(p, IR_IMUL, T(0), NWG + 1, WID + 2, NO);
  E(p, IR_IADD, T(0), T(0), WID + 1, NO);
  E(p, IR_IMUL, T(0), T(0), NWG + 0, NO);
  E(p, IR_IADD, T(0), T(0), WID + 0, NO);
  E(p, IR_IMUL, T(1), T(0), K(p, n), NO);
  E(p, IR_IADD, T(1), T(1), LIDX, NO);
  E(p, IR_IMUL, T(2), T(1), K(p, 52), NO);
  const uint32_t regs[13] = {LIDX,    LID,     LID + 1, LID + 2, GID,     GID + 1, GID + 2,
                             WID + 0, WID + 1, WID + 2, NWG + 0, NWG + 1, NWG + 2};
  for (uint32_t k = 0; k < 13; k++) E(p, IR_STB, T(2), regs[k], 0, 4 * k);
  E(p, IR_ATOMB, T(3), K(p, 0), K(p, 1), atom(IR_ATOM_ADD, 1));
  E(p, IR_END, 0, 0, 0, 0);

  size_t words = (size_t)groups * n * 13;
  uint32_t *out = malloc(words * 4), counter = 0;
  assert_non_null(out);
  memset(out, 0xEE, words * 4);
  vm_binding b[2] = {bind(out, words * 4), bind(&counter, 4)};
  vm_result res;
  assert_int_equal(run(pool, p, b, gx, gy, gz, width, 0, &res), VM_OK);
  /* dead lanes of a partial last subgroup must not run */
  assert_int_equal(counter, groups * n);
  for (uint32_t z = 0; z < gz; z++)
    for (uint32_t y = 0; y < gy; y++)
      for (uint32_t x = 0; x < gx; x++)
        for (uint32_t i = 0; i < n; i++) {
          const uint32_t wl = x + gx * (y + gy * z);
          const uint32_t *r = out + ((size_t)wl * n + i) * 13;
          const uint32_t lx = i % sx, ly = (i / sx) % sy, lz = i / (sx * sy);
          const uint32_t want[13] = {i,          lx,         ly,         lz, x * sx + lx,
                                     y * sy + ly, z * sz + lz, x,          y,  z,
                                     gx,         gy,         gz};
          for (int k = 0; k < 13; k++)
            if (r[k] != want[k])
              fail_msg("wg %u,%u,%u inv %u word %d = %u, want %u (W=%u)", x, y, z, i, k, r[k],
                       want[k], width);
        }
  /* 22 instructions per subgroup */
  assert_int_equal(res.instructions, (uint64_t)groups * ((n + width - 1) / width) * 22);
  free(out);
  ir_program_free(p);
}

static void test_builtins(void **state) {
  (void)state;
  for (int wi = 0; wi < 4; wi++) builtins_case(4, 4, 4, 2, 3, 2, widths[wi], pool1);
  builtins_case(5, 5, 4, 2, 3, 2, 32, pool1); /* 100 = 3 full subgroups + 4 lanes */
  builtins_case(5, 5, 4, 3, 1, 2, 32, pool2);
  builtins_case(8, 8, 1, 2, 2, 1, 8, pool1);
  builtins_case(8, 8, 1, 2, 2, 1, 32, pool2);
  builtins_case(8, 8, 1, 3, 1, 1, 64, pool1);
  builtins_case(3, 1, 7, 1, 2, 3, 16, pool2); /* 21 lanes: 16 + 5 */
}

/* ------------------------------------------------------------ control flow */

/* if (cond) { x = 111; count then } else { x = 222; count else }, as
 * lowering emits it (lower.c): both sides run under complementary masks. */
static void if_else_case(unsigned cond_op, uint32_t cond_k, uint32_t width, uint32_t n) {
  ir_program *p = prog_new(n, 1, 1);
  prog_bindings(p, 2);
  E(p, cond_op, T(0), LIDX, K(p, cond_k), NO);
  E(p, IR_MOV, T(1), K(p, 0), NO, NO);
  E(p, IR_MSAVE, 0, NO, NO, NO);
  E(p, IR_MAND, T(0), NO, NO, NO);
  uint32_t j1 = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_MOVM, T(1), K(p, 111), NO, NO);
  E(p, IR_ATOMB, T(2), K(p, 0), K(p, 1), atom(IR_ATOM_ADD, 1));
  patch(p, j1, here(p));
  E(p, IR_MANDN, 0, T(0), NO, NO);
  uint32_t j2 = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_MOVM, T(1), K(p, 222), NO, NO);
  E(p, IR_ATOMB, T(2), K(p, 4), K(p, 1), atom(IR_ATOM_ADD, 1));
  patch(p, j2, here(p));
  E(p, IR_MLOAD, 0, NO, NO, NO);
  E(p, IR_SHL, T(3), LIDX, K(p, 2), NO);
  E(p, IR_STB, T(3), T(1), 0, 0);
  E(p, IR_END, 0, 0, 0, 0);
  uint32_t out[64], counts[2] = {0, 0};
  memset(out, 0, sizeof out);
  vm_binding b[2] = {bind(out, sizeof out), bind(counts, sizeof counts)};
  assert_int_equal(run(pool1, p, b, 1, 1, 1, width, 0, NULL), VM_OK);
  uint32_t nthen = 0;
  for (uint32_t l = 0; l < n; l++) {
    uint32_t c = ref_int(cond_op, l, cond_k) != 0;
    nthen += c;
    assert_int_equal(out[l], c ? 111 : 222);
  }
  for (uint32_t l = n; l < 64; l++) assert_int_equal(out[l], 0);
  assert_int_equal(counts[0], nthen);
  assert_int_equal(counts[1], n - nthen);
  ir_program_free(p);
}

static void test_if_else(void **state) {
  (void)state;
  for (int wi = 0; wi < 4; wi++) {
    if_else_case(IR_AND, 1, widths[wi], 64);  /* odd lanes: every subgroup splits */
    if_else_case(IR_ULT, 12, widths[wi], 64); /* whole subgroups skip one side */
    if_else_case(IR_ULT, 12, widths[wi], 29);
    if_else_case(IR_ULT, 64, widths[wi], 40); /* nobody takes the else side */
  }
}

static void test_loop_divergent(void **state) {
  (void)state;
  const uint32_t ns[3] = {8, 24, 64};
  for (int ni = 0; ni < 3; ni++) {
    const uint32_t n = ns[ni];
    ir_program *p = loop_prog(n);
    for (int wi = 0; wi < 4; wi++) {
      const uint32_t w = widths[wi];
      uint32_t out[64];
      memset(out, 0xEE, sizeof out);
      vm_binding b = bind(out, n * 4);
      vm_result res;
      assert_int_equal(run(pool2, p, &b, 1, 1, 1, w, 0, &res), VM_OK);
      for (uint32_t l = 0; l < n; l++) assert_int_equal(out[l], l * (l - 1) / 2);
      /* exact count: per subgroup 3 + 8 per iteration of its slowest live
       * lane + 3 for the last test + 4 */
      uint64_t want = 0;
      for (uint32_t s = 0; s * w < n; s++) {
        uint32_t last = (s + 1) * w < n ? (s + 1) * w - 1 : n - 1;
        want += 10 + 8 * (uint64_t)last;
      }
      assert_int_equal(res.instructions, want);
    }
    ir_program_free(p);
  }
}

/* if (lidx % 3 == 0) { return; } with the lanes killed from two enclosing
 * slots [0, 2) but not from slot 2. */
static void test_kill(void **state) {
  (void)state;
  enum { N = 64 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 1);
  E(p, IR_MSAVE, 2, NO, NO, NO);
  E(p, IR_MSAVE, 0, NO, NO, NO);
  E(p, IR_MSAVE, 1, NO, NO, NO);
  E(p, IR_UREM, T(0), LIDX, K(p, 3), NO);
  E(p, IR_IEQ, T(0), T(0), K(p, 0), NO);
  E(p, IR_MAND, T(0), NO, NO, NO);
  uint32_t j = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_KILL, 0, 2, NO, NO);
  patch(p, j, here(p));
  E(p, IR_MLOAD, 1, NO, NO, NO);
  E(p, IR_SHL, T(1), LIDX, K(p, 2), NO);
  E(p, IR_STB, T(1), K(p, 7), 0, 0);
  E(p, IR_MLOAD, 0, NO, NO, NO);
  E(p, IR_STB, T(1), K(p, 9), 0, N * 4);
  E(p, IR_MLOAD, 2, NO, NO, NO);
  E(p, IR_STB, T(1), K(p, 5), 0, N * 8);
  E(p, IR_END, 0, 0, 0, 0);
  uint32_t out[3 * N];
  vm_binding b = bind(out, sizeof out);
  for (int wi = 0; wi < 4; wi++) {
    memset(out, 0, sizeof out);
    assert_int_equal(run(pool1, p, &b, 1, 1, 1, widths[wi], 0, NULL), VM_OK);
    for (uint32_t l = 0; l < N; l++) {
      assert_int_equal(out[l], l % 3 ? 7 : 0);
      assert_int_equal(out[N + l], l % 3 ? 9 : 0);
      assert_int_equal(out[2 * N + l], 5);
    }
  }
  ir_program_free(p);
}

/* ------------------------------------------------------------------ memory */

static void test_buffer_bounds(void **state) {
  (void)state;
  /* Per-lane addresses; binding 0 is 64 bytes of a 128-byte block. */
  static const uint32_t addrs[8] = {0, 60, 64, 0xFFFFFFFCu, 0xFFFFFFFFu, 56, 0x7FFFFFFCu,
                                    0xFFFFFFF8u};
  ir_program *p = prog_new(8, 1, 1);
  prog_bindings(p, 3);
  E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
  E(p, IR_LDB, T(1), T(0), 1, 0); /* this lane's address (contiguous load) */
  E(p, IR_LDB, T(2), T(1), 0, 0);
  E(p, IR_STB, T(0), T(2), 2, 0);
  E(p, IR_LDB, T(2), T(1), 0, 8); /* + 8 in 64 bits: 0xFFFFFFF8 + 8 is out */
  E(p, IR_STB, T(0), T(2), 2, 32);
  E(p, IR_LDB, T(2), K(p, 60), 0, 0); /* uniform, in bounds */
  E(p, IR_STB, T(0), T(2), 2, 64);
  E(p, IR_LDB, T(2), K(p, 0xFFFFFFFCu), 0, 0); /* uniform, out */
  E(p, IR_STB, T(0), T(2), 2, 96);
  E(p, IR_LDB, T(2), K(p, 52), 0, 8); /* constant address + displacement */
  E(p, IR_STB, T(0), T(2), 2, 160);
  E(p, IR_LDB, T(2), K(p, 0xFFFFFFFCu), 0, 4); /* 2^32: out */
  E(p, IR_STB, T(0), T(2), 2, 192);
  E(p, IR_LDB, T(2), K(p, 60), 0, 2); /* 62 + 4 > 64: out, though it starts inside */
  E(p, IR_STB, T(0), T(2), 2, 224);
  E(p, IR_MOV, T(5), K(p, 60), NO, NO); /* uniform, not a constant register */
  E(p, IR_LDB, T(2), T(5), 0, 2);
  E(p, IR_STB, T(0), T(2), 2, 256);
  E(p, IR_LDB, T(2), T(5), 0, 0);
  E(p, IR_STB, T(0), T(2), 2, 288);
  E(p, IR_IADD, T(3), T(0), K(p, 48), NO); /* contiguous, half out */
  E(p, IR_LDB, T(2), T(3), 0, 0);
  E(p, IR_STB, T(0), T(2), 2, 128);
  E(p, IR_STB, T(3), K(p, 0xCC), 0, 0); /* contiguous, half out: words 12..15 */
  E(p, IR_IADD, T(4), LIDX, K(p, 0xAB00), NO);
  E(p, IR_STB, T(1), T(4), 0, 0); /* per lane, most out of bounds */
  E(p, IR_STB, T(1), T(4), 0, 0x40000000u);
  E(p, IR_END, 0, 0, 0, 0);

  for (int wi = 0; wi < 4; wi++) {
    uint32_t data[32], out[80];
    for (int i = 0; i < 32; i++) data[i] = 0x1000u + (uint32_t)i;
    memset(out, 0xEE, sizeof out);
    vm_binding b[3] = {bind(data, 64), bind((void *)addrs, sizeof addrs), bind(out, sizeof out)};
    assert_int_equal(run(pool1, p, b, 1, 1, 1, widths[wi], 0, NULL), VM_OK);
    const uint32_t want0[8] = {0x1000, 0x100F, 0, 0, 0, 0x100E, 0, 0};
    const uint32_t want8[8] = {0x1002, 0, 0, 0, 0, 0, 0, 0};
    for (int l = 0; l < 8; l++) {
      assert_int_equal(out[l], want0[l]);
      assert_int_equal(out[8 + l], want8[l]);
      assert_int_equal(out[16 + l], 0x100F);
      assert_int_equal(out[24 + l], 0);
      assert_int_equal(out[32 + l], l < 4 ? 0x100Cu + (uint32_t)l : 0);
      assert_int_equal(out[40 + l], 0x100F);
      assert_int_equal(out[48 + l], 0);
      assert_int_equal(out[56 + l], 0);
      assert_int_equal(out[64 + l], 0);
      assert_int_equal(out[72 + l], 0x100F);
    }
    for (int i = 0; i < 32; i++) {
      uint32_t want = 0x1000u + (uint32_t)i;
      if (i == 12 || i == 13) want = 0xCC;
      if (i == 0) want = 0xAB00;
      if (i == 15) want = 0xAB01;
      if (i == 14) want = 0xAB05;
      assert_int_equal(data[i], want); /* and words 16.. past the binding untouched */
    }
  }
  ir_program_free(p);
}

/* A binding over 4 GiB (reserved, barely touched): consecutive addresses
 * that wrap past 2^32 are not one contiguous row, and address + displacement
 * is computed in 64 bits. */
static void test_address_wrap(void **state) {
  (void)state;
  const uint64_t size = (UINT64_C(1) << 32) + 4096;
  if (sizeof(size_t) < 8) skip();
  uint8_t *mem = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) skip();
  uint32_t *low = (uint32_t *)mem, *top = (uint32_t *)(mem + 0xFFFFFFF0u),
           *over = (uint32_t *)(mem + (UINT64_C(1) << 32));
  for (uint32_t i = 0; i < 4; i++) {
    low[i] = 0x100 + i;
    top[i] = 0x200 + i;
    over[i] = 0x300 + i;
  }
  low[4] = 0x104;
  ir_program *p = prog_new(8, 1, 1);
  prog_bindings(p, 2);
  E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
  E(p, IR_IADD, T(1), T(0), K(p, 0xFFFFFFF0u), NO); /* lanes 4.. wrap to 0.. */
  E(p, IR_LDB, T(2), T(1), 0, 0);
  E(p, IR_STB, T(0), T(2), 1, 0);
  E(p, IR_LDB, T(2), T(1), 0, 16); /* lanes 0..3 reach past 2^32 */
  E(p, IR_STB, T(0), T(2), 1, 32);
  E(p, IR_IADD, T(3), LIDX, K(p, 0x500), NO);
  E(p, IR_STB, T(1), T(3), 0, 0);
  E(p, IR_END, 0, 0, 0, 0);
  uint32_t out[16];
  vm_binding b[2] = {bind(mem, size), bind(out, sizeof out)};
  assert_int_equal(run(pool1, p, b, 1, 1, 1, 8, 0, NULL), VM_OK);
  for (uint32_t l = 0; l < 8; l++) {
    assert_int_equal(out[l], l < 4 ? 0x200 + l : 0x100 + l - 4);
    assert_int_equal(out[8 + l], l < 4 ? 0x300 + l : 0x104 * (l == 4));
  }
  for (uint32_t i = 0; i < 4; i++) {
    assert_int_equal(top[i], 0x500 + i);
    assert_int_equal(low[i], 0x504 + i);
    assert_int_equal(over[i], 0x300 + i);
  }
  ir_program_free(p);
  munmap(mem, (size_t)size);
}

/* Stores with a partial mask must not take the whole-row path. */
static void test_buffer_partial(void **state) {
  (void)state;
  ir_program *p = prog_new(5, 1, 1);
  prog_bindings(p, 1);
  E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
  E(p, IR_LDB, T(1), T(0), 0, 32); /* words 8.. */
  E(p, IR_IADD, T(1), T(1), K(p, 1), NO);
  E(p, IR_STB, T(0), T(1), 0, 0);
  E(p, IR_END, 0, 0, 0, 0);
  for (int wi = 0; wi < 4; wi++) {
    uint32_t data[16];
    for (int i = 0; i < 16; i++) data[i] = 100u + (uint32_t)i;
    vm_binding b = bind(data, sizeof data);
    assert_int_equal(run(pool1, p, &b, 1, 1, 1, widths[wi], 0, NULL), VM_OK);
    for (int i = 0; i < 16; i++)
      assert_int_equal(data[i], i < 5 ? 109u + (uint32_t)i : 100u + (uint32_t)i);
  }
  ir_program_free(p);
}

/* Address rows made of runs of 8 lanes, as 2D workgroups give them: each
 * run one word (a row index), or 8 consecutive words, anywhere; with every
 * lane in bounds (a load per run), with a run past the end, and with a run
 * at 2^32 - 4 (whose consecutive words would wrap). 64 invocations, every
 * width; the results are each lane's own word or 0, stores in lane order
 * within a subgroup. */
static void test_buffer_runs8(void **state) {
  (void)state;
  enum { N = 64, NT = 6 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 4);
  E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
  for (uint32_t k = 0; k < NT; k++) {
    E(p, IR_LDB, T(1), T(0), 1, 4 * N * k); /* this lane's address in table k */
    E(p, IR_LDB, T(2), T(1), 0, 0);
    E(p, IR_STB, T(0), T(2), 2, 4 * N * k);
  }
  /* stores through tables 0 and 1 into a copy (binding 3: a subgroup
   * that ran ahead must not change what a later one loads) */
  E(p, IR_LDB, T(1), T(0), 1, 0);
  E(p, IR_IADD, T(2), LIDX, K(p, 0x500), NO);
  E(p, IR_STB, T(1), T(2), 3, 0);
  E(p, IR_LDB, T(1), T(0), 1, 4 * N * 1);
  E(p, IR_STB, T(1), T(2), 3, 0x40);
  E(p, IR_END, 0, 0, 0, 0);
  static uint32_t addr[NT][N];
  for (uint32_t l = 0; l < N; l++) {
    addr[0][l] = (l / 8) * 12;                          /* runs of one word */
    addr[1][l] = (l / 8) * 40 + (l % 8) * 4;             /* runs of 8 consecutive words */
    addr[2][l] = (l / 16) * 4;                          /* runs of 16: one word */
    addr[3][l] = l < 56 ? (l / 8) * 4 : 1024;           /* one run past the end */
    addr[4][l] = l < 8 ? 0xFFFFFFE4u + (l % 8) * 4 : (l % 8) * 4; /* a run wraps */
    addr[5][l] = (l / 8) % 2 ? 0xFFFFFFFCu : 16;        /* one word at 2^32 - 4 */
  }
  const uint32_t size = 512; /* bytes of binding 0 */
  for (int wi = 0; wi < 4; wi++) {
    uint32_t data[256], copy[256], out[NT * N];
    for (uint32_t i = 0; i < 256; i++) data[i] = copy[i] = 0x7000u + i;
    memset(out, 0xEE, sizeof out);
    vm_binding b[4] = {bind(data, size), bind(addr, sizeof addr), bind(out, sizeof out),
                       bind(copy, size)};
    assert_int_equal(run(pool1, p, b, 1, 1, 1, widths[wi], 0, NULL), VM_OK);
    uint32_t want_data[256];
    for (uint32_t i = 0; i < 256; i++) want_data[i] = 0x7000u + i;
    for (uint32_t k = 0; k < NT; k++)
      for (uint32_t l = 0; l < N; l++) {
        const uint64_t a = addr[k][l];
        const uint32_t want = a + 4 <= size ? want_data[a / 4] : 0;
        assert_int_equal(out[k * N + l], want);
      }
    /* the stores: each subgroup runs both before the next one starts, and
     * within one a later lane wins a shared word */
    const uint32_t w = widths[wi];
    for (uint32_t s0 = 0; s0 < N; s0 += w) {
      for (uint32_t l = s0; l < s0 + w; l++) want_data[addr[0][l] / 4] = 0x500 + l;
      for (uint32_t l = s0; l < s0 + w; l++)
        if ((uint64_t)addr[1][l] + 0x40 + 4 <= size) want_data[(addr[1][l] + 0x40) / 4] = 0x500 + l;
    }
    for (uint32_t i = 0; i < 256; i++) {
      assert_int_equal(data[i], 0x7000u + i);
      assert_int_equal(copy[i], i < size / 4 ? want_data[i] : 0x7000u + i);
    }
  }
  ir_program_free(p);
}

/* Workgroup memory: zero at the start of every workgroup, shared between
 * subgroups across a barrier in both directions. */
static void test_workgroup_memory(void **state) {
  (void)state;
  enum { N = 64, G = 4 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 3);
  p->wg_mem_size = N * 4;
  E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
  E(p, IR_LDW, T(1), T(0), NO, 0);
  E(p, IR_IMUL, T(2), WID, K(p, N), NO);
  E(p, IR_IADD, T(2), T(2), LIDX, NO);
  E(p, IR_SHL, T(2), T(2), K(p, 2), NO); /* output offset */
  E(p, IR_STB, T(2), T(1), 0, 0);
  E(p, IR_IMUL, T(3), WID, K(p, 1000), NO);
  E(p, IR_IADD, T(3), T(3), LIDX, NO);
  E(p, IR_IADD, T(3), T(3), K(p, 1), NO);
  E(p, IR_STW, T(0), T(3), NO, 0);
  E(p, IR_BARRIER, 0, 0, 0, 0);
  E(p, IR_IADD, T(4), LIDX, K(p, 8), NO); /* the next subgroup's (W = 8) */
  E(p, IR_AND, T(4), T(4), K(p, N - 1), NO);
  E(p, IR_SHL, T(4), T(4), K(p, 2), NO);
  E(p, IR_LDW, T(5), T(4), NO, 0);
  E(p, IR_STB, T(2), T(5), 1, 0);
  E(p, IR_IADD, T(4), LIDX, K(p, N - 8), NO); /* the previous one's */
  E(p, IR_AND, T(4), T(4), K(p, N - 1), NO);
  E(p, IR_SHL, T(4), T(4), K(p, 2), NO);
  E(p, IR_LDW, T(5), T(4), NO, 0);
  E(p, IR_STB, T(2), T(5), 2, 0);
  E(p, IR_END, 0, 0, 0, 0);
  vm_pool *pools[2] = {pool1, pool2};
  for (int pi = 0; pi < 2; pi++)
    for (int wi = 0; wi < 4; wi++) {
      uint32_t o0[N * G], o1[N * G], o2[N * G];
      memset(o0, 0xEE, sizeof o0);
      memset(o1, 0xEE, sizeof o1);
      memset(o2, 0xEE, sizeof o2);
      vm_binding b[3] = {bind(o0, sizeof o0), bind(o1, sizeof o1), bind(o2, sizeof o2)};
      assert_int_equal(run(pools[pi], p, b, G, 1, 1, widths[wi], 0, NULL), VM_OK);
      for (uint32_t g = 0; g < G; g++)
        for (uint32_t l = 0; l < N; l++) {
          assert_int_equal(o0[g * N + l], 0);
          assert_int_equal(o1[g * N + l], g * 1000 + (l + 8) % N + 1);
          assert_int_equal(o2[g * N + l], g * 1000 + (l + N - 8) % N + 1);
        }
    }
  ir_program_free(p);
}

/* A subgroup that has ended does not hold the others at a barrier. */
static void test_barrier_after_end(void **state) {
  (void)state;
  enum { N = 64 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 1);
  p->wg_mem_size = N * 4;
  E(p, IR_ULT, T(0), LIDX, K(p, 8), NO);
  E(p, IR_MSAVE, 0, NO, NO, NO);
  E(p, IR_MAND, T(0), NO, NO, NO);
  uint32_t j = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_END, 0, 0, 0, 0);
  patch(p, j, here(p));
  E(p, IR_MLOAD, 0, NO, NO, NO);
  E(p, IR_SHL, T(1), LIDX, K(p, 2), NO);
  E(p, IR_STW, T(1), LIDX, NO, 0);
  E(p, IR_BARRIER, 0, 0, 0, 0);
  E(p, IR_XOR, T(2), T(1), K(p, 32), NO); /* partner 8 lanes away */
  E(p, IR_LDW, T(3), T(2), NO, 0);
  E(p, IR_STB, T(1), T(3), 0, 0);
  E(p, IR_BARRIER, 0, 0, 0, 0);
  E(p, IR_END, 0, 0, 0, 0);
  uint32_t out[N];
  vm_binding b = bind(out, sizeof out);
  memset(out, 0xEE, sizeof out);
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_OK);
  for (uint32_t l = 0; l < 8; l++) assert_int_equal(out[l], 0xEEEEEEEEu);
  for (uint32_t l = 8; l < 16; l++) assert_int_equal(out[l], 0); /* partner never wrote */
  for (uint32_t l = 16; l < N; l++) assert_int_equal(out[l], l ^ 8);
  ir_program_free(p);
}

static void test_private_memory(void **state) {
  (void)state;
  enum { N = 24, G = 3 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 1);
  p->priv_mem_size = 16;
  E(p, IR_IMUL, T(0), WID, K(p, N), NO);
  E(p, IR_IADD, T(0), T(0), LIDX, NO);
  E(p, IR_SHL, T(0), T(0), K(p, 2), NO); /* output offset */
  E(p, IR_LDP, T(1), K(p, 0), NO, 12); /* zero on entry */
  E(p, IR_LDP, T(6), K(p, 0), NO, 0);
  E(p, IR_OR, T(1), T(1), T(6), NO);
  E(p, IR_STB, T(0), T(1), 0, 0);
  E(p, IR_IMUL, T(2), LIDX, K(p, 10), NO);
  for (uint32_t k = 0; k < 4; k++) {
    E(p, IR_IADD, T(3), T(2), K(p, k), NO);
    E(p, IR_STP, K(p, 0), T(3), NO, 4 * k);
  }
  E(p, IR_AND, T(4), LIDX, K(p, 3), NO); /* lane-dependent address */
  E(p, IR_SHL, T(4), T(4), K(p, 2), NO);
  E(p, IR_LDP, T(5), T(4), NO, 0);
  E(p, IR_STB, T(0), T(5), 0, 4 * N * G);
  E(p, IR_LDP, T(5), K(p, 0), NO, 16); /* out of bounds */
  E(p, IR_STB, T(0), T(5), 0, 8 * N * G);
  E(p, IR_STP, K(p, 0xFFFFFFFCu), K(p, 77), NO, 8); /* 2^32 + 4: dropped */
  E(p, IR_LDP, T(5), K(p, 0), NO, 4);
  E(p, IR_STB, T(0), T(5), 0, 12 * N * G);
  /* just past the end: dropped, so the next subgroup's word 0 stays 0 */
  E(p, IR_STP, K(p, 0), K(p, 77), NO, 16);
  E(p, IR_END, 0, 0, 0, 0);
  for (int wi = 0; wi < 4; wi++) {
    uint32_t out[4 * N * G];
    memset(out, 0xEE, sizeof out);
    vm_binding b = bind(out, sizeof out);
    assert_int_equal(run(pool1, p, &b, G, 1, 1, widths[wi], 0, NULL), VM_OK);
    for (uint32_t g = 0; g < G; g++)
      for (uint32_t l = 0; l < N; l++) {
        const uint32_t i = g * N + l;
        assert_int_equal(out[i], 0);
        assert_int_equal(out[N * G + i], l * 10 + l % 4);
        assert_int_equal(out[2 * N * G + i], 0);
        assert_int_equal(out[3 * N * G + i], l * 10 + 1);
      }
  }
  ir_program_free(p);
}

/* PZERO clears a run of words of the live lanes' private memory only: the
 * odd lanes' words 1 and 2 (a partial mask: word by word), then everyone's
 * word 3 (a full subgroup: whole rows). */
static void test_private_zero(void **state) {
  (void)state;
  enum { N = 24 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 1);
  p->priv_mem_size = 16;
  E(p, IR_IMUL, T(2), LIDX, K(p, 10), NO);
  for (uint32_t k = 0; k < 4; k++) {
    E(p, IR_IADD, T(3), T(2), K(p, k), NO);
    E(p, IR_STP, K(p, 0), T(3), NO, 4 * k);
  }
  E(p, IR_MSAVE, 0, NO, NO, NO);
  E(p, IR_AND, T(4), LIDX, K(p, 1), NO);
  E(p, IR_MAND, T(4), NO, NO, NO);
  E(p, IR_PZERO, NO, NO, 4, 8);
  E(p, IR_MLOAD, 0, NO, NO, NO);
  E(p, IR_PZERO, NO, NO, 12, 4);
  E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
  for (uint32_t k = 0; k < 4; k++) {
    E(p, IR_LDP, T(5), K(p, 0), NO, 4 * k);
    E(p, IR_STB, T(0), T(5), 0, 4 * N * k);
  }
  E(p, IR_END, 0, 0, 0, 0);
  for (int wi = 0; wi < 4; wi++) {
    uint32_t out[4 * N];
    memset(out, 0xEE, sizeof out);
    vm_binding b = bind(out, sizeof out);
    assert_int_equal(run(pool1, p, &b, 1, 1, 1, widths[wi], 0, NULL), VM_OK);
    for (uint32_t l = 0; l < N; l++) {
      const int odd = l & 1;
      assert_int_equal(out[l], l * 10);
      assert_int_equal(out[N + l], odd ? 0 : l * 10 + 1);
      assert_int_equal(out[2 * N + l], odd ? 0 : l * 10 + 2);
      assert_int_equal(out[3 * N + l], 0);
    }
  }
  /* a run past the end of private memory never reaches the VM */
  uint32_t last = 0;
  for (uint32_t pc = 0; pc < p->ncode; pc++)
    if (p->code[pc].op == IR_PZERO) last = pc;
  p->code[last].d = 8; /* bytes 12..20 of 16 */
  uint32_t out[4 * N];
  vm_binding b = bind(out, sizeof out);
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 32, 0, NULL), VM_INVALID);
  ir_program_free(p);
}

/* --------------------------------------------- one kernel, every configuration */

/* x = hash(gid); loop (gid.x % 5 + lidx % 4) times { x = lcg(x); if (x &
 * 0x100) x ^= x >> 7; }; exchange through workgroup memory and private
 * memory; a little float math. Same in C below. */
enum { MIX_N = 48, MIX_GX = 7, MIX_GY = 3 };

static uint32_t mix_x(uint32_t gx, uint32_t gy, uint32_t lidx) {
  uint32_t x = gx * 2654435761u + gy * 97u;
  uint32_t trips = gx % 5 + (lidx & 3);
  for (uint32_t i = 0; i < trips; i++) {
    x = x * 1664525u + 1013904223u;
    if (x & 0x100) x ^= x >> 7;
  }
  return x;
}

static void mix_ref(uint32_t *out) {
  for (uint32_t wy = 0; wy < MIX_GY; wy++)
    for (uint32_t wx = 0; wx < MIX_GX; wx++)
      for (uint32_t l = 0; l < MIX_N; l++) {
        uint32_t own = mix_x(wx * MIX_N + l, wy, l);
        uint32_t o = (l * 5 + 3) % MIX_N;
        uint32_t y = mix_x(wx * MIX_N + o, wy, o);
        float f = (float)(y >> 8) * 0.5f;
        uint32_t h = (uint32_t)sqrtf(f);
        out[(wy * MIX_GX + wx) * MIX_N + l] = y ^ h ^ own;
      }
}

static ir_program *mix_prog(void) {
  ir_program *p = prog_new(MIX_N, 1, 1);
  prog_bindings(p, 2);
  p->wg_mem_size = MIX_N * 4;
  p->priv_mem_size = 8;
  const uint32_t X = T(0), I = T(1), TR = T(2), C = T(3), TMP = T(4), TMP2 = T(5);
  E(p, IR_IMUL, X, GID, K(p, 2654435761u), NO);
  E(p, IR_IMUL, TMP, GID + 1, K(p, 97), NO);
  E(p, IR_IADD, X, X, TMP, NO);
  E(p, IR_UREM, TR, GID, K(p, 5), NO);
  E(p, IR_AND, TMP, LIDX, K(p, 3), NO);
  E(p, IR_IADD, TR, TR, TMP, NO);
  E(p, IR_MOV, I, K(p, 0), NO, NO);
  /* the loop as lowering shapes it: slots E=0, L=1, C=2; break kills the
   * leaving lanes from [L, top) */
  E(p, IR_MSAVE, 0, NO, NO, NO);
  E(p, IR_MSAVE, 1, NO, NO, NO);
  uint32_t top = E(p, IR_MSAVE, 2, NO, NO, NO);
  E(p, IR_ULT, C, I, TR, NO);
  E(p, IR_XOR, C, C, K(p, 1), NO); /* if (!(i < trips)) break; */
  E(p, IR_MSAVE, 3, NO, NO, NO);
  E(p, IR_MAND, C, NO, NO, NO);
  uint32_t jb = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_KILL, 1, 4, NO, NO);
  patch(p, jb, here(p));
  E(p, IR_MLOAD, 3, NO, NO, NO);
  E(p, IR_IMUL, TMP, X, K(p, 1664525u), NO);
  E(p, IR_IADD, TMP, TMP, K(p, 1013904223u), NO);
  E(p, IR_MOVM, X, TMP, NO, NO);
  E(p, IR_AND, C, X, K(p, 0x100), NO);
  E(p, IR_MSAVE, 4, NO, NO, NO);
  E(p, IR_MAND, C, NO, NO, NO);
  uint32_t jskip = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_SHRU, TMP, X, K(p, 7), NO);
  E(p, IR_XOR, TMP, X, TMP, NO);
  E(p, IR_MOVM, X, TMP, NO, NO);
  patch(p, jskip, here(p));
  E(p, IR_MLOAD, 4, NO, NO, NO);
  E(p, IR_MLOAD, 2, NO, NO, NO); /* continuing */
  E(p, IR_IADD, TMP, I, K(p, 1), NO);
  E(p, IR_MOVM, I, TMP, NO, NO);
  E(p, IR_MLOAD, 1, NO, NO, NO);
  E(p, IR_JANY, top, NO, NO, NO);
  E(p, IR_MLOAD, 0, NO, NO, NO);
  E(p, IR_SHL, TMP, LIDX, K(p, 2), NO);
  E(p, IR_STW, TMP, X, NO, 0);
  E(p, IR_STP, K(p, 0), X, NO, 4);
  E(p, IR_BARRIER, 0, 0, 0, 0);
  E(p, IR_IMUL, TMP2, LIDX, K(p, 5), NO);
  E(p, IR_IADD, TMP2, TMP2, K(p, 3), NO);
  E(p, IR_UREM, TMP2, TMP2, K(p, MIX_N), NO);
  E(p, IR_SHL, TMP2, TMP2, K(p, 2), NO);
  E(p, IR_LDW, T(6), TMP2, NO, 0); /* y */
  E(p, IR_SHRU, T(7), T(6), K(p, 8), NO);
  E(p, IR_U2F, T(7), T(7), NO, NO);
  E(p, IR_FMUL, T(7), T(7), KF(p, 0.5f), NO);
  E(p, IR_FSQRT, T(7), T(7), NO, NO);
  E(p, IR_F2U, T(7), T(7), NO, NO);
  E(p, IR_LDP, T(8), K(p, 0), NO, 4); /* own x */
  E(p, IR_XOR, T(9), T(6), T(7), NO);
  E(p, IR_XOR, T(9), T(9), T(8), NO);
  E(p, IR_IMUL, TMP, WID + 1, K(p, MIX_GX), NO);
  E(p, IR_IADD, TMP, TMP, WID, NO);
  E(p, IR_IMUL, TMP, TMP, K(p, MIX_N), NO);
  E(p, IR_IADD, TMP, TMP, LIDX, NO);
  E(p, IR_SHL, TMP, TMP, K(p, 2), NO);
  E(p, IR_STB, TMP, T(9), 0, 0);
  E(p, IR_ATOMB, TMP, K(p, 0), K(p, 1), atom(IR_ATOM_ADD, 1));
  E(p, IR_END, 0, 0, 0, 0);
  return p;
}

static void test_same_everywhere(void **state) {
  (void)state;
  enum { TOTAL = MIX_N * MIX_GX * MIX_GY };
  uint32_t want[TOTAL], got[TOTAL];
  mix_ref(want);
  ir_program *p = mix_prog();
  for (int pi = 0; pi < 2; pi++)
    for (int wi = 0; wi < 4; wi++) {
      uint32_t count = 0;
      memset(got, 0, sizeof got);
      vm_binding b[2] = {bind(got, sizeof got), bind(&count, 4)};
      assert_int_equal(run(pi ? pool2 : pool1, p, b, MIX_GX, MIX_GY, 1, widths[wi], 0, NULL),
                       VM_OK);
      assert_int_equal(count, TOTAL);
      for (int i = 0; i < TOTAL; i++)
        if (got[i] != want[i])
          fail_msg("invocation %d: 0x%08x, want 0x%08x (W=%u, %s)", i, got[i], want[i],
                   widths[wi], pi ? "2 threads" : "1 thread");
    }
  ir_program_free(p);
}

/* ------------------------------------------------------------ odds and ends */

static void test_many_groups(void **state) {
  (void)state;
  ir_program *p = prog_new(1, 1, 1);
  E(p, IR_END, 0, 0, 0, 0);
  vm_result res;
  assert_int_equal(run(pool2, p, NULL, 300, 200, 2, 64, 0, &res), VM_OK);
  assert_int_equal(res.instructions, 120000);
  assert_int_equal(run(NULL, p, NULL, 3, 1, 1, 8, 0, &res), VM_OK);
  assert_int_equal(res.instructions, 3);
  /* pc running past the end is an end too */
  p->code[0].op = IR_MOV;
  p->code[0].a = T(0);
  p->code[0].b = T(1);
  assert_int_equal(run(pool1, p, NULL, 4, 1, 1, 8, 0, &res), VM_OK);
  assert_int_equal(res.instructions, 4);
  ir_program_free(p);
}

static void test_invalid(void **state) {
  (void)state;
  ir_program *p = prog_new(8, 1, 1);
  prog_bindings(p, 1);
  E(p, IR_IADD, T(0), T(1), K(p, 3), NO);
  E(p, IR_END, 0, 0, 0, 0);
  uint32_t mem[4];
  vm_binding b = bind(mem, sizeof mem);
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_OK);
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 12, 0, NULL), VM_INVALID); /* width */
  p->code[0].c = NREGS;                                               /* register */
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID);
  p->code[0].c = K(p, 3);
  p->code[0].a = K(p, 3); /* writes a constant */
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID);
  p->code[0] = (ir_insn){.op = IR_JMP, .a = 3}; /* past the end + 1 */
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID);
  p->code[0] = (ir_insn){.op = IR_LDB, .a = T(0), .b = T(0), .c = 1}; /* slot */
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID);
  p->code[0] = (ir_insn){.op = IR_KILL, .a = 0, .b = 9}; /* mask slots */
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID);
  p->code[0] = (ir_insn){.op = IR_KILL, .a = 0, .b = 8}; /* [0, 8) is fine */
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_OK);
  p->code[0] = (ir_insn){.op = IR_ATOMB, .a = T(0), .b = T(0), .c = T(0), .d = IR_ATOM_COUNT};
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID); /* sub-op */
  p->code[0] = (ir_insn){.op = 999};
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID);
  p->code[0] = (ir_insn){.op = IR_END};
  p->builtin_reg[IR_BI_GLOBAL_INVOCATION_ID] = NREGS - 2; /* vector past the end */
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 8, 0, NULL), VM_INVALID);
  p->builtin_reg[IR_BI_GLOBAL_INVOCATION_ID] = GID;
  assert_int_equal(run(pool1, p, NULL, 1, 1, 1, 8, 0, NULL), VM_INVALID); /* no bindings */
  assert_int_equal(vm_dispatch(pool1, NULL, NULL), VM_INVALID);
  assert_int_equal(run(pool1, p, &b, 0, 1, 1, 8, 0, NULL), VM_OK); /* nothing to do */
  ir_program_free(p);
}

static void test_pool(void **state) {
  (void)state;
  assert_int_equal(vm_pool_threads(pool1), 1);
  assert_int_equal(vm_pool_threads(pool2), 2);
  vm_pool *p0 = vm_pool_create(0);
  assert_non_null(p0);
  assert_int_equal(vm_pool_threads(p0), 1);
  vm_pool_destroy(p0);
  vm_pool *p4 = vm_pool_create(4);
  assert_non_null(p4);
  assert_int_equal(vm_pool_threads(p4), 4);
  ir_program *p = mix_prog();
  enum { TOTAL = MIX_N * MIX_GX * MIX_GY };
  uint32_t want[TOTAL], got[TOTAL], count = 0;
  mix_ref(want);
  vm_binding b[2] = {bind(got, sizeof got), bind(&count, 4)};
  for (int rep = 0; rep < 20; rep++) { /* repeated dispatches reuse contexts */
    count = 0;
    memset(got, 0, sizeof got);
    assert_int_equal(run(p4, p, b, MIX_GX, MIX_GY, 1, widths[rep % 4], 0, NULL), VM_OK);
    assert_int_equal(count, TOTAL);
    assert_memory_equal(got, want, sizeof got);
  }
  ir_program_free(p);
  vm_pool_destroy(p4);
  vm_pool_destroy(NULL);
}

static void test_ir_text(void **state) {
  (void)state;
  assert_string_equal(ir_op_name(IR_IADD), "IADD");
  assert_string_equal(ir_op_form(IR_IADD), "rrr-");
  assert_string_equal(ir_op_name(IR_END), "END");
  assert_string_equal(ir_op_form(IR_LDB), "rrsk");
  assert_string_equal(ir_op_name(9999), "?");
  static const char src[] = "fn main() {\n  let x = 1;\n  y = x + 2;\n}\n";
  ir_program *p = prog_new(1, 1, 1);
  E(p, IR_IADD, T(5), T(3), K(p, 2), NO);
  E(p, IR_ATOMB, T(1), T(2), T(3), atom(IR_ATOM_MAX_U, 1));
  E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_END, 0, 0, 0, 0);
  p->spans = calloc(4, sizeof *p->spans);
  assert_non_null(p->spans);
  p->spans[0].start = (uint32_t)(strstr(src, "x + 2") - src);
  p->spans[1].start = (uint32_t)(strstr(src, "let") - src);
  p->spans[3].start = (uint32_t)(strrchr(src, '}') - src);
  p->source = src;
  p->source_len = sizeof src - 1;
  char *text = ir_disassemble(p);
  assert_non_null(text);
  assert_non_null(strstr(text, "   0  IADD    r37, r35, r0"));
  assert_non_null(strstr(text, "; line 3\n"));
  assert_non_null(strstr(text, "   1  ATOMB   r33, r34, r35, MAX_U s1"));
  assert_non_null(strstr(text, "; line 2\n"));
  assert_non_null(strstr(text, "   2  JNONE   @0                   ; line 1\n"));
  assert_non_null(strstr(text, "   3  END                          ; line 4\n"));
  free(text);
  p->source = NULL;
  text = ir_disassemble(p);
  assert_non_null(text);
  assert_null(strstr(text, "; line"));
  assert_non_null(strstr(text, "   3  END\n"));
  free(text);
  ir_program_free(p);
  ir_program_free(NULL);
}

/* ------------------------------------------------------------------ main */

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_int_ops),
      cmocka_unit_test(test_int_edges),
      cmocka_unit_test(test_int_division_random),
      cmocka_unit_test(test_float_ops),
      cmocka_unit_test(test_float_edges),
      cmocka_unit_test(test_select_idx_arrlen),
      cmocka_unit_test(test_builtins),
      cmocka_unit_test(test_if_else),
      cmocka_unit_test(test_loop_divergent),
      cmocka_unit_test(test_kill),
      cmocka_unit_test(test_buffer_bounds),
      cmocka_unit_test(test_buffer_partial),
      cmocka_unit_test(test_buffer_runs8),
      cmocka_unit_test(test_address_wrap),
      cmocka_unit_test(test_workgroup_memory),
      cmocka_unit_test(test_barrier_after_end),
      cmocka_unit_test(test_private_memory),
      cmocka_unit_test(test_private_zero),
      cmocka_unit_test(test_same_everywhere),
      cmocka_unit_test(test_many_groups),
      cmocka_unit_test(test_invalid),
      cmocka_unit_test(test_pool),
      cmocka_unit_test(test_ir_text),
  };
  return cmocka_run_group_tests(tests, asm_setup, asm_teardown);
}
