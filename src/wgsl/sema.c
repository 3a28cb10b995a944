/*
 * sema.c — the resolver for declarations and statements, and the front
 * end's entry point (wgsl_module_compile: lex -> parse -> resolve).
 *
 * Module-scope declarations may be used before they appear, so each is
 * resolved on first use (with a cycle check); function bodies are resolved
 * callee-first, which is also where recursion is caught. Expressions are
 * handled by sema_expr.c.
 */
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "parse.h"
#include "sema_int.h"
#include "uniformity.h"

#define TN(t, b) type_name((t), (b), sizeof(b))


static const char *const builtin_value_names[BV_COUNT] = {
    "local_invocation_index", "local_invocation_id", "global_invocation_id", "workgroup_id",
    "num_workgroups"};

const char *builtin_value_name(builtin_value v) { return builtin_value_names[v]; }

/* Built-in values of other stages or extensions: known names, refused with a
 * message that says why. */
static const char *const other_builtin_values[] = {
    "vertex_index", "instance_index", "position", "front_facing", "frag_depth",
    "sample_index", "sample_mask", "clip_distances", "primitive_index",
    "subgroup_invocation_id", "subgroup_size", "subgroup_id", "num_subgroups", NULL};

/* ------------------------------------------------------------------ scopes */

static unsigned name_hash(const char *s) {
  unsigned h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

ast_decl *sema_lookup(sctx *c, const char *name) {
  for (int i = c->nlocals - 1; i >= 0; i--)
    if (!strcmp(c->locals[i].name, name)) {
      if (c->skip_active && i >= c->skip_from && i < c->skip_to) {
        diag_error(c->d, c->skip_continue,
                   "this 'continue' skips the declaration of '%s', which the continuing block uses",
                   name);
        diag_note(c->d, c->locals[i].decl->name_span, "the declaration");
        c->skip_active = 0; /* one report per loop */
      }
      return c->locals[i].decl;
    }
  if (c->gtab) {
    for (unsigned h = name_hash(name) & c->gmask; c->gtab[h]; h = (h + 1) & c->gmask)
      if (!strcmp(c->gtab[h]->name, name)) return c->gtab[h];
    return NULL;
  }
  ast_module *am = c->m->ast;
  for (int i = 0; i < am->ndecls; i++)
    if (am->decls[i]->name && !strcmp(am->decls[i]->name, name)) return am->decls[i];
  return NULL;
}

/* Builds the module-scope name table; the first declaration of a name
 * wins (later ones are reported as duplicates). */
static void build_globals(sctx *c) {
  ast_module *am = c->m->ast;
  unsigned cap = 16;
  while (cap < (unsigned)am->ndecls * 2 + 2) cap *= 2;
  c->gtab = arena_alloc(&c->m->arena, sizeof *c->gtab * cap);
  if (!c->gtab) return;
  memset(c->gtab, 0, sizeof *c->gtab * cap);
  c->gmask = cap - 1;
  for (int i = 0; i < am->ndecls; i++) {
    ast_decl *d = am->decls[i];
    if (!d->name) continue;
    unsigned h = name_hash(d->name) & c->gmask;
    int dup = 0;
    for (; c->gtab[h]; h = (h + 1) & c->gmask)
      if (!strcmp(c->gtab[h]->name, d->name)) {
        dup = 1;
        diag_error(c->d, d->name_span, "'%s' is already declared at module scope", d->name);
        diag_note(c->d, c->gtab[h]->name_span, "the earlier declaration");
        break;
      }
    if (!dup) c->gtab[h] = d;
  }
}

static void push_local(sctx *c, ast_decl *d) {
  for (int i = c->nlocals - 1; i >= 0 && c->locals[i].decl; i--) {
    if (!strcmp(c->locals[i].name, d->name)) {
      diag_error(c->d, d->name_span, "'%s' is already declared in this scope", d->name);
      diag_note(c->d, c->locals[i].decl->name_span, "the earlier declaration");
      return;
    }
  }
  if (c->nlocals == c->caplocals) {
    int cap = c->caplocals ? c->caplocals * 2 : 64;
    scope_entry *n = arena_grow(&c->m->arena, c->locals, (size_t)c->nlocals, (size_t)cap, sizeof *n);
    if (!n) return;
    c->locals = n;
    c->caplocals = cap;
  }
  c->locals[c->nlocals].name = d->name;
  c->locals[c->nlocals].decl = d;
  c->nlocals++;
}

/* A scope boundary: a NULL decl entry that push_local's duplicate check
 * stops at. */
static int open_scope(sctx *c) {
  int mark = c->nlocals;
  if (c->nlocals == c->caplocals) {
    int cap = c->caplocals ? c->caplocals * 2 : 64;
    scope_entry *n = arena_grow(&c->m->arena, c->locals, (size_t)c->nlocals, (size_t)cap, sizeof *n);
    if (!n) return mark;
    c->locals = n;
    c->caplocals = cap;
  }
  c->locals[c->nlocals].name = "";
  c->locals[c->nlocals].decl = NULL;
  c->nlocals++;
  return mark;
}

static void close_scope(sctx *c, int mark) { c->nlocals = mark; }

/* -------------------------------------------------------------- attributes */

static ast_attr *find_attr(ast_attr *a, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(a[i].name, name)) return &a[i];
  return NULL;
}

/* A const-expression attribute argument that must be a non-negative
 * integer; returns -1 after reporting an error. */
static int64_t attr_int(sctx *c, ast_attr *a, int i, const char *what) {
  if (a->nargs <= i) {
    diag_error(c->d, a->span, "@%s needs an argument", a->name);
    return -1;
  }
  ast_expr *e = a->args[i];
  const type *t = sema_value(c, e);
  if (!t) return -1;
  if (!type_is_integer_scalar(t) || !e->cval) {
    diag_error(c->d, e->span, "%s must be a constant integer", what);
    return -1;
  }
  if (e->cval->i < 0) {
    diag_error(c->d, e->span, "%s must not be negative, found %lld", what, (long long)e->cval->i);
    return -1;
  }
  return e->cval->i;
}

