/*
 * sema_expr.c — the resolver for expressions and type expressions: binds
 * identifiers, applies the spec's typing rules (abstract numerics and their
 * automatic conversions, the load rule, references and pointers), folds
 * const-expressions through eval.c and marks override-expressions. Called by
 * sema.c for every expression in declarations and statements.
 */
#include <stdio.h>
#include <string.h>

#include "sema_int.h"

#define TN(t, b) type_name((t), (b), sizeof(b))

/* ------------------------------------------------------------ conversions */

int sema_can_convert(const type *from, const type *to) {
  if (!from || !to) return 0;
  if (from == to) return 1;
  /* §Conversion Rank: a pointer to buffer<N1> converts to one to a smaller
   * buffer<N2> or to the runtime-sized buffer */
  if (from->kind == TY_PTR && to->kind == TY_PTR && from->elem->kind == TY_BUFFER &&
      to->elem->kind == TY_BUFFER && from->space == to->space && from->access == to->access)
    return to->elem->n == 0 || (from->elem->n && to->elem->n < from->elem->n);
  if (from->kind == TY_AINT)
    return to->kind == TY_I32 || to->kind == TY_U32 || to->kind == TY_F32 ||
           to->kind == TY_F16 || to->kind == TY_AFLOAT;
  if (from->kind == TY_AFLOAT) return to->kind == TY_F32 || to->kind == TY_F16;
  if ((from->kind == TY_VEC || from->kind == TY_MAT || from->kind == TY_ARRAY) &&
      from->kind == to->kind && from->n == to->n && from->rows == to->rows &&
      from->count_decl == to->count_decl && from->count_expr == to->count_expr)
    return sema_can_convert(from->elem, to->elem);
  /* an abstract frexp or modf result converts to the f32 or f16 one of its
   * shape (§Conversion Rank); only built-in structures are named "__..." */
  if (from->kind == TY_STRUCT && from->concrete && to->kind == TY_STRUCT && to->name &&
      !strncmp(to->name, "__", 2) && to->nfields == from->nfields) {
    for (int i = 0; i < to->nfields; i++)
      if (strcmp(from->fields[i].name, to->fields[i].name) ||
          !sema_can_convert(from->fields[i].type, to->fields[i].type))
        return 0;
    return 1;
  }
  return 0;
}

int sema_convert_expr(sctx *c, ast_expr *e, const type *t) {
  const type *from = type_unref(e->type);
  if (!from || !t) return 0;
  if (from == t) return 1;
  if (!sema_can_convert(from, t)) return 0;
  if (e->cval) {
    const cvalue *v = sema_convert(c->m, e->cval, t, e->span, EVAL_DIAGS(c));
    if (!v && !c->quiet_eval) return 0;
    e->cval = v ? v : cv_zero(c->m, t);
  }
  e->type = t;
  return 1;
}

int sema_expect(sctx *c, ast_expr *e, const type *t, const char *what) {
  const type *v = sema_value(c, e);
  if (!v || !t) return 0;
  if (sema_convert_expr(c, e, t)) return 1;
  char b1[128], b2[128];
  diag_error(c->d, e->span, "%s: expected %s, found %s", what, TN(t, b1), TN(v, b2));
  return 0;
}

/* The common type two operand types convert to, or NULL. */
const type *sema_unify(const type *a, const type *b) {
  if (a == b) return a;
  if (sema_can_convert(a, b)) return b;
  if (sema_can_convert(b, a)) return a;
  /* AbstractInt vs f32-like: both may go to a third type (AInt, AFloat
   * combinations are covered above) */
  return NULL;
}

/* ------------------------------------------------------------------ types */

static const type *scalar_by_name(sctx *c, const char *n) {
  type_table *T = c->T;
  if (!strcmp(n, "bool")) return T->t_bool;
  if (!strcmp(n, "i32")) return T->t_i32;
  if (!strcmp(n, "u32")) return T->t_u32;
  if (!strcmp(n, "f32")) return T->t_f32;
  if (!strcmp(n, "f16")) return T->t_f16;
  return NULL;
}

/* vec3f, vec2i, mat4x4f ... : the predeclared aliases. */
static const type *alias_by_name(sctx *c, const char *n) {
  size_t len = strlen(n);
  const type *s = NULL;
  char suf = n[len - 1];
  if (suf == 'f') s = c->T->t_f32;
  else if (suf == 'i') s = c->T->t_i32;
  else if (suf == 'u') s = c->T->t_u32;
  else if (suf == 'h') s = c->T->t_f16;
  else return NULL;
  if (len == 5 && !strncmp(n, "vec", 3) && n[3] >= '2' && n[3] <= '4')
    return types_vec(c->T, s, (uint32_t)(n[3] - '0'));
  if (len == 7 && !strncmp(n, "mat", 3) && n[3] >= '2' && n[3] <= '4' && n[4] == 'x' &&
      n[5] >= '2' && n[5] <= '4' && (suf == 'f' || suf == 'h'))
    return types_mat(c->T, s, (uint32_t)(n[3] - '0'), (uint32_t)(n[5] - '0'));
  return NULL;
}

/* Generators that need template arguments: vecN, matCxR, array, atomic, ptr.
 * Returns 1 when the name is one of them. */
static int is_generator(const char *n) {
  if (!strcmp(n, "array") || !strcmp(n, "atomic") || !strcmp(n, "ptr")) return 1;
  if (strlen(n) == 4 && !strncmp(n, "vec", 3) && n[3] >= '2' && n[3] <= '4') return 1;
  if (strlen(n) == 6 && !strncmp(n, "mat", 3) && n[3] >= '2' && n[3] <= '4' && n[4] == 'x' &&
      n[5] >= '2' && n[5] <= '4')
    return 1;
  return 0;
}

static int parse_space(const char *n) {
  if (!strcmp(n, "function")) return AS_FUNCTION;
  if (!strcmp(n, "private")) return AS_PRIVATE;
  if (!strcmp(n, "workgroup")) return AS_WORKGROUP;
  if (!strcmp(n, "uniform")) return AS_UNIFORM;
  if (!strcmp(n, "storage")) return AS_STORAGE;
  if (!strcmp(n, "immediate")) return AS_IMMEDIATE;
  if (!strcmp(n, "pixel_local")) return AS_PIXEL_LOCAL;
  return -1;
}

static int parse_access(const char *n) {
  if (!strcmp(n, "read")) return ACC_READ;
  if (!strcmp(n, "write")) return ACC_WRITE;
  if (!strcmp(n, "read_write")) return ACC_READ_WRITE;
  return -1;
}

/* Array element count: a const-expression (fixed size) or an override
 * expression that is an override identifier (override-sized). */
