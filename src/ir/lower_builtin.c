/*
 * lower_builtin.c — calls of WGSL built-in functions to bytecode. Simple
 * arithmetic built-ins become the ordinary arithmetic opcodes (dot is
 * multiplies and adds, step a compare and a select); families that need a
 * lane loop of their own use one opcode with a sub-operation (FUN1, FUN2,
 * IBIT, PACKC, UNPACKC; see ir.h). Vector arguments are lowered one
 * component at a time; a scalar argument beside vectors (mix's factor,
 * extractBits' offset) is reused for every component.
 */
#include <string.h>

#include "lower_int.h"

static val bad(void) { return (val){0}; }

static uint32_t scalar_kind(const type *t) {
  const type *s = type_scalar_of(t);
  return s ? s->kind : TY_VOID;
}

/* Register of component i of v (a scalar serves every component). */
static uint32_t comp(val v, uint32_t i) { return v.reg + (v.n == 1 ? 0 : i); }

static uint32_t fconst(lw *L, float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return lw_const(L, u);
}

static uint32_t op3(lw *L, unsigned op, uint32_t x, uint32_t y) {
  uint32_t d = lw_reg(L, 1);
  lw_emit(L, op, d, x, y, 0);
  return d;
}

/* Sum of the componentwise products of a and b (n components). */
static uint32_t dot(lw *L, val a, val b, uint32_t n, int is_f) {
  uint32_t acc = op3(L, is_f ? IR_FMUL : IR_IMUL, a.reg, b.reg);
  for (uint32_t i = 1; i < n; i++) {
    uint32_t p = op3(L, is_f ? IR_FMUL : IR_IMUL, comp(a, i), comp(b, i));
    lw_emit(L, is_f ? IR_FADD : IR_IADD, acc, acc, p, 0);
  }
  return acc;
}

/* length(v): |x| for a scalar, sqrt(dot(v, v)) for a vector. */
static uint32_t length(lw *L, val v) {
  uint32_t d;
  if (v.n == 1) {
    d = lw_reg(L, 1);
    lw_emit(L, IR_FABS, d, v.reg, 0, 0);
    return d;
  }
  d = dot(L, v, v, v.n, 1);
  lw_emit(L, IR_FSQRT, d, d, 0, 0);
  return d;
}

static val diff(lw *L, val a, val b) {
  uint32_t d = lw_reg(L, a.n);
  for (uint32_t i = 0; i < a.n; i++) lw_emit(L, IR_FSUB, d + i, a.reg + i, comp(b, i), 0);
  return (val){.reg = d, .n = a.n, .type = a.type};
}

static int fun1_of(builtin_fn f) {
  switch (f) {
  case BF_ROUND: return IR_F1_ROUND;
  case BF_TRUNC: return IR_F1_TRUNC;
  case BF_INVERSE_SQRT: return IR_F1_INVSQRT;
  case BF_EXP: return IR_F1_EXP;
  case BF_EXP2: return IR_F1_EXP2;
  case BF_LOG: return IR_F1_LOG;
  case BF_LOG2: return IR_F1_LOG2;
  case BF_SIN: return IR_F1_SIN;
  case BF_COS: return IR_F1_COS;
  case BF_TAN: return IR_F1_TAN;
  case BF_ASIN: return IR_F1_ASIN;
  case BF_ACOS: return IR_F1_ACOS;
  case BF_ATAN: return IR_F1_ATAN;
  case BF_SINH: return IR_F1_SINH;
  case BF_COSH: return IR_F1_COSH;
  case BF_TANH: return IR_F1_TANH;
  case BF_ASINH: return IR_F1_ASINH;
  case BF_ACOSH: return IR_F1_ACOSH;
  case BF_ATANH: return IR_F1_ATANH;
  case BF_QUANTIZE_TO_F16: return IR_F1_QUANT16;
  default: return -1;
  }
}

static int ibit_of(builtin_fn f, int is_s) {
  switch (f) {
  case BF_COUNT_ONE_BITS: return IR_IB_POPCNT;
  case BF_COUNT_LEADING_ZEROS: return IR_IB_CLZ;
  case BF_COUNT_TRAILING_ZEROS: return IR_IB_CTZ;
  case BF_FIRST_LEADING_BIT: return is_s ? IR_IB_FLBS : IR_IB_FLBU;
  case BF_FIRST_TRAILING_BIT: return IR_IB_FTB;
  case BF_REVERSE_BITS: return IR_IB_REV;
  default: return -1;
  }
}

