/*
 * sema_entry.c — the resolver's rules for the shader stage inputs and
 * outputs of entry points of every stage (WGSL §Entry Point Declaration,
 * §Built-in Inputs and Outputs, §User-defined Inputs and Outputs,
 * §Input-output Locations, §Interpolation): which built-in values each
 * stage reads and writes, their types and extensions, none twice; the
 * types and locations of user-defined IO and their interpolation; the
 * attributes only IO may carry (@invariant, @blend_src). lockstep runs
 * compute shaders only, but a module with vertex and fragment entry points
 * is validated as the spec says, so that its shader-creation errors are
 * reported. The IO attributes of structure members that no entry point
 * uses are checked here too (sema_struct_io), since the spec's rules on
 * them hold for every structure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sema_int.h"

#define TN(t, b) type_name((t), (b), sizeof(b))

static const char *const builtin_value_names[BV_COUNT] = {
    "local_invocation_index", "local_invocation_id", "global_invocation_id", "workgroup_id",
    "num_workgroups", "global_invocation_index", "workgroup_index", "subgroup_invocation_id",
    "subgroup_size", "subgroup_id", "num_subgroups"};

const char *builtin_value_name(builtin_value v) { return builtin_value_names[v]; }

/* Stage bits (entry point stage 1 compute, 2 vertex, 3 fragment). */
enum { S_C = 1 << 1, S_V = 1 << 2, S_F = 1 << 3 };
/* The type a built-in value has. */
enum { BT_U32, BT_VEC3U, BT_VEC4F, BT_BOOL, BT_F32, BT_CLIP, BT_VEC3F };
/* The extension a built-in value needs. */
enum { BX_NONE, BX_SUBGROUPS, BX_CLIP, BX_PRIMITIVE, BX_BARY };

/* §Built-in Inputs and Outputs, the table "Built-in input and output
 * values" (and barycentric_coord of chromium_experimental_barycentric_coord):
 * the stages that read it (in), write it (out), its type, its extension,
 * and lockstep's compute register (-1 for other stages). */
typedef struct bv_row {
  const char *name;
  unsigned char in, out, ty, ext;
  int bv;
} bv_row;
static const bv_row bv_rows[] = {
    {"vertex_index", S_V, 0, BT_U32, BX_NONE, -1},
    {"instance_index", S_V, 0, BT_U32, BX_NONE, -1},
    {"clip_distances", 0, S_V, BT_CLIP, BX_CLIP, -1},
    {"position", S_F, S_V, BT_VEC4F, BX_NONE, -1},
    {"front_facing", S_F, 0, BT_BOOL, BX_NONE, -1},
    {"frag_depth", 0, S_F, BT_F32, BX_NONE, -1},
    {"primitive_index", S_F, 0, BT_U32, BX_PRIMITIVE, -1},
    {"sample_index", S_F, 0, BT_U32, BX_NONE, -1},
    {"sample_mask", S_F, S_F, BT_U32, BX_NONE, -1},
    {"barycentric_coord", S_F, 0, BT_VEC3F, BX_BARY, -1},
    {"local_invocation_index", S_C, 0, BT_U32, BX_NONE, BV_LOCAL_INVOCATION_INDEX},
    {"local_invocation_id", S_C, 0, BT_VEC3U, BX_NONE, BV_LOCAL_INVOCATION_ID},
    {"global_invocation_id", S_C, 0, BT_VEC3U, BX_NONE, BV_GLOBAL_INVOCATION_ID},
    {"workgroup_id", S_C, 0, BT_VEC3U, BX_NONE, BV_WORKGROUP_ID},
    {"num_workgroups", S_C, 0, BT_VEC3U, BX_NONE, BV_NUM_WORKGROUPS},
    {"global_invocation_index", S_C, 0, BT_U32, BX_NONE, BV_GLOBAL_INVOCATION_INDEX},
    {"workgroup_index", S_C, 0, BT_U32, BX_NONE, BV_WORKGROUP_INDEX},
    {"subgroup_invocation_id", S_C | S_F, 0, BT_U32, BX_SUBGROUPS, BV_SUBGROUP_INVOCATION_ID},
    {"subgroup_size", S_C | S_F, 0, BT_U32, BX_SUBGROUPS, BV_SUBGROUP_SIZE},
    {"subgroup_id", S_C, 0, BT_U32, BX_SUBGROUPS, BV_SUBGROUP_ID},
    {"num_subgroups", S_C, 0, BT_U32, BX_SUBGROUPS, BV_NUM_SUBGROUPS},
};
enum { NBV = sizeof bv_rows / sizeof *bv_rows };