static const char *const known_attrs[] = {
    "align", "binding", "builtin", "compute", "const", "diagnostic", "fragment", "group", "id",
    "interpolate", "invariant", "location", "blend_src", "must_use", "size", "vertex",
    "workgroup_size", NULL};

static void check_attr_names(sctx *c, ast_attr *a, int n) {
  for (int i = 0; i < n; i++) {
    int ok = 0;
    for (int k = 0; known_attrs[k]; k++)
      if (!strcmp(known_attrs[k], a[i].name)) ok = 1;
    if (!ok) diag_error(c->d, a[i].span, "unknown attribute '@%s'", a[i].name);
  }
}

/* --------------------------------------------------------- declarations */

static int parse_space_name(const char *n) {
  static const char *const names[] = {"", "function", "private", "workgroup", "uniform", "storage"};
  for (int i = 1; i < 6; i++)
    if (!strcmp(names[i], n)) return i;
  return -1;
}

static void resolve_struct(sctx *c, ast_decl *d) {
  type_field *f = arena_alloc(&c->m->arena, sizeof *f * (size_t)(d->nmembers ? d->nmembers : 1));
  if (!f) return;
  char b[128];
  if (d->nmembers == 0) {
    diag_error(c->d, d->name_span, "struct '%s' has no members", d->name);
    return;
  }
  for (int i = 0; i < d->nmembers; i++) {
    ast_member *mb = &d->members[i];
    for (int k = 0; k < i; k++)
      if (!strcmp(d->members[k].name, mb->name))
        diag_error(c->d, mb->span, "struct member '%s' is declared twice", mb->name);
    const type *t = sema_type(c, mb->type);
    if (!t) return;
    if (t->kind == TY_VOID || t->kind == TY_PTR || t->kind == TY_REF) {
      diag_error(c->d, mb->type->span, "%s cannot be a struct member", TN(t, b));
      return;
    }
    if (type_has_runtime_array(t) && i != d->nmembers - 1) {
      diag_error(c->d, mb->span, "a runtime-sized array must be the last member of a struct");
      return;
    }
    if (type_has_override_array(t)) {
      diag_error(c->d, mb->span, "an override-sized array cannot be a struct member");
      return;
    }
    check_attr_names(c, mb->attrs, mb->nattrs);
    f[i].name = mb->name;
    f[i].type = t;
    f[i].span = mb->span;
    ast_attr *al = find_attr(mb->attrs, mb->nattrs, "align");
    ast_attr *sz = find_attr(mb->attrs, mb->nattrs, "size");
    if (al) {
      int64_t v = attr_int(c, al, 0, "@align");
      if (v > 0 && (v & (v - 1)) == 0 && v >= t->align) f[i].attr_align = (uint32_t)v;
      else if (v >= 0)
        diag_error(c->d, al->span, "@align must be a power of two no smaller than %u", t->align);
    }
    if (sz) {
      int64_t v = attr_int(c, sz, 0, "@size");
      if (v >= t->size && v <= (1 << 28)) f[i].attr_size = (uint32_t)v;
      else if (v >= 0) diag_error(c->d, sz->span, "@size must be at least the member's size (%u)", t->size);
    }
  }
  d->rtype = types_struct(c->T, d->name, f, d->nmembers);
}

static void resolve_const_like(sctx *c, ast_decl *d) {
  char b1[128], b2[128];
  const type *declared = d->type ? sema_type(c, d->type) : NULL;
  if (d->type && !declared) return;
  if (!d->init) {
    if (d->kind == DECL_CONST) {
      diag_error(c->d, d->name_span, "const '%s' needs an initializer", d->name);
      return;
    }
    if (!declared) {
      diag_error(c->d, d->name_span, "override '%s' needs a type or an initializer", d->name);
      return;
    }
    d->rtype = declared;
    return;
  }
  const type *it = sema_value(c, d->init);
  if (!it) return;
  if (d->kind == DECL_CONST && !d->init->cval) {
    diag_error(c->d, d->init->span, "the initializer of const '%s' must be a const-expression", d->name);
    return;
  }
  if (d->kind == DECL_OVERRIDE && !d->init->cval && !d->init->is_override_expr) {
    diag_error(c->d, d->init->span,
               "the initializer of override '%s' must be a const- or override-expression", d->name);
    return;
  }
  const type *t = declared ? declared : it;
  if (d->kind == DECL_OVERRIDE) t = types_concretize(c->T, t);
  if (!sema_convert_expr(c, d->init, t)) {
    diag_error(c->d, d->init->span, "cannot initialize '%s' of type %s with %s", d->name, TN(t, b1),
               TN(it, b2));
    return;
  }
  d->rtype = t;
  d->cval = d->init->cval;
}

static void resolve_override(sctx *c, ast_decl *d) {
  resolve_const_like(c, d);
  char b[128];
  if (d->rtype && !(d->rtype->kind == TY_BOOL || d->rtype->kind == TY_I32 ||
                    d->rtype->kind == TY_U32 || d->rtype->kind == TY_F32 || d->rtype->kind == TY_F16)) {
    diag_error(c->d, d->name_span, "override '%s' must be a scalar (bool, i32, u32, f32, f16), found %s",
               d->name, TN(d->rtype, b));
    d->rtype = NULL;
  }
  d->override_id = -1;
  ast_attr *id = find_attr(d->attrs, d->nattrs, "id");
  if (id) {
    int64_t v = attr_int(c, id, 0, "@id");
    if (v > 65535) diag_error(c->d, id->span, "@id must be below 65536");
    else if (v >= 0) {
      d->override_id = (int)v;
      ast_module *am = c->m->ast;
      for (int i = 0; i < am->ndecls; i++) {
        ast_decl *o = am->decls[i];
        if (o != d && o->kind == DECL_OVERRIDE && o->override_id == (int)v && c->state[i] == 2)
          diag_error(c->d, id->span, "@id(%d) is already used by override '%s'", (int)v, o->name);
      }
    }
  }
}

