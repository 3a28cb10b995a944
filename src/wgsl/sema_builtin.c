/*
 * sema_builtin.c — overload resolution for calls of WGSL built-in
 * functions. builtins.def gives each function its overload class and the
 * facts checked here before the class rule runs (the extension it needs,
 * its argument and template argument counts); this file implements one
 * rule per class (the allowed scalar types, the spec's conversion of
 * abstract arguments, the result type), folds calls whose arguments are
 * constant when the row's EVAL column allows it (eval.c), marks the
 * override-expressions among them, and builds the result structures of
 * frexp, modf and atomicCompareExchangeWeak. Called by sema_expr.c.
 */
#include <stdio.h>
#include <string.h>

#include "sema_int.h"

#define TN(t, b) type_name((t), (b), sizeof(b))

/* ----------------------------------------------------------------- helpers */

enum { S_F = 1, S_I = 2, S_U = 4, S_B = 8, S_N = S_F | S_I | S_U };

/* Does scalar s belong to the set? Abstract scalars count as what they may
 * become. */
static int scalar_in(const type *s, int set) {
  if (!s) return 0;
  switch (s->kind) {
  case TY_F32: case TY_F16: case TY_AFLOAT: return (set & S_F) != 0;
  case TY_I32: return (set & S_I) != 0;
  case TY_U32: return (set & S_U) != 0;
  case TY_AINT: return (set & (S_I | S_U | S_F)) != 0;
  case TY_BOOL: return (set & S_B) != 0;
  default: return 0;
  }
}

static int is_sv(const type *t) { return t && (type_is_scalar(t) || t->kind == TY_VEC); }

static const char *fname(builtin_fn f) { return builtin_fn_name(f); }

static const type *fail_args(sctx *c, ast_expr *e, builtin_fn f, const type *t) {
  char b[128];
  if (t) diag_error(c->d, e->span, "no overload of '%s' for %s", fname(f), TN(t, b));
  else diag_error(c->d, e->span, "no overload of '%s' for these arguments", fname(f));
  return NULL;
}

/* Unifies the value types of args[0..n) into one type, or NULL. */
static const type *common(ast_expr **a, int n) {
  const type *t = type_unref(a[0]->type);
  for (int i = 1; i < n && t; i++) t = sema_unify(t, type_unref(a[i]->type));
  return t;
}

static int convert_all(sctx *c, ast_expr **a, int n, const type *t) {
  for (int i = 0; i < n; i++)
    if (!sema_convert_expr(c, a[i], t)) return 0;
  return 1;
}

/* AbstractInt components become AbstractFloat (float-only functions). */
static const type *to_float(sctx *c, const type *t) {
  const type *s = type_scalar_of(t);
  if (s && s->kind == TY_AINT) return types_with_scalar(c->T, t, c->T->t_afloat);
  return t;
}

static int const_args(ast_expr **a, int n) {
  int ov;
  return sema_all_const(a, n, &ov) == 1;
}

/* Result structures: __frexp_result_f32 ... built once per module;
 * concrete: see type.concrete. */
static const type *result_struct(sctx *c, const char *name, const char *f0, const type *t0,
                                 const char *f1, const type *t1, const type *concrete) {
  for (int i = 0; i < c->T->count; i++) {
    const type *x = c->T->items[i];
    if (x->kind == TY_STRUCT && x->name && !strcmp(x->name, name)) return x;
  }
  size_t len = strlen(name) + 1;
  char *nm = arena_alloc(&c->m->arena, len);
  type_field *f = arena_alloc(&c->m->arena, sizeof *f * 2);
  if (!nm || !f) return NULL;
  memcpy(nm, name, len);
  memset(f, 0, sizeof *f * 2);
  f[0].name = f0;
  f[0].type = t0;
  f[1].name = f1;
  f[1].type = t1;
  return types_struct(c->T, nm, f, 2, concrete);
}

static void shape_suffix(const type *t, char *buf, size_t n) {
  const type *s = type_scalar_of(t);
  const char *sn = s->kind == TY_F16 ? "f16" : s->kind == TY_AFLOAT ? "abstract" : s->kind == TY_F32 ? "f32"
                   : s->kind == TY_I32 ? "i32" : "u32";
  if (t->kind == TY_VEC) snprintf(buf, n, "vec%u_%s", t->n, sn);
  else snprintf(buf, n, "%s", sn);
}

/* The result structure of frexp or modf of a t (§frexp, §modf). The
 * abstract ones (__frexp_result_abstract: AbstractFloat and AbstractInt
 * members) know the f32 structure they concretize to. */
static const type *frexp_modf_result(sctx *c, builtin_kind k, const type *t) {
  char sn[64], nm[96];
  shape_suffix(t, sn, sizeof sn);
  snprintf(nm, sizeof nm, "__%s_result_%s", k == BK_FREXP ? "frexp" : "modf", sn);
  const int abstract = type_is_abstract(t);
  const type *ex = types_with_scalar(c->T, t, abstract ? c->T->t_aint : c->T->t_i32);
  const type *to = abstract ? frexp_modf_result(c, k, types_concretize(c->T, t)) : NULL;
  if (abstract && !to) return NULL;
  return k == BK_FREXP ? result_struct(c, nm, "fract", t, "exp", ex, to)
                       : result_struct(c, nm, "fract", t, "whole", t, to);
}

/* ------------------------------------------------------------ atomics */

static const type *atomic_ptr(sctx *c, ast_expr *a, builtin_fn f, int write) {
  char b[128];
  const type *p = sema_value(c, a);
  if (!p) return NULL;
  if (p->kind != TY_PTR || p->elem->kind != TY_ATOMIC) {
    diag_error(c->d, a->span, "%s needs a pointer to an atomic (e.g. &counter), found %s", fname(f), TN(p, b));
    return NULL;
  }
  if (p->space != AS_STORAGE && p->space != AS_WORKGROUP) {
    diag_error(c->d, a->span, "atomics live in storage or workgroup memory");
    return NULL;
  }
  if (write && p->access != ACC_READ_WRITE) {
    diag_error(c->d, a->span, "%s needs read_write access", fname(f));
    return NULL;
  }
  return p->elem->elem;
}

static const type *atomic_call(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  int want = builtin_fn_info(f)->args;
  if (n != want) {
    diag_error(c->d, e->span, "%s takes %d argument%s", fname(f), want, want > 1 ? "s" : "");
    return NULL;
  }
  const type *t = atomic_ptr(c, a[0], f, f != BF_ATOMIC_LOAD);
  if (!t) return NULL;
  if (t->kind == TY_VEC) {
    diag_error(c->d, a[0]->span, "%s does not apply to atomic<vec2<u32>> (only atomicStoreMax and atomicStoreMin do)", fname(f));
    return NULL;
  }
  for (int i = 1; i < n; i++)
    if (!sema_expect(c, a[i], t, fname(f))) return NULL;
  if (f == BF_ATOMIC_CMPX) {
    e->type = result_struct(c, t->kind == TY_I32 ? "__atomic_compare_exchange_result_i32"
                                                 : "__atomic_compare_exchange_result_u32",
                            "old_value", t, "exchanged", c->T->t_bool, NULL);
    return e->type;
  }
  e->type = f == BF_ATOMIC_STORE ? c->T->t_void : t;
  return e->type;
}