static const type *array_type(sctx *c, ast_expr *e) {
  if (e->u.ident.ntargs < 1 || e->u.ident.ntargs > 2) {
    diag_error(c->d, e->span, "array needs an element type and an optional element count");
    return NULL;
  }
  const type *elem = sema_type(c, e->u.ident.targs[0]);
  if (!elem) return NULL;
  char b[128];
  if (elem->kind == TY_ARRAY && elem->n == 0 && !TYPE_OVERRIDE_SIZED(elem)) {
    diag_error(c->d, e->u.ident.targs[0]->span, "the element type of an array cannot be a runtime-sized array");
    return NULL;
  }
  if (type_has_override_array(elem) || (elem->kind == TY_STRUCT && type_has_runtime_array(elem))) {
    /* §Array Types: the element type has a creation-fixed footprint */
    diag_error(c->d, e->u.ident.targs[0]->span,
               "%s cannot be an array element type (its size is not fixed at shader creation)", TN(elem, b));
    return NULL;
  }
  if (elem->kind == TY_VOID || elem->kind == TY_PTR || elem->kind == TY_REF ||
      elem->kind == TY_TEXTURE || elem->kind == TY_SAMPLER || elem->kind == TY_BUFFER ||
      elem->kind == TY_BINDING_ARRAY) {
    /* §Array Types: the element type is a plain type (textures, samplers
     * and buffers are not) */
    diag_error(c->d, e->u.ident.targs[0]->span, "%s cannot be an array element type", TN(elem, b));
    return NULL;
  }
  if (e->u.ident.ntargs == 1) return types_array(c->T, elem, 0, NULL);
  ast_expr *n = e->u.ident.targs[1];
  const type *nt = sema_value(c, n);
  if (!nt) return NULL;
  if (!type_is_integer_scalar(nt)) {
    diag_error(c->d, n->span, "the element count of an array must be an integer, found %s", TN(nt, b));
    return NULL;
  }
  if (n->cval) {
    if (n->cval->i <= 0) {
      diag_error(c->d, n->span, "the element count of an array must be greater than 0, found %lld",
                 (long long)n->cval->i);
      return NULL;
    }
    /* lockstep's limit: an array's byte size fits in 32 bits */
    uint64_t stride = elem->align ? (elem->size + elem->align - 1) / elem->align * elem->align : elem->size;
    if ((uint64_t)n->cval->i * (stride ? stride : 1) > UINT32_MAX) {
      diag_error(c->d, n->span, "array element count %lld is too large (the array would exceed 4 GiB)",
                 (long long)n->cval->i);
      return NULL;
    }
    return types_array(c->T, elem, (uint32_t)n->cval->i, NULL);
  }
  if (n->is_override_expr && n->kind == EX_IDENT && n->decl && n->decl->kind == DECL_OVERRIDE)
    return types_array(c->T, elem, 0, n->decl);
  if (n->is_override_expr) {
    /* another override-expression: evaluated at pipeline creation */
    if (nt->kind == TY_AINT) sema_convert_expr(c, n, c->T->t_i32);
    return types_array_expr(c->T, elem, n);
  }
  diag_error(c->d, n->span, "the element count of an array must be a constant or an override");
  return NULL;
}


/* §Memory Views: a pointer type written in source must be one a variable
 * could be declared with (§Address Spaces, §var and value declarations):
 * its store type storable in that space, with an access mode the space
 * allows. The reason it is not, or NULL. */
static const char *ptr_store_problem(int space, const type *st, int acc) {
  if (st->kind == TY_BUFFER || space == AS_IMMEDIATE || space == AS_PIXEL_LOCAL) return NULL;
  if (st->kind == TY_PTR || st->kind == TY_REF || st->kind == TY_VOID) return "not a storable type";
  if (st->kind == TY_TEXTURE || st->kind == TY_SAMPLER || st->kind == TY_BINDING_ARRAY)
    return "textures and samplers are in the handle address space";
  int rta = type_has_runtime_array(st), atom = type_has_atomic(st);
  if (type_has_override_array(st) && space != AS_WORKGROUP)
    return "override-sized arrays are in workgroup memory only";
  switch (space) {
  case AS_STORAGE:
    if (acc == ACC_WRITE) return "storage memory is read or read_write";
    if (!type_is_host_shareable(st)) return "storage memory holds host-shareable types";
    if (atom && acc != ACC_READ_WRITE) return "atomics in storage memory need read_write";
    return NULL;
  case AS_UNIFORM:
    if (!type_is_host_shareable(st)) return "uniform memory holds host-shareable types";
    if (rta || atom) return "uniform memory holds no runtime-sized arrays or atomics";
    return NULL;
  case AS_WORKGROUP: return rta ? "runtime-sized arrays are in storage memory only" : NULL;
  default: /* function, private */
    return rta ? "runtime-sized arrays are in storage memory only"
               : atom ? "atomics are in storage and workgroup memory only" : NULL;
  }
}

static const type *generator(sctx *c, ast_expr *e) {
  const char *n = e->u.ident.name;
  char b[128];
  if (!strcmp(n, "array")) return array_type(c, e);
  if (!strncmp(n, "vec", 3)) {
    if (e->u.ident.ntargs != 1) {
      diag_error(c->d, e->span, "%s needs one template argument (the component type)", n);
      return NULL;
    }
    const type *s = sema_type(c, e->u.ident.targs[0]);
    if (!s) return NULL;
    if (!type_is_scalar(s) || type_is_abstract(s)) {
      diag_error(c->d, e->u.ident.targs[0]->span, "vector components must be bool, i32, u32, f32 or f16, found %s", TN(s, b));
      return NULL;
    }
    return types_vec(c->T, s, (uint32_t)(n[3] - '0'));
  }
  if (!strncmp(n, "mat", 3)) {
    if (e->u.ident.ntargs != 1) {
      diag_error(c->d, e->span, "%s needs one template argument", n);
      return NULL;
    }
    const type *s = sema_type(c, e->u.ident.targs[0]);
    if (!s) return NULL;
    if (s->kind != TY_F32 && s->kind != TY_F16) {
      diag_error(c->d, e->u.ident.targs[0]->span, "matrix components must be f32 or f16, found %s", TN(s, b));
      return NULL;
    }
    return types_mat(c->T, s, (uint32_t)(n[3] - '0'), (uint32_t)(n[5] - '0'));
  }
  if (!strcmp(n, "atomic")) {
    if (e->u.ident.ntargs != 1) {
      diag_error(c->d, e->span, "atomic needs one template argument (i32 or u32)");
      return NULL;
    }
    const type *s = sema_type(c, e->u.ident.targs[0]);
    if (!s) return NULL;
    /* atomic_vec2u_min_max adds atomic<vec2<u32>> */
    int v2u = c->atomic_vec2u_enabled && s->kind == TY_VEC && s->n == 2 && s->elem == c->T->t_u32;
    if (s->kind != TY_I32 && s->kind != TY_U32 && !v2u) {
      diag_error(c->d, e->u.ident.targs[0]->span, "atomic<T> needs T = i32 or u32, found %s", TN(s, b));
      return NULL;
    }
    return types_atomic(c->T, s);
  }
  /* ptr<space, T[, access]> */
  if (e->u.ident.ntargs < 2 || e->u.ident.ntargs > 3) {
    diag_error(c->d, e->span, "ptr needs an address space, a store type and an optional access mode");
    return NULL;
  }
  ast_expr *sp = e->u.ident.targs[0];
  int space = sp->kind == EX_IDENT ? parse_space(sp->u.ident.name) : -1;
  if (space < 0) {
    diag_error(c->d, sp->span, "expected an address space (function, private, workgroup, uniform, storage)");
    return NULL;
  }
  const type *st = sema_type(c, e->u.ident.targs[1]);
  if (!st) return NULL;
  int acc = space == AS_STORAGE || space == AS_UNIFORM || space == AS_IMMEDIATE ? ACC_READ : ACC_READ_WRITE;
  if (e->u.ident.ntargs == 3) {
    ast_expr *ac = e->u.ident.targs[2];
    acc = ac->kind == EX_IDENT ? parse_access(ac->u.ident.name) : -1;
    if (acc < 0) {
      diag_error(c->d, ac->span, "expected an access mode (read, write, read_write)");
      return NULL;
    }
    if (space != AS_STORAGE) {
      diag_error(c->d, ac->span, "only pointers to storage may name an access mode");
      return NULL;
    }
  }
  const char *why = ptr_store_problem(space, st, acc);
  if (why) {
    diag_error(c->d, e->span,
               "a pointer to %s in %s memory: no variable could have that store type and access mode (%s)",
               TN(st, b), addr_space_name((addr_space)space), why);
    return NULL;
  }
  return types_ptr(c->T, TY_PTR, (addr_space)space, st, (access_mode)acc);
}