/* var t: texture_2d<f32>; var s: sampler; — handle address space. */
static void resolve_handle_var(sctx *c, ast_decl *d, const type *t) {
  d->space = AS_HANDLE;
  d->access = ACC_READ;
  ast_attr *g = find_attr(d->attrs, d->nattrs, "group");
  ast_attr *bn = find_attr(d->attrs, d->nattrs, "binding");
  if (!g || !bn) {
    diag_error(c->d, d->name_span, "'%s' (a texture or sampler) needs @group and @binding", d->name);
    return;
  }
  d->group = (int)attr_int(c, g, 0, "@group");
  d->binding = (int)attr_int(c, bn, 0, "@binding");
  if (d->init) {
    diag_error(c->d, d->init->span, "textures and samplers cannot have an initializer");
    return;
  }
  d->rtype = t;
}

static void resolve_global_var(sctx *c, ast_decl *d) {
  char b[128];
  d->group = d->binding = -1;
  int space = AS_NONE;
  if (d->space_name) {
    space = parse_space_name(d->space_name);
    if (space < 0) {
      diag_error(c->d, d->space_span, "unknown address space '%s'", d->space_name);
      return;
    }
  }
  if (space == AS_NONE && d->type) {
    /* textures and samplers live in the handle address space */
    const type *ht = sema_type(c, d->type);
    if (!ht) return;
    if (ht->kind == TY_TEXTURE || ht->kind == TY_SAMPLER) {
      resolve_handle_var(c, d, ht);
      return;
    }
  }
  if (space == AS_NONE || space == AS_FUNCTION) {
    diag_error(c->d, d->name_span,
               space == AS_NONE ? "module-scope 'var %s' needs an address space (private, workgroup, uniform or storage)"
                                : "'var<function> %s' is only allowed inside a function",
               d->name);
    return;
  }
  int access = space == AS_STORAGE ? ACC_READ : space == AS_UNIFORM ? ACC_READ : ACC_READ_WRITE;
  if (d->access_name) {
    if (space != AS_STORAGE) {
      diag_error(c->d, d->space_span, "only storage variables take an access mode");
      return;
    }
    if (!strcmp(d->access_name, "read")) access = ACC_READ;
    else if (!strcmp(d->access_name, "read_write")) access = ACC_READ_WRITE;
    else if (!strcmp(d->access_name, "write")) {
      diag_error(c->d, d->space_span, "storage variables are 'read' or 'read_write'");
      return;
    } else {
      diag_error(c->d, d->space_span, "unknown access mode '%s'", d->access_name);
      return;
    }
  }
  d->space = space;
  d->access = access;
  if (!d->type && !(space == AS_PRIVATE && d->init)) {
    diag_error(c->d, d->name_span, "'%s' needs a type", d->name);
    return;
  }
  const type *t = NULL;
  if (d->type) {
    t = sema_type(c, d->type);
  } else {
    const type *it = sema_value(c, d->init);
    if (it) t = types_concretize(c->T, it);
  }
  if (!t) return;
  if (t->kind == TY_TEXTURE || t->kind == TY_SAMPLER) {
    diag_error(c->d, d->space_span, "textures and samplers are declared without an address space");
    return;
  }
  ast_attr *g = find_attr(d->attrs, d->nattrs, "group");
  ast_attr *bn = find_attr(d->attrs, d->nattrs, "binding");
  int resource = space == AS_UNIFORM || space == AS_STORAGE;
  if (resource) {
    if (!g || !bn) {
      diag_error(c->d, d->name_span, "'%s' in the %s address space needs @group and @binding", d->name,
                 addr_space_name((addr_space)space));
      return;
    }
    d->group = (int)attr_int(c, g, 0, "@group");
    d->binding = (int)attr_int(c, bn, 0, "@binding");
    if (!type_is_host_shareable(t)) {
      diag_error(c->d, d->type->span, "%s is not host-shareable and cannot be in %s memory", TN(t, b),
                 addr_space_name((addr_space)space));
      return;
    }
    if (space == AS_UNIFORM && (type_has_runtime_array(t) || type_has_atomic(t))) {
      diag_error(c->d, d->type->span, "uniform variables cannot hold runtime-sized arrays or atomics");
      return;
    }
    if (type_has_atomic(t) && access != ACC_READ_WRITE) {
      diag_error(c->d, d->type->span, "atomics in storage memory need access mode read_write");
      return;
    }
  } else {
    if (g || bn) {
      diag_error(c->d, (g ? g : bn)->span, "only uniform and storage variables take @group/@binding");
      return;
    }
    if (type_has_runtime_array(t)) {
      diag_error(c->d, d->type->span, "runtime-sized arrays are only allowed in storage memory");
      return;
    }
    if (space == AS_PRIVATE && type_has_atomic(t)) {
      diag_error(c->d, d->type->span, "atomics are not allowed in private memory");
      return;
    }
  }
  if (type_has_override_array(t) && space != AS_WORKGROUP) {
    diag_error(c->d, d->type->span, "override-sized arrays are only allowed in workgroup memory");
    return;
  }
  if (d->init) {
    if (space != AS_PRIVATE) {
      diag_error(c->d, d->init->span, "%s variables cannot have an initializer",
                 addr_space_name((addr_space)space));
      return;
    }
    if (!sema_expect(c, d->init, t, "initializer")) return;
    if (!d->init->cval && !d->init->is_override_expr) {
      diag_error(c->d, d->init->span, "a module-scope initializer must be a const- or override-expression");
      return;
    }
  }
  d->rtype = t;
}

