/*
 * lower_expr.c — expressions to bytecode: values in registers (one register
 * per scalar leaf), memory views (ref) for loads and stores, conversions
 * and constructors; calls of built-in functions go to lower_builtin.c.
 * Constant and override-expressions never generate arithmetic: they become
 * constant registers.
 */
#include <string.h>

#include "lower_int.h"

#define MAX_LEAVES 4096

static val bad(void) { return (val){0}; }

/* ---------------------------------------------------------------- values */

static uint32_t scalar_kind(const type *t) {
  const type *s = type_scalar_of(t);
  return s ? s->kind : TY_VOID;
}

val lw_constant(lw *L, const cvalue *v) {
  if (!v) {
    L->failed = 1;
    return bad();
  }
  if (type_is_abstract(v->type)) {
    v = sema_convert(L->m, v, types_concretize(&L->m->types, v->type), L->span, L->d);
    if (!v) {
      L->failed = 1;
      return bad();
    }
  }
  uint32_t words[MAX_LEAVES];
  uint32_t n = sema_value_words(v, words, MAX_LEAVES);
  if (n == 1) return (val){.reg = lw_const(L, words[0]), .n = 1, .type = v->type};
  /* composites need consecutive registers: copy the constants into temps */
  uint32_t r = lw_reg(L, n);
  for (uint32_t i = 0; i < n; i++) lw_emit(L, IR_MOV, r + i, lw_const(L, words[i]), 0, 0);
  return (val){.reg = r, .n = n, .type = v->type};
}

val lw_own(lw *L, val v) {
  if (!v.is_var) return v;
  uint32_t r = lw_reg(L, v.n);
  for (uint32_t i = 0; i < v.n; i++) lw_emit(L, IR_MOV, r + i, v.reg + i, 0, 0);
  v.reg = r;
  v.is_var = 0;
  return v;
}

/* Byte offsets of a type's scalar leaves, in register order. The f16
 * leaves (2 bytes in memory) are marked with LEAF_HALF. */
#define LEAF_HALF 0x80000000u
static uint32_t leaves(lw *L, const type *t, uint32_t base, uint32_t *out, uint32_t k) {
  if (k >= MAX_LEAVES) return k;
  const uint32_t h = type_scalar_of(t) && type_scalar_of(t)->kind == TY_F16 ? LEAF_HALF : 0;
  switch (t->kind) {
  case TY_VEC:
    for (uint32_t i = 0; i < t->n && k < MAX_LEAVES; i++) out[k++] = (base + i * t->elem->size) | h;
    return k;
  case TY_STRUCT:
    for (int i = 0; i < t->nfields; i++) k = leaves(L, t->fields[i].type, base + t->fields[i].offset, out, k);
    return k;
  case TY_ARRAY:
    for (uint32_t i = 0; i < t->n && k < MAX_LEAVES; i++) k = leaves(L, t->elem, base + i * t->stride, out, k);
    return k;
  case TY_MAT:
    for (uint32_t c = 0; c < t->n; c++)
      for (uint32_t r = 0; r < t->rows && k < MAX_LEAVES; r++)
        out[k++] = (base + c * t->stride + r * t->elem->size) | h;
    return k;
  default:
    out[k++] = base | h;
    return k;
  }
}

static int check_leaves(lw *L, const type *t) {
  if (t->words > MAX_LEAVES || (t->kind == TY_ARRAY && t->n == 0)) {
    lw_fail(L, L->span,
            "copying a whole value of %u words is not supported by lockstep yet; access its elements instead",
            t->words);
    return 0;
  }
  return 1;
}

uint32_t lw_addr(lw *L, ref r, uint32_t plus) {
  uint32_t off = r.off + plus;
  if (r.addr == IR_NO_REG) return lw_const(L, off);
  if (off == 0) return r.addr;
  uint32_t t = lw_reg(L, 1);
  lw_emit(L, IR_AADD, t, r.addr, lw_const(L, off), 0);
  return t;
}