/* ------------------------------------------------------------ textures */

static int tex_coords(const type *t) {
  switch (t->tex_dim) {
  case TD_1D: return 1;
  case TD_3D: case TD_CUBE: case TD_CUBE_ARRAY: return 3;
  default: return 2;
  }
}

static int tex_arrayed(const type *t) {
  return t->kind == TY_TEXTURE && (t->tex_dim == TD_2D_ARRAY || t->tex_dim == TD_CUBE_ARRAY) &&
         t->tex_kind != TEX_EXTERNAL && t->tex_kind != TEX_BUFFER;
}

/* Checks that argument i is an integer scalar or vector of width w (w = 1:
 * scalar); concrete i32/u32 after conversion. */
static int int_arg(sctx *c, ast_expr *a, uint32_t w) {
  const type *t = type_unref(a->type);
  const type *s = type_scalar_of(t);
  if (!s || !type_is_integer_scalar(s)) return 0;
  if ((w == 1) != (t->kind != TY_VEC) || (w > 1 && t->n != w)) return 0;
  if (s->kind == TY_AINT) return sema_convert_expr(c, a, types_with_scalar(c->T, t, c->T->t_i32));
  return 1;
}

static int float_arg(sctx *c, ast_expr *a, uint32_t w) {
  const type *want = w == 1 ? c->T->t_f32 : types_vec(c->T, c->T->t_f32, w);
  return sema_convert_expr(c, a, want);
}

/* The texture types each sampling and gathering built-in has overloads for
 * (WGSL §Texture Built-in Functions): gathers and the bias and gradient
 * samples have no 1D form; comparisons take depth textures only;
 * textureGather takes a component for sampled textures and none for depth
 * ones; textureSampleBaseClampToEdge takes texture_2d<f32> or
 * texture_external. `component` is 1 when a component argument came first. */
static int sampling_texture_ok(builtin_fn f, const type *t, int component) {
  int tk = t->tex_kind, dim = t->tex_dim;
  int depth = tk == TEX_DEPTH, sampled = tk == TEX_SAMPLED;
  switch (f) {
  case BF_TEXTURE_GATHER:
    return dim != TD_1D && dim != TD_3D && (component ? sampled : depth);
  case BF_TEXTURE_GATHER_COMPARE:
  case BF_TEXTURE_SAMPLE_COMPARE:
  case BF_TEXTURE_SAMPLE_COMPARE_LEVEL: return depth;
  case BF_TEXTURE_SAMPLE_BIAS:
  case BF_TEXTURE_SAMPLE_GRAD: return sampled && dim != TD_1D;
  case BF_TEXTURE_SAMPLE_BASE_CLAMP: return tk == TEX_EXTERNAL || (sampled && dim == TD_2D);
  default: return sampled || depth;
  }
}