static void resolve_fn_signature(sctx *c, ast_decl *d) {
  char b[128];
  check_attr_names(c, d->attrs, d->nattrs);
  if (find_attr(d->attrs, d->nattrs, "compute")) d->stage = 1;
  else if (find_attr(d->attrs, d->nattrs, "vertex")) d->stage = 2;
  else if (find_attr(d->attrs, d->nattrs, "fragment")) d->stage = 3;
  for (int i = 0; i < d->nparams; i++) {
    ast_decl *p = d->params[i];
    p->builtin_value = -1;
    for (int k = 0; k < i; k++)
      if (!strcmp(d->params[k]->name, p->name))
        diag_error(c->d, p->name_span, "parameter '%s' is declared twice", p->name);
    p->rtype = sema_type(c, p->type);
    if (!p->rtype) continue;
    check_attr_names(c, p->attrs, p->nattrs);
    ast_attr *bi = find_attr(p->attrs, p->nattrs, "builtin");
    if (bi) {
      const char *n = bi->nargs == 1 && bi->args[0]->kind == EX_IDENT ? bi->args[0]->u.ident.name : "";
      int found = -1;
      for (int k = 0; k < BV_COUNT; k++)
        if (!strcmp(n, builtin_value_names[k])) found = k;
      if (found < 0) {
        int other = 0;
        for (int k = 0; other_builtin_values[k]; k++)
          if (!strcmp(n, other_builtin_values[k])) other = 1;
        /* valid built-in values of other stages and extensions are
         * accepted here; pipeline creation refuses running them */
        int compute_ok = !strcmp(n, "subgroup_invocation_id") || !strcmp(n, "subgroup_size") ||
                         !strcmp(n, "subgroup_id") || !strcmp(n, "num_subgroups");
        if (!other) diag_error(c->d, bi->span, "unknown built-in value '%s'", n);
        else if (d->stage == 1 && !compute_ok)
          diag_error(c->d, bi->span, "built-in value '%s' is not supported in a compute shader", n);
        continue;
      }
      const type *want = found == BV_LOCAL_INVOCATION_INDEX ? c->T->t_u32
                                                             : types_vec(c->T, c->T->t_u32, 3);
      if (p->rtype != want) {
        char b2[64];
        diag_error(c->d, p->type->span, "@builtin(%s) must have type %s, found %s", n,
                   TN(want, b2), TN(p->rtype, b));
        continue;
      }
      if (d->stage != 1) {
        diag_error(c->d, bi->span, "@builtin(%s) is a compute shader input", n);
        continue;
      }
      for (int k = 0; k < i; k++)
        if (d->params[k]->builtin_value == found) {
          diag_error(c->d, bi->span, "@builtin(%s) appears on two parameters", n);
          diag_note(c->d, d->params[k]->name_span, "the other parameter");
          found = -1;
          break;
        }
      p->builtin_value = found;
    } else if (d->stage) {
      /* struct parameters carry their @builtin/@location on members;
       * @location inputs are vertex/fragment only */
      if (p->rtype->kind != TY_STRUCT && !find_attr(p->attrs, p->nattrs, "location"))
        diag_error(c->d, p->name_span, "entry point parameter '%s' needs @builtin(...) or @location(...)", p->name);
      else if (d->stage == 1 && p->rtype->kind != TY_STRUCT)
        diag_error(c->d, p->name_span, "compute entry point parameters take @builtin(...), not @location");
    } else if (p->rtype->kind == TY_PTR) {
      if (p->rtype->space != AS_FUNCTION && p->rtype->space != AS_PRIVATE &&
          p->rtype->space != AS_WORKGROUP && p->rtype->space != AS_STORAGE &&
          p->rtype->space != AS_UNIFORM)
        diag_error(c->d, p->type->span, "invalid pointer parameter");
    } else if (!type_is_constructible(p->rtype)) {
      diag_error(c->d, p->type->span, "%s cannot be a parameter type", TN(p->rtype, b));
    }
  }
  if (d->ret_type) {
    d->rtype = sema_type(c, d->ret_type);
    if (d->rtype && !type_is_constructible(d->rtype))
      diag_error(c->d, d->ret_type->span, "%s cannot be returned", TN(d->rtype, b));
    if (d->stage == 1)
      diag_error(c->d, d->ret_type->span, "a compute entry point cannot return a value");
  }
  if (d->stage == 1) {
    ast_attr *ws = find_attr(d->attrs, d->nattrs, "workgroup_size");
    if (!ws) {
      diag_error(c->d, d->name_span, "compute entry point '%s' needs @workgroup_size", d->name);
      return;
    }
    if (ws->nargs < 1 || ws->nargs > 3) {
      diag_error(c->d, ws->span, "@workgroup_size takes 1 to 3 arguments");
      return;
    }
    const type *common = NULL;
    for (int i = 0; i < ws->nargs; i++) {
      ast_expr *e = ws->args[i];
      const type *t = sema_value(c, e);
      if (!t) return;
      if (!type_is_integer_scalar(t)) {
        diag_error(c->d, e->span, "@workgroup_size arguments must be i32 or u32, found %s", TN(t, b));
        return;
      }
      if (!e->cval && !e->is_override_expr) {
        diag_error(c->d, e->span, "@workgroup_size arguments must be const- or override-expressions");
        return;
      }
      if (t->kind != TY_AINT) {
        if (common && common != t) {
          diag_error(c->d, e->span, "@workgroup_size arguments must all be i32 or all be u32");
          return;
        }
        common = t;
      }
    }
    if (!common) common = c->T->t_i32;
    for (int i = 0; i < ws->nargs; i++) {
      ast_expr *e = ws->args[i];
      sema_convert_expr(c, e, common);
      if (e->cval && e->cval->i <= 0) {
        static const char xyz[] = "xyz";
        diag_error(c->d, e->span, "workgroup size %c must be greater than 0, found %lld", xyz[i],
                   (long long)e->cval->i);
        return;
      }
      d->wg_size[i] = e;
    }
  }
}

