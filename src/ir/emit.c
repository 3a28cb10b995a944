/*
 * emit.c — the lowering's emitter (see emit.h): instructions with their
 * spans, the temporaries' and mask slots' stacks, the constant pool and its
 * hash index, errors, and the final renumbering of registers. It knows the
 * bytecode (ir.h) and nothing of WGSL; every lowering file calls it and it
 * calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lower_int.h"

#define LW_MAX_CODE (1u << 22)
#define LW_MAX_REGS (1u << 16)

void lw_fail(lw *L, src_span s, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  diag_error(L->d, s, "%s", buf);
  L->failed = 1;
}

uint32_t lw_emit(lw *L, unsigned op, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  if (L->failed) return 0;
  if (L->ncode == L->capcode) {
    uint32_t cap = L->capcode ? L->capcode * 2 : 256;
    if (cap > LW_MAX_CODE) {
      lw_fail(L, L->span, "the shader is too large once its functions are inlined (over %u instructions)",
              LW_MAX_CODE);
      return 0;
    }
    ir_insn *nc = realloc(L->code, cap * sizeof *nc);
    src_span *ns = realloc(L->spans, cap * sizeof *ns);
    if (nc) L->code = nc;
    if (ns) L->spans = ns;
    if (!nc || !ns) {
      lw_fail(L, L->span, "out of memory");
      return 0;
    }
    L->capcode = cap;
  }
  ir_insn *i = &L->code[L->ncode];
  i->op = (uint16_t)op;
  i->flags = 0;
  i->a = a;
  i->b = b;
  i->c = c;
  i->d = d;
  L->spans[L->ncode] = L->span;
  const uint32_t pc = L->ncode++;
  if (L->f16) {
    /* f16 values live in registers as f32: each arithmetic step of an f16
     * expression is done in f32 and rounded once to f16 (vm.c says why that
     * is the correctly rounded f16 result for + - * / and sqrt) */
    switch (op) {
    case IR_FUN1: case IR_FUN2: /* computed in double: rounded once to f16 */
      i->d |= IR_FUN_F16;
      break;
    case IR_FADD: case IR_FSUB: case IR_FMUL: case IR_FDIV: case IR_FREM: case IR_FSQRT:
    case IR_FMA: case IR_S2F: case IR_U2F:
      L->f16 = 0;
      lw_emit(L, IR_F16R, a, a, 0, 0);
      L->f16 = 1;
      break;
    default: break;
    }
  }
  return pc;
}

uint32_t lw_reg(lw *L, uint32_t n) {
  uint32_t r = L->top;
  L->top += n;
  if (L->top > L->maxregs) L->maxregs = L->top;
  if (L->top > LW_MAX_REGS && !L->failed)
    lw_fail(L, L->span, "the shader needs more than %u registers", LW_MAX_REGS);
  return r;
}

uint32_t lw_mask(lw *L) {
  uint32_t m = L->mtop++;
  if (L->mtop > L->maxmasks) L->maxmasks = L->mtop;
  return m;
}

/* ------------------------------------------------------- constant pool */

/* The pool is L->consts in order of first use (that order is the program's
 * constant registers, so it must not depend on the index). The index is an
 * open-addressed table of pool positions + 1 (0: empty), at most half full,
 * probed linearly from a mixed hash: float and integer constants share
 * their low bits often, so the bits are scrambled before masking. */
static uint32_t lw_hash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/* Rebuilds the index at cap slots (a power of two) from the pool. */
static int lw_index_grow(lw *L, uint32_t cap) {
  uint32_t *t = calloc(cap, sizeof *t);
  if (!t) return 0;
  for (uint32_t i = 0; i < L->nconsts; i++) {
    uint32_t h = lw_hash(L->consts[i]) & (cap - 1);
    while (t[h]) h = (h + 1) & (cap - 1);
    t[h] = i + 1;
  }
  free(L->cindex);
  L->cindex = t;
  L->capcindex = cap;
  return 1;
}

uint32_t lw_const(lw *L, uint32_t bits) {
  if ((L->nconsts + 1) * 2 > L->capcindex &&
      !lw_index_grow(L, L->capcindex ? L->capcindex * 2 : 128)) {
    lw_fail(L, L->span, "out of memory");
    return LW_CONST_TAG;
  }
  const uint32_t mask = L->capcindex - 1;
  uint32_t h = lw_hash(bits) & mask;
  for (; L->cindex[h]; h = (h + 1) & mask)
    if (L->consts[L->cindex[h] - 1] == bits) return (L->cindex[h] - 1) | LW_CONST_TAG;
  if (L->nconsts == L->capconsts) {
    uint32_t cap = L->capconsts ? L->capconsts * 2 : 64;
    uint32_t *n = realloc(L->consts, cap * sizeof *n);
    if (!n) {
      lw_fail(L, L->span, "out of memory");
      return LW_CONST_TAG;
    }
    L->consts = n;
    L->capconsts = cap;
  }
  L->consts[L->nconsts] = bits;
  L->cindex[h] = L->nconsts + 1;
  return L->nconsts++ | LW_CONST_TAG;
}

/* ---------------------------------------------------------- final pass */

void lw_emit_finish(lw *L) {
  for (uint32_t pc = 0; pc < L->ncode; pc++) {
    ir_insn *i = &L->code[pc];
    const char *form = ir_op_form(i->op);
    uint32_t *f[4] = {&i->a, &i->b, &i->c, &i->d};
    for (int k = 0; k < 4; k++) {
      if (form[k] != 'r') continue;
      uint32_t v = *f[k];
      *f[k] = (v & LW_CONST_TAG) ? (v & ~LW_CONST_TAG) : v + L->nconsts;
    }
  }
  for (int b = 0; b < IR_BI_COUNT; b++)
    if (L->builtin_reg[b] != IR_NO_REG) L->builtin_reg[b] += L->nconsts;
  free(L->cindex);
  L->cindex = NULL;
  L->capcindex = 0;
}

void lw_emit_release(lw *L) {
  free(L->code);
  free(L->spans);
  free(L->consts);
  free(L->cindex);
  L->code = NULL;
  L->spans = NULL;
  L->consts = NULL;
  L->cindex = NULL;
  L->ncode = L->capcode = L->nconsts = L->capconsts = L->capcindex = 0;
}