/* pack/unpack: the sub-operation, and how many components the packed
 * side has. */
static int pack_of(builtin_fn f, int *unpack, uint32_t *ncomp) {
  *unpack = 0;
  *ncomp = 4;
  switch (f) {
  case BF_PACK4X8SNORM: return IR_PK_4X8SNORM;
  case BF_PACK4X8UNORM: return IR_PK_4X8UNORM;
  case BF_PACK2X16SNORM: *ncomp = 2; return IR_PK_2X16SNORM;
  case BF_PACK2X16UNORM: *ncomp = 2; return IR_PK_2X16UNORM;
  case BF_PACK2X16FLOAT: *ncomp = 2; return IR_PK_2X16FLOAT;
  case BF_PACK4XI8: return IR_PK_4XI8;
  case BF_PACK4XU8: return IR_PK_4XU8;
  case BF_PACK4XI8_CLAMP: return IR_PK_4XI8C;
  case BF_PACK4XU8_CLAMP: return IR_PK_4XU8C;
  default: break;
  }
  *unpack = 1;
  switch (f) {
  case BF_UNPACK4X8SNORM: return IR_PK_4X8SNORM;
  case BF_UNPACK4X8UNORM: return IR_PK_4X8UNORM;
  case BF_UNPACK2X16SNORM: *ncomp = 2; return IR_PK_2X16SNORM;
  case BF_UNPACK2X16UNORM: *ncomp = 2; return IR_PK_2X16UNORM;
  case BF_UNPACK2X16FLOAT: *ncomp = 2; return IR_PK_2X16FLOAT;
  case BF_UNPACK4XI8: return IR_PK_4XI8;
  case BF_UNPACK4XU8: return IR_PK_4XU8;
  default: return -1;
  }
}

/* bitcast with f16 on either side: an f16 pair is one 32-bit word, low
 * half first (vec2<f16> <-> 32-bit scalar, vec4<f16> <-> vec2 of 32-bit).
 * PACKC/UNPACKC 2X16FLOAT move the exact encodings (f16 values need no
 * rounding). f16 -> f16 keeps the value. */
static val bitcast16(lw *L, val x, const type *t) {
  const type *ts = type_scalar_of(t), *fs = type_scalar_of(x.type);
  uint32_t d;
  if (ts->kind == TY_F16 && fs->kind == TY_F16) {
    d = lw_reg(L, x.n);
    for (uint32_t i = 0; i < x.n; i++) lw_emit(L, IR_MOV, d + i, x.reg + i, 0, 0);
    return (val){.reg = d, .n = x.n, .type = t};
  }
  if (fs->kind == TY_F16) { /* pairs of halves to words */
    uint32_t nw = x.n / 2;
    d = lw_reg(L, nw);
    for (uint32_t w = 0; w < nw; w++) {
      uint32_t hi = lw_reg(L, 1);
      lw_emit(L, IR_PACKC, d + w, x.reg + 2 * w, 0, IR_PK_2X16FLOAT);
      lw_emit(L, IR_PACKC, hi, x.reg + 2 * w + 1, 1, IR_PK_2X16FLOAT);
      lw_emit(L, IR_OR, d + w, d + w, hi, 0);
    }
    return (val){.reg = d, .n = nw, .type = t};
  }
  d = lw_reg(L, 2 * x.n); /* words to pairs of halves */
  for (uint32_t w = 0; w < x.n; w++) {
    lw_emit(L, IR_UNPACKC, d + 2 * w, x.reg + w, 0, IR_PK_2X16FLOAT);
    lw_emit(L, IR_UNPACKC, d + 2 * w + 1, x.reg + w, 1, IR_PK_2X16FLOAT);
  }
  return (val){.reg = d, .n = 2 * x.n, .type = t};
}

static val builtin_rows(lw *L, ast_expr *e, builtin_fn f, val *a, int n, const type *t, int is_f,
                        int is_s, int af);