/* One leaf; `at` is its offset from leaves(), LEAF_HALF for an f16. */
static void mem_op(lw *L, ref r, int store, uint32_t reg, uint32_t at) {
  uint32_t base = r.addr == IR_NO_REG ? lw_const(L, 0) : r.addr;
  const int h = (at & LEAF_HALF) != 0;
  uint32_t disp = r.off + (at & ~LEAF_HALF);
  switch (r.space) {
  case AS_STORAGE:
  case AS_UNIFORM:
    if (store) lw_emit(L, h ? IR_STBH : IR_STB, base, reg, r.slot, disp);
    else lw_emit(L, h ? IR_LDBH : IR_LDB, reg, base, r.slot, disp);
    break;
  case AS_WORKGROUP: {
    uint32_t pc = store ? lw_emit(L, h ? IR_STWH : IR_STW, base, reg, 0, disp)
                        : lw_emit(L, h ? IR_LDWH : IR_LDW, reg, base, 0, disp);
    if (!L->failed) L->code[pc].flags = (uint16_t)(r.slot + 1); /* the variable, for observers */
    break;
  }
  default:
    if (store) lw_emit(L, h ? IR_STPH : IR_STP, base, reg, 0, disp);
    else lw_emit(L, h ? IR_LDPH : IR_LDP, reg, base, 0, disp);
    break;
  }
}

/* Component r.dyn of a register vector: a chain of selects (an index out of
 * range reads component 0, a value the spec allows). */
static uint32_t load_dyn(lw *L, ref r) {
  uint32_t d = lw_reg(L, 1);
  lw_emit(L, IR_MOV, d, r.reg, 0, 0);
  for (uint32_t k = 1; k < r.dyn_n; k++) {
    uint32_t eq = lw_reg(L, 1);
    lw_emit(L, IR_IEQ, eq, r.dyn, lw_const(L, k), 0);
    lw_emit(L, IR_SELECT, d, d, r.reg + k, eq);
  }
  return d;
}

val lw_load(lw *L, ref r) {
  if (L->failed || !r.type) return bad();
  if (r.kind == RF_REG && r.has_dyn)
    return (val){.reg = load_dyn(L, r), .n = 1, .type = r.type};
  if (r.kind == RF_REG)
    return (val){.reg = r.reg, .n = r.type->words, .type = r.type, .is_var = 1};
  if (!check_leaves(L, r.type)) return bad();
  uint32_t offs[MAX_LEAVES];
  uint32_t n = leaves(L, r.type, 0, offs, 0);
  uint32_t dst = lw_reg(L, n);
  for (uint32_t i = 0; i < n; i++) mem_op(L, r, 0, dst + i, offs[i]);
  return (val){.reg = dst, .n = n, .type = r.type};
}

void lw_store(lw *L, ref r, val v) {
  if (L->failed || !r.type) return;
  if (r.kind == RF_REG && r.has_dyn) {
    /* every component takes the new value on the lanes whose index names
     * it; an index out of range stores nothing */
    for (uint32_t k = 0; k < r.dyn_n; k++) {
      uint32_t eq = lw_reg(L, 1), t = lw_reg(L, 1);
      lw_emit(L, IR_IEQ, eq, r.dyn, lw_const(L, k), 0);
      lw_emit(L, IR_SELECT, t, r.reg + k, v.reg, eq);
      lw_emit(L, IR_MOVM, r.reg + k, t, 0, 0);
    }
    return;
  }
  if (r.kind == RF_REG) {
    for (uint32_t i = 0; i < v.n; i++) lw_emit(L, IR_MOVM, r.reg + i, v.reg + i, 0, 0);
    return;
  }
  if (!check_leaves(L, r.type)) return;
  uint32_t offs[MAX_LEAVES];
  uint32_t n = leaves(L, r.type, 0, offs, 0);
  for (uint32_t i = 0; i < n && i < v.n; i++) mem_op(L, r, 1, v.reg + i, offs[i]);
}

void lw_init_var(lw *L, ref r, const val *v) {
  if (v && v->n) {
    if (r.kind == RF_REG) {
      /* a fresh variable: every lane may take the value */
      for (uint32_t i = 0; i < v->n; i++) lw_emit(L, IR_MOV, r.reg + i, v->reg + i, 0, 0);
    } else {
      lw_store(L, r, *v);
    }
    return;
  }
  if (r.kind == RF_REG) {
    uint32_t z = lw_const(L, 0);
    for (uint32_t i = 0; i < r.type->words; i++) lw_emit(L, IR_MOV, r.reg + i, z, 0, 0);
    return;
  }
  if ((r.space == AS_FUNCTION || r.space == AS_PRIVATE) && r.addr == IR_NO_REG) {
    /* the lane's own memory, whatever the size: one instruction (the
     * block's padding to a word is its own, lw_fn_alloc aligns to 4) */
    lw_emit(L, IR_PZERO, 0, 0, r.off, (r.type->size + 3) / 4 * 4);
    return;
  }
  if (!check_leaves(L, r.type)) return;
  uint32_t offs[MAX_LEAVES];
  uint32_t n = leaves(L, r.type, 0, offs, 0);
  uint32_t z = lw_const(L, 0);
  for (uint32_t i = 0; i < n; i++) mem_op(L, r, 1, z, offs[i]);
}