/* subgroup_matrix_left/right/result<T, cols, rows>
 * (chromium_experimental_subgroup_matrix): T is f32, f16, i32, u32 or the
 * 8-bit i8/u8 (held as i32/u32 in the shader); the sizes are positive
 * const-expressions. use < 0: the name is not one of them. */
static int sgmat_use_of(const char *n) {
  if (strncmp(n, "subgroup_matrix_", 16)) return -1;
  n += 16;
  return !strcmp(n, "left") ? SGM_LEFT : !strcmp(n, "right") ? SGM_RIGHT : !strcmp(n, "result") ? SGM_RESULT : -1;
}

const type *sema_sgmat_component(sctx *c, ast_expr *e, int *eight) {
  char b[128];
  *eight = 0;
  if (e->kind == EX_IDENT && !e->u.ident.ntargs && !sema_lookup(c, e->u.ident.name) &&
      (!strcmp(e->u.ident.name, "i8") || !strcmp(e->u.ident.name, "u8"))) {
    *eight = e->u.ident.name[0] == 'i' ? 1 : 2;
    e->ref = REF_TYPE;
    return *eight == 1 ? c->T->t_i32 : c->T->t_u32;
  }
  const type *s = sema_type(c, e);
  if (!s) return NULL;
  if (s->kind != TY_F32 && s->kind != TY_F16 && s->kind != TY_I32 && s->kind != TY_U32) {
    diag_error(c->d, e->span, "subgroup matrix components are f32, f16, i32, u32, i8 or u8, found %s", TN(s, b));
    return NULL;
  }
  return s;
}

static const type *sgmat_type(sctx *c, ast_expr *e, int use) {
  const char *n = e->u.ident.name;
  if (!c->sgmat_enabled) {
    diag_error(c->d, e->span, "'%s' needs 'enable chromium_experimental_subgroup_matrix;'", n);
    return NULL;
  }
  if (e->u.ident.ntargs != 3) {
    diag_error(c->d, e->span, "'%s' needs a component type, a column count and a row count", n);
    return NULL;
  }
  ast_expr **ta = e->u.ident.targs;
  int eight = 0;
  const type *s = sema_sgmat_component(c, ta[0], &eight);
  if (!s) return NULL;
  uint32_t dim[2];
  for (int i = 0; i < 2; i++) {
    ast_expr *x = ta[1 + i];
    const type *t = sema_value(c, x);
    if (!t) return NULL;
    if (!type_is_integer_scalar(t) || !x->cval || x->cval->i <= 0 || x->cval->i > 1024) {
      diag_error(c->d, x->span, "the %s count of a subgroup matrix must be a positive constant integer",
                 i ? "row" : "column");
      return NULL;
    }
    dim[i] = (uint32_t)x->cval->i;
  }
  return types_sgmat(c->T, (sgmat_use)use, s, eight, dim[0], dim[1]);
}

/* texture_*, sampler, sampler_comparison, texel_buffer: returns 1 when the
 * name is one of them (*out NULL after an error). */
static int texture_type(sctx *c, ast_expr *e, const type **out) {
  const char *n = e->u.ident.name;
  static const char *const dims[] = {"1d", "2d", "2d_array", "3d", "cube", "cube_array", NULL};
  int kind = -1, dim = TD_2D;
  *out = NULL;
  if (!strcmp(n, "sampler") || !strcmp(n, "sampler_comparison")) {
    if (e->u.ident.ntargs) {
      diag_error(c->d, e->span, "'%s' does not take template arguments", n);
      return 1;
    }
    *out = types_sampler(c->T, n[7] != 0);
    return 1;
  }
  if (!strcmp(n, "texel_buffer")) kind = TEX_BUFFER;
  else if (!strcmp(n, "input_attachment") && c->input_attachments_enabled) kind = TEX_INPUT_ATTACHMENT;
  else if (!strncmp(n, "texture_", 8)) {
    const char *r = n + 8;
    if (!strcmp(r, "external")) kind = TEX_EXTERNAL;
    else if (!strcmp(r, "multisampled_2d")) kind = TEX_MULTISAMPLED;
    else if (!strcmp(r, "depth_multisampled_2d")) kind = TEX_DEPTH_MS;
    else {
      if (!strncmp(r, "depth_", 6)) kind = TEX_DEPTH, r += 6;
      else if (!strncmp(r, "storage_", 8)) kind = TEX_STORAGE, r += 8;
      else kind = TEX_SAMPLED;
      dim = -1;
      for (int i = 0; dims[i]; i++)
        if (!strcmp(dims[i], r)) dim = i;
      if (dim < 0 || (kind == TEX_DEPTH && (dim == TD_1D || dim == TD_3D)) ||
          (kind == TEX_STORAGE && dim >= TD_CUBE))
        return 0;
    }
  } else {
    return 0;
  }
  char b[128];
  int nt = e->u.ident.ntargs;
  if (kind == TEX_SAMPLED || kind == TEX_MULTISAMPLED || kind == TEX_INPUT_ATTACHMENT) {
    if (nt != 1) {
      diag_error(c->d, e->span, "'%s' needs one template argument (f32, i32 or u32)", n);
      return 1;
    }
    const type *s = sema_type(c, e->u.ident.targs[0]);
    if (!s) return 1;
    if (s->kind != TY_F32 && s->kind != TY_I32 && s->kind != TY_U32) {
      diag_error(c->d, e->u.ident.targs[0]->span, "the sampled type of a texture must be f32, i32 or u32, found %s", TN(s, b));
      return 1;
    }
    *out = types_texture(c->T, kind, dim, s, 0, ACC_NONE);
    return 1;
  }
  if (kind == TEX_STORAGE || kind == TEX_BUFFER) {
    if (nt != 2) {
      diag_error(c->d, e->span, "'%s' needs a texel format and an access mode", n);
      return 1;
    }
    ast_expr *f = e->u.ident.targs[0], *a = e->u.ident.targs[1];
    int fi = -1;
    if (f->kind == EX_IDENT && !f->u.ident.ntargs)
      for (int i = 0; types_texel_formats[i]; i++)
        if (!strcmp(types_texel_formats[i], f->u.ident.name)) fi = i;
    if (fi < 0 || sema_lookup(c, f->u.ident.name)) {
      diag_error(c->d, f->span, "expected a texel format (e.g. rgba8unorm, r32float)");
      return 1;
    }
    int ac = a->kind == EX_IDENT && !a->u.ident.ntargs && !sema_lookup(c, a->u.ident.name) ? parse_access(a->u.ident.name) : -1;
    if (ac < 0) {
      diag_error(c->d, a->span, "expected an access mode (read, write, read_write)");
      return 1;
    }
    f->ref = a->ref = REF_ENUMERANT;
    *out = types_texture(c->T, kind, dim, types_texel_channel(c->T, fi), fi, (access_mode)ac);
    return 1;
  }
  if (nt) {
    diag_error(c->d, e->span, "'%s' does not take template arguments", n);
    return 1;
  }
  *out = types_texture(c->T, kind, dim, kind == TEX_EXTERNAL ? c->T->t_f32 : NULL, 0, ACC_NONE);
  return 1;
}