static const type *texture_call(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  type_table *T = c->T;
  const type *u32 = T->t_u32, *f32 = T->t_f32;
  int k = 0; /* index of the texture argument */
  if (f == BF_TEXTURE_GATHER && n > 0 && type_unref(a[0]->type)->kind != TY_TEXTURE) {
    /* textureGather(component, t, s, coords, ...) */
    if (!int_arg(c, a[0], 1) || !a[0]->cval) {
      diag_error(c->d, a[0]->span, "textureGather's component must be a const-expression i32 or u32");
      return NULL;
    }
    if (a[0]->cval->i < 0 || a[0]->cval->i > 3) {
      diag_error(c->d, a[0]->span, "textureGather's component must be 0, 1, 2 or 3");
      return NULL;
    }
    k = 1;
  }
  if (n <= k) return fail_args(c, e, f, NULL);
  const type *t = type_unref(a[k]->type);
  if (t->kind != TY_TEXTURE) {
    char b[128];
    diag_error(c->d, a[k]->span, "%s needs a texture, found %s", fname(f), TN(t, b));
    return NULL;
  }
  int tk = t->tex_kind, arr = tex_arrayed(t), cw = tex_coords(t);
  const type *vec4s = t->elem ? types_vec(T, t->elem, 4) : NULL;
  int depth = tk == TEX_DEPTH || tk == TEX_DEPTH_MS;
  int rest = n - k - 1; /* arguments after the texture */
  ast_expr **r = a + k + 1;
  switch (f) {
  case BF_TEXTURE_DIMENSIONS: {
    int levels = tk == TEX_SAMPLED || tk == TEX_DEPTH;
    if (rest > (levels ? 1 : 0)) return fail_args(c, e, f, t);
    if (rest == 1 && !int_arg(c, r[0], 1)) return fail_args(c, e, f, t);
    if (tk == TEX_BUFFER || t->tex_dim == TD_1D) return u32;
    return types_vec(T, u32, t->tex_dim == TD_3D ? 3 : 2);
  }
  case BF_TEXTURE_NUM_LAYERS:
    if (rest || !arr) return fail_args(c, e, f, t);
    return u32;
  case BF_TEXTURE_NUM_LEVELS:
    if (rest || !(tk == TEX_SAMPLED || tk == TEX_DEPTH)) return fail_args(c, e, f, t);
    return u32;
  case BF_TEXTURE_NUM_SAMPLES:
    if (rest || !(tk == TEX_MULTISAMPLED || tk == TEX_DEPTH_MS)) return fail_args(c, e, f, t);
    return u32;
  case BF_TEXTURE_LOAD: {
    if (t->tex_dim >= TD_CUBE && tk != TEX_EXTERNAL && tk != TEX_BUFFER) return fail_args(c, e, f, t);
    int extra = (tk == TEX_STORAGE || tk == TEX_EXTERNAL || tk == TEX_BUFFER) ? 0 : 1;
    if (tk == TEX_STORAGE && t->access == ACC_WRITE) {
      diag_error(c->d, e->span, "textureLoad needs a storage texture with read or read_write access");
      return NULL;
    }
    if (rest != 1 + arr + extra) return fail_args(c, e, f, t);
    if (!int_arg(c, r[0], tk == TEX_BUFFER ? 1 : (uint32_t)cw)) return fail_args(c, e, f, t);
    for (int i = 1; i < rest; i++)
      if (!int_arg(c, r[i], 1)) return fail_args(c, e, f, t);
    return depth ? f32 : vec4s;
  }
  case BF_TEXTURE_STORE: {
    if (tk != TEX_STORAGE && tk != TEX_BUFFER) return fail_args(c, e, f, t);
    if (t->access == ACC_READ) {
      diag_error(c->d, e->span, "textureStore needs a storage texture with write or read_write access");
      return NULL;
    }
    if (rest != 2 + arr) return fail_args(c, e, f, t);
    if (!int_arg(c, r[0], tk == TEX_BUFFER ? 1 : (uint32_t)cw)) return fail_args(c, e, f, t);
    if (arr && !int_arg(c, r[1], 1)) return fail_args(c, e, f, t);
    if (!sema_convert_expr(c, r[rest - 1], vec4s)) return fail_args(c, e, f, t);
    return T->t_void;
  }
  default: break;
  }
  /* sampling and gathering: (t, s, coords, [array_index], extras..., [offset]) */
  if (rest < 2) return fail_args(c, e, f, t);
  const type *st = type_unref(r[0]->type);
  int cmp = f == BF_TEXTURE_SAMPLE_COMPARE || f == BF_TEXTURE_SAMPLE_COMPARE_LEVEL ||
            f == BF_TEXTURE_GATHER_COMPARE;
  if (st->kind != TY_SAMPLER || st->tex_kind != cmp) {
    char b[128];
    diag_error(c->d, r[0]->span, "%s needs a %s, found %s", fname(f), cmp ? "sampler_comparison" : "sampler",
               TN(st, b));
    return NULL;
  }
  if (tk == TEX_MULTISAMPLED || tk == TEX_DEPTH_MS || tk == TEX_STORAGE || tk == TEX_BUFFER)
    return fail_args(c, e, f, t);
  if (tk == TEX_EXTERNAL && f != BF_TEXTURE_SAMPLE_BASE_CLAMP) return fail_args(c, e, f, t);
  if (!sampling_texture_ok(f, t, k)) return fail_args(c, e, f, t);
  if (!float_arg(c, r[1], (uint32_t)cw)) return fail_args(c, e, f, t);
  int i = 2;
  if (arr) {
    if (i >= rest || !int_arg(c, r[i], 1)) return fail_args(c, e, f, t);
    i++;
  }
  int extras = f == BF_TEXTURE_SAMPLE_BIAS || f == BF_TEXTURE_SAMPLE_LEVEL || cmp ? 1
               : f == BF_TEXTURE_SAMPLE_GRAD ? 2 : 0;
  for (int x = 0; x < extras; x++, i++) {
    if (i >= rest) return fail_args(c, e, f, t);
    int ok;
    if (f == BF_TEXTURE_SAMPLE_GRAD) ok = float_arg(c, r[i], (uint32_t)cw);
    else if (f == BF_TEXTURE_SAMPLE_LEVEL && depth) ok = int_arg(c, r[i], 1);
    else ok = float_arg(c, r[i], 1);
    if (!ok) return fail_args(c, e, f, t);
  }
  if (i < rest) { /* offset: a const-expression vecN<i32> */
    if (t->tex_dim == TD_CUBE || t->tex_dim == TD_CUBE_ARRAY || f == BF_TEXTURE_SAMPLE_BASE_CLAMP)
      return fail_args(c, e, f, t);
    if (!sema_convert_expr(c, r[i], types_vec(T, T->t_i32, (uint32_t)cw)))
      return fail_args(c, e, f, t);
    if (!r[i]->cval) {
      diag_error(c->d, r[i]->span, "the offset of %s must be a const-expression", fname(f));
      return NULL;
    }
    for (int j = 0; j < r[i]->cval->n; j++)
      if (r[i]->cval->elems[j]->i < -8 || r[i]->cval->elems[j]->i > 7) {
        diag_error(c->d, r[i]->span, "offset components must be in -8..7");
        return NULL;
      }
    i++;
  }
  if (i != rest) return fail_args(c, e, f, t);
  if (f == BF_TEXTURE_GATHER || f == BF_TEXTURE_GATHER_COMPARE)
    return depth ? types_vec(T, f32, 4) : vec4s;
  if (depth) return f32;
  if (t->elem != f32) return fail_args(c, e, f, t);
  return vec4s;
}

/* ------------------------------------------------------ fixed signatures */

static const type *fixed_call(sctx *c, ast_expr *e, builtin_fn f) {
  type_table *T = c->T;
  const type *u32 = T->t_u32, *f32 = T->t_f32;
  const type *arg = NULL, *ret = NULL;
  const int nargs = builtin_fn_info(f)->args;
  if (e->u.call.nargs != nargs) return fail_args(c, e, f, NULL);
  switch (f) {
  case BF_QUANTIZE_TO_F16: {
    ast_expr *a = e->u.call.args[0];
    const type *t = type_unref(a->type);
    if (t && is_sv(t) && scalar_in(type_scalar_of(t), S_F)) {
      t = types_with_scalar(T, t, f32);
      if (sema_convert_expr(c, a, t)) return t;
    }
    return fail_args(c, e, f, t);
  }
  case BF_PACK4X8SNORM: case BF_PACK4X8UNORM: arg = types_vec(T, f32, 4), ret = u32; break;
  case BF_PACK2X16SNORM: case BF_PACK2X16UNORM: case BF_PACK2X16FLOAT: arg = types_vec(T, f32, 2), ret = u32; break;
  case BF_UNPACK4X8SNORM: case BF_UNPACK4X8UNORM: arg = u32, ret = types_vec(T, f32, 4); break;
  case BF_UNPACK2X16SNORM: case BF_UNPACK2X16UNORM: case BF_UNPACK2X16FLOAT: arg = u32, ret = types_vec(T, f32, 2); break;
  case BF_PACK4XI8: case BF_PACK4XI8_CLAMP: arg = types_vec(T, T->t_i32, 4), ret = u32; break;
  case BF_PACK4XU8: case BF_PACK4XU8_CLAMP: arg = types_vec(T, u32, 4), ret = u32; break;
  case BF_UNPACK4XI8: arg = u32, ret = types_vec(T, T->t_i32, 4); break;
  case BF_UNPACK4XU8: arg = u32, ret = types_vec(T, u32, 4); break;
  case BF_DOT4U8_PACKED: arg = u32, ret = u32; break;
  case BF_DOT4I8_PACKED: arg = u32, ret = T->t_i32; break;
  default: return fail_args(c, e, f, NULL);
  }
  for (int i = 0; i < nargs; i++)
    if (!sema_expect(c, e->u.call.args[i], arg, fname(f))) return NULL;
  return ret;
}

/* ------------------------------------------------------------- the rest */