/* ------------------------------------------------------------------ refs */

static uint32_t leaf_index_of_field(const type *st, int field) {
  uint32_t k = 0;
  for (int i = 0; i < field; i++) k += st->fields[i].type->words;
  return k;
}

/* Adds a runtime element offset (register) to a memory view. */
static void add_dynamic(lw *L, ref *r, uint32_t idx_reg, uint32_t stride, uint32_t count) {
  uint32_t t = lw_reg(L, 1);
  lw_emit(L, IR_IDX, t, idx_reg, stride, count);
  if (r->addr == IR_NO_REG) {
    r->addr = t;
  } else {
    uint32_t s = lw_reg(L, 1);
    lw_emit(L, IR_AADD, s, r->addr, t, 0);
    r->addr = s;
  }
}

ref lw_ptr(lw *L, ast_expr *e) {
  ref none = {0};
  if (e->kind == EX_UNARY && e->u.unary.op == UN_ADDR) return lw_ref(L, e->u.unary.operand);
  if (e->kind == EX_IDENT && e->decl && e->decl->lower) {
    binding *b = e->decl->lower;
    if (b->is_ref) return b->r;
  }
  lw_fail(L, e->span, "this pointer expression is not supported by lockstep yet");
  return none;
}

/* The view a member or index expression starts from: its base's view, or
 * for a pointer base (p.m, p[i]: pointer_composite_access) what the pointer
 * points at. */
static ref base_ref(lw *L, ast_expr *base) {
  if (base->type && base->type->kind == TY_PTR) return lw_ptr(L, base);
  return lw_ref(L, base);
}

/* A register value of the base of a member or index expression; a pointer
 * base is loaded through (p.xy on a pointer to a vector). */
static val base_value(lw *L, ast_expr *base) {
  if (base->type && base->type->kind == TY_PTR) return lw_load(L, lw_ptr(L, base));
  return lw_value(L, base);
}

/* Element `idx` (a register) of array value b: the value is written to a
 * block of function memory (freed when the statement ends) and the element read back
 * through an indexed load, so any element type and count works. An index
 * out of range reads 0s (IDX gives no valid address), a value the spec
 * allows. */
static val index_array_value(lw *L, val b, uint32_t idx, const type *et) {
  const type *at = b.type;
  ref r = {.kind = RF_MEM, .type = at, .space = AS_FUNCTION, .addr = IR_NO_REG};
  r.off = lw_fn_alloc(L, at, NULL, L->span);
  if (L->failed) return bad();
  lw_store(L, r, b);
  add_dynamic(L, &r, idx, at->stride, at->n);
  r.type = et;
  return lw_load(L, r);
}

/* An index that is an override-expression is known at pipeline creation:
 * out of the bounds of a fixed-size array, vector or matrix (count > 0) it
 * is a pipeline-creation error, as a constant one is a shader-creation
 * error. */
static void check_override_index(lw *L, ast_expr *ix, const type *t, uint32_t count) {
  if (L->failed || !ix->is_override_expr) return;
  const cvalue *v = sema_eval(L->m, ix, &L->env, L->d);
  if (!v) {
    L->failed = 1;
  } else if (!count && v->i < 0) {
    /* a runtime-sized array (count 0): only a negative index is known bad */
    char b[128];
    lw_fail(L, ix->span, "index %lld is out of bounds for %s (an index is never negative)", (long long)v->i,
            type_name(t, b, sizeof b));
  } else if (count && (v->i < 0 || v->i >= count)) {
    char b[128];
    lw_fail(L, ix->span, "index %lld is out of bounds for %s (valid: 0..%u)", (long long)v->i,
            type_name(t, b, sizeof b), count - 1);
  }
}