static const char *const stage_names[] = {"", "compute", "vertex", "fragment"};
static const char *const ext_names[] = {"", "subgroups", "clip_distances", "primitive_index",
                                        "chromium_experimental_barycentric_coord"};

/* The name in @builtin(name), or NULL. */
static const char *builtin_name(const ast_attr *bi) {
  return bi && bi->nargs >= 1 && bi->args[0]->kind == EX_IDENT ? bi->args[0]->u.ident.name : NULL;
}

static const bv_row *bv_find(const char *n) {
  for (int k = 0; n && k < NBV; k++)
    if (!strcmp(n, bv_rows[k].name)) return &bv_rows[k];
  return NULL;
}

static int ext_on(const sctx *c, int ext) {
  switch (ext) {
  case BX_SUBGROUPS: return c->subgroups_enabled;
  case BX_CLIP: return c->clip_distances_enabled;
  case BX_PRIMITIVE: return c->primitive_index_enabled;
  case BX_BARY: return c->barycentric_enabled;
  default: return 1;
  }
}

static int bv_type_ok(sctx *c, int ty, const type *t) {
  switch (ty) {
  case BT_U32: return t == c->T->t_u32;
  case BT_VEC3U: return t == types_vec(c->T, c->T->t_u32, 3);
  case BT_VEC4F: return t == types_vec(c->T, c->T->t_f32, 4);
  case BT_VEC3F: return t == types_vec(c->T, c->T->t_f32, 3);
  case BT_BOOL: return t == c->T->t_bool;
  case BT_F32: return t == c->T->t_f32;
  case BT_CLIP: return t->kind == TY_ARRAY && t->elem == c->T->t_f32 && t->n >= 1 && t->n <= 8;
  }
  return 0;
}

static const char *const bv_type_names[] = {"u32", "vec3<u32>", "vec4<f32>", "bool", "f32",
                                            "array<f32, N> (N at most 8)", "vec3<f32>"};

static int is_numeric_scalar_or_vector(const type *t) {
  if (t->kind == TY_VEC) t = t->elem;
  return t->kind == TY_I32 || t->kind == TY_U32 || t->kind == TY_F32 || t->kind == TY_F16;
}

static int is_integral(const type *t) {
  if (t->kind == TY_VEC) t = t->elem;
  return t->kind == TY_I32 || t->kind == TY_U32;
}

/* The integer argument of IO attribute a (@location, @blend_src), resolved
 * once: a structure's members are checked where the structure is declared
 * and again where an entry point uses it. -1 after an error. */
static int64_t io_attr_int(sctx *c, ast_attr *a, const char *what) {
  ast_expr *e = a->nargs >= 1 ? a->args[0] : NULL;
  if (e && e->type) return e->cval && type_is_integer_scalar(e->type) && e->cval->i >= 0 ? e->cval->i : -1;
  return sema_attr_int(c, a, 0, what);
}

/* The identifier of attribute argument i, or NULL. */
static const char *attr_ident(const ast_attr *a, int i) {
  return a->nargs > i && a->args[i]->kind == EX_IDENT ? a->args[i]->u.ident.name : NULL;
}

/* §interpolate, §Interpolation: the type is perspective, linear or flat;
 * the sampling, when given, center, centroid or sample for the first two
 * and first or either for flat. Returns 0 after an error. */
