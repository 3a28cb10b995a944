/*
 * eval.c — constant evaluation. The resolver folds const-expressions while it
 * types them; pipeline creation evaluates override-expressions with the
 * pipeline's override values (sema_eval). Both use the folding functions
 * here, which apply the spec's rules for const-expressions: AbstractInt
 * overflow, division by zero, out-of-range shifts, values outside a
 * built-in's domain and non-finite floats are errors, while i32 and u32
 * arithmetic wraps as it does at run time; and the errors a built-in makes
 * for arguments known before it runs (sema_known_args_ok).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "../util/bitfn.h"

/* ---------------------------------------------------------------- values */

const cvalue *cv_int(wgsl_module *m, const type *t, int64_t v) {
  cvalue *c = arena_alloc(&m->arena, sizeof *c);
  if (!c) return NULL;
  c->type = t;
  if (t->kind == TY_U32) v = (int64_t)(uint32_t)v;
  else if (t->kind == TY_I32) v = (int64_t)(int32_t)v;
  c->i = v;
  c->f = (double)v;
  return c;
}

/* v rounded to the nearest f16 (ties to even); +-inf beyond the largest
 * finite f16 after rounding (|v| >= 65520), subnormals kept. Scaling by a
 * power of two is exact in double, and rint rounds to nearest even in the
 * default mode, so this is one correct rounding of v. */
double eval_round_f16(double v) {
  if (!isfinite(v)) return v;
  double a = fabs(v);
  if (a >= 65520.0) return v < 0 ? -INFINITY : INFINITY;
  int e;
  frexp(a, &e); /* a = f * 2^e, 0.5 <= f < 1: a has 11 bits from 2^(e-1) */
  if (e < -13) e = -13; /* below 2^-14 the spacing stays 2^-24 */
  double r = ldexp(rint(ldexp(a, 11 - e)), e - 11);
  return copysign(r, v);
}

const cvalue *cv_float(wgsl_module *m, const type *t, double v) {
  cvalue *c = arena_alloc(&m->arena, sizeof *c);
  if (!c) return NULL;
  c->type = t;
  c->f = t->kind == TY_F32 ? (double)(float)v : t->kind == TY_F16 ? eval_round_f16(v) : v;
  return c;
}

const cvalue *cv_bool(wgsl_module *m, int b) {
  cvalue *c = arena_alloc(&m->arena, sizeof *c);
  if (!c) return NULL;
  c->type = m->types.t_bool;
  c->b = b != 0;
  c->i = c->b;
  return c;
}

const cvalue *cv_composite(wgsl_module *m, const type *t, const cvalue **elems, int n) {
  cvalue *c = arena_alloc(&m->arena, sizeof *c);
  if (!c) return NULL;
  c->type = t;
  c->elems = arena_alloc(&m->arena, sizeof *c->elems * (size_t)(n ? n : 1));
  if (!c->elems) return NULL;
  memcpy(c->elems, elems, sizeof *elems * (size_t)n);
  c->n = n;
  return c;
}

/* The zero value of a constructible type. */
const cvalue *cv_zero(wgsl_module *m, const type *t) {
  switch (t->kind) {
  case TY_BOOL: return cv_bool(m, 0);
  case TY_I32: case TY_U32: case TY_AINT: return cv_int(m, t, 0);
  case TY_F32: case TY_F16: case TY_AFLOAT: return cv_float(m, t, 0.0);
  case TY_VEC: case TY_MAT: case TY_ARRAY: case TY_STRUCT: case TY_ATOMIC: {
    int n = t->kind == TY_STRUCT ? t->nfields : t->kind == TY_MAT ? (int)t->n : (int)t->n;
    if (t->kind == TY_ATOMIC) return cv_int(m, t->elem, 0);
    const cvalue *tmp[64];
    const cvalue **el = n <= 64 ? tmp : arena_alloc(&m->arena, sizeof *el * (size_t)n);
    if (!el) return NULL;
    for (int i = 0; i < n; i++) {
      const type *et = t->kind == TY_STRUCT ? t->fields[i].type
                       : t->kind == TY_MAT  ? types_vec(&m->types, t->elem, t->rows)
                                            : t->elem;
      el[i] = cv_zero(m, et);
      if (!el[i]) return NULL;
    }
    return cv_composite(m, t, el, n);
  }
  default: return NULL;
  }
}

uint32_t sema_value_words(const cvalue *v, uint32_t *out, uint32_t max) {
  if (!v || max == 0) return 0;
  if (v->elems) {
    uint32_t k = 0;
    for (int i = 0; i < v->n && k < max; i++) k += sema_value_words(v->elems[i], out + k, max - k);
    return k;
  }
  switch (v->type->kind) {
  case TY_BOOL: out[0] = (uint32_t)v->b; break;
  case TY_I32: case TY_U32: case TY_AINT: out[0] = (uint32_t)v->i; break;
  case TY_F32: case TY_AFLOAT: case TY_F16: {
    float f = (float)v->f;
    memcpy(&out[0], &f, 4);
    break;
  }
  default: out[0] = 0;
  }
  return 1;
}

/* -------------------------------------------------------------- conversion */

static int int_fits(const type *t, int64_t v) {
  if (t->kind == TY_I32) return v >= INT32_MIN && v <= INT32_MAX;
  if (t->kind == TY_U32) return v >= 0 && v <= (int64_t)UINT32_MAX;
  return 1;
}

static const cvalue *err(diag_list *d, src_span s, const char *msg, const char *a,
                         const char *b) {
  if (d) diag_error(d, s, msg, a, b);
  return NULL;
}

/* Converts scalar v to scalar type t. implicit: the automatic conversion of
 * an abstract value (out of range is an error); otherwise a value
 * constructor such as u32(x) (floats clamp to the integer range). */
static const cvalue *convert_scalar(wgsl_module *m, const cvalue *v, const type *t, int implicit,
                                    src_span span, diag_list *d) {
  const type *s = v->type;
  char b1[64], b2[64];
  if (s == t) return v;
  switch (t->kind) {
  case TY_BOOL:
    if (s->kind == TY_BOOL) return v;
    if (type_is_integer_scalar(s)) return cv_bool(m, v->i != 0);
    return cv_bool(m, v->f != 0.0);
  case TY_I32:
  case TY_U32:
  case TY_AINT:
    if (s->kind == TY_BOOL) return cv_int(m, t, v->b);
    if (type_is_integer_scalar(s)) {
      if (implicit || s->kind == TY_AINT) {
        if (!int_fits(t, v->i)) {
          if (d)
            diag_error(d, span, "value %lld does not fit in %s", (long long)v->i,
                       type_name(t, b1, sizeof b1));
          return NULL;
        }
      }
      return cv_int(m, t, v->i); /* i32 <-> u32 reinterpret two's complement */
    }
    if (implicit && s->kind == TY_AFLOAT) {
      return err(d, span, "cannot convert %s to %s implicitly", type_name(s, b1, sizeof b1),
                 type_name(t, b2, sizeof b2));
    }
    {
      double f = v->f;
      if (isnan(f)) return cv_int(m, t, 0);
      /* the nearest value that the source type also represents exactly:
       * 2^31 - 128 from f32, 2^31 - 1 from AbstractFloat (a double) */
      int wide = s->kind == TY_AFLOAT;
      double lo = t->kind == TY_I32 ? -2147483648.0 : t->kind == TY_U32 ? 0.0 : -9.2e18;
      double hi = t->kind == TY_I32   ? (wide ? 2147483647.0 : 2147483520.0)
                  : t->kind == TY_U32 ? (wide ? 4294967295.0 : 4294967040.0)
                                      : 9.2e18;
      if (f < lo) f = lo;
      if (f > hi) f = hi;
      return cv_int(m, t, (int64_t)trunc(f));
    }
  case TY_F32:
  case TY_F16:
  case TY_AFLOAT: {
    double f;
    if (s->kind == TY_BOOL) f = v->b ? 1.0 : 0.0;
    else if (type_is_integer_scalar(s)) f = (double)v->i;
    else f = v->f;
    if (t->kind == TY_F32 && isfinite(f) && fabs(f) > 3.40282346638528859812e+38) {
      /* the spec rounds first; only values beyond the largest finite f32
       * after rounding are errors */
      float r = (float)f;
      if (isinf(r)) {
        if (d) diag_error(d, span, "value %g is not representable in f32", f);
        return NULL;
      }
    }
    /* as for f32, a float is an error only when it rounds past 65504; an
     * integer has no rounding to lean on: beyond 65504 it is outside f16's
     * finite range (§Floating Point Conversion) */
    if (t->kind == TY_F16 && isfinite(f) &&
        (isinf(eval_round_f16(f)) || (type_is_integer_scalar(s) && fabs(f) > 65504.0))) {
      if (d) diag_error(d, span, "value %g is not representable in f16", f);
      return NULL;
    }
    return cv_float(m, t, f);
  }
  default:
    return err(d, span, "cannot convert %s to %s", type_name(s, b1, sizeof b1),
               type_name(t, b2, sizeof b2));
  }
}