/* A type named by e, or NULL without an error when e does not name a type
 * (the caller decides what else it may be). */
static const type *named_type(sctx *c, ast_expr *e, int *is_type);

static const type *try_type(sctx *c, ast_expr *e, int *is_type) {
  /* types are always evaluated, even in an operand a short circuit skips */
  int quiet = c->quiet_eval;
  c->quiet_eval = 0;
  const type *t = named_type(c, e, is_type);
  c->quiet_eval = quiet;
  if (t && t->depth > TYPES_MAX_DEPTH) {
    /* a limit of lockstep: later phases walk types recursively */
    diag_error(c->d, e->span, "this type nests more than %d levels deep", TYPES_MAX_DEPTH);
    return NULL;
  }
  return t;
}

static const type *named_type(sctx *c, ast_expr *e, int *is_type) {
  *is_type = 0;
  if (e->kind != EX_IDENT) return NULL;
  const char *n = e->u.ident.name;
  ast_decl *d = sema_lookup(c, n);
  if (d) {
    if (d->kind != DECL_STRUCT && d->kind != DECL_ALIAS) return NULL;
    *is_type = 1;
    if (e->u.ident.ntargs) {
      diag_error(c->d, e->span, "'%s' does not take template arguments", n);
      return NULL;
    }
    sema_resolve_global(c, d);
    d->used = 1;
    return d->rtype;
  }
  const type *t = scalar_by_name(c, n);
  if (!t) t = alias_by_name(c, n);
  if (t) {
    *is_type = 1;
    if (t->kind == TY_F16 || type_scalar_of(t) == c->T->t_f16) {
      if (!c->f16_enabled) {
        diag_error(c->d, e->span, "f16 needs 'enable f16;'");
        return NULL;
      }
    }
    if (e->u.ident.ntargs) {
      diag_error(c->d, e->span, "'%s' does not take template arguments", n);
      return NULL;
    }
    return t;
  }
  if (is_generator(n)) {
    *is_type = 1;
    if (!e->u.ident.ntargs) return NULL; /* inferred constructor: vec3(...) */
    return generator(c, e);
  }
  if (texture_type(c, e, &t)) {
    *is_type = 1;
    return t;
  }
  if (!strcmp(n, "binding_array")) {
    /* binding_array<T, N> (Dawn's sized_binding_array): T a texture or
     * sampler, N a positive constant */
    *is_type = 1;
    if (e->u.ident.ntargs != 2) {
      diag_error(c->d, e->span, "binding_array needs an element type and an element count");
      return NULL;
    }
    const type *el = sema_type(c, e->u.ident.targs[0]);
    if (!el) return NULL;
    char b[128];
    if (el->kind != TY_TEXTURE && el->kind != TY_SAMPLER) {
      diag_error(c->d, e->u.ident.targs[0]->span, "binding_array holds textures or samplers, found %s", TN(el, b));
      return NULL;
    }
    ast_expr *x = e->u.ident.targs[1];
    const type *xt = sema_value(c, x);
    if (!xt) return NULL;
    if (!type_is_integer_scalar(xt) || !x->cval || x->cval->i <= 0 || x->cval->i > 65536) {
      diag_error(c->d, x->span, "the element count of a binding_array must be a positive constant integer");
      return NULL;
    }
    return types_binding_array(c->T, el, (uint32_t)x->cval->i);
  }
  if (!strcmp(n, "buffer")) {
    /* buffer<N> / buffer (§Buffer Types) */
    *is_type = 1;
    if (e->u.ident.ntargs == 0) return types_buffer(c->T, 0);
    ast_expr *x = e->u.ident.targs[0];
    const type *xt = e->u.ident.ntargs == 1 ? sema_value(c, x) : NULL;
    if (!xt) {
      if (e->u.ident.ntargs != 1) diag_error(c->d, e->span, "buffer takes one template argument (its size in bytes)");
      return NULL;
    }
    if (!type_is_integer_scalar(xt) || !x->cval || x->cval->i <= 0 || x->cval->i > (1 << 28)) {
      diag_error(c->d, x->span, "the size of a buffer must be a positive constant integer");
      return NULL;
    }
    return types_buffer(c->T, (uint32_t)x->cval->i);
  }
  int use = sgmat_use_of(n);
  if (use >= 0) {
    *is_type = 1;
    return sgmat_type(c, e, use);
  }
  return NULL;
}

const type *sema_type(sctx *c, ast_expr *e) {
  int is_type;
  const type *t = try_type(c, e, &is_type);
  if (is_type) {
    if (!t && e->kind == EX_IDENT && is_generator(e->u.ident.name) && !e->u.ident.ntargs)
      diag_error(c->d, e->span, "'%s' needs template arguments here", e->u.ident.name);
    e->ref = REF_TYPE;
    e->type = t;
    return t;
  }
  if (e->kind == EX_IDENT)
    diag_error(c->d, e->span, "'%s' is not a type", e->u.ident.name);
  else
    diag_error(c->d, e->span, "expected a type");
  return NULL;
}

/* ------------------------------------------------------------ identifiers */

static const type *ident(sctx *c, ast_expr *e) {
  const char *n = e->u.ident.name;
  ast_decl *d = sema_lookup(c, n);
  if (!d) {
    int is_type;
    (void)try_type(c, e, &is_type);
    if (is_type) {
      /* an error was reported when t is NULL only for malformed templates */
      diag_error(c->d, e->span, "type '%s' cannot be used as a value", n);
      return NULL;
    }
    if (builtin_find(n) >= 0) {
      diag_error(c->d, e->span, "built-in function '%s' must be called", n);
      return NULL;
    }
    diag_error(c->d, e->span, "unresolved identifier '%s'", n);
    return NULL;
  }
  if (e->u.ident.ntargs) {
    diag_error(c->d, e->span, "'%s' does not take template arguments", n);
    return NULL;
  }
  e->ref = REF_DECL;
  e->decl = d;
  d->used = 1;
  sema_resolve_global(c, d);
  switch (d->kind) {
  case DECL_CONST:
    e->cval = d->cval;
    e->type = d->rtype;
    return d->cval ? d->rtype : NULL;
  case DECL_OVERRIDE:
    e->is_override_expr = 1;
    e->type = d->rtype;
    return d->rtype;
  case DECL_LET:
  case DECL_PARAM:
    e->type = d->rtype;
    return d->rtype;
  case DECL_VAR:
    if (!d->rtype) return NULL;
    e->type = types_ptr(c->T, TY_REF, (addr_space)d->space, d->rtype, (access_mode)d->access);
    return e->type;
  case DECL_FN:
    diag_error(c->d, e->span, "function '%s' must be called", n);
    return NULL;
  default:
    diag_error(c->d, e->span, "'%s' cannot be used as a value", n);
    return NULL;
  }
}

/* --------------------------------------------------------------- operators */

