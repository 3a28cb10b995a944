/*
 * subgroup.c — WGSL's subgroup and quad built-in functions on one subgroup
 * at a time (see subgroup.h). Only active lanes (the execution mask)
 * contribute: lanes of a divergent branch not taken, lanes that returned
 * and the empty tail of a partial subgroup are invisible. Float reductions
 * and scans combine in lane order, one f32 rounding per step, so a result
 * is reproducible at a given width. A shuffle or broadcast that names a
 * lane that is not active (or not in the subgroup) gives 0: the spec leaves
 * that value indeterminate, and 0 is easy to recognise.
 */
#include "subgroup.h"

#include <string.h>

#include "../ir/ir.h"
#include "vm.h"

/* fminf/fmaxf without errno: a NaN operand yields the other operand, as
 * the VM's FMIN/FMAX do. */
static float sg_fmin(float x, float y) { return x != x ? y : y < x ? y : x; }
static float sg_fmax(float x, float y) { return x != x ? y : x < y ? y : x; }

static uint32_t sg_combine(unsigned op, uint32_t a, uint32_t b) {
  switch (op) {
  case IR_SG_ADD_I: return a + b;
  case IR_SG_ADD_F: return vm_f2u_bits(vm_bits_f(a) + vm_bits_f(b));
  case IR_SG_MUL_I: return a * b;
  case IR_SG_MUL_F: return vm_f2u_bits(vm_bits_f(a) * vm_bits_f(b));
  case IR_SG_ADD_H: return vm_f16_round_bits(vm_f2u_bits(vm_bits_f(a) + vm_bits_f(b)));
  case IR_SG_MUL_H: return vm_f16_round_bits(vm_f2u_bits(vm_bits_f(a) * vm_bits_f(b)));
  case IR_SG_MIN_S: return (int32_t)a < (int32_t)b ? a : b;
  case IR_SG_MIN_U: return a < b ? a : b;
  case IR_SG_MIN_F: return vm_f2u_bits(sg_fmin(vm_bits_f(a), vm_bits_f(b)));
  case IR_SG_MAX_S: return (int32_t)a > (int32_t)b ? a : b;
  case IR_SG_MAX_U: return a > b ? a : b;
  case IR_SG_MAX_F: return vm_f2u_bits(sg_fmax(vm_bits_f(a), vm_bits_f(b)));
  case IR_SG_AND: return a & b;
  case IR_SG_OR: return a | b;
  case IR_SG_XOR: return a ^ b;
  default: return 0; /* rejected by vm_check */
  }
}

/* The identity of op: what an exclusive scan gives its lowest lane (and a
 * reduction over no lane, which no lane can observe). */
static uint32_t sg_identity(unsigned op) {
  switch (op) {
  case IR_SG_MUL_I: return 1;
  case IR_SG_MUL_F: case IR_SG_MUL_H: return 0x3f800000u; /* 1.0 */
  case IR_SG_AND: return UINT32_MAX;
  default: return 0;
  }
}

/* Integer reductions of a whole subgroup: no order to keep, so plain loops
 * the compiler can vectorise. */
static int sg_reduce_full(const uint32_t *x, unsigned op, unsigned w, uint32_t *out) {
  uint32_t acc = x[0];
  switch (op) {
  case IR_SG_ADD_I: for (unsigned l = 1; l < w; l++) acc += x[l]; break;
  case IR_SG_AND: for (unsigned l = 1; l < w; l++) acc &= x[l]; break;
  case IR_SG_OR: for (unsigned l = 1; l < w; l++) acc |= x[l]; break;
  case IR_SG_XOR: for (unsigned l = 1; l < w; l++) acc ^= x[l]; break;
  case IR_SG_MIN_U: for (unsigned l = 1; l < w; l++) acc = x[l] < acc ? x[l] : acc; break;
  case IR_SG_MAX_U: for (unsigned l = 1; l < w; l++) acc = x[l] > acc ? x[l] : acc; break;
  default: return 0;
  }
  *out = acc;
  return 1;
}

uint32_t vm_sg_reduce(const uint32_t *x, uint64_t live, unsigned op, unsigned w) {
  const uint64_t full = w < 64 ? (UINT64_C(1) << w) - 1 : UINT64_MAX;
  live &= full;
  uint32_t r;
  if (live == full && sg_reduce_full(x, op, w, &r)) return r;
  if (!live) return sg_identity(op);
  /* start from the lowest lane itself, not from the identity: -0.0 and
   * NaN payloads come through unchanged when one lane is active */
  uint32_t acc = x[__builtin_ctzll(live)];
  for (uint64_t m = live & (live - 1); m; m &= m - 1) acc = sg_combine(op, acc, x[__builtin_ctzll(m)]);
  return acc;
}