static const cvalue *convert(wgsl_module *m, const cvalue *v, const type *t, int implicit,
                             src_span span, diag_list *d) {
  if (!v) return NULL;
  if (v->type == t) return v;
  if (type_is_scalar(t)) {
    if (v->elems) return err(d, span, "cannot convert a composite to %s", "", "");
    return convert_scalar(m, v, t, implicit, span, d);
  }
  if ((t->kind == TY_VEC || t->kind == TY_MAT || t->kind == TY_ARRAY) && v->elems) {
    const type *et = t->kind == TY_MAT ? types_vec(&m->types, t->elem, t->rows) : t->elem;
    const cvalue *tmp[64];
    const cvalue **el = v->n <= 64 ? tmp : arena_alloc(&m->arena, sizeof *el * (size_t)v->n);
    if (!el) return NULL;
    for (int i = 0; i < v->n; i++) {
      el[i] = convert(m, v->elems[i], et, implicit, span, d);
      if (!el[i]) return NULL;
    }
    return cv_composite(m, t, el, v->n);
  }
  if (t->kind == TY_STRUCT && v->elems && v->n == t->nfields && v->n == 2) {
    /* an abstract frexp / modf result to a concrete one */
    const cvalue *el[2];
    for (int i = 0; i < 2; i++)
      if (!(el[i] = convert(m, v->elems[i], t->fields[i].type, implicit, span, d))) return NULL;
    return cv_composite(m, t, el, 2);
  }
  char b1[64], b2[64];
  return err(d, span, "cannot convert %s to %s", type_name(v->type, b1, sizeof b1),
             type_name(t, b2, sizeof b2));
}

const cvalue *sema_convert(wgsl_module *m, const cvalue *v, const type *t, src_span span,
                           diag_list *d) {
  return convert(m, v, t, 1, span, d);
}

const cvalue *cv_construct_convert(wgsl_module *m, const cvalue *v, const type *t, src_span span,
                                   diag_list *d) {
  return convert(m, v, t, 0, span, d);
}

const cvalue *sema_scalar_from_double(wgsl_module *m, const type *t, double v, src_span span,
                                      diag_list *d, const char *what) {
  char b[64];
  switch (t->kind) {
  case TY_BOOL: return cv_bool(m, v != 0.0);
  case TY_I32:
  case TY_U32:
    if (!isfinite(v) || v != trunc(v) || !int_fits(t, (int64_t)v) || fabs(v) > 9e15) {
      if (d)
        diag_error(d, span, "%s: %g is not a valid %s value", what, v, type_name(t, b, sizeof b));
      return NULL;
    }
    return cv_int(m, t, (int64_t)v);
  case TY_F32:
    if (!isfinite(v) || isinf((float)v)) {
      if (d) diag_error(d, span, "%s: %g is not a finite f32 value", what, v);
      return NULL;
    }
    return cv_float(m, t, v);
  case TY_F16:
    if (!isfinite(v) || isinf(eval_round_f16(v))) {
      if (d) diag_error(d, span, "%s: %g is not a finite f16 value", what, v);
      return NULL;
    }
    return cv_float(m, t, v);
  default:
    if (d) diag_error(d, span, "%s: overrides of type %s are not supported", what,
                      type_name(t, b, sizeof b));
    return NULL;
  }
}

/* ---------------------------------------------------------------- folding */

static const cvalue *component(wgsl_module *m, const cvalue *v, int i) {
  (void)m;
  return v->elems ? v->elems[i] : v;
}

static const cvalue *fold_scalar_binary(wgsl_module *m, ast_binop op, const cvalue *a,
                                        const cvalue *b, const type *rt, src_span span,
                                        diag_list *d) {
  const type *ot = a->type; /* operand type (both equal after conversion) */
  if (op >= BIN_EQ) {
    int r = 0;
    if (ot->kind == TY_BOOL) {
      r = op == BIN_EQ ? a->b == b->b : a->b != b->b;
    } else if (type_is_integer_scalar(ot)) {
      int64_t x = a->i, y = b->i;
      switch (op) {
      case BIN_EQ: r = x == y; break;
      case BIN_NE: r = x != y; break;
      case BIN_LT: r = x < y; break;
      case BIN_LE: r = x <= y; break;
      case BIN_GT: r = x > y; break;
      default: r = x >= y; break;
      }
    } else {
      double x = a->f, y = b->f;
      switch (op) {
      case BIN_EQ: r = x == y; break;
      case BIN_NE: r = x != y; break;
      case BIN_LT: r = x < y; break;
      case BIN_LE: r = x <= y; break;
      case BIN_GT: r = x > y; break;
      default: r = x >= y; break;
      }
    }
    return cv_bool(m, r);
  }
  if (ot->kind == TY_BOOL) {
    switch (op) {
    case BIN_AND: case BIN_LAND: return cv_bool(m, a->b && b->b);
    case BIN_OR: case BIN_LOR: return cv_bool(m, a->b || b->b);
    default: break;
    }
    return err(d, span, "invalid operator for bool%s%s", "", "");
  }
  if (type_is_integer_scalar(ot)) {
    int64_t x = a->i, y = b->i, r = 0;
    int overflow = 0;
    int is_u = ot->kind == TY_U32;
    /* + - * on i32 and u32 wrap modulo 2^32 (§Integer Types: two's
     * complement, "defined overflow behavior"), constant or not: the low
     * 32 bits of the 64-bit result, which cv_int keeps. AbstractInt must
     * not overflow (§Abstract Numeric Types). */
    const int abstract = ot->kind == TY_AINT;
    switch (op) {
    case BIN_ADD:
      if (abstract) overflow = __builtin_add_overflow(x, y, &r);
      else r = (int64_t)((uint64_t)x + (uint64_t)y);
      break;
    case BIN_SUB:
      if (abstract) overflow = __builtin_sub_overflow(x, y, &r);
      else r = (int64_t)((uint64_t)x - (uint64_t)y);
      break;
    case BIN_MUL:
      if (abstract) overflow = __builtin_mul_overflow(x, y, &r);
      else r = (int64_t)((uint64_t)x * (uint64_t)y);
      break;
    case BIN_DIV:
    case BIN_MOD:
      if (y == 0) return err(d, span, "%s by zero in a constant expression",
                             op == BIN_DIV ? "division" : "remainder", "");
      if (ot->kind == TY_I32 && x == INT32_MIN && y == -1)
        return err(d, span, "%s of the most negative i32 by -1 overflows%s",
                   op == BIN_DIV ? "division" : "remainder", "");
      if (ot->kind == TY_AINT && x == INT64_MIN && y == -1)
        return err(d, span, "%s overflows%s", "division", "");
      r = op == BIN_DIV ? x / y : x % y; /* truncating, sign of dividend */
      break;
    case BIN_AND: r = x & y; break;
    case BIN_OR: r = x | y; break;
    case BIN_XOR: r = x ^ y; break;
    case BIN_SHL:
    case BIN_SHR: {
      unsigned bits = ot->kind == TY_AINT ? 64 : 32;
      if (ot->kind == TY_AINT && (y < 0 || y > (int64_t)UINT32_MAX)) {
        /* an abstract amount is the u32 the spec's overload takes */
        if (d) diag_error(d, span, "value %lld does not fit in u32 (the shift amount)", (long long)y);
        return NULL;
      }
      if (ot->kind == TY_AINT && y >= 64) {
        /* an abstract shift has no bit width (§Bit Expressions): left, the
         * y+1 top bits must agree, so only 0 survives a shift by 64 or
         * more; right, every bit becomes the sign */
        if (op == BIN_SHL && x != 0) overflow = 1;
        r = op == BIN_SHL ? 0 : x < 0 ? -1 : 0;
        break;
      }
      if (y < 0 || (uint64_t)y >= bits) {
        if (d) diag_error(d, span, "shift by %lld is not less than the bit width (%u)",
                          (long long)y, bits);
        return NULL;
      }
      if (op == BIN_SHR) {
        r = is_u ? (int64_t)((uint64_t)x >> y) : x >> y;
      } else {
        uint64_t ux = (uint64_t)x << y;
        if (ot->kind == TY_U32) {
          if (y && (x >> (32 - y)) != 0) overflow = 1;
          r = (int64_t)(uint32_t)ux;
        } else if (ot->kind == TY_I32) {
          /* the bits shifted out and the sign bit must all equal the sign */
          int64_t top = (int64_t)(int32_t)x >> (31 - y);
          if (top != 0 && top != -1) overflow = 1;
          r = (int64_t)(int32_t)(uint32_t)ux;
        } else {
          int64_t top = x >> (63 - y);
          if (top != 0 && top != -1) overflow = 1;
          r = (int64_t)ux;
        }
      }
      break;
    }
    default: return err(d, span, "invalid integer operator%s%s", "", "");
    }
    if (overflow) {
      char b1[64];
      return err(d, span, "the result of this constant expression overflows %s%s",
                 type_name(ot, b1, sizeof b1), "");
    }
    return cv_int(m, rt, r);
  }
  /* floats */
  double x = a->f, y = b->f, r;
  switch (op) {
  case BIN_ADD: r = x + y; break;
  case BIN_SUB: r = x - y; break;
  case BIN_MUL: r = x * y; break;
  case BIN_DIV:
    if (y == 0.0) return err(d, span, "division by zero in a constant expression%s%s", "", "");
    r = x / y;
    break;
  case BIN_MOD:
    if (y == 0.0) return err(d, span, "remainder by zero in a constant expression%s%s", "", "");
    r = x - y * trunc(x / y);
    break;
  default: return err(d, span, "invalid float operator%s%s", "", "");
  }
  if (ot->kind == TY_F32) {
    /* f32 arithmetic: round the exact double result once */
    float f = (float)r;
    if (!isfinite(f)) return err(d, span, "the result of this constant expression is not a finite f32%s%s", "", "");
    return cv_float(m, rt, f);
  }
  if (ot->kind == TY_F16) {
    /* f16 arithmetic: round the double result once (double has more than
     * 2*11 + 2 bits, so + - * / are correctly rounded) */
    double h = eval_round_f16(r);
    if (!isfinite(h)) return err(d, span, "the result of this constant expression is not a finite f16%s%s", "", "");
    return cv_float(m, rt, h);
  }
  if (!isfinite(r)) return err(d, span, "the result of this constant expression is not finite%s%s", "", "");
  return cv_float(m, rt, r);
}