void sema_resolve_global(sctx *c, ast_decl *d) {
  if (d->index < 0 || d->index >= c->m->ast->ndecls || c->m->ast->decls[d->index] != d) return;
  if (c->state[d->index] == 2) return;
  if (c->state[d->index] == 1) {
    if (d->kind != DECL_FN)
      diag_error(c->d, d->name_span, "'%s' is defined in terms of itself", d->name ? d->name : "");
    return;
  }
  c->state[d->index] = 1;
  /* module-scope declarations see no locals */
  scope_entry *saved = c->locals;
  int saved_n = c->nlocals, saved_cap = c->caplocals;
  c->locals = NULL;
  c->nlocals = c->caplocals = 0;
  if (d->kind != DECL_FN) check_attr_names(c, d->attrs, d->nattrs);
  switch (d->kind) {
  case DECL_STRUCT: resolve_struct(c, d); break;
  case DECL_ALIAS: d->rtype = sema_type(c, d->type); break;
  case DECL_CONST: resolve_const_like(c, d); break;
  case DECL_OVERRIDE: resolve_override(c, d); break;
  case DECL_VAR: resolve_global_var(c, d); break;
  case DECL_FN: resolve_fn_signature(c, d); break;
  case DECL_CONST_ASSERT: {
    if (sema_expect(c, d->init, c->T->t_bool, "const_assert")) {
      if (!d->init->cval) diag_error(c->d, d->init->span, "const_assert needs a const-expression");
      else if (!d->init->cval->b) diag_error(c->d, d->init->span, "const_assert failed");
    }
    break;
  }
  default: break;
  }
  c->locals = saved;
  c->nlocals = saved_n;
  c->caplocals = saved_cap;
  c->state[d->index] = 2;
}

/* -------------------------------------------------------------- statements */

static void stmt(sctx *c, ast_stmt *s);

static void block(sctx *c, ast_stmt *s) {
  if (!s) return;
  int mark = open_scope(c);
  for (int i = 0; i < s->u.block.n; i++) stmt(c, s->u.block.stmts[i]);
  close_scope(c, mark);
}

static void local_decl(sctx *c, ast_decl *d) {
  char b1[128], b2[128];
  switch (d->kind) {
  case DECL_CONST:
    resolve_const_like(c, d);
    break;
  case DECL_LET: {
    const type *declared = d->type ? sema_type(c, d->type) : NULL;
    if (d->type && !declared) break;
    const type *it = sema_value(c, d->init);
    if (!it) break;
    const type *t = declared ? declared : types_concretize(c->T, it);
    if (!sema_convert_expr(c, d->init, t)) {
      diag_error(c->d, d->init->span, "cannot initialize '%s' of type %s with %s", d->name, TN(t, b1), TN(it, b2));
      break;
    }
    if (t->kind == TY_VOID) {
      diag_error(c->d, d->init->span, "'let %s' needs a value", d->name);
      break;
    }
    /* a let holds a constructible value, a pointer, or (language extension
     * texture_and_sampler_let) a texture or sampler: not a runtime-sized
     * array or an atomic, which can only be used in memory */
    if (t->kind != TY_PTR && t->kind != TY_TEXTURE && t->kind != TY_SAMPLER &&
        !type_is_constructible(t)) {
      diag_error(c->d, d->init->span, "'let %s' cannot hold a value of type %s", d->name, TN(t, b1));
      break;
    }
    d->rtype = t;
    break;
  }
  case DECL_VAR: {
    d->space = AS_FUNCTION;
    d->access = ACC_READ_WRITE;
    d->group = d->binding = -1;
    if (d->space_name && strcmp(d->space_name, "function")) {
      diag_error(c->d, d->space_span, "variables inside a function are in the function address space");
      break;
    }
    const type *declared = d->type ? sema_type(c, d->type) : NULL;
    if (d->type && !declared) break;
    const type *t = declared;
    if (d->init) {
      const type *it = sema_value(c, d->init);
      if (!it) break;
      if (!t) t = types_concretize(c->T, it);
      if (!sema_convert_expr(c, d->init, t)) {
        diag_error(c->d, d->init->span, "cannot initialize '%s' of type %s with %s", d->name, TN(t, b1), TN(it, b2));
        break;
      }
    }
    if (!t) {
      diag_error(c->d, d->name_span, "'var %s' needs a type or an initializer", d->name);
      break;
    }
    if (!type_is_constructible(t)) {
      diag_error(c->d, d->name_span, "%s cannot be stored in a function variable", TN(t, b1));
      break;
    }
    d->rtype = t;
    break;
  }
  case DECL_CONST_ASSERT:
    if (sema_expect(c, d->init, c->T->t_bool, "const_assert")) {
      if (!d->init->cval) diag_error(c->d, d->init->span, "const_assert needs a const-expression");
      else if (!d->init->cval->b) diag_error(c->d, d->init->span, "const_assert failed");
    }
    return;
  default:
    diag_error(c->d, d->span, "this declaration is not allowed inside a function");
    return;
  }
  if (d->name) push_local(c, d);
}

static int is_writable_ref(sctx *c, ast_expr *e, const char *what) {
  const type *t = sema_expr(c, e);
  if (!t) return 0;
  if (t->kind != TY_REF) {
    diag_error(c->d, e->span, "cannot %s: not a memory reference (only 'var's and what they hold can be assigned)", what);
    return 0;
  }
  if (t->access == ACC_READ) {
    diag_error(c->d, e->span, "cannot %s: %s memory is read-only here", what, addr_space_name(t->space));
    return 0;
  }
  if (t->elem->kind == TY_ATOMIC) {
    diag_error(c->d, e->span, "cannot %s an atomic directly; use atomicStore", what);
    return 0;
  }
  return 1;
}