ref lw_ref(lw *L, ast_expr *e) {
  ref none = {0};
  if (L->failed) return none;
  switch (e->kind) {
  case EX_IDENT: {
    ast_decl *d = e->decl;
    if (d && d->kind == DECL_VAR && d->space != AS_FUNCTION) return lw_global(L, d);
    if (d && d->lower && ((binding *)d->lower)->is_ref) return ((binding *)d->lower)->r;
    break;
  }
  case EX_UNARY:
    if (e->u.unary.op == UN_DEREF) return lw_ptr(L, e->u.unary.operand);
    break;
  case EX_INDEX: {
    ref r = base_ref(L, e->u.index.base);
    if (L->failed) return none;
    const type *bt = r.type;
    ast_expr *ix = e->u.index.index;
    L->span = e->span;
    if (bt->kind == TY_ARRAY) {
      if (bt->n || bt->count_decl) check_override_index(L, ix, bt, lw_array_count(L, bt, e->span));
      else if (!TYPE_OVERRIDE_SIZED(bt)) check_override_index(L, ix, bt, 0); /* runtime-sized */
      if (L->failed) return none;
      if (ix->cval) {
        r.off += (uint32_t)ix->cval->i * bt->stride;
      } else {
        val iv = lw_value(L, ix);
        uint32_t count = bt->n == 0 && !TYPE_OVERRIDE_SIZED(bt) ? 0 : lw_array_count(L, bt, e->span);
        add_dynamic(L, &r, iv.reg, bt->stride, count);
      }
      r.type = bt->elem;
      return r;
    }
    if (bt->kind == TY_VEC) {
      check_override_index(L, ix, bt, bt->n);
      if (L->failed) return none;
      if (r.kind == RF_REG) {
        if (ix->cval) {
          r.reg += (uint32_t)ix->cval->i;
        } else {
          /* the index is fixed now: a copy, so that a later write to the
           * variable it came from (through a pointer, in the right-hand
           * side) cannot move the reference */
          val iv = lw_value(L, ix);
          r.has_dyn = 1;
          r.dyn = lw_reg(L, 1);
          r.dyn_n = bt->n;
          lw_emit(L, IR_MOV, r.dyn, iv.reg, 0, 0);
        }
      } else if (ix->cval) {
        r.off += (uint32_t)ix->cval->i * bt->elem->size;
      } else {
        val iv = lw_value(L, ix);
        add_dynamic(L, &r, iv.reg, bt->elem->size, bt->n);
      }
      r.type = bt->elem;
      return r;
    }
    if (bt->kind == TY_MAT) {
      check_override_index(L, ix, bt, bt->n);
      if (L->failed) return none;
      /* a column: R components at the matrix's column stride */
      if (r.kind == RF_REG) {
        if (!ix->cval) {
          lw_fail(L, e->span, "indexing a matrix held in registers with a runtime index is not supported by lockstep yet");
          return none;
        }
        r.reg += (uint32_t)ix->cval->i * bt->rows;
      } else if (ix->cval) {
        r.off += (uint32_t)ix->cval->i * bt->stride;
      } else {
        val iv = lw_value(L, ix);
        add_dynamic(L, &r, iv.reg, bt->stride, bt->n);
      }
      r.type = types_vec(&L->m->types, bt->elem, bt->rows);
      return r;
    }
    lw_fail(L, e->span, "indexing this memory view is not supported by lockstep yet");
    return none;
  }
  case EX_MEMBER: {
    ref r = base_ref(L, e->u.member.base);
    if (L->failed) return none;
    const type *bt = r.type;
    if (bt->kind == TY_STRUCT) {
      int f = e->member_index;
      if (r.kind == RF_REG) r.reg += leaf_index_of_field(bt, f);
      else r.off += bt->fields[f].offset;
      r.type = bt->fields[f].type;
      return r;
    }
    if (bt->kind == TY_VEC && e->nswizzle == 1) {
      if (r.kind == RF_REG) r.reg += (uint32_t)e->swizzle[0];
      else r.off += (uint32_t)e->swizzle[0] * bt->elem->size;
      r.type = bt->elem;
      return r;
    }
    break;
  }
  default: break;
  }
  lw_fail(L, e->span, "this kind of memory reference is not supported by lockstep yet");
  return none;
}

/* -------------------------------------------------------------- operators */