/* Element (col, row) of a constant matrix, or component `row` of a vector. */
static const cvalue *mat_at(const cvalue *v, uint32_t col, uint32_t row) {
  return v->type->kind == TY_MAT ? v->elems[col]->elems[row] : v->elems[row];
}

/* sum over k of a(k) * b(k), each step rounded to the element type as
 * the runtime does it (one multiply, then one add per term). */
static const cvalue *fold_dot(wgsl_module *m, const cvalue **x, const cvalue **y, uint32_t n,
                              const type *et, src_span span, diag_list *d) {
  const cvalue *acc = NULL;
  for (uint32_t k = 0; k < n; k++) {
    const cvalue *p = fold_scalar_binary(m, BIN_MUL, x[k], y[k], et, span, d);
    if (!p) return NULL;
    acc = acc ? fold_scalar_binary(m, BIN_ADD, acc, p, et, span, d) : p;
    if (!acc) return NULL;
  }
  return acc;
}

/* Constant matrix arithmetic: component-wise + - and scalar products, and
 * the three linear-algebra products (result type rt, set by the resolver). */
static const cvalue *fold_matrix(wgsl_module *m, ast_binop op, const cvalue *a, const cvalue *b,
                                 const type *rt, src_span span, diag_list *d) {
  const type *et = type_scalar_of(rt);
  const type *at = a->type, *bt = b->type;
  const cvalue *col[4], *el[4], *x[4], *y[4];
  if (rt->kind == TY_MAT && (op != BIN_MUL || at->kind != TY_MAT || bt->kind != TY_MAT)) {
    /* component-wise: mat +- mat, scalar * mat, mat * scalar */
    for (uint32_t c = 0; c < rt->n; c++) {
      for (uint32_t r = 0; r < rt->rows; r++) {
        const cvalue *p = at->kind == TY_MAT ? mat_at(a, c, r) : a;
        const cvalue *q = bt->kind == TY_MAT ? mat_at(b, c, r) : b;
        el[r] = fold_scalar_binary(m, op, p, q, et, span, d);
        if (!el[r]) return NULL;
      }
      col[c] = cv_composite(m, types_vec(&m->types, et, rt->rows), el, (int)rt->rows);
    }
    return cv_composite(m, rt, col, (int)rt->n);
  }
  if (at->kind == TY_MAT && bt->kind == TY_MAT) {
    /* (A B)[c][r] = sum_k A[k][r] * B[c][k] */
    for (uint32_t c = 0; c < rt->n; c++) {
      for (uint32_t r = 0; r < rt->rows; r++) {
        for (uint32_t k = 0; k < at->n; k++) x[k] = mat_at(a, k, r), y[k] = mat_at(b, c, k);
        if (!(el[r] = fold_dot(m, x, y, at->n, et, span, d))) return NULL;
      }
      col[c] = cv_composite(m, types_vec(&m->types, et, rt->rows), el, (int)rt->rows);
    }
    return cv_composite(m, rt, col, (int)rt->n);
  }
  if (at->kind == TY_MAT) {
    /* (M v)[r] = sum_k M[k][r] * v[k] */
    for (uint32_t r = 0; r < rt->n; r++) {
      for (uint32_t k = 0; k < at->n; k++) x[k] = mat_at(a, k, r), y[k] = b->elems[k];
      if (!(el[r] = fold_dot(m, x, y, at->n, et, span, d))) return NULL;
    }
    return cv_composite(m, rt, el, (int)rt->n);
  }
  /* (v M)[c] = dot(v, M[c]) */
  for (uint32_t c = 0; c < rt->n; c++) {
    for (uint32_t k = 0; k < bt->rows; k++) x[k] = a->elems[k], y[k] = mat_at(b, c, k);
    if (!(el[c] = fold_dot(m, x, y, bt->rows, et, span, d))) return NULL;
  }
  return cv_composite(m, rt, el, (int)rt->n);
}

const cvalue *fold_binary(wgsl_module *m, ast_binop op, const cvalue *a, const cvalue *b,
                          const type *rt, src_span span, diag_list *d) {
  if (!a || !b) return NULL;
  if (a->type->kind == TY_MAT || b->type->kind == TY_MAT) return fold_matrix(m, op, a, b, rt, span, d);
  int na = a->elems ? a->n : 0, nb = b->elems ? b->n : 0;
  int n = na > nb ? na : nb;
  if (n == 0) return fold_scalar_binary(m, op, a, b, rt, span, d);
  const type *ert = type_scalar_of(rt);
  const cvalue *el[4];
  if (n > 4) return err(d, span, "constant matrix arithmetic is not supported yet%s%s", "", "");
  for (int i = 0; i < n; i++) {
    el[i] = fold_scalar_binary(m, op, component(m, a, i), component(m, b, i), ert, span, d);
    if (!el[i]) return NULL;
  }
  return cv_composite(m, rt, el, n);
}

static const cvalue *fold_scalar_unary(wgsl_module *m, ast_unop op, const cvalue *v,
                                       src_span span, diag_list *d) {
  const type *t = v->type;
  switch (op) {
  case UN_NOT: return cv_bool(m, !v->b);
  case UN_BITNOT: return cv_int(m, t, ~v->i);
  case UN_NEG:
    if (type_is_integer_scalar(t)) {
      /* §Arithmetic Expressions: the most negative value negates to itself
       * (AbstractInt's too) */
      if (t->kind == TY_AINT && v->i == INT64_MIN) return v;
      return cv_int(m, t, -v->i); /* i32: -(-2^31) = 2^31 wraps back */
    }
    return cv_float(m, t, -v->f);
  default: return NULL;
  }
}