static void cond_expr(sctx *c, ast_expr *e, const char *what) {
  sema_expect(c, e, c->T->t_bool, what);
}

static void stmt(sctx *c, ast_stmt *s) {
  if (!s) return;
  char b[128];
  switch (s->kind) {
  case ST_BLOCK: block(c, s); break;
  case ST_DECL: local_decl(c, s->u.decl); break;
  case ST_ASSIGN: {
    ast_expr *l = s->u.assign.lhs, *r = s->u.assign.rhs;
    if (!l) { /* _ = e */
      const type *t = sema_expr(c, r);
      if (t && t->kind == TY_REF) sema_value(c, r);
      if (t && t->kind == TY_VOID)
        diag_error(c->d, r->span, "a phony assignment needs a value; this call returns none");
      break;
    }
    if (!is_writable_ref(c, l, "assign to this")) {
      sema_value(c, r);
      break;
    }
    const type *st = l->type->elem;
    if (s->u.assign.op == BIN_COUNT_) {
      if (!type_is_constructible(st)) {
        diag_error(c->d, l->span, "values of type %s cannot be assigned", TN(st, b));
        break;
      }
      sema_expect(c, r, st, "assignment");
    } else {
      /* x op= y has the type rules of x op y, and the result must fit x */
      const type *rt = sema_value(c, r);
      if (!rt) break;
      ast_expr tmp = {.kind = EX_BINARY, .span = s->span};
      ast_expr lv = *l;
      lv.type = st;
      lv.cval = NULL;
      lv.is_override_expr = 0;
      tmp.u.binary.op = s->u.assign.op;
      tmp.u.binary.lhs = &lv;
      tmp.u.binary.rhs = r;
      const type *res = sema_expr(c, &tmp);
      if (res && res != st)
        diag_error(c->d, s->span, "the result of this compound assignment (%s) does not fit the variable", TN(res, b));
    }
    break;
  }
  case ST_INCDEC:
    if (is_writable_ref(c, s->u.incdec.lhs, s->u.incdec.inc ? "increment this" : "decrement this")) {
      const type *t = s->u.incdec.lhs->type->elem;
      if (t->kind != TY_I32 && t->kind != TY_U32)
        diag_error(c->d, s->span, "'%s' needs an i32 or u32 variable, found %s", s->u.incdec.inc ? "++" : "--", TN(t, b));
    }
    break;
  case ST_CALL: {
    const type *t = sema_expr(c, s->u.call);
    if (t && s->u.call->ref == REF_CONSTRUCT)
      diag_error(c->d, s->span, "a value constructor cannot be a statement");
    if (s->u.call->ref == REF_BUILTIN_FN && t && t->kind != TY_VOID &&
        s->u.call->builtin != BF_ARRAY_LENGTH && builtin_fn_kind((builtin_fn)s->u.call->builtin) != BK_ATOM &&
        builtin_fn_kind((builtin_fn)s->u.call->builtin) != BK_CMPX &&
        builtin_fn_kind((builtin_fn)s->u.call->builtin) != BK_WUL)
      diag_error(c->d, s->span, "the result of '%s' must be used", builtin_fn_name((builtin_fn)s->u.call->builtin));
    break;
  }
  case ST_IF:
    cond_expr(c, s->u.if_.cond, "if condition");
    block(c, s->u.if_.then);
    if (s->u.if_.else_) stmt(c, s->u.if_.else_);
    break;
  case ST_SWITCH: {
    const type *t = sema_value(c, s->u.switch_.selector);
    if (t && !type_is_integer_scalar(t)) {
      diag_error(c->d, s->u.switch_.selector->span, "a switch selector must be i32 or u32, found %s", TN(t, b));
      t = NULL;
    }
    if (t && t->kind == TY_AINT) {
      sema_convert_expr(c, s->u.switch_.selector, c->T->t_i32);
      t = c->T->t_i32;
    }
    int defaults = 0;
    c->switch_depth++;
    for (int i = 0; i < s->u.switch_.ncases; i++) {
      ast_case *k = &s->u.switch_.cases[i];
      int is_default = k->has_default;
      for (int j = 0; j < k->nselectors; j++) {
        ast_expr *e = k->selectors[j];
        if (!e) {
          is_default = 1;
          continue;
        }
        const type *et = sema_value(c, e);
        if (!et) continue;
        if (!e->cval) diag_error(c->d, e->span, "case selectors must be const-expressions");
        else if (t && !sema_convert_expr(c, e, t))
          diag_error(c->d, e->span, "case selector type %s does not match the selector", TN(et, b));
        for (int p = 0; p <= i && e->cval; p++) {
          ast_case *pk = &s->u.switch_.cases[p];
          for (int q = 0; q < (p == i ? j : pk->nselectors); q++)
            if (pk->selectors[q] && pk->selectors[q]->cval && pk->selectors[q]->cval->i == e->cval->i)
              diag_error(c->d, e->span, "duplicate case value %lld", (long long)e->cval->i);
        }
      }
      defaults += is_default;
      block(c, k->body);
    }
    c->switch_depth--;
    if (defaults != 1)
      diag_error(c->d, s->span, defaults ? "a switch must have exactly one default clause"
                                         : "a switch must have a default clause");
    break;
  }
  case ST_LOOP: {
    c->loop_depth++;
    int mark = open_scope(c);
    ast_stmt *body = s->u.loop.body;
    int sa = c->body_active, sm = c->body_mark, ss = c->body_seen;
    src_span sspan = c->body_continue;
    c->body_active = 1;
    c->body_mark = c->nlocals;
    c->body_seen = -1;
    for (int i = 0; body && i < body->u.block.n; i++) stmt(c, body->u.block.stmts[i]);
    int seen = c->body_seen;
    src_span cont = c->body_continue;
    c->body_active = sa;
    c->body_mark = sm;
    c->body_seen = ss;
    c->body_continue = sspan;
    if (s->u.loop.continuing) {
      /* continuing sees the loop body's declarations */
      int ka = c->skip_active, kf = c->skip_from, kt = c->skip_to;
      src_span kspan = c->skip_continue;
      c->skip_active = seen >= 0;
      c->skip_from = mark + 1 + (seen < 0 ? 0 : seen);
      c->skip_to = c->nlocals;
      c->skip_continue = cont;
      c->in_continuing++;
      ast_stmt *cb = s->u.loop.continuing;
      int m2 = open_scope(c);
      for (int i = 0; i < cb->u.block.n; i++) {
        ast_stmt *x = cb->u.block.stmts[i];
        if (x->kind == ST_BREAK_IF && i != cb->u.block.n - 1)
          diag_error(c->d, x->span, "'break if' must be the last statement of a continuing block");
        stmt(c, x);
      }
      close_scope(c, m2);
      c->in_continuing--;
      c->skip_active = ka;
      c->skip_from = kf;
      c->skip_to = kt;
      c->skip_continue = kspan;
    }
    close_scope(c, mark);
    c->loop_depth--;
    break;
  }
  case ST_FOR: {
    int mark = open_scope(c);
    if (s->u.loop.init) stmt(c, s->u.loop.init);
    if (s->u.loop.cond) cond_expr(c, s->u.loop.cond, "for condition");
    c->loop_depth++;
    {
      int sa = c->body_active;
      c->body_active = 0; /* a continue here targets the for loop */
      block(c, s->u.loop.body);
      c->body_active = sa;
    }
    c->in_continuing++;
    if (s->u.loop.update) stmt(c, s->u.loop.update);
    c->in_continuing--;
    c->loop_depth--;
    close_scope(c, mark);
    break;
  }
  case ST_WHILE:
    cond_expr(c, s->u.loop.cond, "while condition");
    c->loop_depth++;
    {
      int sa = c->body_active;
      c->body_active = 0; /* a continue here targets the while loop */
      block(c, s->u.loop.body);
      c->body_active = sa;
    }
    c->loop_depth--;
    break;
  case ST_BREAK:
    if (!c->loop_depth && !c->switch_depth) diag_error(c->d, s->span, "'break' outside a loop or switch");
    else if (c->in_continuing) diag_error(c->d, s->span, "use 'break if' to leave a loop from its continuing block");
    break;
  case ST_BREAK_IF:
    if (!c->in_continuing) diag_error(c->d, s->span, "'break if' is only allowed at the end of a continuing block");
    cond_expr(c, s->u.expr, "break if condition");
    break;
  case ST_CONTINUE:
    if (!c->loop_depth) diag_error(c->d, s->span, "'continue' outside a loop");
    else if (c->in_continuing) diag_error(c->d, s->span, "'continue' is not allowed in a continuing block");
    else if (c->body_active) {
      /* the loop body's declarations made so far: those before the first
       * nested scope's marker */
      int k = c->body_mark;
      while (k < c->nlocals && c->locals[k].decl) k++;
      if (c->body_seen < 0 || k - c->body_mark < c->body_seen) {
        c->body_seen = k - c->body_mark;
        c->body_continue = s->span;
      }
    }
    break;
  case ST_RETURN: {
    const type *rt = c->fn->rtype;
    if (c->in_continuing) diag_error(c->d, s->span, "'return' is not allowed in a continuing block");
    if (s->u.expr) {
      if (!rt) diag_error(c->d, s->u.expr->span, "'%s' has no return type", c->fn->name);
      else sema_expect(c, s->u.expr, rt, "return value");
    } else if (rt) {
      diag_error(c->d, s->span, "'%s' must return a value of type %s", c->fn->name, TN(rt, b));
    }
    break;
  }
  case ST_DISCARD:
    diag_error(c->d, s->span, "'discard' is only allowed in fragment shaders");
    break;
  case ST_EMPTY: break;
  }
}