static const type *bitcast_call(sctx *c, ast_expr *e) {
  ast_expr *callee = e->u.call.callee;
  char b1[128], b2[128];
  if (callee->u.ident.ntargs != 1) {
    diag_error(c->d, callee->span, "bitcast needs one template argument (the result type)");
    return NULL;
  }
  const type *to = sema_type(c, callee->u.ident.targs[0]);
  if (!to) return NULL;
  ast_expr *a = e->u.call.args[0];
  const type *from = type_unref(a->type);
  /* abstract arguments concretize first, but bitcast<u32>(AbstractInt) is
   * u32(e): the identity where e fits u32, a shader-creation error
   * elsewhere (WGSL §bitcast), not a reinterpretation of an i32 */
  const type *cf = types_concretize(c->T, from);
  const type *fsa = type_scalar_of(from), *tsa = type_scalar_of(to);
  if (fsa && tsa && fsa->kind == TY_AINT && tsa->kind == TY_U32 &&
      (from->kind == TY_VEC) == (to->kind == TY_VEC) && (from->kind != TY_VEC || from->n == to->n))
    cf = to;
  if (!sema_convert_expr(c, a, cf)) return fail_args(c, e, BF_BITCAST, from);
  const type *ts = type_scalar_of(to), *fs = type_scalar_of(cf);
  int ok = ts && fs && is_sv(to) && is_sv(cf) && scalar_in(ts, S_N) && scalar_in(fs, S_N) &&
           ts->kind != TY_AINT && ts->kind != TY_AFLOAT;
  if (ok) {
    uint32_t tw = (to->kind == TY_VEC ? to->n : 1) * ts->size;
    uint32_t fw = (cf->kind == TY_VEC ? cf->n : 1) * fs->size;
    ok = tw == fw;
  }
  if (!ok) {
    diag_error(c->d, e->span, "cannot bitcast %s to %s", TN(cf, b1), TN(to, b2));
    return NULL;
  }
  return to;
}

/* ----------------------------------------------------------- buffer views */

/* MinTypeSize(T) of §Buffer View Built-in Functions. */
static uint32_t min_type_size(const type *t) {
  if (t->kind == TY_ARRAY && !t->n && !TYPE_OVERRIDE_SIZED(t)) return t->stride;
  if (t->kind == TY_STRUCT && t->nfields && type_has_runtime_array(t)) {
    const type_field *l = &t->fields[t->nfields - 1];
    return l->offset + l->type->stride;
  }
  return t->size;
}

static int buffer_count(sctx *c, ast_expr *e, const char *what) {
  const type *t = sema_value(c, e);
  if (!t) return 0;
  if (t->kind == TY_AINT) sema_convert_expr(c, e, c->T->t_i32);
  t = type_unref(e->type);
  if (t->kind != TY_I32 && t->kind != TY_U32) {
    char b[128];
    diag_error(c->d, e->span, "the %s must be i32 or u32, found %s", what, TN(t, b));
    return 0;
  }
  if (e->cval && e->cval->i < 0) {
    diag_error(c->d, e->span, "the %s must not be negative, found %lld", what, (long long)e->cval->i);
    return 0;
  }
  return 1;
}

static const type *buffer_call(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr *callee = e->u.call.callee, **a = e->u.call.args;
  int n = e->u.call.nargs, nt = callee->u.ident.ntargs;
  const char *name = fname(f);
  char b1[128], b2[128];
  int want_t = builtin_fn_info(f)->targs, want_n = builtin_fn_info(f)->args;
  if (nt != want_t) {
    diag_error(c->d, callee->span, want_t ? "'%s' needs one template argument (the view's type)"
                                          : "'%s' does not take template arguments", name);
    return NULL;
  }
  if (n != want_n) {
    diag_error(c->d, e->span, "%s takes %d argument%s, found %d", name, want_n, want_n == 1 ? "" : "s", n);
    return NULL;
  }
  const type *p = sema_value(c, a[0]);
  if (!p) return NULL;
  if (p->kind != TY_PTR || p->elem->kind != TY_BUFFER) {
    diag_error(c->d, a[0]->span, "%s needs a pointer to a buffer, found %s", name, TN(p, b1));
    return NULL;
  }
  if (f == BF_BUFFER_LENGTH) {
    e->type = c->T->t_u32;
    return e->type;
  }
  const type *t = sema_type(c, callee->u.ident.targs[0]);
  if (!t) return NULL;
  int fixed = !type_has_runtime_array(t);
  if (!type_is_host_shareable(t) || type_has_atomic(t) || (f == BF_BUFFER_ARRAY_VIEW && fixed)) {
    diag_error(c->d, callee->u.ident.targs[0]->span,
               f == BF_BUFFER_ARRAY_VIEW ? "bufferArrayView views a host-shareable type without a fixed footprint and without atomics, found %s"
                                         : "bufferView views a host-shareable type without atomics, found %s",
               TN(t, b1));
    return NULL;
  }
  if (!buffer_count(c, a[1], "offset") || (n == 3 && !buffer_count(c, a[2], "size"))) return NULL;
  uint32_t need = min_type_size(t), have = p->elem->n;
  if (f == BF_BUFFER_VIEW && have && need > have) {
    diag_error(c->d, e->span, "%s needs %u bytes, more than %s holds", TN(t, b1), need, TN(p->elem, b2));
    return NULL;
  }
  if (n == 3 && a[2]->cval && (uint64_t)a[2]->cval->i < need) {
    diag_error(c->d, a[2]->span, "a size of %lld bytes is less than %s needs (%u)", (long long)a[2]->cval->i,
               TN(t, b1), need);
    return NULL;
  }
  if (a[1]->cval && t->align && a[1]->cval->i % t->align) {
    diag_error(c->d, a[1]->span, "offset %lld is not a multiple of %s's alignment (%u)",
               (long long)a[1]->cval->i, TN(t, b1), t->align);
    return NULL;
  }
  e->type = types_ptr(c->T, TY_PTR, p->space, t, p->access);
  return e->type;
}

/* ------------------------------------------------------ subgroup matrices */

/* The subgroup matrix functions (chromium_experimental_subgroup_matrix),
 * from Dawn's docs/dawn/features/subgroup_matrix.md and the forms its
 * corpus uses; builtins.def gives each its template argument and argument
 * counts. */

/* p: a pointer to an array of numeric scalars or vectors in storage or
 * workgroup memory, readable (load) or writable (store). */
static int sgmat_pointer(sctx *c, ast_expr *p, int store, const char *name) {
  char b[128];
  const type *t = sema_value(c, p);
  if (!t) return 0;
  const type *el = t->kind == TY_PTR && t->elem->kind == TY_ARRAY ? t->elem->elem : NULL;
  int ok = el && (t->space == AS_STORAGE || t->space == AS_WORKGROUP) &&
           (el->kind == TY_VEC || type_is_numeric_scalar(el)) && !type_is_abstract(el) &&
           (store ? t->access != ACC_READ : t->access != ACC_WRITE);
  if (!ok)
    diag_error(c->d, p->span, "%s needs a pointer to an array of numbers in %s storage or workgroup memory, found %s",
               name, store ? "writable" : "readable", TN(t, b));
  return ok;
}