/* Built-ins whose operands are memory views rather than values. */
static val memory_builtin(lw *L, ast_expr *e, builtin_fn f, int *done) {
  ast_expr **args = e->u.call.args;
  int n = e->u.call.nargs;
  *done = 1;
  switch (builtin_fn_kind(f)) {
  case BK_BAR:
    lw_emit(L, IR_BARRIER, 0, 0, 0, 0);
    return bad();
  case BK_TEX:
    return lw_texture_builtin(L, e, f);
  case BK_ALEN: {
    ref r = lw_ptr(L, args[0]);
    if (L->failed) return bad();
    if (r.space != AS_STORAGE) {
      lw_fail(L, e->span, "arrayLength needs a storage buffer array");
      return bad();
    }
    uint32_t d = lw_reg(L, 1);
    lw_emit(L, IR_ARRLEN, d, r.slot, r.type->stride, r.off);
    return (val){.reg = d, .n = 1, .type = e->type};
  }
  case BK_ATOM:
  case BK_CMPX: {
    ref r = lw_ptr(L, args[0]);
    if (L->failed) return bad();
    static const ir_atom ops[] = {
        [BF_ATOMIC_LOAD] = IR_ATOM_LOAD, [BF_ATOMIC_STORE] = IR_ATOM_STORE,
        [BF_ATOMIC_ADD] = IR_ATOM_ADD,   [BF_ATOMIC_SUB] = IR_ATOM_SUB,
        [BF_ATOMIC_MAX] = IR_ATOM_MAX_S, [BF_ATOMIC_MIN] = IR_ATOM_MIN_S,
        [BF_ATOMIC_AND] = IR_ATOM_AND,   [BF_ATOMIC_OR] = IR_ATOM_OR,
        [BF_ATOMIC_XOR] = IR_ATOM_XOR,   [BF_ATOMIC_EXCHANGE] = IR_ATOM_XCHG,
        [BF_ATOMIC_CMPX] = IR_ATOM_CMPX};
    uint32_t sub = ops[f];
    int is_u = r.type->elem->kind == TY_U32;
    if (f == BF_ATOMIC_MAX && is_u) sub = IR_ATOM_MAX_U;
    if (f == BF_ATOMIC_MIN && is_u) sub = IR_ATOM_MIN_U;
    val cmp = {0};
    if (f == BF_ATOMIC_CMPX) {
      cmp = lw_own(L, lw_value(L, args[1]));
      if (L->failed) return bad();
    }
    val v = n > 1 ? lw_value(L, args[n - 1]) : (val){.reg = lw_const(L, 0), .n = 1};
    if (L->failed) return bad();
    uint32_t addr = lw_addr(L, r, 0);
    /* compare-exchange: r[d] carries the expected value in, the old value
     * out; the result struct is {old_value, exchanged} */
    uint32_t d = lw_reg(L, f == BF_ATOMIC_CMPX ? 2 : 1);
    if (f == BF_ATOMIC_CMPX) lw_emit(L, IR_MOV, d, cmp.reg, 0, 0);
    if (r.space == AS_WORKGROUP) {
      uint32_t pc = lw_emit(L, IR_ATOMW, d, addr, v.reg, sub);
      if (!L->failed) L->code[pc].flags = (uint16_t)(r.slot + 1);
    } else lw_emit(L, IR_ATOMB, d, addr, v.reg, sub | (r.slot << 8));
    if (f == BF_ATOMIC_CMPX) {
      lw_emit(L, IR_IEQ, d + 1, d, cmp.reg, 0);
      return (val){.reg = d, .n = 2, .type = e->type};
    }
    return (val){.reg = d, .n = 1, .type = e->type};
  }
  case BK_WUL: {
    /* workgroupUniformLoad: a barrier on each side of the load, so every
     * invocation sees the same (settled) value */
    ref r = lw_ptr(L, args[0]);
    if (L->failed) return bad();
    lw_emit(L, IR_BARRIER, 0, 0, 0, 0);
    val v = lw_own(L, lw_load(L, r));
    lw_emit(L, IR_BARRIER, 0, 0, 0, 0);
    v.type = e->type;
    return v;
  }
  default: break;
  }
  *done = 0;
  return bad();
}

/* The IR_SG_* of a subgroup reduction or scan of f32, i32 or u32. */
/* is_h: the operand is f16, whose sums and products round to f16 at each
 * step; its min and max compare as floats like f32's. */
static uint32_t sg_op(builtin_fn f, int is_f, int is_s, int is_h) {
  switch (f) {
  case BF_SUBGROUP_ADD: case BF_SUBGROUP_EXCLUSIVE_ADD: case BF_SUBGROUP_INCLUSIVE_ADD:
    return is_h ? IR_SG_ADD_H : is_f ? IR_SG_ADD_F : IR_SG_ADD_I;
  case BF_SUBGROUP_MUL: case BF_SUBGROUP_EXCLUSIVE_MUL: case BF_SUBGROUP_INCLUSIVE_MUL:
    return is_h ? IR_SG_MUL_H : is_f ? IR_SG_MUL_F : IR_SG_MUL_I;
  case BF_SUBGROUP_MIN: return is_f ? IR_SG_MIN_F : is_s ? IR_SG_MIN_S : IR_SG_MIN_U;
  case BF_SUBGROUP_MAX: return is_f ? IR_SG_MAX_F : is_s ? IR_SG_MAX_S : IR_SG_MAX_U;
  case BF_SUBGROUP_AND: return IR_SG_AND;
  case BF_SUBGROUP_OR: return IR_SG_OR;
  default: return IR_SG_XOR;
  }
}