const cvalue *fold_unary(wgsl_module *m, ast_unop op, const cvalue *v, const type *rt,
                         src_span span, diag_list *d) {
  if (!v) return NULL;
  if (!v->elems) return fold_scalar_unary(m, op, v, span, d);
  const cvalue *el[4];
  for (int i = 0; i < v->n && i < 4; i++) {
    el[i] = fold_scalar_unary(m, op, v->elems[i], span, d);
    if (!el[i]) return NULL;
  }
  return cv_composite(m, rt, el, v->n);
}

static const cvalue *fold_scalar_ext(wgsl_module *m, builtin_fn f, const cvalue **a,
                                     const type *t, src_span span, diag_list *d);

static const cvalue *fold_scalar_builtin(wgsl_module *m, builtin_fn f, const cvalue **a,
                                         const type *rt, src_span span, diag_list *d) {
  const type *t = a[0]->type;
  int is_int = type_is_integer_scalar(t);
  switch (f) {
  case BF_ABS:
    if (is_int) {
      if (t->kind == TY_U32) return a[0];
      if (t->kind == TY_I32 && a[0]->i == INT32_MIN) return a[0]; /* abs(MIN) = MIN */
      return cv_int(m, t, a[0]->i < 0 ? -a[0]->i : a[0]->i);
    }
    return cv_float(m, t, fabs(a[0]->f));
  case BF_MIN:
    if (is_int) return a[0]->i <= a[1]->i ? a[0] : a[1];
    return cv_float(m, t, fmin(a[0]->f, a[1]->f));
  case BF_MAX:
    if (is_int) return a[0]->i >= a[1]->i ? a[0] : a[1];
    return cv_float(m, t, fmax(a[0]->f, a[1]->f));
  case BF_CLAMP:
    if (is_int) {
      int64_t x = a[0]->i, lo = a[1]->i, hi = a[2]->i;
      int64_t r = x < lo ? lo : x;
      return cv_int(m, t, r > hi ? hi : r);
    }
    return cv_float(m, t, fmin(fmax(a[0]->f, a[1]->f), a[2]->f));
  case BF_SQRT:
    if (a[0]->f < 0) return err(d, span, "sqrt of a negative value in a constant expression%s%s", "", "");
    return cv_float(m, t, t->kind == TY_F32 ? (double)sqrtf((float)a[0]->f) : sqrt(a[0]->f));
  case BF_FLOOR: return cv_float(m, t, floor(a[0]->f));
  case BF_CEIL: return cv_float(m, t, ceil(a[0]->f));
  default: break;
  }
  (void)rt;
  return fold_scalar_ext(m, f, a, t, span, d);
}

/* A float result of a constant built-in: must be finite and, for f32/f16,
 * representable. */
static const cvalue *fres(wgsl_module *m, const type *t, double v, src_span span, diag_list *d) {
  double lim = t->kind == TY_F32 ? 3.4028234663852886e38 : t->kind == TY_F16 ? 65504.0 : 1.7976931348623157e308;
  if (t->kind == TY_F16) v = eval_round_f16(v); /* what rounds to 65504 fits */
  if (isnan(v) || fabs(v) > lim) {
    if (d) diag_error(d, span, "the result of this constant built-in is not finite or does not fit its type");
    return NULL;
  }
  return cv_float(m, t, v);
}

static const cvalue *domain(diag_list *d, src_span span, const char *what) {
  if (d) diag_error(d, span, "%s is outside its domain in a constant expression", what);
  return NULL;
}

/* The component-wise built-ins added with the full validator. NULL without
 * an error: no constant folding for f (the caller treats the call as a
 * runtime value). */