/* row_major / col_major as a template argument. */
static int sgmat_layout(sctx *c, ast_expr *e) {
  if (e->kind == EX_IDENT && !e->u.ident.ntargs && !sema_lookup(c, e->u.ident.name) &&
      (!strcmp(e->u.ident.name, "row_major") || !strcmp(e->u.ident.name, "col_major"))) {
    e->ref = REF_ENUMERANT;
    return 1;
  }
  diag_error(c->d, e->span, "expected a matrix layout (row_major or col_major)");
  return 0;
}

/* offset and stride: i32 or u32 element counts (abstract: u32). */
static int sgmat_count(sctx *c, ast_expr *e, const char *what) {
  const type *t = sema_value(c, e);
  if (!t) return 0;
  if (t->kind == TY_I32 || t->kind == TY_U32) return 1;
  return sema_expect(c, e, c->T->t_u32, what);
}

static const type *sgmat_arg(sctx *c, ast_expr *e, int use, const char *name) {
  char b[128];
  const type *t = sema_value(c, e);
  if (!t) return NULL;
  if (t->kind != TY_SGMAT || (use >= 0 && t->tex_kind != use)) {
    static const char *const uses[] = {"subgroup_matrix_left", "subgroup_matrix_right",
                                       "subgroup_matrix_result"};
    diag_error(c->d, e->span, "%s: expected a %s, found %s", name,
               use >= 0 ? uses[use] : "subgroup matrix", TN(t, b));
    return NULL;
  }
  return t;
}

static const type *sgmat_call(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr *callee = e->u.call.callee, **a = e->u.call.args;
  ast_expr **ta = callee->u.ident.targs;
  int n = e->u.call.nargs, nt = callee->u.ident.ntargs;
  const char *name = fname(f);
  char b1[128], b2[128];
  /* template arguments: Load <T, layout>, Store <layout>, Multiply <TR> */
  const int want_t = builtin_fn_info(f)->targs, want_n = builtin_fn_info(f)->args;
  if (nt != want_t) {
    diag_error(c->d, callee->span, "'%s' takes %d template argument%s, found %d", name, want_t,
               want_t == 1 ? "" : "s", nt);
    return NULL;
  }
  if (n != want_n) {
    diag_error(c->d, e->span, "%s takes %d arguments, found %d", name, want_n, n);
    return NULL;
  }
  const type *rt = c->T->t_void;
  switch (f) {
  case BF_SUBGROUP_MATRIX_LOAD: {
    const type *t = sema_type(c, ta[0]);
    if (!t) return NULL;
    if (t->kind != TY_SGMAT) {
      diag_error(c->d, ta[0]->span, "%s loads a subgroup matrix type, found %s", name, TN(t, b1));
      return NULL;
    }
    if (!sgmat_layout(c, ta[1]) || !sgmat_pointer(c, a[0], 0, name) ||
        !sgmat_count(c, a[1], "offset") || !sgmat_count(c, a[2], "stride"))
      return NULL;
    rt = t;
    break;
  }
  case BF_SUBGROUP_MATRIX_STORE:
    if (!sgmat_layout(c, ta[0]) || !sgmat_pointer(c, a[0], 1, name) ||
        !sgmat_count(c, a[1], "offset") || !sgmat_arg(c, a[2], -1, name) ||
        !sgmat_count(c, a[3], "stride"))
      return NULL;
    break;
  case BF_SUBGROUP_MATRIX_MULTIPLY: case BF_SUBGROUP_MATRIX_MULTIPLY_ACCUMULATE: {
    /* left<T, K, M> * right<T, N, K> -> result<TR, N, M> */
    const type *l = sgmat_arg(c, a[0], SGM_LEFT, name);
    const type *rr = l ? sgmat_arg(c, a[1], SGM_RIGHT, name) : NULL;
    if (!rr) return NULL;
    if (l->elem != rr->elem || l->tex_format != rr->tex_format || l->n != rr->rows) {
      diag_error(c->d, e->span, "%s: %s and %s do not multiply (same component type, left columns = right rows)",
                 name, TN(l, b1), TN(rr, b2));
      return NULL;
    }
    const type *tr;
    int eight = 0;
    if (f == BF_SUBGROUP_MATRIX_MULTIPLY) {
      tr = sema_sgmat_component(c, ta[0], &eight);
      if (!tr) return NULL;
    } else {
      const type *acc = sgmat_arg(c, a[2], SGM_RESULT, name);
      if (!acc) return NULL;
      tr = acc->elem;
      eight = acc->tex_format;
    }
    int lfloat = type_is_float_scalar(l->elem);
    if (!type_is_numeric_scalar(tr) || type_is_abstract(tr) || type_is_float_scalar(tr) != lfloat) {
      diag_error(c->d, e->span, "%s: the result component %s does not suit %s", name, TN(tr, b1), TN(l, b2));
      return NULL;
    }
    rt = types_sgmat(c->T, SGM_RESULT, tr, eight, rr->n, l->rows);
    if (f == BF_SUBGROUP_MATRIX_MULTIPLY_ACCUMULATE && type_unref(a[2]->type) != rt) {
      diag_error(c->d, a[2]->span, "%s: the accumulator must be %s, found %s", name, TN(rt, b1),
                 TN(type_unref(a[2]->type), b2));
      return NULL;
    }
    break;
  }
  default: { /* scalar add / subtract / multiply */
    const type *m = sgmat_arg(c, a[0], -1, name);
    if (!m || !sema_expect(c, a[1], m->elem, "scalar")) return NULL;
    rt = m;
    break;
  }
  }
  e->type = rt;
  return rt;
}

/* Is extension x enabled in the module being resolved? */
static int ext_enabled(const sctx *c, builtin_ext x) {
  switch (x) {
  case BX_CORE: return 1;
  case BX_SG: return c->subgroups_enabled;
  case BX_SGMAT: return c->sgmat_enabled;
  case BX_RESTAB: return c->resource_table_enabled;
  case BX_VEC2U: return c->atomic_vec2u_enabled;
  case BX_INATT: return c->input_attachments_enabled;
  case BX_COUNT: break;
  }
  return 0;
}

/* The result of a call whose arguments are resolved: a @const function
 * (the row's EVAL column) folds when all arguments are const-expressions
 * and is an override-expression when they are const- or
 * override-expressions. */