val lw_binary(lw *L, ast_binop op, val a, val b, const type *rt) {
  if (L->failed || !a.type || !b.type) return bad();
  if (op == BIN_MUL && (a.type->kind == TY_MAT || b.type->kind == TY_MAT) && a.n > 1 && b.n > 1) {
    const int saved16 = L->f16;
    L->f16 = scalar_kind(rt) == TY_F16;
    val r = lw_matrix_mul(L, a, b, rt);
    L->f16 = saved16;
    return r;
  }
  uint32_t sk = scalar_kind(a.type);
  int is_f = sk == TY_F32 || sk == TY_F16, is_s = sk == TY_I32;
  unsigned opc = 0;
  int swap = 0;
  switch (op) {
  case BIN_ADD: opc = is_f ? IR_FADD : IR_IADD; break;
  case BIN_SUB: opc = is_f ? IR_FSUB : IR_ISUB; break;
  case BIN_MUL: opc = is_f ? IR_FMUL : IR_IMUL; break;
  case BIN_DIV: opc = is_f ? IR_FDIV : is_s ? IR_SDIV : IR_UDIV; break;
  case BIN_MOD: opc = is_f ? IR_FREM : is_s ? IR_SREM : IR_UREM; break;
  case BIN_AND: case BIN_LAND: opc = IR_AND; break;
  case BIN_OR: case BIN_LOR: opc = IR_OR; break;
  case BIN_XOR: opc = IR_XOR; break;
  case BIN_SHL: opc = IR_SHL; break;
  case BIN_SHR: opc = is_s ? IR_SHRS : IR_SHRU; break;
  case BIN_EQ: opc = is_f ? IR_FEQ : IR_IEQ; break;
  case BIN_NE: opc = is_f ? IR_FNE : IR_INE; break;
  case BIN_LT: opc = is_f ? IR_FLT : is_s ? IR_SLT : IR_ULT; break;
  case BIN_LE: opc = is_f ? IR_FLE : is_s ? IR_SLE : IR_ULE; break;
  case BIN_GT: opc = is_f ? IR_FLT : is_s ? IR_SLT : IR_ULT; swap = 1; break;
  case BIN_GE: opc = is_f ? IR_FLE : is_s ? IR_SLE : IR_ULE; swap = 1; break;
  default: break;
  }
  const int saved16 = L->f16;
  L->f16 = sk == TY_F16;
  uint32_t n = a.n > b.n ? a.n : b.n;
  uint32_t dst = lw_reg(L, n);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t x = a.reg + (a.n == 1 ? 0 : i), y = b.reg + (b.n == 1 ? 0 : i);
    if (swap) lw_emit(L, opc, dst + i, y, x, 0);
    else lw_emit(L, opc, dst + i, x, y, 0);
  }
  L->f16 = saved16;
  return (val){.reg = dst, .n = n, .type = rt};
}

/* May evaluating e touch memory outside the invocation's own registers, or
 * have side effects? (Conservative: any such view or call counts.) */
static int touches_memory(ast_expr *e) {
  if (!e || e->cval || e->is_override_expr) return 0;
  if (e->type && e->type->kind == TY_REF && e->type->space != AS_FUNCTION) return 1;
  switch (e->kind) {
  case EX_CALL:
    if (e->ref == REF_DECL || e->ref == REF_BUILTIN_FN) return 1;
    for (int i = 0; i < e->u.call.nargs; i++)
      if (touches_memory(e->u.call.args[i])) return 1;
    return 0;
  case EX_INDEX: {
    /* a runtime index into an array (a function variable or a value, both
     * kept in private memory) is a load that may be out of bounds: the
     * guard in front of it must hold first */
    const type *bt = e->u.index.base->type;
    if (bt && (bt->kind == TY_REF || bt->kind == TY_PTR)) bt = bt->elem;
    if (bt && bt->kind == TY_ARRAY && !e->u.index.index->cval) return 1;
    return touches_memory(e->u.index.base) || touches_memory(e->u.index.index);
  }
  case EX_MEMBER: return touches_memory(e->u.member.base);
  case EX_UNARY: return e->u.unary.op == UN_DEREF || touches_memory(e->u.unary.operand);
  case EX_BINARY: return touches_memory(e->u.binary.lhs) || touches_memory(e->u.binary.rhs);
  default: return 0;
  }
}

void lw_check_known_rhs(lw *L, ast_binop op, const type *lt, ast_expr *rhs, src_span span) {
  if (L->failed || !rhs->is_override_expr) return;
  if (lt && lt->kind == TY_REF) lt = lt->elem;
  const cvalue *rv = sema_eval(L->m, rhs, &L->env, L->d);
  if (!rv || !sema_check_known_rhs(op, lt, rv, span, L->d)) L->failed = 1;
}