/* Sets e->is_override_expr when any operand is an override-expression and
 * none is a runtime value; returns 1 when all operands are const. */
int sema_all_const(ast_expr **kids, int n, int *any_override) {
  int all = 1;
  *any_override = 0;
  for (int i = 0; i < n; i++) {
    if (!kids[i]) continue;
    if (kids[i]->cval) continue;
    if (kids[i]->is_override_expr) {
      *any_override = 1;
      all = 0;
    } else {
      return -1; /* runtime */
    }
  }
  return all;
}

/* The operators WGSL defines on matrices: + and - of equal shapes, scalar
 * times matrix either way, matrix times vector, vector times matrix and
 * matrix times matrix (the spec's "Matrix arithmetic" table). Converts the
 * operands to their common float element type and returns the result type,
 * or NULL when no such operator exists. */
static const type *matrix_binary(sctx *c, ast_binop op, ast_expr *l, ast_expr *r,
                                 const type *lt, const type *rt) {
  const type *s = sema_unify(type_scalar_of(lt), type_scalar_of(rt));
  if (!s || !type_is_float_scalar(s)) return NULL;
  /* the same shape with element type s */
#define RESHAPE(t) ((t)->kind == TY_MAT ? types_mat(c->T, s, (t)->n, (t)->rows) \
                    : (t)->kind == TY_VEC ? types_vec(c->T, s, (t)->n) : s)
  const type *res = NULL;
  if (op == BIN_ADD || op == BIN_SUB) {
    if (lt->kind != TY_MAT || rt->kind != TY_MAT || lt->n != rt->n || lt->rows != rt->rows) return NULL;
    res = RESHAPE(lt);
  } else if (op == BIN_MUL) {
    if (type_is_scalar(lt)) res = RESHAPE(rt);
    else if (type_is_scalar(rt)) res = RESHAPE(lt);
    else if (lt->kind == TY_MAT && rt->kind == TY_VEC && rt->n == lt->n) res = types_vec(c->T, s, lt->rows);
    else if (lt->kind == TY_VEC && rt->kind == TY_MAT && lt->n == rt->rows) res = types_vec(c->T, s, rt->n);
    else if (lt->kind == TY_MAT && rt->kind == TY_MAT && lt->n == rt->rows) res = types_mat(c->T, s, rt->n, lt->rows);
    else return NULL;
  } else {
    return NULL;
  }
  if (!sema_convert_expr(c, l, RESHAPE(lt)) || !sema_convert_expr(c, r, RESHAPE(rt))) return NULL;
#undef RESHAPE
  return res;
}

static const type *binary(sctx *c, ast_expr *e) {
  ast_expr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
  ast_binop op = e->u.binary.op;
  const type *lt = sema_value(c, l);
  /* `false && e` and `true || e` do not evaluate e (§Const Expressions):
   * its evaluation errors are not errors, its type still is checked */
  int skip = lt && l->cval && !l->cval->elems && lt->kind == TY_BOOL &&
             ((op == BIN_LAND && !l->cval->b) || (op == BIN_LOR && l->cval->b));
  c->quiet_eval += skip;
  const type *rt = sema_value(c, r);
  c->quiet_eval -= skip;
  if (!lt || !rt) return NULL;
  char b1[128], b2[128];
  static const char *opname[] = {
#define X_(n, s) s,
      AST_BINOPS(X_)
#undef X_
  };
  const type *res = NULL;
  if (op == BIN_SHL || op == BIN_SHR) {
    const type *ls = type_scalar_of(lt);
    if (!ls || !type_is_integer_scalar(ls)) goto bad;
    const type *want = lt->kind == TY_VEC ? types_vec(c->T, c->T->t_u32, lt->n) : c->T->t_u32;
    if (type_scalar_of(rt) == c->T->t_aint && type_scalar_of(lt) == c->T->t_aint) {
      /* both abstract: stays abstract, in the shape the left side has */
      if ((lt->kind == TY_VEC) != (rt->kind == TY_VEC) ||
          (lt->kind == TY_VEC && lt->n != rt->n)) {
        diag_error(c->d, r->span, "the shift amount must be %s, found %s", TN(want, b1),
                   TN(rt, b2));
        return NULL;
      }
    } else if (!sema_convert_expr(c, r, want)) {
      diag_error(c->d, r->span, "the shift amount must be %s, found %s", TN(want, b1), TN(rt, b2));
      return NULL;
    }
    res = lt;
  } else {
    /* vector-scalar mixing for arithmetic */
    int arith = op <= BIN_MOD;
    const type *ls = type_scalar_of(lt), *rs = type_scalar_of(rt);
    if (!ls || !rs) goto bad;
    if (lt->kind == TY_MAT || rt->kind == TY_MAT) {
      res = matrix_binary(c, op, l, r, lt, rt);
      if (!res) goto bad;
      goto typed;
    }
    const type *s = sema_unify(ls, rs);
    if (!s) goto bad;
    const type *shape = lt->kind == TY_VEC ? lt : rt;
    if (lt->kind == TY_VEC && rt->kind == TY_VEC && lt->n != rt->n) goto bad;
    if ((lt->kind == TY_VEC) != (rt->kind == TY_VEC) && !arith) goto bad;
    const type *lwant = lt->kind == TY_VEC ? types_vec(c->T, s, lt->n) : s;
    const type *rwant = rt->kind == TY_VEC ? types_vec(c->T, s, rt->n) : s;
    if (!sema_convert_expr(c, l, lwant) || !sema_convert_expr(c, r, rwant)) goto bad;
    const type *full = shape->kind == TY_VEC ? types_vec(c->T, s, shape->n) : s;
    switch (op) {
    case BIN_ADD: case BIN_SUB: case BIN_MUL: case BIN_DIV: case BIN_MOD:
      if (!type_is_numeric_scalar(s)) goto bad;
      res = full;
      break;
    case BIN_AND: case BIN_OR: case BIN_XOR: /* & | on bool too; ^ on integers only */
      if (!type_is_integer_scalar(s) && (s->kind != TY_BOOL || op == BIN_XOR)) goto bad;
      res = full;
      break;
    case BIN_LAND: case BIN_LOR:
      if (s->kind != TY_BOOL || full->kind != TY_BOOL) goto bad;
      res = full;
      break;
    case BIN_EQ: case BIN_NE:
      res = shape->kind == TY_VEC ? types_vec(c->T, c->T->t_bool, shape->n) : c->T->t_bool;
      break;
    default: /* < <= > >= */
      if (!type_is_numeric_scalar(s)) goto bad;
      res = shape->kind == TY_VEC ? types_vec(c->T, c->T->t_bool, shape->n) : c->T->t_bool;
      break;
    }
  }
typed:
  e->type = res;
  ast_expr *kids[2] = {l, r};
  int ov;
  int k = sema_all_const(kids, 2, &ov);
  if (k == 1) {
    e->cval = fold_binary(c->m, op, l->cval, r->cval, res, e->span, EVAL_DIAGS(c));
    if (!e->cval && !c->quiet_eval) return NULL;
    if (!e->cval) e->cval = cv_zero(c->m, res);
  } else if (k == 0 && ov) {
    e->is_override_expr = 1;
  } else if (r->cval && !sema_check_known_rhs(op, lt, r->cval, e->span, c->d)) {
    return NULL;   /* x / 0u, x << 32u: shader-creation errors */
  }
  return res;
bad:
  diag_error(c->d, e->span, "no operator '%s' for %s and %s", opname[op], TN(lt, b1), TN(rt, b2));
  return NULL;
}