/* Does every path through s end in a return? (For functions with a return
 * type: the spec requires it.) */
static int always_returns(ast_stmt *s) {
  if (!s) return 0;
  switch (s->kind) {
  case ST_RETURN: return 1;
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.n; i++)
      if (always_returns(s->u.block.stmts[i])) return 1;
    return 0;
  case ST_IF: return always_returns(s->u.if_.then) && always_returns(s->u.if_.else_);
  case ST_SWITCH:
    for (int i = 0; i < s->u.switch_.ncases; i++)
      if (!always_returns(s->u.switch_.cases[i].body)) return 0;
    return 1;
  case ST_LOOP: return 1; /* a loop without break never falls through */
  default: return 0;
  }
}

void sema_resolve_fn_body(sctx *c, ast_decl *fn) {
  if (c->body_state[fn->index]) return;
  sema_resolve_global(c, fn);
  c->body_state[fn->index] = 1;
  ast_decl *saved_fn = c->fn;
  scope_entry *saved = c->locals;
  int sn = c->nlocals, scap = c->caplocals;
  int sl = c->loop_depth, ss = c->switch_depth, sc = c->in_continuing;
  c->locals = NULL;
  c->nlocals = c->caplocals = 0;
  c->loop_depth = c->switch_depth = c->in_continuing = 0;
  int sba = c->body_active, ska = c->skip_active;
  c->body_active = c->skip_active = 0;
  c->fn = fn;
  int mark = open_scope(c);
  for (int i = 0; i < fn->nparams; i++)
    if (fn->params[i]->rtype) push_local(c, fn->params[i]);
  /* the body's own declarations share the parameters' scope (both end with
   * the body), so `let a` cannot redeclare a parameter `a` there */
  if (fn->body && fn->body->kind == ST_BLOCK)
    for (int i = 0; i < fn->body->u.block.n; i++) stmt(c, fn->body->u.block.stmts[i]);
  else
    block(c, fn->body);
  close_scope(c, mark);
  if (fn->rtype && !always_returns(fn->body))
    diag_error(c->d, fn->name_span, "'%s' must return a value on every path", fn->name);
  c->fn = saved_fn;
  c->locals = saved;
  c->nlocals = sn;
  c->caplocals = scap;
  c->loop_depth = sl;
  c->switch_depth = ss;
  c->in_continuing = sc;
  c->body_active = sba;
  c->skip_active = ska;
  c->body_state[fn->index] = 2;
}