static const type *fold_call(sctx *c, ast_expr *e, builtin_fn f, const type *rt) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs, ov;
  if (builtin_fn_info(f)->eval == BE_RT || n > 4) return rt;
  const int k = sema_all_const(a, n, &ov);
  if (k == 1) {
    const cvalue *v[4];
    for (int i = 0; i < n; i++) v[i] = a[i]->cval;
    size_t before = c->d->errors;
    /* an operand a short circuit skips is not evaluated: its errors are
     * not errors (§const Expressions), and its value is never used */
    e->cval = fold_builtin(c->m, f, v, n, rt, e->span, EVAL_DIAGS(c));
    if (!e->cval && c->quiet_eval) e->cval = cv_zero(c->m, rt);
    if (!e->cval && c->d->errors != before) return NULL;
    if (!e->cval && type_is_abstract(rt)) {
      /* no folding for this function: the call is a runtime value */
      const type *t = types_concretize(c->T, rt);
      for (int i = 0; i < n; i++) sema_convert_expr(c, a[i], types_concretize(c->T, type_unref(a[i]->type)));
      e->type = rt = t;
    }
  } else if (k == 0 && ov) {
    e->is_override_expr = 1;
  }
  return rt;
}

/* The Chromium extensions' classes, whose rules look at the arguments
 * unresolved: atomic<vec2<u32>> stores, resource tables, input
 * attachments, print. */
static const type *extension_call(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  const builtin_info *bi = builtin_fn_info(f);
  const builtin_kind k = bi->kind;
  const char *name = fname(f);
  char b[128];
  if (k == BK_ATOMV2) {
    if (n != bi->args) {
      diag_error(c->d, e->span, "%s takes %d arguments", name, bi->args);
      return NULL;
    }
    const type *t = atomic_ptr(c, a[0], f, 1);
    if (!t) return NULL;
    if (t->kind != TY_VEC) {
      diag_error(c->d, a[0]->span, "%s needs a pointer to an atomic<vec2<u32>>, found atomic<%s>", name, TN(t, b));
      return NULL;
    }
    if (!sema_expect(c, a[1], t, name)) return NULL;
    e->type = c->T->t_void;
    return e->type;
  }
  if (k == BK_RESTAB) {
    ast_expr *callee = e->u.call.callee;
    if (callee->u.ident.ntargs != bi->targs || n != bi->args) {
      diag_error(c->d, e->span, "%s<T>(index) takes one type and one index", name);
      return NULL;
    }
    const type *t = sema_type(c, callee->u.ident.targs[0]);
    if (!t) return NULL;
    if (t->kind != TY_TEXTURE && t->kind != TY_SAMPLER) {
      diag_error(c->d, callee->u.ident.targs[0]->span, "%s needs a texture or sampler type, found %s", name, TN(t, b));
      return NULL;
    }
    const type *it = sema_value(c, a[0]);
    if (!it) return NULL;
    if (!type_is_integer_scalar(it)) return fail_args(c, e, f, it);
    if (it->kind == TY_AINT) sema_convert_expr(c, a[0], c->T->t_u32);
    e->type = f == BF_GET_RESOURCE ? t : c->T->t_bool;
    return e->type;
  }
  if (k == BK_IALOAD) {
    const type *t = n == bi->args ? sema_value(c, a[0]) : NULL;
    if (!t || t->kind != TY_TEXTURE || t->tex_kind != TEX_INPUT_ATTACHMENT)
      return n == bi->args && !t ? NULL : fail_args(c, e, f, t);
    e->type = types_vec(c->T, t->elem, 4);
    return e->type;
  }
  if (k == BK_PRINT) {
    /* chromium's print(v): a concrete (after conversion) scalar or vector */
    const type *t = n == bi->args ? sema_value(c, a[0]) : NULL;
    if (!t || !is_sv(t)) return n == bi->args && !t ? NULL : fail_args(c, e, f, t);
    if (!sema_convert_expr(c, a[0], types_concretize(c->T, t))) return fail_args(c, e, f, t);
    e->type = c->T->t_void;
    return e->type;
  }
  return fail_args(c, e, f, NULL);
}

/* workgroupUniformLoad and arrayLength: one pointer argument. */
static const type *pointer_call(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  const builtin_kind k = builtin_fn_kind(f);
  char b[128];
  if (k == BK_WUL) {
    const type *p = sema_value(c, a[0]);
    if (!p) return NULL;
    if (p->kind == TY_PTR && p->space == AS_WORKGROUP && p->elem->kind == TY_ATOMIC) {
      /* the atomic overload: the atomic's value, loaded uniformly */
      e->type = p->elem->elem;
      return e->type;
    }
    if (p->kind != TY_PTR || p->space != AS_WORKGROUP || !type_is_constructible(p->elem) ||
        type_has_atomic(p->elem)) {
      diag_error(c->d, a[0]->span, "workgroupUniformLoad needs a pointer to a constructible value in workgroup memory, found %s", TN(p, b));
      return NULL;
    }
    e->type = p->elem;
    return e->type;
  }
  if (k == BK_ALEN) {
    const type *p = sema_value(c, a[0]);
    if (!p) return NULL;
    if (p->kind != TY_PTR || p->elem->kind != TY_ARRAY || p->elem->n != 0 || TYPE_OVERRIDE_SIZED(p->elem)) {
      diag_error(c->d, a[0]->span, "arrayLength needs a pointer to a runtime-sized array (e.g. &data), found %s", TN(p, b));
      return NULL;
    }
    e->type = c->T->t_u32;
    return e->type;
  }
  return fail_args(c, e, f, NULL);
}