/* Subgroup and quad built-ins: one cross-lane instruction per component,
 * over the lanes active at the call. A shuffle's lane operand that is an
 * override-expression is checked here (pipeline creation), as the spec
 * asks; const ones were checked by the resolver. */
static val subgroup_builtin(lw *L, ast_expr *e, builtin_fn f, const val *a, int is_f, int is_s) {
  const type *t = e->type;
  builtin_kind k = builtin_fn_kind(f);
  if (k == BK_SGSHUF && e->u.call.args[1]->is_override_expr) {
    const cvalue *c = sema_eval(L->m, e->u.call.args[1], &L->env, L->d);
    if (!c) {
      L->failed = 1;
      return bad();
    }
    if (c->i < 0 || c->i > 127) {
      lw_fail(L, e->u.call.args[1]->span, "the %s argument of %s must be in [0, 128), found %lld",
              f == BF_SUBGROUP_SHUFFLE ? "id" : f == BF_SUBGROUP_SHUFFLE_XOR ? "mask" : "delta",
              builtin_fn_name(f), (long long)c->i);
      return bad();
    }
  }
  if (k == BK_SGBOOL || k == BK_ELECT) {
    uint32_t d = lw_reg(L, 1);
    uint32_t x = k == BK_ELECT ? lw_const(L, 0) : a[0].reg;
    lw_emit(L, IR_VOTE, d, x, 0, f == BF_SUBGROUP_ALL ? IR_VT_ALL : f == BF_SUBGROUP_ANY ? IR_VT_ANY : IR_VT_ELECT);
    return (val){.reg = d, .n = 1, .type = t};
  }
  if (k == BK_BALLOT) {
    uint32_t d = lw_reg(L, 4);
    for (uint32_t i = 0; i < 4; i++) lw_emit(L, IR_BALLOT, d + i, a[0].reg, 0, i);
    return (val){.reg = d, .n = 4, .type = t};
  }
  const int is_h = scalar_kind(t) == TY_F16;
  uint32_t w = t->words, d = lw_reg(L, w);
  for (uint32_t i = 0; i < w; i++) {
    uint32_t x = comp(a[0], i);
    switch (f) {
    case BF_SUBGROUP_EXCLUSIVE_ADD: case BF_SUBGROUP_EXCLUSIVE_MUL:
      lw_emit(L, IR_SCANX, d + i, x, 0, sg_op(f, is_f, is_s, is_h));
      break;
    case BF_SUBGROUP_INCLUSIVE_ADD: case BF_SUBGROUP_INCLUSIVE_MUL:
      lw_emit(L, IR_SCANI, d + i, x, 0, sg_op(f, is_f, is_s, is_h));
      break;
    case BF_SUBGROUP_BROADCAST: lw_emit(L, IR_SHUF, d + i, x, a[1].reg, IR_SH_IDX); break;
    case BF_SUBGROUP_BROADCAST_FIRST: lw_emit(L, IR_SHUF, d + i, x, x, IR_SH_FIRST); break;
    case BF_SUBGROUP_SHUFFLE: lw_emit(L, IR_SHUF, d + i, x, a[1].reg, IR_SH_IDX); break;
    case BF_SUBGROUP_SHUFFLE_XOR: lw_emit(L, IR_SHUF, d + i, x, a[1].reg, IR_SH_XOR); break;
    case BF_SUBGROUP_SHUFFLE_UP: lw_emit(L, IR_SHUF, d + i, x, a[1].reg, IR_SH_UP); break;
    case BF_SUBGROUP_SHUFFLE_DOWN: lw_emit(L, IR_SHUF, d + i, x, a[1].reg, IR_SH_DOWN); break;
    case BF_QUAD_BROADCAST: lw_emit(L, IR_SHUF, d + i, x, a[1].reg, IR_SH_QUAD); break;
    /* quads are lanes 4q..4q+3 with quad id lane & 3: X swaps id bit 0,
     * Y bit 1, the diagonal both */
    case BF_QUAD_SWAP_X: lw_emit(L, IR_SHUF, d + i, x, lw_const(L, 1), IR_SH_XOR); break;
    case BF_QUAD_SWAP_Y: lw_emit(L, IR_SHUF, d + i, x, lw_const(L, 2), IR_SH_XOR); break;
    case BF_QUAD_SWAP_DIAGONAL: lw_emit(L, IR_SHUF, d + i, x, lw_const(L, 3), IR_SH_XOR); break;
    default: lw_emit(L, IR_SRED, d + i, x, 0, sg_op(f, is_f, is_s, is_h)); break;
    }
  }
  return (val){.reg = d, .n = w, .type = t};
}