static int check_interpolate(sctx *c, const ast_attr *ip) {
  static const char *const types[] = {"perspective", "linear", "flat"};
  static const char *const samplings[] = {"center", "centroid", "sample", "first", "either"};
  const char *ty = attr_ident(ip, 0), *sa = attr_ident(ip, 1);
  int t = -1, s = -1;
  for (int k = 0; ty && k < 3; k++)
    if (!strcmp(ty, types[k])) t = k;
  if (t < 0) {
    diag_error(c->d, ip->nargs ? ip->args[0]->span : ip->span,
               "unknown interpolation type '%s' (perspective, linear or flat)", ty ? ty : "");
    return 0;
  }
  if (ip->nargs < 2) return 1;
  for (int k = 0; sa && k < 5; k++)
    if (!strcmp(sa, samplings[k])) s = k;
  if (s < 0 || (t == 2) != (s >= 3)) {
    diag_error(c->d, ip->args[1]->span, "interpolation sampling '%s' does not go with '%s' (%s)",
               sa ? sa : "", ty, t == 2 ? "first or either" : "center, centroid or sample");
    return 0;
  }
  return 1;
}

/* The rules on IO attributes that hold wherever they appear (a structure
 * member, an entry point parameter or return type), on a declaration of
 * type t with attributes a[n]; `what` names it. Returns 0 after an error. */
static int check_io_attrs(sctx *c, ast_attr *a, int n, const type *t, src_span ts, const char *what) {
  char b[128];
  ast_attr *bi = sema_find_attr(a, n, "builtin"), *lo = sema_find_attr(a, n, "location");
  ast_attr *ip = sema_find_attr(a, n, "interpolate"), *inv = sema_find_attr(a, n, "invariant");
  ast_attr *bs = sema_find_attr(a, n, "blend_src");
  if (bi && lo) {
    diag_error(c->d, lo->span, "%s has both @builtin and @location (a built-in value has no location)", what);
    return 0;
  }
  if (bi) {
    const char *nm = builtin_name(bi);
    const bv_row *r = bv_find(nm);
    if (!r) {
      diag_error(c->d, bi->span, "unknown built-in value '%s'", nm ? nm : "");
      return 0;
    }
    if (bi->nargs == 2 && strcmp(nm, "frag_depth")) {
      diag_error(c->d, bi->args[1]->span, "only @builtin(frag_depth) takes a second argument");
      return 0;
    }
    /* §frag_depth (language extension fragment_depth): a depth mode */
    const char *mode = bi->nargs == 2 ? attr_ident(bi, 1) : NULL;
    if (bi->nargs == 2 && !(mode && (!strcmp(mode, "less") || !strcmp(mode, "greater")))) {
      diag_error(c->d, bi->args[1]->span, "unknown depth mode '%s' (less or greater)", mode ? mode : "");
      return 0;
    }
  }
  if (ip && !lo) {
    diag_error(c->d, ip->span, "@interpolate applies only to a declaration with @location");
    return 0;
  }
  if (ip && !check_interpolate(c, ip)) return 0;
  if (inv && !(bi && builtin_name(bi) && !strcmp(builtin_name(bi), "position"))) {
    diag_error(c->d, inv->span, "@invariant applies only to @builtin(position)");
    return 0;
  }
  if (lo && !is_numeric_scalar_or_vector(t)) {
    diag_error(c->d, ts, "@location needs a numeric scalar or vector type, found %s", TN(t, b));
    return 0;
  }
  if (bs && !c->dual_source_enabled) {
    diag_error(c->d, bs->span, "@blend_src needs 'enable dual_source_blending;'");
    return 0;
  }
  if (bs && !lo) {
    diag_error(c->d, bs->span, "@blend_src applies only to a structure member with @location");
    return 0;
  }
  if (bs) {
    int64_t v = io_attr_int(c, bs, "@blend_src");
    if (v < 0) return 0;
    if (v > 1) {
      diag_error(c->d, bs->args[0]->span, "@blend_src must be 0 or 1, found %lld", (long long)v);
      return 0;
    }
  }
  return 1;
}