/* select, mix and the component-wise numeric classes. */
static const type *numeric_rule(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  const builtin_kind k = builtin_fn_kind(f);
  char b[128];
  const type *t = NULL, *rt = NULL;
  switch (k) {
  case BK_SEL: {
    const type *ct = type_unref(a[2]->type);
    t = sema_unify(type_unref(a[0]->type), type_unref(a[1]->type));
    if (!t || !sema_convert_expr(c, a[0], t) || !sema_convert_expr(c, a[1], t)) {
      diag_error(c->d, e->span, "select's first two arguments must have the same type");
      return NULL;
    }
    if (!(type_is_scalar(t) || t->kind == TY_VEC)) {
      diag_error(c->d, e->span, "select needs scalars or vectors, found %s", TN(t, b));
      return NULL;
    }
    int ok = ct->kind == TY_BOOL || (ct->kind == TY_VEC && ct->elem->kind == TY_BOOL && t->kind == TY_VEC && ct->n == t->n);
    if (!ok) {
      diag_error(c->d, a[2]->span, "select's condition must be bool (or a bool vector of the same size), found %s", TN(ct, b));
      return NULL;
    }
    rt = t;
    break;
  }
  case BK_MIX: {
    /* mix(T, T, T) or mix(vecN, vecN, S) */
    t = common(a, 2);
    const type *third = type_unref(a[2]->type);
    if (t && t->kind == TY_VEC && type_is_scalar(third)) {
      t = sema_unify(t, types_vec(c->T, third, t->n)) ? sema_unify(t, types_vec(c->T, third, t->n)) : NULL;
      if (t) {
        t = to_float(c, t);
        if (!scalar_in(type_scalar_of(t), S_F)) return fail_args(c, e, f, t); /* mix(v, v, 1i) */
        if (!const_args(a, n)) t = types_concretize(c->T, t);
        if (!convert_all(c, a, 2, t) || !sema_convert_expr(c, a[2], t->elem)) return fail_args(c, e, f, t);
        rt = t;
        break;
      }
    }
    t = common(a, 3);
    goto float_same;
  }
  case BK_NUM1: case BK_NUM2: case BK_NUM3: case BK_FLT1: case BK_FLT2: case BK_FLT3:
  case BK_SIGN: case BK_INT1: case BK_DERIV:
    t = common(a, n);
  float_same:
    if (!t || !is_sv(t)) return fail_args(c, e, f, t);
    {
      int set = k == BK_INT1 ? S_I | S_U : k == BK_SIGN ? S_F | S_I
                : (k == BK_NUM1 || k == BK_NUM2 || k == BK_NUM3) ? S_N : S_F;
      if (!scalar_in(type_scalar_of(t), set)) return fail_args(c, e, f, t);
      if (set == S_F) t = to_float(c, t);
      if (k == BK_DERIV && type_scalar_of(t)->kind == TY_F16) return fail_args(c, e, f, t);
      if (builtin_fn_info(f)->eval == BE_RT || !const_args(a, n)) t = types_concretize(c->T, t);
      if (k == BK_DERIV) t = types_with_scalar(c->T, t, c->T->t_f32);
      if (!convert_all(c, a, n, t)) return fail_args(c, e, f, t);
      rt = t;
    }
    break;
  default:
    return fail_args(c, e, f, NULL);
  }
  return rt;
}

/* extractBits, insertBits, ldexp, frexp, modf. */
static const type *bits_rule(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  const builtin_kind k = builtin_fn_kind(f);
  const char *name = fname(f);
  const type *t = NULL, *rt = NULL;
  switch (k) {
  case BK_EXTRACT: case BK_INSERT: {
    int nv = k == BK_EXTRACT ? 1 : 2;
    t = common(a, nv);
    if (!t || !is_sv(t) || !scalar_in(type_scalar_of(t), S_I | S_U) ||
        type_scalar_of(t)->kind == TY_AFLOAT)
      return fail_args(c, e, f, t);
    t = types_concretize(c->T, t);
    if (!convert_all(c, a, nv, t)) return fail_args(c, e, f, t);
    for (int i = nv; i < n; i++)
      if (!sema_expect(c, a[i], c->T->t_u32, name)) return NULL;
    rt = t;
    break;
  }
  case BK_LDEXP: {
    t = to_float(c, type_unref(a[0]->type));
    const type *et = type_unref(a[1]->type);
    if (!is_sv(t) || !scalar_in(type_scalar_of(t), S_F) || !is_sv(et) ||
        !scalar_in(type_scalar_of(et), S_I) || (t->kind == TY_VEC) != (et->kind == TY_VEC) ||
        (t->kind == TY_VEC && t->n != et->n))
      return fail_args(c, e, f, t);
    int abs_e = type_scalar_of(et)->kind == TY_AINT;
    if (!(type_is_abstract(t) && abs_e && const_args(a, n))) {
      t = types_concretize(c->T, t);
      et = types_with_scalar(c->T, et, c->T->t_i32);
    }
    if (!sema_convert_expr(c, a[0], t) || !sema_convert_expr(c, a[1], et)) return fail_args(c, e, f, t);
    rt = t; /* a known exponent above bias + 1: const_operands_ok */
    break;
  }
  case BK_FREXP: case BK_MODF: {
    t = to_float(c, type_unref(a[0]->type));
    if (!is_sv(t) || !scalar_in(type_scalar_of(t), S_F)) return fail_args(c, e, f, t);
    if (!const_args(a, n)) t = types_concretize(c->T, t); /* the abstract overload is const only */
    if (!sema_convert_expr(c, a[0], t)) return fail_args(c, e, f, t);
    rt = frexp_modf_result(c, k, t);
    break;
  }
  default:
    return fail_args(c, e, f, NULL);
  }
  return rt;
}

/* The vector and matrix functions, all and any. */
static const type *geometric_rule(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  const builtin_kind k = builtin_fn_kind(f);
  const type *t = NULL, *rt = NULL;
  switch (k) {
  case BK_LEN: case BK_DIST: case BK_DOT: case BK_CROSS: case BK_NORM: case BK_REFLECT:
  case BK_FACEFWD: case BK_REFRACT: {
    int nv = k == BK_REFRACT ? 2 : n;
    t = common(a, nv);
    if (!t || !is_sv(t)) return fail_args(c, e, f, t);
    int set = k == BK_DOT ? S_N : S_F;
    if (!scalar_in(type_scalar_of(t), set)) return fail_args(c, e, f, t);
    int need_vec = k == BK_DOT || k == BK_CROSS || k == BK_NORM || k == BK_REFLECT ||
                   k == BK_FACEFWD || k == BK_REFRACT;
    if (need_vec && t->kind != TY_VEC) return fail_args(c, e, f, t);
    if (k == BK_CROSS && t->n != 3) return fail_args(c, e, f, t);
    if (set == S_F) t = to_float(c, t);
    if (!const_args(a, n)) t = types_concretize(c->T, t); /* abstract overloads are const only */
    if (!convert_all(c, a, nv, t)) return fail_args(c, e, f, t);
    if (k == BK_REFRACT && !sema_convert_expr(c, a[2], t->elem)) return fail_args(c, e, f, t);
    rt = (k == BK_LEN || k == BK_DIST || k == BK_DOT) ? type_scalar_of(t) : t;
    break;
  }
  case BK_DET: case BK_TRANSPOSE: {
    t = type_unref(a[0]->type);
    if (!const_args(a, n)) t = types_concretize(c->T, t);
    if (t->kind != TY_MAT || (k == BK_DET && t->n != t->rows)) return fail_args(c, e, f, t);
    if (!sema_convert_expr(c, a[0], t)) return fail_args(c, e, f, t);
    rt = k == BK_DET ? t->elem : types_mat(c->T, t->elem, t->rows, t->n);
    break;
  }
  case BK_ALLANY:
    t = type_unref(a[0]->type);
    if (!is_sv(t) || type_scalar_of(t)->kind != TY_BOOL) return fail_args(c, e, f, t);
    rt = c->T->t_bool;
    break;
  default:
    return fail_args(c, e, f, NULL);
  }
  return rt;
}