/* The spec's errors for arguments known before the call runs (clamp's
 * bounds, extractBits' offset and count, ...): those that are
 * override-expressions are known now, at pipeline creation (the resolver
 * checked the constant ones). */
static int known_args_ok(lw *L, ast_expr *e, builtin_fn f) {
  const unsigned need = sema_known_args(f);
  const int n = e->u.call.nargs;
  const cvalue *v[4] = {NULL, NULL, NULL, NULL};
  src_span sp[4];
  int any = 0;
  if (!need || n > 4) return 1;
  for (int i = 0; i < n; i++) {
    ast_expr *x = e->u.call.args[i];
    sp[i] = x->span;
    if (!(need >> i & 1u) || (!x->cval && !x->is_override_expr)) continue;
    v[i] = x->cval ? x->cval : sema_eval(L->m, x, &L->env, L->d);
    if (!v[i]) L->failed = 1;
    any |= x->is_override_expr;
  }
  if (!L->failed && any && !sema_known_args_ok(f, v, n, e->type, e->span, sp, L->d)) L->failed = 1;
  return !L->failed;
}

val lw_builtin(lw *L, ast_expr *e) {
  builtin_fn f = (builtin_fn)e->builtin;
  ast_expr **args = e->u.call.args;
  int n = e->u.call.nargs;
  int done;
  val mr = memory_builtin(L, e, f, &done);
  if (done) return mr;
  if (n > 4) {
    lw_fail(L, e->span, "'%s' is not supported by lockstep yet", builtin_fn_name(f));
    return bad();
  }
  if (!known_args_ok(L, e, f)) return bad();
  val a[4] = {{0}};
  /* arguments run left to right: an argument that still aliases a
   * variable's registers is copied when a later one makes a call */
  int call_after[5] = {0};
  for (int i = n - 1; i >= 0; i--) call_after[i] = call_after[i + 1] || lw_has_call(args[i]);
  for (int i = 0; i < n; i++) {
    a[i] = lw_value(L, args[i]);
    if (L->failed) return bad();
    if (call_after[i + 1]) a[i] = lw_own(L, a[i]);
  }
  const type *t = e->type;
  uint32_t sk = scalar_kind(t), ak = n ? scalar_kind(a[0].type) : TY_VOID;
  if (f == BF_BITCAST && (sk == TY_F16 || ak == TY_F16)) return bitcast16(L, a[0], t);
  int is_f = sk == TY_F32 || sk == TY_F16, is_s = sk == TY_I32;
  int af = ak == TY_F32 || ak == TY_F16;
  L->span = e->span;
  /* f16 built-ins: the f32 lowering below, every arithmetic step rounded
   * to f16 by lw_emit (transcendentals: computed in double and rounded
   * once to f16, FUN1/FUN2 with IR_FUN_F16) */
  const int saved16 = L->f16;
  L->f16 = sk == TY_F16 || ak == TY_F16;
  val r = builtin_rows(L, e, f, a, n, t, is_f, is_s, af);
  L->f16 = saved16;
  return r;
}

/* The value built-ins on lowered arguments a[0..n): is_f/is_s describe the
 * result's scalar type, af the first argument's. */