/* -------------------------------------------------------------- directives */

static void directives(sctx *c) {
  ast_module *am = c->m->ast;
  for (int i = 0; i < am->ndirectives; i++) {
    ast_directive *dv = &am->directives[i];
    for (int k = 0; k < dv->nnames; k++) {
      const char *n = dv->names[k];
      if (dv->kind == DIR_ENABLE) {
        if (!strcmp(n, "f16")) {
          c->f16_enabled = 1;
        } else if (!strcmp(n, "subgroups")) {
          c->subgroups_enabled = 1;
        } else if (!strcmp(n, "clip_distances") || !strcmp(n, "dual_source_blending") ||
                   !strcmp(n, "primitive_index") || !strcmp(n, "subgroup_size_control") ||
                   !strcmp(n, "chromium_experimental_pixel_local") ||
                   !strcmp(n, "chromium_experimental_framebuffer_fetch") ||
                   !strcmp(n, "chromium_internal_input_attachments") ||
                   !strcmp(n, "chromium_experimental_resource_table") ||
                   !strcmp(n, "chromium_experimental_subgroup_matrix") ||
                   !strcmp(n, "chromium_internal_graphite") ||
                   !strcmp(n, "chromium_experimental_immediate") ||
                   !strcmp(n, "atomic_vec2u_min_max") || !strcmp(n, "chromium_disable_uniformity_analysis") ||
                   !strcmp(n, "chromium_experimental_barycentrics") ||
                   !strcmp(n, "chromium_experimental_dynamic_binding") ||
                   !strcmp(n, "chromium_internal_relaxed_uniform_layout")) {
          /* validated where its constructs are used; running is refused */
          if (!strcmp(n, "chromium_disable_uniformity_analysis")) c->uniformity_off = 1;
        } else {
          diag_error(c->d, dv->name_spans[k], "unknown extension '%s'", n);
        }
      } else if (dv->kind == DIR_REQUIRES) {
        static const char *const known[] = {"readonly_and_readwrite_storage_textures",
                                            "packed_4x8_integer_dot_product",
                                            "unrestricted_pointer_parameters",
                                            "pointer_composite_access", "texel_buffers",
                                            "fragment_depth", "uniform_buffer_standard_layout",
                                            "subgroup_id", "linear_indexing", NULL};
        int ok = 0;
        for (int j = 0; known[j]; j++)
          if (!strcmp(known[j], n)) ok = 1;
        if (!ok) diag_error(c->d, dv->name_spans[k], "unknown language extension '%s'", n);
      }
    }
  }
}

void sema_resolve(wgsl_module *m) {
  sctx c = {0};
  c.m = m;
  c.d = &m->diags;
  c.T = &m->types;
  ast_module *am = m->ast;
  int n = am->ndecls;
  c.state = arena_alloc(&m->arena, (size_t)n + 1);
  c.body_state = arena_alloc(&m->arena, (size_t)n + 1);
  if (!c.state || !c.body_state) return;
  directives(&c);
  for (int i = 0; i < n; i++) {
    am->decls[i]->index = i;
    am->decls[i]->override_id = -1;
  }
  /* names declared twice at module scope are reported here */
  build_globals(&c);
  for (int i = 0; i < n; i++) sema_resolve_global(&c, am->decls[i]);
  for (int i = 0; i < n; i++)
    if (am->decls[i]->kind == DECL_FN) sema_resolve_fn_body(&c, am->decls[i]);
  uni_analyse(&c);
  if (!m->diags.errors) sema_alias_analyse(&c);
  /* two resources at one group/binding are only an error when one entry
   * point uses both; that is checked at pipeline creation */
}

/* ------------------------------------------------------------- front door */

static const src_span no_span = {0, 0};

wgsl_module *wgsl_module_compile(const char *src, size_t len, const char *filename) {
  wgsl_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  arena_init(&m->arena, 0);
  diag_init(&m->diags);
  m->src = malloc(len + 1);
  m->filename = strdup(filename ? filename : "<shader>");
  if (!m->src || !m->filename) {
    wgsl_module_free(m);
    return NULL;
  }
  memcpy(m->src, src, len);
  m->src[len] = 0;
  m->len = len;
  types_init(&m->types, &m->arena);
  m->ast = parse_module(m->src, len, &m->arena, &m->diags);
  if (arena_failed(&m->arena) || !m->ast) {
    if (!m->diags.errors) diag_error(&m->diags, no_span, "out of memory while compiling");
    return m;
  }
  if (!m->diags.errors) sema_resolve(m);
  if (arena_failed(&m->arena) && !m->diags.errors)
    diag_error(&m->diags, no_span, "out of memory while compiling");
  m->ok = m->diags.errors == 0;
  return m;
}

void wgsl_module_free(wgsl_module *m) {
  if (!m) return;
  arena_free(&m->arena);
  diag_free(&m->diags);
  free(m->src);
  free(m->filename);
  free(m);
}

int wgsl_module_ok(const wgsl_module *m) { return m && m->ok; }
const diag_list *wgsl_module_diags(const wgsl_module *m) { return &m->diags; }
const char *wgsl_module_source(const wgsl_module *m, size_t *len) {
  if (len) *len = m->len;
  return m->src;
}
const char *wgsl_module_filename(const wgsl_module *m) { return m->filename; }