static const cvalue *fold_scalar_ext(wgsl_module *m, builtin_fn f, const cvalue **a,
                                     const type *t, src_span span, diag_list *d) {
  double x = a[0]->f, y = a[1] ? a[1]->f : 0, z = a[2] ? a[2]->f : 0;
  int is_int = type_is_integer_scalar(t);
  uint32_t u = (uint32_t)a[0]->i;
  switch (f) {
  case BF_LDEXP: { /* x * 2^e; sema_builtin.c refuses e > bias + 1 */
    const int64_t e = a[1]->i;
    return fres(m, t, ldexp(x, e < -4000 ? -4000 : e > 4000 ? 4000 : (int)e), span, d);
  }
  case BF_ACOS: if (fabs(x) > 1) return domain(d, span, "acos's argument"); return fres(m, t, acos(x), span, d);
  case BF_ASIN: if (fabs(x) > 1) return domain(d, span, "asin's argument"); return fres(m, t, asin(x), span, d);
  case BF_ACOSH: if (x < 1) return domain(d, span, "acosh's argument"); return fres(m, t, acosh(x), span, d);
  case BF_ASINH: return fres(m, t, asinh(x), span, d);
  case BF_ATAN: return fres(m, t, atan(x), span, d);
  case BF_ATANH: if (fabs(x) >= 1) return domain(d, span, "atanh's argument"); return fres(m, t, atanh(x), span, d);
  case BF_COS: return fres(m, t, cos(x), span, d);
  case BF_COSH: return fres(m, t, cosh(x), span, d);
  case BF_SIN: return fres(m, t, sin(x), span, d);
  case BF_SINH: return fres(m, t, sinh(x), span, d);
  case BF_TAN: return fres(m, t, tan(x), span, d);
  case BF_TANH: return fres(m, t, tanh(x), span, d);
  case BF_EXP: return fres(m, t, exp(x), span, d);
  case BF_EXP2: return fres(m, t, exp2(x), span, d);
  case BF_LOG: if (x <= 0) return domain(d, span, "log's argument"); return fres(m, t, log(x), span, d);
  case BF_LOG2: if (x <= 0) return domain(d, span, "log2's argument"); return fres(m, t, log2(x), span, d);
  case BF_INVERSE_SQRT: if (x <= 0) return domain(d, span, "inverseSqrt's argument"); return fres(m, t, 1 / sqrt(x), span, d);
  case BF_FRACT: return fres(m, t, x - floor(x), span, d);
  case BF_ROUND: { double r = nearbyint(x); return fres(m, t, r, span, d); }
  case BF_TRUNC: return fres(m, t, trunc(x), span, d);
  case BF_DEGREES: return fres(m, t, x * (180.0 / 3.14159265358979323846), span, d);
  case BF_RADIANS: return fres(m, t, x * (3.14159265358979323846 / 180.0), span, d);
  case BF_SATURATE: return fres(m, t, fmin(fmax(x, 0), 1), span, d);
  case BF_ATAN2: return fres(m, t, atan2(x, y), span, d);
  case BF_POW:
    /* the domain excludes x < 0 (§pow: the result may be computed as
     * exp2(y * log2(x))); by that formula 0 to a power y <= 0 is
     * exp2(y * -inf), infinite or NaN (0 * -inf), an error too */
    if (x < 0 || (x == 0 && y <= 0)) return domain(d, span, "pow's base");
    return fres(m, t, pow(x, y), span, d);
  case BF_STEP: return fres(m, t, y >= x ? 1.0 : 0.0, span, d);
  case BF_FMA: return fres(m, t, x * y + z, span, d);
  case BF_SMOOTHSTEP: { /* equal edges: refused by sema_known_args_ok */
    double k = fmin(fmax((z - x) / (y - x), 0), 1);
    return fres(m, t, k * k * (3 - 2 * k), span, d);
  }
  case BF_MIX: { /* x * (1 - z) + y * z, each step rounded to t as it runs */
    const cvalue *one = cv_float(m, t, 1.0);
    const cvalue *k = one ? fold_scalar_binary(m, BIN_SUB, one, a[2], t, span, d) : NULL;
    const cvalue *p = k ? fold_scalar_binary(m, BIN_MUL, a[0], k, t, span, d) : NULL;
    const cvalue *q = p ? fold_scalar_binary(m, BIN_MUL, a[1], a[2], t, span, d) : NULL;
    return q ? fold_scalar_binary(m, BIN_ADD, p, q, t, span, d) : NULL;
  }
  case BF_SIGN:
    if (is_int) return cv_int(m, t, a[0]->i > 0 ? 1 : a[0]->i < 0 ? -1 : 0);
    return cv_float(m, t, x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
  case BF_COUNT_ONE_BITS: { int k = 0; for (int i = 0; i < 32; i++) k += (u >> i) & 1; return cv_int(m, t, k); }
  case BF_COUNT_LEADING_ZEROS: { int k = 0; while (k < 32 && !(u & (0x80000000u >> k))) k++; return cv_int(m, t, k); }
  case BF_COUNT_TRAILING_ZEROS: { int k = 0; while (k < 32 && !(u & (1u << k))) k++; return cv_int(m, t, k); }
  case BF_REVERSE_BITS: { uint32_t r = 0; for (int i = 0; i < 32; i++) if (u & (1u << i)) r |= 0x80000000u >> i; return cv_int(m, t, (int64_t)r); }
  case BF_FIRST_TRAILING_BIT: { if (!u) return cv_int(m, t, -1); int k = 0; while (!(u & (1u << k))) k++; return cv_int(m, t, k); }
  case BF_FIRST_LEADING_BIT: {
    uint32_t v = u;
    if (t->kind == TY_I32 && (int32_t)u < 0) v = ~u;
    if (!v) return cv_int(m, t, -1);
    int k = 31;
    while (!(v & (1u << k))) k--;
    return cv_int(m, t, k);
  }
  default: break;
  }
  return NULL;
}

static const cvalue *fres(wgsl_module *m, const type *t, double v, src_span span, diag_list *d);

/* Determinant of the n x n matrix x[col][row] by expansion along column 0. */
static double det_n(double x[4][4], uint32_t n) {
  if (n == 1) return x[0][0];
  double sum = 0, sign = 1;
  for (uint32_t r = 0; r < n; r++) {
    double minor[4][4];
    for (uint32_t c = 1; c < n; c++)
      for (uint32_t rr = 0, k = 0; rr < n; rr++)
        if (rr != r) minor[c - 1][k++] = x[c][rr];
    sum += sign * x[0][r] * det_n(minor, n - 1);
    sign = -sign;
  }
  return sum;
}

/* The encoding of an f16 value (v is exactly an f16: rounded already). */
static uint32_t f16_encode(double v) {
  uint32_t sign = signbit(v) ? 0x8000u : 0;
  double a = fabs(v);
  if (isnan(v)) return sign | 0x7e00u;
  if (isinf(v)) return sign | 0x7c00u;
  if (a < 0x1p-14) return sign | (uint32_t)ldexp(a, 24); /* subnormal: exact */
  int e;
  double f = frexp(a, &e); /* a = f * 2^e, 0.5 <= f < 1; f16 exponent e - 1 */
  return sign | (uint32_t)(e - 1 + 15) << 10 | ((uint32_t)ldexp(f, 11) & 0x3ffu);
}

static double f16_decode(uint32_t h) {
  const int e = (int)((h >> 10) & 31), mt = (int)(h & 1023);
  const double s = (h & 0x8000u) ? -1.0 : 1.0;
  if (e == 31) return mt ? NAN : s * INFINITY;
  if (e == 0) return s * ldexp((double)mt, -24);
  return s * ldexp(1024.0 + mt, e - 25);
}

const cvalue *cv_bitcast(wgsl_module *m, const cvalue *v, const type *to, src_span span,
                         diag_list *d) {
  /* the value as 16-bit pieces, low half first (memory order) */
  uint16_t h[8];
  int nh = 0;
  const int nv = v->elems ? v->n : 1;
  for (int i = 0; i < nv && nh < 8; i++) {
    const cvalue *c = v->elems ? v->elems[i] : v;
    if (c->type->kind == TY_F16) {
      h[nh++] = (uint16_t)f16_encode(c->f);
      continue;
    }
    uint32_t w;
    sema_value_words(c, &w, 1);
    h[nh++] = (uint16_t)w;
    if (nh < 8) h[nh++] = (uint16_t)(w >> 16);
  }
  const type *ts = type_scalar_of(to);
  const int nt = to->kind == TY_VEC ? (int)to->n : 1;
  const cvalue *el[4];
  int k = 0;
  for (int i = 0; i < nt && i < 4; i++) {
    if (ts->kind == TY_F16) {
      if (k >= nh) return NULL;
      const double x = f16_decode(h[k++]);
      if (!isfinite(x)) return err(d, span, "this constant bitcast gives an infinity or NaN%s%s", "", "");
      el[i] = cv_float(m, ts, x);
    } else {
      if (k + 1 >= nh) return NULL;
      const uint32_t w = h[k] | (uint32_t)h[k + 1] << 16;
      k += 2;
      if (ts->kind == TY_F32) {
        float f;
        memcpy(&f, &w, 4);
        if (!isfinite(f)) return err(d, span, "this constant bitcast gives an infinity or NaN%s%s", "", "");
        el[i] = cv_float(m, ts, f);
      } else {
        el[i] = cv_int(m, ts, ts->kind == TY_I32 ? (int64_t)(int32_t)w : (int64_t)w);
      }
    }
    if (!el[i]) return NULL;
  }
  return to->kind == TY_VEC ? cv_composite(m, to, el, nt) : el[0];
}

/* The packing functions of util/bitfn.h: per pack function its unpack
 * function (BF_COUNT: none), the field width, whether the fields are
 * signed, and whether it packs normalised floats (snorm, unorm) or clamps
 * integers (the *Clamp forms) rather than truncating them. */
static const struct pack_fmt {
  builtin_fn pack, unpack;
  uint8_t bits, sign, norm, clamp;
} pack_fmts[] = {
    {BF_PACK4X8SNORM, BF_UNPACK4X8SNORM, 8, 1, 1, 0},   {BF_PACK4X8UNORM, BF_UNPACK4X8UNORM, 8, 0, 1, 0},
    {BF_PACK2X16SNORM, BF_UNPACK2X16SNORM, 16, 1, 1, 0}, {BF_PACK2X16UNORM, BF_UNPACK2X16UNORM, 16, 0, 1, 0},
    {BF_PACK4XI8, BF_UNPACK4XI8, 8, 1, 0, 0},            {BF_PACK4XU8, BF_UNPACK4XU8, 8, 0, 0, 0},
    {BF_PACK4XI8_CLAMP, BF_COUNT, 8, 1, 0, 1},           {BF_PACK4XU8_CLAMP, BF_COUNT, 8, 0, 0, 1},
};

/* pack*, unpack* (but the f16 ones) and dot4*Packed of constants, with
 * the VM's arithmetic (util/bitfn.h). */
static const cvalue *fold_bits_pack(wgsl_module *m, builtin_fn f, const cvalue **args,
                                    const type *rt, int *done) {
  const cvalue *v = args[0], *el[4];
  *done = 1;
  if (f == BF_DOT4U8_PACKED || f == BF_DOT4I8_PACKED)
    return cv_int(m, rt, bitfn_dot4((uint32_t)v->i, (uint32_t)args[1]->i, f == BF_DOT4I8_PACKED));
  for (size_t k = 0; k < sizeof pack_fmts / sizeof pack_fmts[0]; k++) {
    const struct pack_fmt *p = &pack_fmts[k];
    const uint32_t field = (1u << p->bits) - 1u;
    const int n = 32 / p->bits;
    if (f == p->pack) {
      uint32_t bits = 0;
      for (int i = 0; i < n; i++) {
        const cvalue *x = v->elems[i];
        uint32_t r;
        if (p->norm) r = bitfn_pack_norm((float)x->f, (double)(field >> p->sign), p->sign);
        else if (!p->clamp) r = (uint32_t)x->i;
        else if (p->sign) r = (uint32_t)(x->i < -128 ? -128 : x->i > 127 ? 127 : x->i);
        else r = x->i > 255 ? 255u : (uint32_t)x->i;
        bits |= (r & field) << (p->bits * (unsigned)i);
      }
      return cv_int(m, rt, bits);
    }
    if (f == p->unpack) {
      for (int i = 0; i < n; i++) {
        const uint32_t b = ((uint32_t)v->i >> (p->bits * (unsigned)i)) & field;
        if (p->norm)
          el[i] = cv_float(m, rt->elem, bitfn_unpack_norm(b, (float)(field >> p->sign), p->bits, p->sign));
        else
          el[i] = cv_int(m, rt->elem, p->sign ? (int64_t)(int8_t)b : (int64_t)b);
        if (!el[i]) return NULL;
      }
      return cv_composite(m, rt, el, n);
    }
  }
  *done = 0;
  return NULL;
}

/* quantizeToF16, pack2x16float and unpack2x16float of constants. */
static const cvalue *fold_f16_pack(wgsl_module *m, builtin_fn f, const cvalue **args, const type *rt,
                                   src_span span, diag_list *d, int *done) {
  const cvalue *v = args[0];
  *done = 1;
  const int n = v->elems ? v->n : 1;
  const cvalue *el[4];
  switch (f) {
  case BF_QUANTIZE_TO_F16:
  case BF_PACK2X16FLOAT: {
    uint32_t bits = 0;
    for (int i = 0; i < n && i < 4; i++) {
      const double x = component(m, v, i)->f;
      if (fabs(x) > 65504.0)
        return err(d, span, "%s of a value outside the finite range of f16 in a constant expression%s",
                   f == BF_QUANTIZE_TO_F16 ? "quantizeToF16" : "pack2x16float", "");
      const double h = eval_round_f16(x);
      if (f == BF_PACK2X16FLOAT) bits |= f16_encode(h) << (16 * i);
      else if (!(el[i] = cv_float(m, type_scalar_of(rt), h))) return NULL;
    }
    if (f == BF_PACK2X16FLOAT) return cv_int(m, rt, bits);
    return v->elems ? cv_composite(m, rt, el, n) : el[0];
  }
  case BF_UNPACK2X16FLOAT:
    for (int i = 0; i < 2; i++) {
      const double x = f16_decode(((uint32_t)v->i >> (16 * i)) & 0xffffu);
      if (!isfinite(x)) return err(d, span, "unpack2x16float gives an infinity or NaN in a constant expression%s%s", "", "");
      if (!(el[i] = cv_float(m, rt->elem, x))) return NULL;
    }
    return cv_composite(m, rt, el, 2);
  default: break;
  }
  return fold_bits_pack(m, f, args, rt, done);
}

/* extractBits(e, offset, count) and insertBits(e, newbits, offset, count)
 * of constants, component-wise (offset + count is at most 32: checked by
 * sema_known_args_ok first). */
static const cvalue *fold_bitfield(wgsl_module *m, builtin_fn f, const cvalue **args, int nargs,
                                   const type *rt) {
  const int64_t o = args[nargs - 2]->i, c = args[nargs - 1]->i;
  const type *st = type_scalar_of(rt);
  const int n = args[0]->elems ? args[0]->n : 1;
  const cvalue *el[4];
  for (int i = 0; i < n && i < 4; i++) {
    const uint32_t e = (uint32_t)component(m, args[0], i)->i;
    const uint32_t r = f == BF_EXTRACT_BITS
                           ? bitfn_extract(e, (uint32_t)o, (uint32_t)c, st->kind == TY_I32)
                           : bitfn_insert(e, (uint32_t)component(m, args[1], i)->i, (uint32_t)o, (uint32_t)c);
    if (!(el[i] = cv_int(m, st, st->kind == TY_I32 ? (int64_t)(int32_t)r : (int64_t)r))) return NULL;
  }
  return args[0]->elems ? cv_composite(m, rt, el, n) : el[0];
}

/* The geometric built-ins and all/any on constants: WGSL's formulas for
 * them (the ones the accuracy table says they inherit from), every step
 * folded and rounded to the element type like the runtime lowering
 * (lower_builtin.c) does it. */
static const cvalue *fold_geometric(wgsl_module *m, builtin_fn f, const cvalue **args, int nargs,
                                    const type *rt, src_span span, diag_list *d, int *done) {
  *done = 1;
  const cvalue *x = args[0], *y = nargs > 1 ? args[1] : NULL;
  const type *et = type_scalar_of(x->type);
  const int n = x->elems ? x->n : 1;
  const cvalue *xs[4], *ys[4], *el[4];
  for (int i = 0; i < n && i < 4; i++) {
    xs[i] = component(m, x, i);
    ys[i] = y ? component(m, y, i) : NULL;
  }
  switch (f) {
  case BF_ALL: case BF_ANY: {
    int r = f == BF_ALL;
    for (int i = 0; i < n; i++) r = f == BF_ALL ? r && xs[i]->b : r || xs[i]->b;
    return cv_bool(m, r);
  }
  case BF_DOT: return fold_dot(m, xs, ys, (uint32_t)n, et, span, d);
  case BF_LENGTH: case BF_DISTANCE: case BF_NORMALIZE: {
    const cvalue *v[4];
    for (int i = 0; i < n; i++) {
      v[i] = f == BF_DISTANCE ? fold_scalar_binary(m, BIN_SUB, xs[i], ys[i], et, span, d) : xs[i];
      if (!v[i]) return NULL;
    }
    const cvalue *len;
    if (n == 1) {
      len = cv_float(m, et, fabs(v[0]->f));
    } else {
      const cvalue *sq = fold_dot(m, v, v, (uint32_t)n, et, span, d);
      if (!sq) return NULL;
      const cvalue *sa[3] = {sq, NULL, NULL};
      len = fold_scalar_builtin(m, BF_SQRT, sa, et, span, d);
    }
    if (!len || f != BF_NORMALIZE) return len;
    for (int i = 0; i < n; i++)
      if (!(el[i] = fold_scalar_binary(m, BIN_DIV, v[i], len, et, span, d))) return NULL;
    return cv_composite(m, rt, el, n);
  }
  case BF_CROSS:
    for (int i = 0; i < 3; i++) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      const cvalue *p = fold_scalar_binary(m, BIN_MUL, xs[j], ys[k], et, span, d);
      const cvalue *q = p ? fold_scalar_binary(m, BIN_MUL, xs[k], ys[j], et, span, d) : NULL;
      if (!q || !(el[i] = fold_scalar_binary(m, BIN_SUB, p, q, et, span, d))) return NULL;
    }
    return cv_composite(m, rt, el, 3);
  case BF_REFLECT: { /* x - 2 * dot(y, x) * y */
    const cvalue *k = fold_dot(m, ys, xs, (uint32_t)n, et, span, d);
    if (k) k = fold_scalar_binary(m, BIN_MUL, k, cv_float(m, et, 2.0), et, span, d);
    if (!k) return NULL;
    for (int i = 0; i < n; i++) {
      const cvalue *p = fold_scalar_binary(m, BIN_MUL, k, ys[i], et, span, d);
      if (!p || !(el[i] = fold_scalar_binary(m, BIN_SUB, xs[i], p, et, span, d))) return NULL;
    }
    return cv_composite(m, rt, el, n);
  }
  case BF_FREXP: case BF_MODF: { /* result structs {fract, exp} / {fract, whole} */
    const type *ft = rt->fields[0].type, *st = rt->fields[1].type;
    const cvalue *a0[4], *a1[4];
    for (int i = 0; i < n; i++) {
      const double v = xs[i]->f;
      if (f == BF_FREXP) {
        int e = 0;
        const double fr = v == 0 ? v : frexp(v, &e);
        a0[i] = cv_float(m, et, fr);
        a1[i] = cv_int(m, type_scalar_of(st), e);
      } else {
        a1[i] = cv_float(m, et, trunc(v));
        a0[i] = a1[i] ? fold_scalar_binary(m, BIN_SUB, xs[i], a1[i], et, span, d) : NULL;
      }
      if (!a0[i] || !a1[i]) return NULL;
    }
    const cvalue *parts[2] = {x->elems ? cv_composite(m, ft, a0, n) : a0[0],
                              x->elems ? cv_composite(m, st, a1, n) : a1[0]};
    return cv_composite(m, rt, parts, 2);
  }
  case BF_REFRACT: { /* k = 1 - e3 * e3 * (1 - dot(e2, e1)^2); k < 0: 0, else
                        e3 * e1 - (e3 * dot(e2, e1) + sqrt(k)) * e2 */
    if (nargs < 3) return NULL;
    const cvalue *e3 = args[2], *one = cv_float(m, et, 1.0);
    const cvalue *dt = fold_dot(m, ys, xs, (uint32_t)n, et, span, d);
    const cvalue *k = dt ? fold_scalar_binary(m, BIN_MUL, dt, dt, et, span, d) : NULL;
    if (k) k = fold_scalar_binary(m, BIN_SUB, one, k, et, span, d);
    const cvalue *ee = k ? fold_scalar_binary(m, BIN_MUL, e3, e3, et, span, d) : NULL;
    if (ee) k = fold_scalar_binary(m, BIN_MUL, ee, k, et, span, d);
    if (ee && k) k = fold_scalar_binary(m, BIN_SUB, one, k, et, span, d);
    if (!ee || !k) return NULL;
    if (k->f < 0) return cv_zero(m, rt);
    const cvalue *sa[3] = {k, NULL, NULL};
    const cvalue *sq = fold_scalar_builtin(m, BF_SQRT, sa, et, span, d);
    const cvalue *c = sq ? fold_scalar_binary(m, BIN_MUL, e3, dt, et, span, d) : NULL;
    if (c) c = fold_scalar_binary(m, BIN_ADD, c, sq, et, span, d);
    if (!c) return NULL;
    for (int i = 0; i < n; i++) {
      const cvalue *p = fold_scalar_binary(m, BIN_MUL, e3, xs[i], et, span, d);
      const cvalue *q = p ? fold_scalar_binary(m, BIN_MUL, c, ys[i], et, span, d) : NULL;
      if (!q || !(el[i] = fold_scalar_binary(m, BIN_SUB, p, q, et, span, d))) return NULL;
    }
    return cv_composite(m, rt, el, n);
  }
  case BF_FACE_FORWARD: { /* dot(z, y) < 0 ? x : -x */
    const cvalue *zs[4];
    if (nargs < 3) return NULL;
    for (int i = 0; i < n; i++) zs[i] = component(m, args[2], i);
    const cvalue *k = fold_dot(m, ys, zs, (uint32_t)n, et, span, d);
    if (!k) return NULL;
    if (k->f < 0) return x;
    for (int i = 0; i < n; i++)
      if (!(el[i] = fold_scalar_unary(m, UN_NEG, xs[i], span, d))) return NULL;
    return cv_composite(m, rt, el, n);
  }
  default: break;
  }
  *done = 0;
  return NULL;
}