int lw_has_call(ast_expr *e) {
  if (!e || e->cval) return 0;
  switch (e->kind) {
  case EX_CALL:
    if (e->ref == REF_DECL) return 1;
    if (e->ref == REF_BUILTIN_FN && builtin_fn_info(e->builtin)->fx == BFX_EFFECT) return 1;
    for (int i = 0; i < e->u.call.nargs; i++)
      if (lw_has_call(e->u.call.args[i])) return 1;
    return 0;
  case EX_INDEX: return lw_has_call(e->u.index.base) || lw_has_call(e->u.index.index);
  case EX_MEMBER: return lw_has_call(e->u.member.base);
  case EX_UNARY: return lw_has_call(e->u.unary.operand);
  case EX_BINARY: return lw_has_call(e->u.binary.lhs) || lw_has_call(e->u.binary.rhs);
  default: return 0;
  }
}

/* a && b, a || b: b runs only on the lanes that need it, so a guard such as
 * `i < n && data[i] > 0` never touches data[i] for lanes where i >= n. */
static val short_circuit(lw *L, ast_expr *e) {
  ast_binop op = e->u.binary.op;
  val a = lw_value(L, e->u.binary.lhs);
  if (!touches_memory(e->u.binary.rhs)) {
    a = lw_has_call(e->u.binary.rhs) ? lw_own(L, a) : a;
    val b = lw_value(L, e->u.binary.rhs);
    return lw_binary(L, op, a, b, e->type);
  }
  uint32_t r = lw_reg(L, 1);
  lw_emit(L, IR_MOV, r, a.reg, 0, 0);
  uint32_t M = lw_mask(L);
  lw_emit(L, IR_MSAVE, M, 0, 0, 0);
  if (op == BIN_LAND) lw_emit(L, IR_MAND, r, 0, 0, 0);
  else lw_emit(L, IR_MANDN, M, r, 0, 0);
  uint32_t j = lw_emit(L, IR_JNONE, 0, 0, 0, 0);
  val b = lw_value(L, e->u.binary.rhs);
  lw_emit(L, IR_MOVM, r, b.reg, 0, 0);
  if (!L->failed) L->code[j].a = L->ncode;
  lw_emit(L, IR_MLOAD, M, 0, 0, 0);
  L->mtop = M;
  return (val){.reg = r, .n = 1, .type = e->type};
}

static val unary(lw *L, ast_expr *e) {
  val a = lw_value(L, e->u.unary.operand);
  if (L->failed) return bad();
  uint32_t dst = lw_reg(L, a.n);
  int is_f = scalar_kind(a.type) == TY_F32 || scalar_kind(a.type) == TY_F16;
  for (uint32_t i = 0; i < a.n; i++) {
    switch (e->u.unary.op) {
    case UN_NEG: lw_emit(L, is_f ? IR_FNEG : IR_INEG, dst + i, a.reg + i, 0, 0); break;
    case UN_NOT: lw_emit(L, IR_XOR, dst + i, a.reg + i, lw_const(L, 1), 0); break;
    case UN_BITNOT: lw_emit(L, IR_NOT, dst + i, a.reg + i, 0, 0); break;
    default:
      lw_fail(L, e->span, "pointers cannot be used as values here");
      return bad();
    }
  }
  return (val){.reg = dst, .n = a.n, .type = e->type};
}

/* -------------------------------------------------------- conversions */

/* f16 values are f32 registers: f16 -> f32 is free, f32 -> f16 one F16R.
 * f16 -> integer goes through the f32 conversion (exact: every f16 is an
 * f32), after clamping to +-65504: WGSL clamps to the nearest integer that
 * the *source* type represents, so u32 of an f16 infinity is 65504. */