/* §Input-output Locations, "locations in structs": for every structure,
 * its members with @location have distinct locations, unless one has
 * @blend_src: then there are exactly two, @location(0) @blend_src(0) and
 * @location(0) @blend_src(1), of one type. */
void sema_struct_io(sctx *c, ast_decl *d) {
  const type *st = d->rtype;
  if (!st || st->kind != TY_STRUCT) return;
  int nloc = 0, nbs = 0;
  for (int i = 0; i < d->nmembers; i++) {
    ast_member *mb = &d->members[i];
    if (!check_io_attrs(c, mb->attrs, mb->nattrs, st->fields[i].type, mb->type->span, "a member")) return;
    ast_attr *lo = sema_find_attr(mb->attrs, mb->nattrs, "location");
    if (lo && io_attr_int(c, lo, "@location") < 0) return;
    if (lo) nloc++;
    if (sema_find_attr(mb->attrs, mb->nattrs, "blend_src")) nbs++;
  }
  if (nloc < 2 && !nbs) return;
  ast_member *first = NULL;
  int64_t bsmask = 0;
  for (int i = 0; i < d->nmembers; i++) {
    ast_member *mb = &d->members[i];
    ast_attr *lo = sema_find_attr(mb->attrs, mb->nattrs, "location");
    int64_t v = lo ? io_attr_int(c, lo, "@location") : -1;
    if (v < 0) continue;
    if (nbs) {
      ast_attr *bs = sema_find_attr(mb->attrs, mb->nattrs, "blend_src");
      int64_t k = bs && bs->nargs && bs->args[0]->cval ? bs->args[0]->cval->i : -1;
      if (nloc != 2 || v != 0 || k < 0 || (bsmask & (1 << k)) ||
          (first && st->fields[first - d->members].type != st->fields[i].type)) {
        diag_error(c->d, mb->span,
                   "a structure that uses @blend_src has exactly two @location members, "
                   "@location(0) @blend_src(0) and @location(0) @blend_src(1), of one type");
        return;
      }
      bsmask |= 1 << k;
      first = mb;
      continue;
    }
    for (int j = 0; j < i; j++) {
      ast_member *o = &d->members[j];
      ast_attr *ol = sema_find_attr(o->attrs, o->nattrs, "location");
      if (ol && ol->nargs && ol->args[0]->cval && ol->args[0]->cval->i == v) {
        diag_error(c->d, lo->span, "@location(%lld) is used by members '%s' and '%s' of '%s'", (long long)v,
                   o->name, mb->name, d->name);
        return;
      }
    }
  }
}

/* One direction (inputs or outputs) of an entry point being checked. */
typedef struct io_walk {
  sctx *c;
  ast_decl *fn;
  int out;                /* 0: inputs (parameters), 1: outputs (return type) */
  const bv_row *seen[NBV]; /* built-in values so far */
  int nseen;
  int64_t *locs;           /* locations so far */
  int nloc, cap;
  int position;           /* @builtin(position) among them */
} io_walk;

static const char *dir_name(const io_walk *w) { return w->out ? "output" : "input"; }

static int add_location(io_walk *w, ast_attr *lo) {
  int64_t v = io_attr_int(w->c, lo, "@location");
  if (v < 0) return 0;
  for (int k = 0; k < w->nloc; k++)
    if (w->locs[k] == v) {
      diag_error(w->c->d, lo->span, "@location(%lld) is used by two %ss of '%s'", (long long)v, dir_name(w),
                 w->fn->name);
      return 0;
    }
  if (w->nloc == w->cap) {
    int cap = w->cap ? w->cap * 2 : 16;
    int64_t *l = realloc(w->locs, sizeof *l * (size_t)cap);
    if (!l) return 1; /* out of memory: the duplicate check ends here */
    w->locs = l;
    w->cap = cap;
  }
  w->locs[w->nloc++] = v;
  return 1;
}