static const type *unary(sctx *c, ast_expr *e) {
  ast_expr *o = e->u.unary.operand;
  char b[128];
  if (e->u.unary.op == UN_ADDR) {
    const type *t = sema_expr(c, o);
    if (!t) return NULL;
    if (t->kind != TY_REF) {
      diag_error(c->d, e->span, "'&' needs a memory reference, found a value of type %s", TN(t, b));
      return NULL;
    }
    /* §Address-Of Expression: not of a vector component (v.x or v[i]),
     * not in the handle address space (textures, samplers) */
    const ast_expr *vb = o->kind == EX_MEMBER ? o->u.member.base : o->kind == EX_INDEX ? o->u.index.base : NULL;
    const type *vt = vb ? type_unref(vb->type) : NULL;
    if (vt && vt->kind == TY_PTR) vt = vt->elem;
    if ((o->kind == EX_MEMBER && o->nswizzle) || (o->kind == EX_INDEX && vt && vt->kind == TY_VEC)) {
      diag_error(c->d, e->span, "cannot take the address of a vector component");
      return NULL;
    }
    if (t->space == AS_HANDLE) {
      diag_error(c->d, e->span, "cannot take the address of %s: it is in the handle address space",
                 TN(t->elem, b));
      return NULL;
    }
    e->type = types_ptr(c->T, TY_PTR, t->space, t->elem, t->access);
    return e->type;
  }
  if (e->u.unary.op == UN_DEREF) {
    const type *t = sema_value(c, o);
    if (!t) return NULL;
    if (t->kind != TY_PTR) {
      diag_error(c->d, e->span, "'*' needs a pointer, found %s", TN(t, b));
      return NULL;
    }
    e->type = types_ptr(c->T, TY_REF, t->space, t->elem, t->access);
    return e->type;
  }
  const type *t = sema_value(c, o);
  if (!t) return NULL;
  const type *s = type_scalar_of(t);
  int ok = 0;
  if (s && t->kind != TY_MAT) {
    switch (e->u.unary.op) {
    case UN_NEG: ok = s->kind == TY_I32 || type_is_float_scalar(s) || s->kind == TY_AINT; break;
    case UN_NOT: ok = s->kind == TY_BOOL; break;
    case UN_BITNOT: ok = type_is_integer_scalar(s); break;
    default: break;
    }
  }
  if (!ok) {
    diag_error(c->d, e->span, "no operator '%s' for %s",
               e->u.unary.op == UN_NEG ? "-" : e->u.unary.op == UN_NOT ? "!" : "~", TN(t, b));
    return NULL;
  }
  e->type = t;
  if (o->cval) {
    e->cval = fold_unary(c->m, e->u.unary.op, o->cval, t, e->span, EVAL_DIAGS(c));
    if (!e->cval && !c->quiet_eval) return NULL;
    if (!e->cval) e->cval = cv_zero(c->m, t);
  } else if (o->is_override_expr) {
    e->is_override_expr = 1;
  }
  return t;
}

/* ------------------------------------------------------ index and member */

static const type *index_expr(sctx *c, ast_expr *e) {
  ast_expr *base = e->u.index.base, *ix = e->u.index.index;
  const type *bt = sema_expr(c, base);
  const type *it = sema_value(c, ix);
  if (!bt || !it) return NULL;
  char b[128];
  if (!type_is_integer_scalar(it)) {
    diag_error(c->d, ix->span, "an index must be i32 or u32, found %s", TN(it, b));
    return NULL;
  }
  if (it->kind == TY_AINT) sema_convert_expr(c, ix, ix->cval && ix->cval->i >= 0 ? c->T->t_u32 : c->T->t_i32);
  /* pointer_composite_access: p[i] on a pointer means (*p)[i] */
  if (bt->kind == TY_PTR) bt = types_ptr(c->T, TY_REF, bt->space, bt->elem, bt->access);
  int is_ref = bt->kind == TY_REF;
  const type *st = type_unref(bt);
  const type *elem;
  uint32_t count = 0;
  if (st->kind == TY_ARRAY) {
    elem = st->elem;
    count = st->n;
  } else if (st->kind == TY_VEC || st->kind == TY_BINDING_ARRAY) {
    elem = st->elem;
    count = st->n;
  } else if (st->kind == TY_MAT) {
    elem = types_vec(c->T, st->elem, st->rows);
    count = st->n;
  } else {
    diag_error(c->d, e->span, "cannot index a value of type %s", TN(st, b));
    return NULL;
  }
  if (ix->cval && count && (ix->cval->i < 0 || ix->cval->i >= count)) {
    diag_error(c->d, ix->span, "index %lld is out of bounds for %s (valid: 0..%u)",
               (long long)ix->cval->i, TN(st, b), count - 1);
    return NULL;
  }
  if (ix->cval && !count && ix->cval->i < 0) {
    /* §Array Access Expression: a negative const-expression index is an
     * error for a runtime-sized array too */
    diag_error(c->d, ix->span, "index %lld is out of bounds for %s (an index is never negative)",
               (long long)ix->cval->i, TN(st, b));
    return NULL;
  }
  if (is_ref) {
    e->type = types_ptr(c->T, TY_REF, bt->space, elem, bt->access);
  } else {
    e->type = elem;
    if (base->cval && ix->cval) e->cval = fold_index(c->m, base->cval, ix->cval->i);
    /* a value indexed with constant and override operands, at least one an
     * override, is an override-expression (§Override-expressions) */
    else if ((base->cval || base->is_override_expr) && (ix->cval || ix->is_override_expr))
      e->is_override_expr = 1;
  }
  return e->type;
}

static int swizzle_index(char ch) {
  switch (ch) {
  case 'x': case 'r': return 0;
  case 'y': case 'g': return 1;
  case 'z': case 'b': return 2;
  case 'w': case 'a': return 3;
  default: return -1;
  }
}

static const type *member(sctx *c, ast_expr *e) {
  ast_expr *base = e->u.member.base;
  const type *bt = sema_expr(c, base);
  if (!bt) return NULL;
  /* pointer_composite_access: p.m on a pointer means (*p).m */
  if (bt->kind == TY_PTR) bt = types_ptr(c->T, TY_REF, bt->space, bt->elem, bt->access);
  int is_ref = bt->kind == TY_REF;
  const type *st = type_unref(bt);
  const char *name = e->u.member.name;
  char b[128];
  if (st->kind == TY_STRUCT) {
    for (int i = 0; i < st->nfields; i++) {
      if (!strcmp(st->fields[i].name, name)) {
        e->member_index = i;
        const type *ft = st->fields[i].type;
        e->type = is_ref ? types_ptr(c->T, TY_REF, bt->space, ft, bt->access) : ft;
        if (!is_ref && base->cval) e->cval = base->cval->elems[i];
        else if (!is_ref && base->is_override_expr) e->is_override_expr = 1;
        return e->type;
      }
    }
    diag_error(c->d, e->u.member.name_span, "struct %s has no member '%s'", st->name, name);
    return NULL;
  }
  if (st->kind == TY_VEC) {
    size_t n = strlen(name);
    int set = -1; /* xyzw = 0, rgba = 1: one swizzle may not mix them */
    if (n < 1 || n > 4) goto bad;
    for (size_t i = 0; i < n; i++) {
      int k = swizzle_index(name[i]);
      int s = strchr("xyzw", name[i]) ? 0 : 1;
      if (k < 0 || (uint32_t)k >= st->n || (set >= 0 && s != set)) goto bad;
      set = s;
      e->swizzle[i] = k;
    }
    e->nswizzle = (int)n;
    if (n == 1) {
      e->type = is_ref ? types_ptr(c->T, TY_REF, bt->space, st->elem, bt->access) : st->elem;
    } else {
      e->type = types_vec(c->T, st->elem, (uint32_t)n);
    }
    if (!is_ref && base->cval) {
      if (n == 1) {
        e->cval = base->cval->elems[e->swizzle[0]];
      } else {
        const cvalue *el[4];
        for (size_t i = 0; i < n; i++) el[i] = base->cval->elems[e->swizzle[i]];
        e->cval = cv_composite(c->m, e->type, el, (int)n);
      }
    } else if (!is_ref && base->is_override_expr) {
      e->is_override_expr = 1;
    }
    return e->type;
  bad:
    diag_error(c->d, e->u.member.name_span, "invalid vector swizzle '%s' for %s", name, TN(st, b));
    return NULL;
  }
  diag_error(c->d, e->u.member.name_span, "%s has no members (accessing '%s')", TN(st, b), name);
  return NULL;
}