/* The built-ins with an error for arguments known before the call runs,
 * whatever the others are (a shader-creation error when they are
 * const-expressions, a pipeline-creation error when they are
 * override-expressions): which arguments the rule reads. */
static const struct {
  builtin_fn f;
  unsigned args; /* bit i: argument i */
} known_rules[] = {
    {BF_CLAMP, 6u},        /* §clamp: low > high */
    {BF_SMOOTHSTEP, 3u},   /* §smoothstep: edge0 == edge1 */
    {BF_EXTRACT_BITS, 6u}, /* §extractBits: offset + count > 32 */
    {BF_INSERT_BITS, 12u}, /* §insertBits: offset + count > 32 */
    {BF_LDEXP, 2u},        /* §ldexp: e2 > bias + 1 */
};

unsigned sema_known_args(builtin_fn f) {
  for (size_t i = 0; i < sizeof known_rules / sizeof known_rules[0]; i++)
    if (known_rules[i].f == f) return known_rules[i].args;
  return 0;
}

int sema_known_args_ok(builtin_fn f, const cvalue *const *args, int n, const type *rt,
                       src_span span, const src_span *arg_spans, diag_list *d) {
  const unsigned need = sema_known_args(f);
  if (!need) return 1;
  for (int i = 0; i < n; i++)
    if ((need >> i & 1u) && !args[i]) return 1; /* not known: nothing to check */
  const char *name = builtin_fn_name(f);
  if (f == BF_EXTRACT_BITS || f == BF_INSERT_BITS) {
    const int64_t o = args[n - 2]->i, c = args[n - 1]->i; /* u32s: the sum fits */
    if (o + c <= 32) return 1;
    if (d) diag_error(d, span, "%s: offset %lld + count %lld is more than 32 bits", name, (long long)o,
                      (long long)c);
    return 0;
  }
  const cvalue *a = args[f == BF_SMOOTHSTEP ? 0 : 1];
  const cvalue *b = f == BF_LDEXP ? NULL : args[f == BF_SMOOTHSTEP ? 1 : 2];
  const int sk = type_scalar_of(rt)->kind;
  const int64_t bias = sk == TY_F16 ? 15 : sk == TY_F32 ? 127 : 1023;
  for (int i = 0; i < (a->elems ? a->n : 1); i++) {
    const cvalue *x = component(NULL, a, i), *y = f == BF_LDEXP ? NULL : component(NULL, b, i);
    switch (f) {
    case BF_CLAMP: {
      const int bad = type_is_float_scalar(x->type) ? x->f > y->f
                      : x->type->kind == TY_U32     ? (uint64_t)x->i > (uint64_t)y->i
                                                    : x->i > y->i;
      if (!bad) continue;
      if (d) diag_error(d, span, "clamp's low is greater than its high");
      return 0;
    }
    case BF_SMOOTHSTEP:
      if (x->f != y->f) continue;
      if (d) diag_error(d, span, "smoothstep with equal edges (%g) has no value", x->f);
      return 0;
    default: /* ldexp */
      if (x->i <= bias + 1) continue;
      if (d) {
        char b1[64];
        diag_error(d, arg_spans ? arg_spans[1] : span,
                   "ldexp's exponent %lld is greater than %lld (the bias + 1 of %s)", (long long)x->i,
                   (long long)(bias + 1), type_name(type_scalar_of(rt), b1, sizeof b1));
      }
      return 0;
    }
  }
  return 1;
}