/* One shader stage input or output: attributes a[n] on a declaration of
 * type t (declared at ts, named at ns); `member` says whether it is a
 * member of a structure parameter or return type. Returns the compute
 * built-in register it names (or -1), or -2 after an error. */
static int io_datum(io_walk *w, ast_attr *a, int n, const type *t, src_span ts, src_span ns,
                    const char *what, int member) {
  sctx *c = w->c;
  int stage = w->fn->stage;
  char b[128];
  ast_attr *bi = sema_find_attr(a, n, "builtin"), *lo = sema_find_attr(a, n, "location");
  if (!bi && !lo) {
    if (stage == 1 && !w->out)
      diag_error(c->d, ns, "%s of compute entry point '%s' needs @builtin(...)", what, w->fn->name);
    else
      diag_error(c->d, ns, "%s of entry point '%s' needs @builtin(...) or @location(...)%s", what,
                 w->fn->name, t->kind == TY_STRUCT && member ? " (structures of IO do not nest)" : "");
    return -2;
  }
  /* a structure's members had these checked where it was declared */
  if (!member && !check_io_attrs(c, a, n, t, ts, what)) return -2;
  ast_attr *bs = sema_find_attr(a, n, "blend_src");
  if (bs && !(member && w->out && stage == 3)) {
    diag_error(c->d, bs->span, "@blend_src applies only to members of a fragment shader's output structure");
    return -2;
  }
  if (lo) {
    if (stage == 1) {
      diag_error(c->d, lo->span, "%s: a compute entry point has no @location inputs", what);
      return -2;
    }
    /* the two @blend_src members share @location(0) (sema_struct_io) */
    if (!bs && !add_location(w, lo)) return -2;
    ast_attr *ip = sema_find_attr(a, n, "interpolate");
    int interpolated = (stage == 2 && w->out) || (stage == 3 && !w->out);
    if (interpolated && is_integral(t) && !(ip && attr_ident(ip, 0) && !strcmp(attr_ident(ip, 0), "flat"))) {
      diag_error(c->d, ts, "%s of integer type %s needs @interpolate(flat)", what, TN(t, b));
      return -2;
    }
    return -1;
  }
  const char *nm = builtin_name(bi);
  const bv_row *r = bv_find(nm);
  if (!r) return -2; /* an unknown name, reported with its structure */
  unsigned char stages = w->out ? r->out : r->in;
  if (!(stages & (1u << stage))) {
    char where[96] = "";
    size_t len = 0;
    for (int k = 0; k < 2; k++)
      for (int st = 1; st <= 3; st++)
        if (((k ? r->out : r->in) >> st) & 1)
          len += (size_t)snprintf(where + len, sizeof where - len, "%s%s shader %s", len ? ", " : "",
                                  stage_names[st], k ? "output" : "input");
    diag_error(c->d, bi->span, "built-in value '%s' is not supported in a %s shader %s (it is a %s)", nm,
               stage_names[stage], dir_name(w), where);
    return -2;
  }
  if (!ext_on(c, r->ext)) {
    diag_error(c->d, bi->span, "@builtin(%s) needs 'enable %s;'", nm, ext_names[r->ext]);
    return -2;
  }
  if (!bv_type_ok(c, r->ty, t)) {
    diag_error(c->d, ts, "@builtin(%s) must have type %s, found %s", nm, bv_type_names[r->ty], TN(t, b));
    return -2;
  }
  for (int k = 0; k < w->nseen; k++)
    if (w->seen[k] == r) {
      diag_error(c->d, bi->span, "@builtin(%s) is used by two %ss of '%s'", nm, dir_name(w), w->fn->name);
      return -2;
    }
  w->seen[w->nseen++] = r;
  if (!strcmp(nm, "position")) w->position = 1;
  return stage == 1 ? r->bv : -1;
}