/* One lane loop per operation (the switch stays outside the loop). */
#define SG_SCAN(comb)                                                          \
  for (unsigned l = 0; l < w; l++) {                                           \
    const uint32_t v = x[l];                                                   \
    if (!(live >> l & 1)) {                                                    \
      d[l] = acc;                                                              \
      continue;                                                                \
    }                                                                          \
    const uint32_t next = started ? comb(acc, v) : v;                          \
    d[l] = exclusive ? acc : next;                                             \
    acc = next;                                                                \
    started = 1;                                                               \
  }
#define SG_ADDI(a, b) ((a) + (b))
#define SG_MULI(a, b) ((a) * (b))
#define SG_ADDF(a, b) vm_f2u_bits(vm_bits_f(a) + vm_bits_f(b))
#define SG_MULF(a, b) vm_f2u_bits(vm_bits_f(a) * vm_bits_f(b))
#define SG_ADDH(a, b) vm_f16_round_bits(vm_f2u_bits(vm_bits_f(a) + vm_bits_f(b)))
#define SG_MULH(a, b) vm_f16_round_bits(vm_f2u_bits(vm_bits_f(a) * vm_bits_f(b)))
#define SG_ANY(a, b) sg_combine(op, (a), (b))

void vm_sg_scan(uint32_t *d, const uint32_t *x, uint64_t live, unsigned op, int exclusive,
                unsigned w) {
  uint32_t acc = sg_identity(op);
  int started = 0;
  switch (op) {
  case IR_SG_ADD_I: SG_SCAN(SG_ADDI) break;
  case IR_SG_MUL_I: SG_SCAN(SG_MULI) break;
  case IR_SG_ADD_F: SG_SCAN(SG_ADDF) break;
  case IR_SG_MUL_F: SG_SCAN(SG_MULF) break;
  case IR_SG_ADD_H: SG_SCAN(SG_ADDH) break;
  case IR_SG_MUL_H: SG_SCAN(SG_MULH) break;
  default: SG_SCAN(SG_ANY) break;
  }
}

#undef SG_SCAN
#undef SG_ADDI
#undef SG_MULI
#undef SG_ADDF
#undef SG_MULF
#undef SG_ADDH
#undef SG_MULH
#undef SG_ANY

/* Lane s is active (s may be any value). */
#define SG_OK(s) ((s) < w && (live >> (s) & 1))

uint64_t vm_sg_shuffle(uint32_t *d, const uint32_t *x, const uint32_t *y, uint64_t live,
                       unsigned sel, unsigned w) {
  uint32_t t[128];
  uint64_t miss = 0;
  /* one loop per selection, so each is a plain gather */
  switch (sel) {
  case IR_SH_IDX:
    for (unsigned l = 0; l < w; l++) {
      const uint32_t s = y[l];
      const int ok = SG_OK(s);
      t[l] = ok ? x[s] : 0u;
      miss |= (uint64_t)!ok << l;
    }
    break;
  case IR_SH_XOR:
    for (unsigned l = 0; l < w; l++) {
      const uint32_t s = l ^ y[l];
      const int ok = SG_OK(s);
      t[l] = ok ? x[s] : 0u;
      miss |= (uint64_t)!ok << l;
    }
    break;
  case IR_SH_UP: /* below lane 0 wraps past w */
    for (unsigned l = 0; l < w; l++) {
      const uint32_t s = l - y[l];
      const int ok = SG_OK(s);
      t[l] = ok ? x[s] : 0u;
      miss |= (uint64_t)!ok << l;
    }
    break;
  case IR_SH_DOWN: /* in 64 bits: lane + delta must not wrap into range */
    for (unsigned l = 0; l < w; l++) {
      const uint64_t s = (uint64_t)l + y[l];
      const int ok = SG_OK(s);
      t[l] = ok ? x[s] : 0u;
      miss |= (uint64_t)!ok << l;
    }
    break;
  case IR_SH_QUAD:
    for (unsigned l = 0; l < w; l++) {
      const uint32_t s = (l & ~3u) | y[l];
      const int ok = y[l] < 4 && SG_OK(s);
      t[l] = ok ? x[s] : 0u;
      miss |= (uint64_t)!ok << l;
    }
    break;
  case IR_SH_FIRST: {
    const uint32_t v = live ? x[__builtin_ctzll(live)] : 0u;
    for (unsigned l = 0; l < w; l++) t[l] = v;
    break;
  }
  default: memset(t, 0, (size_t)w * sizeof *t); break;
  }
  memcpy(d, t, (size_t)w * sizeof *d);
  return miss & live;
}

#undef SG_OK

void vm_sg_vote(uint32_t *d, uint64_t nz, uint64_t live, unsigned op, unsigned w) {
  uint32_t all = (live & ~nz) == 0, any = (live & nz) != 0;
  const uint64_t lowest = live & (0 - live);
  for (unsigned l = 0; l < w; l++) {
    switch (op) {
    case IR_VT_ALL: d[l] = all; break;
    case IR_VT_ANY: d[l] = any; break;
    case IR_VT_ELECT: d[l] = (lowest >> l & 1) != 0; break;
    default: d[l] = 0; break;
    }
  }
}