const cvalue *fold_builtin(wgsl_module *m, builtin_fn f, const cvalue **args, int nargs,
                           const type *rt, src_span span, diag_list *d) {
  for (int i = 0; i < nargs; i++)
    if (!args[i]) return NULL;
  if (f == BF_BITCAST) return cv_bitcast(m, args[0], rt, span, d);
  if (!sema_known_args_ok(f, args, nargs, rt, span, NULL, d)) return NULL;
  if (f == BF_EXTRACT_BITS || f == BF_INSERT_BITS) return fold_bitfield(m, f, args, nargs, rt);
  {
    int done;
    const cvalue *g = builtin_fn_kind(f) == BK_FIXED ? fold_f16_pack(m, f, args, rt, span, d, &done)
                                                      : fold_geometric(m, f, args, nargs, rt, span, d, &done);
    if (done) return g;
  }
  if (f == BF_TRANSPOSE) {
    const cvalue *a = args[0], *col[4], *el[4];
    const type *ct = types_vec(&m->types, rt->elem, rt->rows);
    for (uint32_t c = 0; c < rt->n; c++) {
      for (uint32_t r = 0; r < rt->rows; r++) el[r] = a->elems[r]->elems[c];
      col[c] = cv_composite(m, ct, el, (int)rt->rows);
    }
    return cv_composite(m, rt, col, (int)rt->n);
  }
  if (f == BF_DETERMINANT) {
    /* cofactor expansion along the first column, in double */
    const cvalue *a = args[0];
    double x[4][4];
    uint32_t n = a->type->n;
    for (uint32_t c = 0; c < n; c++)
      for (uint32_t r = 0; r < n; r++) x[c][r] = a->elems[c]->elems[r]->f;
    return fres(m, rt, det_n(x, n), span, d);
  }
  if (f == BF_ALL || f == BF_ANY) {
    const cvalue *v = args[0];
    if (!v->elems) return v;
    int r = f == BF_ALL;
    for (int i = 0; i < v->n; i++) r = f == BF_ALL ? r && v->elems[i]->b : r || v->elems[i]->b;
    return cv_bool(m, r);
  }
  if (f == BF_SELECT) {
    const cvalue *c = args[2];
    if (!c->elems) return c->b ? args[1] : args[0];
    const cvalue *el[4];
    for (int i = 0; i < c->n && i < 4; i++)
      el[i] = c->elems[i]->b ? args[1]->elems[i] : args[0]->elems[i];
    return cv_composite(m, rt, el, c->n);
  }
  int n = args[0]->elems ? args[0]->n : 0;
  if (n == 0) {
    const cvalue *sa[3] = {NULL, NULL, NULL};
    for (int k = 0; k < nargs && k < 3; k++) sa[k] = args[k];
    return fold_scalar_builtin(m, f, sa, rt, span, d);
  }
  const cvalue *el[4];
  for (int i = 0; i < n && i < 4; i++) {
    const cvalue *sa[3] = {NULL, NULL, NULL};
    for (int k = 0; k < nargs && k < 3; k++)
      sa[k] = args[k]->elems ? component(m, args[k], i) : args[k]; /* mix(v, v, s) */
    el[i] = fold_scalar_builtin(m, f, sa, type_scalar_of(rt), span, d);
    if (!el[i]) return NULL;
  }
  return cv_composite(m, rt, el, n);
}

/* ------------------------------------------- partly known binary operands */