/* A structure parameter or return type: each member one input or output. */
static int io_struct(io_walk *w, const type *t, const char *owner) {
  char what[160];
  for (int i = 0; i < t->nfields; i++) {
    const ast_member *mb = t->fields[i].decl;
    if (!mb) continue;
    snprintf(what, sizeof what, "member '%s' of %s", mb->name, owner);
    if (io_datum(w, mb->attrs, mb->nattrs, t->fields[i].type, mb->type->span, mb->name_span, what, 1) == -2)
      return 0;
  }
  return 1;
}

/* Whether attributes a[n] include one that makes a declaration IO. */
static ast_attr *any_io_attr(ast_attr *a, int n) {
  static const char *const io[] = {"builtin", "location", "interpolate", "invariant", "blend_src"};
  for (int k = 0; k < 5; k++)
    if (sema_find_attr(a, n, io[k])) return sema_find_attr(a, n, io[k]);
  return NULL;
}

/* §Entry Point Declaration: every parameter of entry point d is a shader
 * stage input, or a structure whose members all are; its return type, if
 * any, an output or a structure of outputs. Sets each parameter's compute
 * built-in register. */
void sema_entry_io(sctx *c, ast_decl *d) {
  char what[160];
  io_walk w;
  memset(&w, 0, sizeof w);
  w.c = c;
  w.fn = d;
  int ok = 1;
  for (int i = 0; ok && i < d->nparams; i++) {
    ast_decl *p = d->params[i];
    if (!p->rtype) { /* its type's error is reported */
      ok = 0;
      break;
    }
    if (sema_find_attr(p->attrs, p->nattrs, "color")) continue; /* framebuffer fetch: sema.c */
    snprintf(what, sizeof what, "parameter '%s'", p->name);
    if (p->rtype->kind == TY_STRUCT && !any_io_attr(p->attrs, p->nattrs)) {
      ok = io_struct(&w, p->rtype, what);
    } else if (d->stage == 1 && !sema_find_attr(p->attrs, p->nattrs, "builtin") &&
               sema_find_attr(p->attrs, p->nattrs, "location")) {
      diag_error(c->d, p->name_span, "compute entry point parameters take @builtin(...), not @location");
      ok = 0;
    } else {
      int r = io_datum(&w, p->attrs, p->nattrs, p->rtype, p->type->span, p->name_span, what, 0);
      ok = r != -2;
      p->builtin_value = r >= 0 ? r : -1;
    }
  }
  free(w.locs);
  if (!ok || !d->ret_type || !d->rtype) {
    if (ok && d->stage == 2 && !d->ret_type)
      diag_error(c->d, d->name_span, "vertex entry point '%s' must return @builtin(position)", d->name);
    return;
  }
  memset(&w, 0, sizeof w);
  w.c = c;
  w.fn = d;
  w.out = 1;
  if (d->stage == 1) return; /* sema.c refuses the return type */
  if (d->rtype->kind == TY_STRUCT && !any_io_attr(d->ret_attrs, d->nret_attrs))
    ok = io_struct(&w, d->rtype, "the return type");
  else
    ok = io_datum(&w, d->ret_attrs, d->nret_attrs, d->rtype, d->ret_type->span, d->ret_type->span,
                  "the return value", 0) != -2;
  free(w.locs);
  if (ok && d->stage == 2 && !w.position)
    diag_error(c->d, d->ret_type->span, "vertex entry point '%s' must return @builtin(position)", d->name);
}

/* A parameter or return type of a function that is not an entry point
 * carries no IO attribute (§builtin, §location: only on entry point
 * parameters, return types and structure members). */
void sema_non_entry_io(sctx *c, ast_decl *d) {
  for (int i = 0; i < d->nparams; i++) {
    ast_attr *a = any_io_attr(d->params[i]->attrs, d->params[i]->nattrs);
    if (a) {
      diag_error(c->d, a->span, "@%s applies only to entry point parameters (and structure members)",
                 a->name);
      return;
    }
  }
  ast_attr *a = any_io_attr(d->ret_attrs, d->nret_attrs);
  if (a)
    diag_error(c->d, a->span, "@%s applies only to entry point return types (and structure members)",
               a->name);
}