/* ------------------------------------------------------------------ calls */

/* Arguments of a matCxR<T> constructor: one matrix of the same shape (a
 * conversion), C column vectors of R components, or C*R scalars in column
 * order. Converts them to T's components; 0 when they fit none of these. */
static int matrix_args(sctx *c, const type *t, ast_expr **args, const type **at, int n) {
  const type *col = types_vec(c->T, t->elem, t->rows);
  if (n == 1 && at[0]->kind == TY_MAT) {
    if (at[0]->n != t->n || at[0]->rows != t->rows) return 0;
    /* f16 <-> f32 converts explicitly; abstract floats convert implicitly */
    return sema_convert_expr(c, args[0], t) || type_is_float_scalar(at[0]->elem);
  }
  if ((uint32_t)n == t->n) {
    for (int i = 0; i < n; i++)
      if (at[i]->kind != TY_VEC || at[i]->n != t->rows || !sema_convert_expr(c, args[i], col)) return 0;
    return 1;
  }
  if ((uint32_t)n == t->n * t->rows) {
    for (int i = 0; i < n; i++)
      if (!type_is_scalar(at[i]) || !sema_convert_expr(c, args[i], t->elem)) return 0;
    return 1;
  }
  return 0;
}

static const type *construct(sctx *c, ast_expr *e, const type *t, const char *gen) {
  ast_expr **args = e->u.call.args;
  int n = e->u.call.nargs;
  char b1[128], b2[128];
  const type *at[16];
  /* vectors, matrices and scalars take at most 16 arguments (at[] holds
   * their types); arrays and structures take any number */
  int few = t ? t->kind == TY_VEC || t->kind == TY_MAT || type_is_scalar(t) : strcmp(gen, "array") != 0;
  if (n > 16 && few) {
    diag_error(c->d, e->span, "too many arguments");
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    const type *x = sema_value(c, args[i]);
    if (!x) return NULL;
    if (i < 16) at[i] = x;
  }
  if (!t) {
    /* inferred: vecN(...), array(...) */
    if (n == 0 && !strncmp(gen, "vec", 3)) {
      /* vecN() is the zero vector of AbstractInt (§Value Constructor
       * Built-in Functions) */
      t = types_vec(c->T, c->T->t_aint, (uint32_t)(gen[3] - '0'));
    } else if (n == 0) {
      diag_error(c->d, e->span, "'%s()' needs a template argument or arguments to infer it from", gen);
      return NULL;
    }
    const type *s = NULL;
    for (int i = 0; i < n && !t; i++) {
      const type *x = sema_value(c, args[i]);
      const type *xs = !strcmp(gen, "array") ? x : type_scalar_of(x);
      if (!xs) {
        diag_error(c->d, args[i]->span, "cannot infer the component type from %s", TN(x, b1));
        return NULL;
      }
      s = s ? sema_unify(s, xs) : xs;
      if (!s) {
        diag_error(c->d, args[i]->span, "arguments of '%s' have no common type", gen);
        return NULL;
      }
    }
    if (t) {
      /* vecN(): done above */
    } else if (!strcmp(gen, "array")) {
      t = types_array(c->T, s, (uint32_t)n, NULL);
    } else if (!strncmp(gen, "vec", 3)) {
      t = types_vec(c->T, s, (uint32_t)(gen[3] - '0'));
    } else {
      /* matCxR(...): the element type of the arguments; abstract integers
       * become abstract floats (matrices hold floats only) */
      if (s->kind == TY_AINT) s = c->T->t_afloat;
      if (!type_is_float_scalar(s)) {
        diag_error(c->d, e->span, "matrix components must be floats, found %s", TN(s, b1));
        return NULL;
      }
      t = types_mat(c->T, s, (uint32_t)(gen[3] - '0'), (uint32_t)(gen[5] - '0'));
    }
  }
  if (t->kind == TY_SGMAT) {
    /* T() is the zero matrix, T(v) fills it with v */
    if (n > 1) goto bad_args;
    if (n == 1 && !sema_expect(c, args[0], t->elem, "fill value")) return NULL;
    e->ref = REF_CONSTRUCT;
    e->type = t;
    return t;
  }
  if (!type_is_constructible(t)) {
    diag_error(c->d, e->span, "%s cannot be constructed", TN(t, b1));
    return NULL;
  }
  if (n > 0) {
    if (t->kind == TY_MAT && !matrix_args(c, t, args, at, n)) goto bad_args;
    if (type_is_scalar(t)) {
      if (n != 1 || !type_is_scalar(at[0])) {
        diag_error(c->d, e->span, "%s(...) takes one scalar argument", TN(t, b1));
        return NULL;
      }
      /* any scalar converts to any scalar; constants fold below */
    } else if (t->kind == TY_VEC) {
      int total = 0;
      for (int i = 0; i < n; i++) {
        const type *x = at[i];
        const type *xs = type_scalar_of(x);
        if (!xs || x->kind == TY_MAT) goto bad_args;
        total += x->kind == TY_VEC ? (int)x->n : 1;
        if (n > 1 || x->kind != TY_VEC) {
          /* components must convert automatically to the element type */
          const type *want = x->kind == TY_VEC ? types_vec(c->T, t->elem, x->n) : t->elem;
          if (!sema_convert_expr(c, args[i], want)) goto bad_args;
        }
      }
      if (!(n == 1 && total == 1) && total != (int)t->n) goto bad_args;
      if (n == 1 && at[0]->kind == TY_VEC && at[0]->n != t->n) goto bad_args;
    } else if (t->kind == TY_ARRAY) {
      if ((uint32_t)n != t->n) {
        diag_error(c->d, e->span, "%s needs %u elements, found %d", TN(t, b1), t->n, n);
        return NULL;
      }
      for (int i = 0; i < n; i++)
        if (!sema_expect(c, args[i], t->elem, "array element")) return NULL;
    } else if (t->kind == TY_STRUCT) {
      if (n != t->nfields) {
        diag_error(c->d, e->span, "%s needs %d members, found %d", t->name, t->nfields, n);
        return NULL;
      }
      for (int i = 0; i < n; i++)
        if (!sema_expect(c, args[i], t->fields[i].type, "struct member")) return NULL;
    }
  }
  e->ref = REF_CONSTRUCT;
  e->type = t;
  int ov;
  int k = sema_all_const(args, n, &ov);
  /* subgroup matrices are never constants; nor, in lockstep, values too
   * large to hold element by element (they stay runtime values) */
  if (k == 1 && !type_has_sgmat(t) && t->words <= SEMA_MAX_FOLD_WORDS) {
    const cvalue *vals[16];
    const cvalue **v = n <= 16 ? vals : arena_alloc(&c->m->arena, sizeof *v * (size_t)n);
    if (!v) return NULL;
    for (int i = 0; i < n; i++) v[i] = args[i]->cval;
    e->cval = fold_construct(c->m, t, v, n, e->span, EVAL_DIAGS(c));
    if (!e->cval && !c->quiet_eval) return NULL;
    if (!e->cval) e->cval = cv_zero(c->m, t);
  } else if (k == 0 && ov) {
    e->is_override_expr = 1;
  }
  return t;
bad_args:
  diag_error(c->d, e->span, "no constructor %s(...) for these arguments", TN(t, b2));
  return NULL;
}