static val builtin_rows(lw *L, ast_expr *e, builtin_fn f, val *a, int n, const type *t, int is_f,
                        int is_s, int af) {
  /* built-ins that combine components, or whose result shape differs */
  switch (builtin_fn_kind(f)) {
  case BK_SGRED: case BK_SGBIT: case BK_SGBC: case BK_SGSHUF: case BK_SGONE: case BK_SGBOOL:
  case BK_BALLOT: case BK_ELECT: case BK_QBC:
    return subgroup_builtin(L, e, f, a, is_f, is_s);
  case BK_DOT:
    return (val){.reg = dot(L, a[0], a[1], a[0].n, af), .n = 1, .type = t};
  case BK_TRANSPOSE: return lw_transpose(L, a[0], t);
  case BK_DET: return lw_determinant(L, a[0], t);
  case BK_LEN:
    return (val){.reg = length(L, a[0]), .n = 1, .type = t};
  case BK_DIST:
    return (val){.reg = length(L, diff(L, a[0], a[1])), .n = 1, .type = t};
  case BK_NORM: {
    uint32_t len = length(L, a[0]), d = lw_reg(L, a[0].n);
    for (uint32_t i = 0; i < a[0].n; i++) lw_emit(L, IR_FDIV, d + i, a[0].reg + i, len, 0);
    return (val){.reg = d, .n = a[0].n, .type = t};
  }
  case BK_CROSS: {
    uint32_t d = lw_reg(L, 3);
    for (uint32_t i = 0; i < 3; i++) {
      uint32_t j = (i + 1) % 3, k = (i + 2) % 3;
      uint32_t p = op3(L, IR_FMUL, a[0].reg + j, a[1].reg + k);
      uint32_t q = op3(L, IR_FMUL, a[0].reg + k, a[1].reg + j);
      lw_emit(L, IR_FSUB, d + i, p, q, 0);
    }
    return (val){.reg = d, .n = 3, .type = t};
  }
  case BK_REFLECT: {
    /* e1 - 2 * dot(e2, e1) * e2 */
    uint32_t k = dot(L, a[1], a[0], a[0].n, 1);
    lw_emit(L, IR_FMUL, k, k, fconst(L, 2.0f), 0);
    uint32_t d = lw_reg(L, a[0].n);
    for (uint32_t i = 0; i < a[0].n; i++) {
      uint32_t p = op3(L, IR_FMUL, k, a[1].reg + i);
      lw_emit(L, IR_FSUB, d + i, a[0].reg + i, p, 0);
    }
    return (val){.reg = d, .n = a[0].n, .type = t};
  }
  case BK_REFRACT: {
    /* k = 1 - e3 * e3 * (1 - dot(e2, e1)^2); k < 0 ? 0 :
     * e3 * e1 - (e3 * dot(e2, e1) + sqrt(k)) * e2, in the spec's order */
    uint32_t dd = dot(L, a[1], a[0], a[0].n, 1), one = fconst(L, 1.0f);
    uint32_t k = op3(L, IR_FMUL, dd, dd);
    lw_emit(L, IR_FSUB, k, one, k, 0);
    uint32_t s = op3(L, IR_FMUL, a[2].reg, a[2].reg);
    lw_emit(L, IR_FMUL, k, s, k, 0);
    lw_emit(L, IR_FSUB, k, one, k, 0);
    uint32_t zero = fconst(L, 0.0f), tir = op3(L, IR_FLT, k, zero);
    lw_emit(L, IR_FSQRT, s, k, 0, 0); /* NaN when k < 0: selected away */
    uint32_t m = op3(L, IR_FMUL, a[2].reg, dd);
    lw_emit(L, IR_FADD, m, m, s, 0);
    uint32_t d = lw_reg(L, a[0].n);
    for (uint32_t i = 0; i < a[0].n; i++) {
      uint32_t p = op3(L, IR_FMUL, a[2].reg, a[0].reg + i);
      uint32_t q = op3(L, IR_FMUL, m, a[1].reg + i);
      lw_emit(L, IR_FSUB, p, p, q, 0);
      lw_emit(L, IR_SELECT, d + i, p, zero, tir);
    }
    return (val){.reg = d, .n = a[0].n, .type = t};
  }
  case BK_FREXP:
  case BK_MODF: {
    /* the result struct's leaves: fract's components, then exp's/whole's */
    uint32_t w = a[0].n, d = lw_reg(L, 2 * w);
    for (uint32_t i = 0; i < w; i++) {
      if (f == BF_FREXP) {
        /* the fraction of an f16 value is an f16 value, and the
         * exponent is integer bits that no f16 rounding may touch */
        const int saved16 = L->f16;
        L->f16 = 0;
        lw_emit(L, IR_FUN1, d + i, a[0].reg + i, 0, IR_F1_FREXPF);
        lw_emit(L, IR_FUN1, d + w + i, a[0].reg + i, 0, IR_F1_FREXPE);
        L->f16 = saved16;
      } else {
        /* whole = trunc(e), fract = e - trunc(e): exact, and both keep
         * e's sign (an integral negative e gives fract +0) */
        lw_emit(L, IR_FUN1, d + w + i, a[0].reg + i, 0, IR_F1_TRUNC);
        lw_emit(L, IR_FSUB, d + i, a[0].reg + i, d + w + i, 0);
      }
    }
    return (val){.reg = d, .n = 2 * w, .type = t};
  }
  case BK_FACEFWD: {
    /* dot(e2, e3) < 0 ? e1 : -e1 */
    uint32_t k = dot(L, a[1], a[2], a[1].n, 1);
    uint32_t neg = op3(L, IR_FLT, k, fconst(L, 0.0f));
    uint32_t d = lw_reg(L, a[0].n);
    for (uint32_t i = 0; i < a[0].n; i++) {
      uint32_t m = lw_reg(L, 1);
      lw_emit(L, IR_FNEG, m, a[0].reg + i, 0, 0);
      lw_emit(L, IR_SELECT, d + i, m, a[0].reg + i, neg);
    }
    return (val){.reg = d, .n = a[0].n, .type = t};
  }
  case BK_ALLANY: {
    uint32_t d = lw_reg(L, 1);
    lw_emit(L, IR_MOV, d, a[0].reg, 0, 0);
    for (uint32_t i = 1; i < a[0].n; i++) lw_emit(L, f == BF_ALL ? IR_AND : IR_OR, d, d, a[0].reg + i, 0);
    return (val){.reg = d, .n = 1, .type = t};
  }
  case BK_BITCAST: {
    /* every 32-bit type keeps its bits */
    uint32_t d = lw_reg(L, a[0].n);
    for (uint32_t i = 0; i < a[0].n; i++) lw_emit(L, IR_MOV, d + i, a[0].reg + i, 0, 0);
    return (val){.reg = d, .n = a[0].n, .type = t};
  }
  case BK_FIXED: {
    if (f == BF_DOT4U8_PACKED || f == BF_DOT4I8_PACKED) {
      uint32_t d = lw_reg(L, 1);
      lw_emit(L, IR_DOT4P, d, a[0].reg, a[1].reg, f == BF_DOT4I8_PACKED);
      return (val){.reg = d, .n = 1, .type = t};
    }
    if (f == BF_QUANTIZE_TO_F16) break; /* componentwise, below */
    int unpack;
    uint32_t nc;
    int pk = pack_of(f, &unpack, &nc);
    if (pk < 0) break;
    if (unpack) {
      uint32_t d = lw_reg(L, nc);
      for (uint32_t i = 0; i < nc; i++) lw_emit(L, IR_UNPACKC, d + i, a[0].reg, i, (uint32_t)pk);
      return (val){.reg = d, .n = nc, .type = t};
    }
    uint32_t d = lw_reg(L, 1);
    lw_emit(L, IR_PACKC, d, a[0].reg, 0, (uint32_t)pk);
    for (uint32_t i = 1; i < nc; i++) {
      uint32_t p = lw_reg(L, 1);
      lw_emit(L, IR_PACKC, p, a[0].reg + i, i, (uint32_t)pk);
      lw_emit(L, IR_OR, d, d, p, 0);
    }
    return (val){.reg = d, .n = 1, .type = t};
  }
  default: break;
  }

  /* componentwise */
  uint32_t w = t->words, dst = lw_reg(L, w);
  for (uint32_t i = 0; i < w && !L->failed; i++) {
    uint32_t x = n > 0 ? comp(a[0], i) : 0;
    uint32_t y = n > 1 ? comp(a[1], i) : 0;
    uint32_t z = n > 2 ? comp(a[2], i) : 0;
    uint32_t d = dst + i;
    int k;
    switch (f) {
    case BF_ABS:
      if (is_f) lw_emit(L, IR_FABS, d, x, 0, 0);
      else if (is_s) lw_emit(L, IR_SABS, d, x, 0, 0);
      else lw_emit(L, IR_MOV, d, x, 0, 0);
      break;
    case BF_MIN: lw_emit(L, is_f ? IR_FMIN : is_s ? IR_SMIN : IR_UMIN, d, x, y, 0); break;
    case BF_MAX: lw_emit(L, is_f ? IR_FMAX : is_s ? IR_SMAX : IR_UMAX, d, x, y, 0); break;
    case BF_CLAMP:
      lw_emit(L, is_f ? IR_FMAX : is_s ? IR_SMAX : IR_UMAX, d, x, y, 0);
      lw_emit(L, is_f ? IR_FMIN : is_s ? IR_SMIN : IR_UMIN, d, d, z, 0);
      break;
    case BF_SATURATE:
      lw_emit(L, IR_FMAX, d, x, fconst(L, 0.0f), 0);
      lw_emit(L, IR_FMIN, d, d, fconst(L, 1.0f), 0);
      break;
    case BF_SQRT: lw_emit(L, IR_FSQRT, d, x, 0, 0); break;
    case BF_FLOOR: lw_emit(L, IR_FFLOOR, d, x, 0, 0); break;
    case BF_CEIL: lw_emit(L, IR_FCEIL, d, x, 0, 0); break;
    case BF_FRACT: /* x - floor(x) */
      lw_emit(L, IR_FFLOOR, d, x, 0, 0);
      lw_emit(L, IR_FSUB, d, x, d, 0);
      break;
    case BF_DEGREES: lw_emit(L, IR_FMUL, d, x, fconst(L, 57.295779513082320876798f), 0); break;
    case BF_RADIANS: lw_emit(L, IR_FMUL, d, x, fconst(L, 0.017453292519943295769f), 0); break;
    case BF_SELECT: lw_emit(L, IR_SELECT, d, x, y, z); break;
    case BF_ATAN2: lw_emit(L, IR_FUN2, d, x, y, IR_F2_ATAN2); break;
    case BF_POW: lw_emit(L, IR_FUN2, d, x, y, IR_F2_POW); break;
    case BF_LDEXP: lw_emit(L, IR_FUN2, d, x, y, IR_F2_LDEXP); break;
    case BF_FMA: lw_emit(L, IR_FMA, d, x, y, z); break;
    case BF_STEP: { /* edge <= x ? 1 : 0 */
      uint32_t c = op3(L, IR_FLE, x, y);
      lw_emit(L, IR_SELECT, d, fconst(L, 0.0f), fconst(L, 1.0f), c);
      break;
    }
    case BF_SMOOTHSTEP: { /* t = clamp((x - lo) / (hi - lo), 0, 1); t * t * (3 - 2 t) */
      uint32_t num = op3(L, IR_FSUB, z, x), den = op3(L, IR_FSUB, y, x);
      uint32_t tt = op3(L, IR_FDIV, num, den);
      lw_emit(L, IR_FMAX, tt, tt, fconst(L, 0.0f), 0);
      lw_emit(L, IR_FMIN, tt, tt, fconst(L, 1.0f), 0);
      uint32_t u = op3(L, IR_FMUL, tt, fconst(L, 2.0f));
      lw_emit(L, IR_FSUB, u, fconst(L, 3.0f), u, 0);
      lw_emit(L, IR_FMUL, d, tt, tt, 0);
      lw_emit(L, IR_FMUL, d, d, u, 0);
      break;
    }
    case BF_MIX: { /* x * (1 - t) + y * t */
      uint32_t om = op3(L, IR_FSUB, fconst(L, 1.0f), z);
      uint32_t p = op3(L, IR_FMUL, x, om), q = op3(L, IR_FMUL, y, z);
      lw_emit(L, IR_FADD, d, p, q, 0);
      break;
    }
    case BF_SIGN: {
      uint32_t zero = is_f ? fconst(L, 0.0f) : lw_const(L, 0);
      uint32_t pos = is_f ? op3(L, IR_FLT, zero, x) : op3(L, IR_SLT, zero, x);
      uint32_t neg = is_f ? op3(L, IR_FLT, x, zero) : op3(L, IR_SLT, x, zero);
      lw_emit(L, IR_SELECT, d, zero, is_f ? fconst(L, 1.0f) : lw_const(L, 1), pos);
      lw_emit(L, IR_SELECT, d, d, is_f ? fconst(L, -1.0f) : lw_const(L, UINT32_MAX), neg);
      break;
    }
    case BF_EXTRACT_BITS: lw_emit(L, is_s ? IR_BFEXTS : IR_BFEXTU, d, x, y, z); break;
    case BF_INSERT_BITS:
      lw_emit(L, IR_MOV, d, x, 0, 0);
      lw_emit(L, IR_BFINS, d, y, z, comp(a[3], i));
      break;
    default:
      if ((k = fun1_of(f)) >= 0) {
        lw_emit(L, IR_FUN1, d, x, 0, (uint32_t)k);
      } else if ((k = ibit_of(f, is_s)) >= 0) {
        lw_emit(L, IR_IBIT, d, x, 0, (uint32_t)k);
      } else {
        lw_fail(L, e->span, "'%s' is not supported by lockstep yet", builtin_fn_name(f));
        return bad();
      }
      break;
    }
  }
  return (val){.reg = dst, .n = w, .type = t};
}