/* The subgroup and quad functions. */
static const type *subgroup_rule(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  const builtin_kind k = builtin_fn_kind(f);
  const char *name = fname(f);
  const type *t = NULL, *rt = NULL;
  switch (k) {
  case BK_SGRED: case BK_SGBIT: case BK_SGONE: case BK_SGBC: case BK_SGSHUF: case BK_QBC: {
    t = types_concretize(c->T, type_unref(a[0]->type));
    int set = k == BK_SGBIT ? S_I | S_U : S_N;
    if (!is_sv(t) || !scalar_in(type_scalar_of(t), set)) return fail_args(c, e, f, t);
    if (!sema_convert_expr(c, a[0], t)) return fail_args(c, e, f, t);
    if (n == 2) {
      const type *it = type_unref(a[1]->type);
      if (!type_is_integer_scalar(it)) return fail_args(c, e, f, it);
      /* shuffleXor's mask and shuffleUp/Down's delta are u32 only */
      int u32_only = f == BF_SUBGROUP_SHUFFLE_XOR || f == BF_SUBGROUP_SHUFFLE_UP ||
                     f == BF_SUBGROUP_SHUFFLE_DOWN;
      if (u32_only && it->kind == TY_I32) return fail_args(c, e, f, it);
      if (it->kind == TY_AINT && !sema_convert_expr(c, a[1], u32_only ? c->T->t_u32 : c->T->t_i32))
        return fail_args(c, e, f, it);
      if (k == BK_SGSHUF && a[1]->cval && (a[1]->cval->i < 0 || a[1]->cval->i > 127)) {
        diag_error(c->d, a[1]->span, "the %s argument of %s must be in [0, 128), found %lld",
                   f == BF_SUBGROUP_SHUFFLE ? "id" : f == BF_SUBGROUP_SHUFFLE_XOR ? "mask" : "delta",
                   name, (long long)a[1]->cval->i);
        return NULL;
      }
      if ((k == BK_SGBC || k == BK_QBC) && !a[1]->cval) {
        diag_error(c->d, a[1]->span, "the id argument of %s must be a const-expression", name);
        return NULL;
      }
      if ((k == BK_SGBC && a[1]->cval && (a[1]->cval->i < 0 || a[1]->cval->i > 127)) ||
          (k == BK_QBC && a[1]->cval && (a[1]->cval->i < 0 || a[1]->cval->i > 3))) {
        diag_error(c->d, a[1]->span, "the id argument of %s is out of range", name);
        return NULL;
      }
    }
    rt = t;
    break;
  }
  case BK_SGBOOL: case BK_BALLOT:
    if (!sema_expect(c, a[0], c->T->t_bool, name)) return NULL;
    rt = k == BK_BALLOT ? types_vec(c->T, c->T->t_u32, 4) : c->T->t_bool;
    break;
  default:
    return fail_args(c, e, f, NULL);
  }
  return rt;
}

/* The spec's errors for constant arguments, whatever the others are
 * (clamp's low > high, ...: sema_known_args_ok); 0 after reporting one. */
static int const_operands_ok(sctx *c, ast_expr *e, builtin_fn f, const type *rt) {
  ast_expr **a = e->u.call.args;
  const int n = e->u.call.nargs;
  const cvalue *v[4] = {NULL, NULL, NULL, NULL};
  src_span sp[4];
  if (!sema_known_args(f) || n > 4) return 1;
  for (int i = 0; i < n; i++) v[i] = a[i]->cval, sp[i] = a[i]->span;
  return sema_known_args_ok(f, v, n, rt, e->span, sp, EVAL_DIAGS(c)) || c->quiet_eval;
}

const type *sema_builtin_call(sctx *c, ast_expr *e, builtin_fn f) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  const char *name = fname(f);
  const builtin_info *bi = builtin_fn_info(f);
  e->ref = REF_BUILTIN_FN;
  e->builtin = f;
  const builtin_ext_info *x = builtin_ext_info_of(bi->ext);
  if (x->gate == BG_CALL && !ext_enabled(c, bi->ext)) {
    diag_error(c->d, e->span, "'%s' needs 'enable %s;'", name, x->directive);
    return NULL;
  }
  const builtin_kind k = bi->kind;
  switch (k) { /* rules that take the arguments unresolved */
  case BK_ATOM: case BK_CMPX: return atomic_call(c, e, f);
  case BK_SGMAT: return sgmat_call(c, e, f);
  case BK_BUFVIEW: return buffer_call(c, e, f);
  case BK_ATOMV2: case BK_RESTAB: case BK_IALOAD: case BK_PRINT: return extension_call(c, e, f);
  default: break;
  }
  if (builtin_class_info_of(k)->args_by == BC_TABLE && n != bi->args) {
    diag_error(c->d, e->span, "%s takes %d argument%s, found %d", name, bi->args, bi->args == 1 ? "" : "s", n);
    return NULL;
  }
  if (k == BK_WUL || k == BK_ALEN) return pointer_call(c, e, f);
  for (int i = 0; i < n; i++) {
    const type *x = sema_expr(c, a[i]);
    if (!x) return NULL;
    if (x->kind == TY_REF) sema_value(c, a[i]);
    else if (x->kind == TY_VOID) {
      diag_error(c->d, a[i]->span, "this call has no value");
      return NULL;
    }
  }
  const type *rt;
  switch (k) {
  case BK_BAR:
  case BK_ELECT:
    e->type = k == BK_BAR ? c->T->t_void : c->T->t_bool;
    return e->type;
  case BK_TEX:
    e->type = texture_call(c, e, f);
    return e->type;
  case BK_FIXED:
    rt = fixed_call(c, e, f);
    break;
  case BK_BITCAST:
    rt = bitcast_call(c, e);
    break;
  case BK_EXTRACT: case BK_INSERT: case BK_LDEXP: case BK_FREXP: case BK_MODF:
    rt = bits_rule(c, e, f);
    break;
  case BK_LEN: case BK_DIST: case BK_DOT: case BK_CROSS: case BK_NORM: case BK_REFLECT:
  case BK_FACEFWD: case BK_REFRACT: case BK_DET: case BK_TRANSPOSE: case BK_ALLANY:
    rt = geometric_rule(c, e, f);
    break;
  case BK_SGRED: case BK_SGBIT: case BK_SGONE: case BK_SGBC: case BK_SGSHUF: case BK_QBC:
  case BK_SGBOOL: case BK_BALLOT:
    rt = subgroup_rule(c, e, f);
    break;
  default:
    rt = numeric_rule(c, e, f);
    break;
  }
  e->type = rt;
  if (!rt || !const_operands_ok(c, e, f, rt)) return NULL;
  return fold_call(c, e, f, rt);
}