static const type *user_call(sctx *c, ast_expr *e, ast_decl *fn) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  e->ref = REF_DECL;
  e->decl = fn;
  fn->used = 1;
  sema_resolve_global(c, fn);
  if (fn->stage) {
    diag_error(c->d, e->span, "entry point '%s' cannot be called", fn->name);
    return NULL;
  }
  if (n != fn->nparams) {
    diag_error(c->d, e->span, "'%s' takes %d argument%s, found %d", fn->name, fn->nparams,
               fn->nparams == 1 ? "" : "s", n);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    if (!sema_expect(c, a[i], fn->params[i]->rtype, "argument")) return NULL;
  if (c->body_state[fn->index] == 1) {
    diag_error(c->d, e->span, "'%s' is called recursively; WGSL forbids recursion", fn->name);
    return NULL;
  }
  sema_resolve_fn_body(c, fn);
  if (!sema_nest_call(c, fn, e->span)) return NULL;
  if (c->fn && c->call_depth) {
    int depth = c->call_depth[fn->index] + 1;
    if (depth > SEMA_MAX_CALL_DEPTH) {
      diag_error(c->d, e->span, "calls nest more than %d deep here (a limit of lockstep)", SEMA_MAX_CALL_DEPTH);
      return NULL;
    }
    if (depth > c->call_depth[c->fn->index]) c->call_depth[c->fn->index] = depth;
  }
  e->type = fn->rtype ? fn->rtype : c->T->t_void;
  return e->type;
}

static const type *call(sctx *c, ast_expr *e) {
  ast_expr *callee = e->u.call.callee;
  if (callee->kind != EX_IDENT) {
    diag_error(c->d, callee->span, "expected a function or type name");
    return NULL;
  }
  const char *n = callee->u.ident.name;
  ast_decl *d = sema_lookup(c, n);
  if (d && d->kind == DECL_FN) return user_call(c, e, d);
  if (d && d->kind != DECL_STRUCT && d->kind != DECL_ALIAS) {
    diag_error(c->d, callee->span, "'%s' is not a function", n);
    return NULL;
  }
  int is_type;
  const type *t = try_type(c, callee, &is_type);
  if (is_type) {
    if (!t && (callee->u.ident.ntargs || !is_generator(n))) return NULL; /* error reported */
    return construct(c, e, t, n);
  }
  int bf = builtin_find(n);
  if (bf >= 0) {
    /* builtins.def: the row's TARGS, unless its class rule counts them */
    const builtin_info *bi = builtin_fn_info((builtin_fn)bf);
    const int nt = callee->u.ident.ntargs;
    if (builtin_class_info_of(bi->kind)->targs_by == BC_TABLE && nt != bi->targs) {
      if (!bi->targs) diag_error(c->d, callee->span, "'%s' does not take template arguments", n);
      else diag_error(c->d, callee->span, "'%s' takes %d template argument%s, found %d", n, bi->targs,
                      bi->targs == 1 ? "" : "s", nt);
      return NULL;
    }
    return sema_builtin_call(c, e, (builtin_fn)bf);
  }
  diag_error(c->d, callee->span, "unresolved function '%s'", n);
  return NULL;
}

/* ------------------------------------------------------------------- entry */

static const type *expr_kind(sctx *c, ast_expr *e);

const type *sema_expr(sctx *c, ast_expr *e) {
  if (!e) return NULL;
  if (e->type) return e->type; /* already resolved (shared subtrees) */
  if (!sema_nest_enter(c, e->span)) return NULL;
  const type *t = expr_kind(c, e);
  sema_nest_leave(c);
  return t;
}

static const type *expr_kind(sctx *c, ast_expr *e) {
  switch (e->kind) {
  case EX_INT:
    if (e->u.ilit.suffix == 'i') {
      if (e->u.ilit.value > 2147483647u) goto range;
      e->type = c->T->t_i32;
    } else if (e->u.ilit.suffix == 'u') {
      if (e->u.ilit.value > 4294967295u) goto range;
      e->type = c->T->t_u32;
    } else {
      if (e->u.ilit.value > (uint64_t)INT64_MAX) goto range;
      e->type = c->T->t_aint;
    }
    e->cval = cv_int(c->m, e->type, (int64_t)e->u.ilit.value);
    return e->type;
  range:
    diag_error(c->d, e->span, "integer literal out of range for its type");
    return NULL;
  case EX_FLOAT:
    e->type = e->u.flit.suffix == 'f' ? c->T->t_f32
              : e->u.flit.suffix == 'h' ? c->T->t_f16
                                        : c->T->t_afloat;
    if (e->type == c->T->t_f16 && !c->f16_enabled) {
      diag_error(c->d, e->span, "f16 literals need 'enable f16;'");
      return NULL;
    }
    e->cval = sema_convert(c->m, cv_float(c->m, c->T->t_afloat, e->u.flit.value), e->type,
                           e->span, c->d);
    return e->cval ? e->type : NULL;
  case EX_BOOL:
    e->type = c->T->t_bool;
    e->cval = cv_bool(c->m, e->u.blit);
    return e->type;
  case EX_IDENT: return ident(c, e);
  case EX_CALL: return call(c, e);
  case EX_INDEX: return index_expr(c, e);
  case EX_MEMBER: return member(c, e);
  case EX_UNARY: return unary(c, e);
  case EX_BINARY: return binary(c, e);
  }
  return NULL;
}

const type *sema_value(sctx *c, ast_expr *e) {
  const type *t = sema_expr(c, e);
  if (!t) return NULL;
  if (t->kind == TY_REF) {
    if (t->access == ACC_WRITE) {
      diag_error(c->d, e->span, "cannot read from a write-only reference");
      return NULL;
    }
    if (t->elem->kind == TY_ATOMIC) {
      diag_error(c->d, e->span, "atomics are read with atomicLoad, not by value");
      return NULL;
    }
    if (t->elem->kind == TY_BUFFER) {
      diag_error(c->d, e->span, "a buffer has no value: read it through bufferView or bufferArrayView");
      return NULL;
    }
    return t->elem;
  }
  if (t->kind == TY_VOID) {
    diag_error(c->d, e->span, "this call has no value");
    return NULL;
  }
  return t;
}