static uint32_t convert_word(lw *L, uint32_t reg, uint32_t from, uint32_t to) {
  if (from == to) return reg;
  if (from == TY_F16 && to == TY_F32) return reg;
  if (from == TY_F16 && (to == TY_I32 || to == TY_U32)) {
    uint32_t c = lw_reg(L, 1);
    lw_emit(L, IR_FMAX, c, reg, lw_const(L, 0xc77fe000u), 0); /* -65504 */
    lw_emit(L, IR_FMIN, c, c, lw_const(L, 0x477fe000u), 0);   /* 65504 */
    reg = c;
  }
  if (from == TY_F16) from = TY_F32;
  uint32_t d = lw_reg(L, 1);
  switch (to) {
  case TY_F16:
    if (from == TY_BOOL) {
      lw_emit(L, IR_SELECT, d, lw_const(L, 0), lw_const(L, 0x3f800000u), reg);
      return d;
    }
    if (from != TY_F32) {
      /* S2F/U2F are exact below 2^24, where f16's range ends long before.
       * An integer beyond 65504 becomes an infinity (WGSL: an integer has
       * no extra bits to discard), not the 65504 that rounding would give
       * up to 65519: t * inf carries the sign. */
      uint32_t t = lw_reg(L, 1), ov = lw_reg(L, 1), inf = lw_reg(L, 1);
      lw_emit(L, from == TY_I32 ? IR_S2F : IR_U2F, t, reg, 0, 0);
      lw_emit(L, IR_F16R, d, t, 0, 0);
      lw_emit(L, IR_FABS, ov, t, 0, 0);
      lw_emit(L, IR_FLT, ov, lw_const(L, 0x477fe000u), ov, 0); /* 65504 < |t| */
      lw_emit(L, IR_FMUL, inf, t, lw_const(L, 0x7f800000u), 0);
      lw_emit(L, IR_SELECT, d, d, inf, ov);
      return d;
    }
    lw_emit(L, IR_F16R, d, reg, 0, 0);
    return d;
  case TY_BOOL:
    if (from == TY_F32) lw_emit(L, IR_FNE, d, reg, lw_const(L, 0), 0);
    else lw_emit(L, IR_INE, d, reg, lw_const(L, 0), 0);
    return d;
  case TY_I32:
  case TY_U32:
    if (from == TY_F32) {
      lw_emit(L, to == TY_I32 ? IR_F2S : IR_F2U, d, reg, 0, 0);
      return d;
    }
    return reg; /* bool is 0/1; i32 <-> u32 keeps the bits */
  case TY_F32:
    if (from == TY_BOOL) {
      lw_emit(L, IR_SELECT, d, lw_const(L, 0), lw_const(L, 0x3f800000u), reg);
      return d;
    }
    lw_emit(L, from == TY_I32 ? IR_S2F : IR_U2F, d, reg, 0, 0);
    return d;
  default:
    lw_fail(L, L->span, "this conversion is not supported by lockstep yet");
    return reg;
  }
}

static val construct(lw *L, ast_expr *e) {
  const type *t = e->type;
  int n = e->u.call.nargs;
  if (type_is_scalar(t)) {
    val a = lw_value(L, e->u.call.args[0]);
    if (L->failed) return bad();
    uint32_t r = convert_word(L, a.reg, scalar_kind(a.type), t->kind);
    return (val){.reg = r, .n = 1, .type = t, .is_var = r == a.reg && a.is_var};
  }
  /* matrices: columns or scalars, in column-major order, already of the
   * element type, or one matrix of the other float type (f16 <-> f32) */
  if (!check_leaves(L, t)) return bad();
  uint32_t dst = lw_reg(L, t->words), k = 0;
  for (int i = 0; i < n && !L->failed; i++) {
    val a = lw_value(L, e->u.call.args[i]);
    if (L->failed) return bad();
    uint32_t from = scalar_kind(a.type);
    const int conv = t->kind == TY_VEC || t->kind == TY_MAT;
    uint32_t to = conv ? t->elem->kind : from;
    for (uint32_t w = 0; w < a.n && k < t->words; w++) {
      uint32_t r = conv ? convert_word(L, a.reg + w, from, to) : a.reg + w;
      lw_emit(L, IR_MOV, dst + k++, r, 0, 0);
    }
  }
  /* vecN(scalar): splat */
  if (t->kind == TY_VEC && k == 1)
    for (; k < t->n; k++) lw_emit(L, IR_MOV, dst + k, dst, 0, 0);
  return (val){.reg = dst, .n = t->words, .type = t};
}

/* ------------------------------------------------------------- entry */