int sema_check_known_rhs(ast_binop op, const type *lt, const cvalue *rv, src_span span,
                         diag_list *d) {
  int div = op == BIN_DIV || op == BIN_MOD, shift = op == BIN_SHL || op == BIN_SHR;
  const type *ls = type_scalar_of(lt);
  if (!rv || !ls || (!div && !shift)) return 1;
  if (div && ls->kind != TY_I32 && ls->kind != TY_U32) return 1; /* floats: no rule */
  if (shift && ls->kind == TY_AINT) return 1;                   /* folded whole */
  int n = rv->elems ? rv->n : 1;
  for (int i = 0; i < n; i++) {
    const cvalue *c = rv->elems ? rv->elems[i] : rv;
    if (div && c->i == 0) {
      if (d) diag_error(d, span, "integer %s by zero", op == BIN_DIV ? "division" : "remainder");
      return 0;
    }
    if (shift && (c->i < 0 || c->i >= 32)) {
      if (d) diag_error(d, span, "shift by %lld is not less than the bit width (32)", (long long)c->i);
      return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------- override evaluation */

const cvalue *sema_eval(wgsl_module *m, ast_expr *e, const eval_env *env, diag_list *d) {
  if (!e) return NULL;
  if (e->cval) return e->cval;
  switch (e->kind) {
  case EX_IDENT: {
    ast_decl *dc = e->decl;
    if (e->ref != REF_DECL || !dc) break;
    if (dc->kind == DECL_CONST) return dc->cval;
    if (dc->kind == DECL_OVERRIDE) {
      const cvalue *v = NULL;
      if (env && dc->index < env->count) v = env->overrides[dc->index];
      if (v) return v;
      /* the override whose own problem this is: evaluating its initializer
       * again reports why (a division by zero, say); the overrides it
       * names all have values, so that goes no deeper than its expression */
      ast_decl *root = dc;
      if (env && env->cause && dc->index < env->count && env->cause[dc->index] >= 0)
        root = m->ast->decls[env->cause[dc->index]];
      if (root->init && root->rtype) {
        const cvalue *iv = sema_eval(m, root->init, env, d);
        if (iv) iv = sema_convert(m, iv, root->rtype, root->init->span, d);
        /* (a root that now has a value would be a settling bug) */
        return root == dc ? iv : NULL;
      }
      if (d && root == dc)
        diag_error(d, e->span,
                   "override '%s' has no value: it has no initializer and the pipeline's "
                   "constants do not set it",
                   dc->name);
      else if (d)
        diag_error(d, e->span,
                   "override '%s' has no value: it depends on override '%s', which has no "
                   "initializer and which the pipeline's constants do not set",
                   dc->name, root->name);
      return NULL;
    }
    break;
  }
  case EX_UNARY: {
    const cvalue *v = sema_eval(m, e->u.unary.operand, env, d);
    return fold_unary(m, e->u.unary.op, v, e->type, e->span, d);
  }
  case EX_BINARY: {
    const cvalue *a = sema_eval(m, e->u.binary.lhs, env, d);
    if (!a) return NULL;
    if (e->u.binary.op == BIN_LAND && !a->b) return cv_bool(m, 0);
    if (e->u.binary.op == BIN_LOR && a->b) return cv_bool(m, 1);
    const cvalue *b = sema_eval(m, e->u.binary.rhs, env, d);
    if (!b) return NULL;
    /* operands were typed by the resolver; bring abstract ones to the
     * operand type the resolver chose */
    const type *ot = e->u.binary.lhs->type;
    const type *bt = e->u.binary.rhs->type;
    ot = type_unref(ot);
    bt = type_unref(bt);
    a = convert(m, a, ot, 1, e->span, d);
    b = convert(m, b, bt, 1, e->span, d);
    return fold_binary(m, e->u.binary.op, a, b, e->type, e->span, d);
  }
  case EX_CALL: {
    const cvalue *args[16];
    int n = e->u.call.nargs;
    if (n > 16) break;
    for (int i = 0; i < n; i++) {
      args[i] = sema_eval(m, e->u.call.args[i], env, d);
      if (!args[i]) return NULL;
    }
    if (e->ref == REF_BUILTIN_FN) return fold_builtin(m, e->builtin, args, n, e->type, e->span, d);
    if (e->ref == REF_CONSTRUCT) return fold_construct(m, e->type, args, n, e->span, d);
    break;
  }
  case EX_INDEX: { /* an element of a value with an override index (vec4u(...)[o]) */
    const cvalue *b = sema_eval(m, e->u.index.base, env, d);
    const cvalue *ix = b ? sema_eval(m, e->u.index.index, env, d) : NULL;
    if (!b || !ix || !b->elems) return NULL;
    if (ix->i < 0 || ix->i >= b->n) {
      if (d)
        diag_error(d, e->u.index.index->span, "index %lld is out of bounds (valid: 0..%d)", (long long)ix->i,
                   b->n - 1);
      return NULL;
    }
    return fold_index(m, b, ix->i);
  }
  case EX_MEMBER: { /* a member or swizzle of a value (frexp(o).fract, v.yx) */
    const cvalue *b = sema_eval(m, e->u.member.base, env, d);
    if (!b || !b->elems) return NULL;
    if (!e->nswizzle) return fold_index(m, b, e->member_index);
    if (e->nswizzle == 1) return fold_index(m, b, e->swizzle[0]);
    const cvalue *el[4];
    for (int i = 0; i < e->nswizzle; i++)
      if (!(el[i] = fold_index(m, b, e->swizzle[i]))) return NULL;
    return cv_composite(m, e->type, el, e->nswizzle);
  }
  default: break;
  }
  if (d) diag_error(d, e->span, "this expression is not a constant or override expression");
  return NULL;
}

const cvalue *fold_construct(wgsl_module *m, const type *t, const cvalue **args, int n,
                             src_span span, diag_list *d) {
  for (int i = 0; i < n; i++)
    if (!args[i]) return NULL;
  if (n == 0) return cv_zero(m, t);
  if (type_is_scalar(t)) return convert(m, args[0], t, 0, span, d);
  if (t->kind == TY_VEC) {
    const cvalue *el[4];
    int k = 0;
    if (n == 1 && !args[0]->elems) {
      const cvalue *s = convert(m, args[0], t->elem, 0, span, d);
      for (uint32_t i = 0; i < t->n; i++) el[i] = s;
      return s ? cv_composite(m, t, el, (int)t->n) : NULL;
    }
    for (int i = 0; i < n; i++) {
      if (args[i]->elems) {
        for (int j = 0; j < args[i]->n && k < 4; j++) {
          el[k] = convert(m, args[i]->elems[j], t->elem, 0, span, d);
          if (!el[k++]) return NULL;
        }
      } else if (k < 4) {
        el[k] = convert(m, args[i], t->elem, 0, span, d);
        if (!el[k++]) return NULL;
      }
    }
    return cv_composite(m, t, el, k);
  }
  if (t->kind == TY_MAT) {
    /* one matrix (conversion), C columns, or C*R scalars in column order */
    const type *ct = types_vec(&m->types, t->elem, t->rows);
    const cvalue *col[4], *el[4];
    if (n == 1) return convert(m, args[0], t, 0, span, d);
    for (uint32_t c = 0; c < t->n; c++) {
      if ((uint32_t)n == t->n) {
        col[c] = convert(m, args[c], ct, 0, span, d);
      } else {
        for (uint32_t r = 0; r < t->rows; r++)
          if (!(el[r] = convert(m, args[c * t->rows + r], t->elem, 0, span, d))) return NULL;
        col[c] = cv_composite(m, ct, el, (int)t->rows);
      }
      if (!col[c]) return NULL;
    }
    return cv_composite(m, t, col, (int)t->n);
  }
  if (t->kind == TY_ARRAY || t->kind == TY_STRUCT) {
    const cvalue **el = arena_alloc(&m->arena, sizeof *el * (size_t)n);
    if (!el) return NULL;
    for (int i = 0; i < n; i++) {
      const type *et = t->kind == TY_ARRAY ? t->elem : t->fields[i].type;
      el[i] = convert(m, args[i], et, 1, span, d);
      if (!el[i]) return NULL;
    }
    return cv_composite(m, t, el, n);
  }
  return err(d, span, "constant values of this type are not supported yet%s%s", "", "");
}

const cvalue *fold_index(wgsl_module *m, const cvalue *base, int64_t i) {
  (void)m;
  if (!base || !base->elems || i < 0 || i >= base->n) return NULL;
  return base->elems[i];
}