val lw_value(lw *L, ast_expr *e) {
  if (L->failed || !e) return bad();
  src_span saved = L->span;
  L->span = e->span;
  val r = bad();
  if (e->cval) {
    r = lw_constant(L, e->cval);
    goto done;
  }
  if (e->is_override_expr) {
    r = lw_constant(L, sema_eval(L->m, e, &L->env, L->d));
    goto done;
  }
  if (e->type && e->type->kind == TY_REF) {
    r = lw_load(L, lw_ref(L, e));
    goto done;
  }
  switch (e->kind) {
  case EX_IDENT: {
    binding *b = e->decl ? e->decl->lower : NULL;
    if (!b || b->is_ref) {
      lw_fail(L, e->span, "'%s' cannot be used as a value here", e->u.ident.name);
      break;
    }
    r = b->v;
    break;
  }
  case EX_UNARY: r = unary(L, e); break;
  case EX_BINARY: {
    ast_binop op = e->u.binary.op;
    if (op == BIN_LAND || op == BIN_LOR) {
      r = short_circuit(L, e);
      break;
    }
    lw_check_known_rhs(L, op, e->u.binary.lhs->type, e->u.binary.rhs, e->span);
    val a = lw_value(L, e->u.binary.lhs);
    /* left-to-right: a variable read on the left must not see a store made
     * by a call on the right */
    if (lw_has_call(e->u.binary.rhs)) a = lw_own(L, a);
    val b = lw_value(L, e->u.binary.rhs);
    L->span = e->span;
    r = lw_binary(L, op, a, b, e->type);
    break;
  }
  case EX_CALL:
    if (e->ref == REF_CONSTRUCT) r = construct(L, e);
    else if (e->ref == REF_BUILTIN_FN) r = lw_builtin(L, e);
    else r = lw_call(L, e);
    break;
  case EX_INDEX: {
    val b = base_value(L, e->u.index.base);
    ast_expr *ix = e->u.index.index;
    if (L->failed) break;
    const type *bt = b.type;
    check_override_index(L, ix, bt, bt->n);   /* values: fixed-size arrays, vectors, matrices */
    if (L->failed) break;
    if (ix->cval) {
      uint32_t i = (uint32_t)ix->cval->i;
      uint32_t w = bt->kind == TY_ARRAY ? bt->elem->words : bt->kind == TY_MAT ? bt->rows : 1;
      r = (val){.reg = b.reg + i * w, .n = w, .type = e->type, .is_var = b.is_var};
    } else if (bt->kind == TY_MAT) {
      val iv = lw_value(L, ix);
      r = lw_select_element(L, b, iv.reg, bt->rows, bt->n, e->type);
    } else if (bt->kind == TY_ARRAY) {
      val iv = lw_value(L, ix);
      r = index_array_value(L, b, iv.reg, e->type);
    } else if (bt->kind == TY_VEC) {
      /* runtime component of a vector value: a chain of selects */
      val iv = lw_value(L, ix);
      uint32_t d = lw_reg(L, 1);
      lw_emit(L, IR_MOV, d, b.reg, 0, 0);
      for (uint32_t k = 1; k < bt->n; k++) {
        uint32_t eq = lw_reg(L, 1);
        lw_emit(L, IR_IEQ, eq, iv.reg, lw_const(L, k), 0);
        lw_emit(L, IR_SELECT, d, d, b.reg + k, eq);
      }
      r = (val){.reg = d, .n = 1, .type = e->type};
    } else {
      lw_fail(L, e->span, "indexing this value with a runtime index is not supported by lockstep yet");
    }
    break;
  }
  case EX_MEMBER: {
    val b = base_value(L, e->u.member.base);
    if (L->failed) break;
    const type *bt = b.type;
    if (bt->kind == TY_STRUCT) {
      int f = e->member_index;
      r = (val){.reg = b.reg + leaf_index_of_field(bt, f), .n = bt->fields[f].type->words,
                .type = bt->fields[f].type, .is_var = b.is_var};
    } else if (e->nswizzle == 1) {
      r = (val){.reg = b.reg + (uint32_t)e->swizzle[0], .n = 1, .type = e->type, .is_var = b.is_var};
    } else {
      uint32_t d = lw_reg(L, (uint32_t)e->nswizzle);
      for (int k = 0; k < e->nswizzle; k++) lw_emit(L, IR_MOV, d + k, b.reg + (uint32_t)e->swizzle[k], 0, 0);
      r = (val){.reg = d, .n = (uint32_t)e->nswizzle, .type = e->type};
    }
    break;
  }
  default:
    lw_fail(L, e->span, "this expression is not supported by lockstep yet");
    break;
  }
done:
  L->span = saved;
  return r;
}
