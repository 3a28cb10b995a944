/*
 * sema.c — the resolver for declarations and statements, and the front
 * end's entry point (wgsl_module_compile: lex -> parse -> resolve).
 *
 * Module-scope declarations may be used before they appear, so each is
 * resolved on first use (with a cycle check); function bodies are resolved
 * callee-first, which is also where recursion is caught. Expressions are
 * handled by sema_expr.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "parse.h"
#include "sema_int.h"
#include "uniformity.h"

#define TN(t, b) type_name((t), (b), sizeof(b))


/* ------------------------------------------------------------------ scopes */

static unsigned name_hash(const char *s) {
  unsigned h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

/* The slot of name in the locals index (its entry, or the empty slot where
 * it would go). */
static unsigned local_slot(sctx *c, const char *name) {
  unsigned h = name_hash(name) & (c->lcap - 1);
  for (;; h = (h + 1) & (c->lcap - 1)) {
    int v = c->ltab[h];
    if (v == 0) return h;
    if (v > 0 && !strcmp(c->locals[v - 1].name, name)) return h;
  }
}

/* Rebuilds the index (growing it) from the live entries. */
static int local_rehash(sctx *c) {
  unsigned cap = 64;
  while (cap < (unsigned)c->nlocals * 4 + 4) cap *= 2;
  int *t = calloc(cap, sizeof *t);
  if (!t) return 0;
  free(c->ltab);
  c->ltab = t;
  c->lcap = cap;
  c->lused = 0;
  for (int i = 0; i < c->nlocals; i++) {
    if (!c->locals[i].decl) continue;
    unsigned h = local_slot(c, c->locals[i].name);
    if (!c->ltab[h]) c->lused++;
    c->ltab[h] = i + 1;
  }
  return 1;
}

/* The innermost visible local called name, or -1. */
static int local_find(sctx *c, const char *name) {
  if (!c->lcap) return -1;
  int v = c->ltab[local_slot(c, name)];
  return v > 0 && v - 1 >= c->frame ? v - 1 : -1;
}

/* The module-scope declaration called name, or NULL (locals aside: a
 * global is resolved the same wherever its first use is). */
static ast_decl *global_lookup(sctx *c, const char *name) {
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

ast_decl *sema_lookup(sctx *c, const char *name) {
  int li = local_find(c, name);
  if (li >= 0) {
    if (c->skip_active && li >= c->skip_from && li < c->skip_to) {
      diag_error(c->d, c->skip_continue,
                 "this 'continue' skips the declaration of '%s', which the continuing block uses",
                 name);
      diag_note(c->d, c->locals[li].decl->name_span, "the declaration");
      c->skip_active = 0; /* one report per loop */
    }
    return c->locals[li].decl;
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
  int prev = local_find(c, d->name);
  if (prev >= 0 && prev > c->scope) {
    diag_error(c->d, d->name_span, "'%s' is already declared in this scope", d->name);
    diag_note(c->d, c->locals[prev].decl->name_span, "the earlier declaration");
    return;
  }
  if ((c->lused + 1) * 2 > c->lcap && !local_rehash(c)) return;
  if (c->nlocals == c->caplocals) {
    int cap = c->caplocals ? c->caplocals * 2 : 64;
    scope_entry *n = arena_grow(&c->m->arena, c->locals, (size_t)c->nlocals, (size_t)cap, sizeof *n);
    if (!n) return;
    c->locals = n;
    c->caplocals = cap;
  }
  unsigned h = local_slot(c, d->name);
  int top = c->ltab[h] > 0 ? c->ltab[h] - 1 : -1;
  if (!c->ltab[h]) c->lused++;
  c->locals[c->nlocals].name = d->name;
  c->locals[c->nlocals].decl = d;
  c->locals[c->nlocals].shadow = top;
  c->ltab[h] = c->nlocals + 1;
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
  c->locals[c->nlocals].shadow = c->scope;
  c->scope = c->nlocals;
  c->nlocals++;
  return mark;
}

/* Pops the entries above mark; each name goes back to the entry it hid. */
static void close_scope(sctx *c, int mark) {
  while (c->nlocals > mark) {
    scope_entry *e = &c->locals[--c->nlocals];
    if (!e->decl) {
      c->scope = e->shadow;
      continue;
    }
    unsigned h = local_slot(c, e->name);
    c->ltab[h] = e->shadow >= 0 ? e->shadow + 1 : -1;
  }
}

/* @subgroup_size(N) on compute entry point d (subgroup_size_control): a
 * const- or override-expression of type i32 or u32; a const one must be a
 * power of two here, an override one at pipeline creation. */
static void resolve_subgroup_size(sctx *c, ast_decl *d, ast_attr *sg) {
  char b[128];
  if (!c->subgroup_size_control) {
    diag_error(c->d, sg->span, "@subgroup_size needs 'enable subgroup_size_control;'");
    return;
  }
  if (d->stage != 1) {
    diag_error(c->d, sg->span, "@subgroup_size applies only to a compute entry point");
    return;
  }
  if (sg->nargs != 1) {
    diag_error(c->d, sg->span, "@subgroup_size takes 1 argument, found %d", sg->nargs);
    return;
  }
  ast_expr *e = sg->args[0];
  const type *t = sema_value(c, e);
  if (!t) return;
  if (!type_is_integer_scalar(t)) {
    diag_error(c->d, e->span, "@subgroup_size must be i32 or u32, found %s", TN(t, b));
    return;
  }
  if (!e->cval && !e->is_override_expr) {
    diag_error(c->d, e->span, "@subgroup_size must be a const- or override-expression");
    return;
  }
  if (t->kind == TY_AINT) sema_convert_expr(c, e, c->T->t_i32);
  if (e->cval && (e->cval->i <= 0 || (e->cval->i & (e->cval->i - 1)) != 0)) {
    diag_error(c->d, e->span, "@subgroup_size must be a power of two, found %lld",
               (long long)e->cval->i);
    return;
  }
  d->sg_size = e;
}

/* --------------------------------------------------------- declarations */

static int parse_space_name(sctx *c, const char *n) {
  for (int i = AS_FUNCTION; i <= AS_PIXEL_LOCAL; i++)
    if (i != AS_HANDLE && !strcmp(addr_space_name((addr_space)i), n))
      return i == AS_PIXEL_LOCAL && !c->pixel_local_enabled ? -1 : i;
  return -1;
}

/* var<immediate> (§Address Spaces): a host-shareable constructible type,
 * no arrays, no structures with array members. var<pixel_local>
 * (chromium_experimental_pixel_local): a structure of i32, u32 and f32
 * members. Returns 0 after an error. */
static int check_special_space(sctx *c, ast_decl *d, int space, const type *t) {
  char b[128];
  int ok = 1;
  if (space == AS_IMMEDIATE) {
    ok = type_is_host_shareable(t) && type_is_constructible(t) && t->kind != TY_ARRAY;
    for (int i = 0; ok && t->kind == TY_STRUCT && i < t->nfields; i++)
      if (t->fields[i].type->kind == TY_ARRAY) ok = 0;
    if (!ok)
      diag_error(c->d, d->type ? d->type->span : d->name_span,
                 "%s cannot be immediate data (host-shareable, constructible, no arrays)", TN(t, b));
  } else {
    ok = t->kind == TY_STRUCT;
    for (int i = 0; ok && i < t->nfields; i++) {
      type_kind k = t->fields[i].type->kind;
      if (k != TY_I32 && k != TY_U32 && k != TY_F32) ok = 0;
    }
    if (!ok)
      diag_error(c->d, d->type ? d->type->span : d->name_span,
                 "a pixel_local variable must be a structure of i32, u32 and f32 members, found %s", TN(t, b));
  }
  if (ok && d->init) {
    diag_error(c->d, d->init->span, "%s variables cannot have an initializer", addr_space_name((addr_space)space));
    ok = 0;
  }
  ast_attr *g = sema_find_attr(d->attrs, d->nattrs, "group");
  ast_attr *bn = sema_find_attr(d->attrs, d->nattrs, "binding");
  if (ok && (g || bn)) {
    diag_error(c->d, (g ? g : bn)->span, "only uniform and storage variables take @group/@binding");
    ok = 0;
  }
  return ok;
}

static void resolve_struct(sctx *c, ast_decl *d) {
  type_field *f = arena_alloc(&c->m->arena, sizeof *f * (size_t)(d->nmembers ? d->nmembers : 1));
  if (!f) return;
  char b[128];
  if (d->nmembers == 0) {
    diag_error(c->d, d->name_span, "struct '%s' has no members", d->name);
    return;
  }
  /* member names, hashed: a structure may have very many */
  unsigned cap = 16;
  while (cap < (unsigned)d->nmembers * 2 + 2) cap *= 2;
  ast_member **names = calloc(cap, sizeof *names);
  for (int i = 0; i < d->nmembers; i++) {
    ast_member *mb = &d->members[i];
    if (names) {
      unsigned h = name_hash(mb->name) & (cap - 1);
      while (names[h] && strcmp(names[h]->name, mb->name)) h = (h + 1) & (cap - 1);
      if (names[h]) diag_error(c->d, mb->span, "struct member '%s' is declared twice", mb->name);
      else names[h] = mb;
    }
    const type *t = sema_type(c, mb->type);
    if (!t) {
      free(names);
      return;
    }
    /* §Structure Types: members are of plain types (no pointers, textures
     * or samplers); a structure ending in a runtime-sized array is no
     * member of another */
    if (t->kind == TY_VOID || t->kind == TY_PTR || t->kind == TY_REF || t->kind == TY_TEXTURE ||
        t->kind == TY_SAMPLER || t->kind == TY_BINDING_ARRAY ||
        (t->kind == TY_STRUCT && type_has_runtime_array(t))) {
      diag_error(c->d, mb->type->span, "%s cannot be a struct member%s", TN(t, b),
                 t->kind == TY_STRUCT ? " (it ends in a runtime-sized array)" : "");
      free(names);
      return;
    }
    if (type_has_runtime_array(t) && i != d->nmembers - 1) {
      diag_error(c->d, mb->span, "a runtime-sized array must be the last member of a struct");
      free(names);
      return;
    }
    if (type_has_override_array(t)) {
      diag_error(c->d, mb->span, "an override-sized array cannot be a struct member");
      free(names);
      return;
    }
    sema_check_attr_names(c, mb->attrs, mb->nattrs, SEMA_AT_MEMBER);
    f[i].name = mb->name;
    f[i].type = t;
    f[i].span = mb->span;
    f[i].attr_align = f[i].attr_size = 0;
    f[i].decl = mb;
    ast_attr *al = sema_find_attr(mb->attrs, mb->nattrs, "align");
    ast_attr *sz = sema_find_attr(mb->attrs, mb->nattrs, "size");
    if (al) {
      int64_t v = sema_attr_int(c, al, 0, "@align");
      if (v > 0 && (v & (v - 1)) == 0 && v >= t->align) f[i].attr_align = (uint32_t)v;
      else if (v >= 0)
        diag_error(c->d, al->span, "@align must be a power of two no smaller than %u", t->align);
    }
    if (sz && type_has_runtime_array(t)) {
      /* §size: the member type must have a creation-fixed footprint */
      diag_error(c->d, sz->span, "@size needs a member with a fixed size, not %s", TN(t, b));
      sz = NULL;
    }
    if (sz) {
      int64_t v = sema_attr_int(c, sz, 0, "@size");
      if (v >= t->size && v <= UINT32_MAX) f[i].attr_size = (uint32_t)v;
      else if (v >= 0) diag_error(c->d, sz->span, "@size must be at least the member's size (%u)", t->size);
    }
  }
  free(names);
  d->rtype = types_struct(c->T, d->name, f, d->nmembers, NULL);
  if (!d->rtype && !arena_failed(&c->m->arena))
    diag_error(c->d, d->name_span,
               "struct '%s' is too large (its members add up past 4 GiB, lockstep's limit for one "
               "type)", d->name);
  sema_struct_io(c, d);
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
  if (d->kind == DECL_CONST && !d->init->cval && it->words > SEMA_MAX_FOLD_WORDS) {
    diag_error(c->d, d->init->span, "const '%s' holds %u values, more than lockstep folds (%u)", d->name,
               it->words, SEMA_MAX_FOLD_WORDS);
    return;
  }
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
  ast_attr *id = sema_find_attr(d->attrs, d->nattrs, "id");
  if (id) {
    int64_t v = sema_attr_int(c, id, 0, "@id");
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
  ast_attr *g = sema_find_attr(d->attrs, d->nattrs, "group");
  ast_attr *bn = sema_find_attr(d->attrs, d->nattrs, "binding");
  if (!g || !bn) {
    diag_error(c->d, d->name_span, "'%s' (a texture or sampler) needs @group and @binding", d->name);
    return;
  }
  d->group = (int)sema_attr_int(c, g, 0, "@group");
  d->binding = (int)sema_attr_int(c, bn, 0, "@binding");
  if (d->init) {
    diag_error(c->d, d->init->span, "textures and samplers cannot have an initializer");
    return;
  }
  /* chromium_internal_input_attachments: an input attachment names its
   * attachment index; nothing else takes one */
  ast_attr *ia = sema_find_attr(d->attrs, d->nattrs, "input_attachment_index");
  int is_ia = t->kind == TY_TEXTURE && t->tex_kind == TEX_INPUT_ATTACHMENT;
  if (is_ia && !ia) {
    diag_error(c->d, d->name_span, "input attachment '%s' needs @input_attachment_index", d->name);
    return;
  }
  if (!is_ia && ia) {
    diag_error(c->d, ia->span, "@input_attachment_index is only for input_attachment variables");
    return;
  }
  if (ia && sema_attr_int(c, ia, 0, "@input_attachment_index") < 0) return;
  d->rtype = t;
}

static void resolve_global_var(sctx *c, ast_decl *d) {
  char b[128];
  d->group = d->binding = -1;
  int space = AS_NONE;
  if (d->space_name) {
    space = parse_space_name(c, d->space_name);
    if (space < 0) {
      diag_error(c->d, d->space_span, "unknown address space '%s'", d->space_name);
      return;
    }
  }
  if (space == AS_NONE && d->type) {
    /* textures and samplers live in the handle address space */
    const type *ht = sema_type(c, d->type);
    if (!ht) return;
    if (ht->kind == TY_TEXTURE || ht->kind == TY_SAMPLER || ht->kind == TY_BINDING_ARRAY) {
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
  int access = space == AS_STORAGE || space == AS_UNIFORM || space == AS_IMMEDIATE ? ACC_READ : ACC_READ_WRITE;
  /* §Predeclared Enumerants: a declaration of the same name hides the
   * address space or access mode enumerant */
  const char *hidden = d->space_name && global_lookup(c, d->space_name) ? d->space_name
                       : d->access_name && global_lookup(c, d->access_name) ? d->access_name : NULL;
  if (hidden) {
    diag_error(c->d, d->space_span,
               "'%s' here is the module-scope declaration of that name, which hides the %s '%s' (rename the "
               "declaration)",
               hidden, hidden == d->space_name ? "address space" : "access mode", hidden);
    return;
  }
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
  if (t->kind == TY_PTR) {
    /* §Variable and Value Declarations: a variable's store type is storable */
    diag_error(c->d, d->type ? d->type->span : d->name_span,
               "%s is not storable: no variable holds a pointer", TN(t, b));
    return;
  }
  if (space == AS_IMMEDIATE || space == AS_PIXEL_LOCAL) {
    if (!check_special_space(c, d, space, t)) return;
    d->rtype = t;
    return;
  }
  if (t->kind == TY_BUFFER) {
    /* §Buffer Types: buffer<N> in storage, uniform and workgroup memory;
     * the runtime-sized buffer in storage only */
    if (space == AS_PRIVATE || (!t->n && space != AS_STORAGE)) {
      diag_error(c->d, d->type->span, "%s cannot be in %s memory", TN(t, b), addr_space_name((addr_space)space));
      return;
    }
  }
  ast_attr *g = sema_find_attr(d->attrs, d->nattrs, "group");
  ast_attr *bn = sema_find_attr(d->attrs, d->nattrs, "binding");
  int resource = space == AS_UNIFORM || space == AS_STORAGE;
  if (resource) {
    if (!g || !bn) {
      diag_error(c->d, d->name_span, "'%s' in the %s address space needs @group and @binding", d->name,
                 addr_space_name((addr_space)space));
      return;
    }
    d->group = (int)sema_attr_int(c, g, 0, "@group");
    d->binding = (int)sema_attr_int(c, bn, 0, "@binding");
    if (!type_is_host_shareable(t) && t->kind != TY_BUFFER) {
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
  if (type_has_sgmat(t) && space != AS_PRIVATE) {
    diag_error(c->d, d->type ? d->type->span : d->name_span,
               "subgroup matrices can only be held in function or private variables");
    return;
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
  sema_check_attr_names(c, d->attrs, d->nattrs, SEMA_AT_FN);
  if (sema_find_attr(d->attrs, d->nattrs, "compute")) d->stage = 1;
  else if (sema_find_attr(d->attrs, d->nattrs, "vertex")) d->stage = 2;
  else if (sema_find_attr(d->attrs, d->nattrs, "fragment")) d->stage = 3;
  for (int i = 0; i < d->nparams; i++) {
    ast_decl *p = d->params[i];
    p->builtin_value = -1; /* a repeated name is found with the body's scope */
    p->rtype = sema_type(c, p->type);
    if (!p->rtype) continue;
    sema_check_attr_names(c, p->attrs, p->nattrs, SEMA_AT_PARAM);
    if (sema_find_attr(p->attrs, p->nattrs, "color")) {
      /* chromium_experimental_framebuffer_fetch: @color(N) reads attachment
       * N, on fragment inputs of scalar or vector type */
      ast_attr *col = sema_find_attr(p->attrs, p->nattrs, "color");
      if (d->stage != 3 || !(type_is_scalar(p->rtype) || p->rtype->kind == TY_VEC))
        diag_error(c->d, col->span, "@color is only for scalar or vector fragment shader inputs");
      else if (sema_attr_int(c, col, 0, "@color") >= 0)
        for (int k = 0; k < i; k++) {
          ast_attr *o = sema_find_attr(d->params[k]->attrs, d->params[k]->nattrs, "color");
          if (o && o->nargs && col->nargs && o->args[0]->cval && col->args[0]->cval &&
              o->args[0]->cval->i == col->args[0]->cval->i)
            diag_error(c->d, col->span, "two inputs use @color(%lld)", (long long)col->args[0]->cval->i);
        }
    } else if (d->stage) {
      /* the shader stage inputs: sema_entry_io, below */
    } else if (p->rtype->kind == TY_PTR) {
      if (p->rtype->space != AS_FUNCTION && p->rtype->space != AS_PRIVATE &&
          p->rtype->space != AS_WORKGROUP && p->rtype->space != AS_STORAGE &&
          p->rtype->space != AS_UNIFORM && p->rtype->space != AS_IMMEDIATE)
        diag_error(c->d, p->type->span, "invalid pointer parameter");
    } else if (!type_is_constructible(p->rtype) && p->rtype->kind != TY_TEXTURE &&
               p->rtype->kind != TY_SAMPLER && p->rtype->kind != TY_BINDING_ARRAY) {
      /* §Function Declarations: parameters are constructible, pointers,
       * textures or samplers */
      diag_error(c->d, p->type->span, "%s cannot be a parameter type", TN(p->rtype, b));
    }
  }
  sema_check_attr_names(c, d->ret_attrs, d->nret_attrs, SEMA_AT_RET);
  if (d->ret_type) {
    d->rtype = sema_type(c, d->ret_type);
    if (d->rtype && !type_is_constructible(d->rtype))
      diag_error(c->d, d->ret_type->span, "%s cannot be returned", TN(d->rtype, b));
    if (d->stage == 1)
      diag_error(c->d, d->ret_type->span, "a compute entry point cannot return a value");
  }
  if (d->stage) sema_entry_io(c, d);
  else sema_non_entry_io(c, d);
  if (sema_find_attr(d->attrs, d->nattrs, "const"))
    diag_error(c->d, sema_find_attr(d->attrs, d->nattrs, "const")->span,
               "@const marks built-in functions only; it must not be applied to a user-defined function");
  if (!d->ret_type && sema_find_attr(d->attrs, d->nattrs, "must_use"))
    diag_error(c->d, sema_find_attr(d->attrs, d->nattrs, "must_use")->span,
               "@must_use needs a function with a return type");
  if (d->stage != 1 && sema_find_attr(d->attrs, d->nattrs, "workgroup_size"))
    diag_error(c->d, sema_find_attr(d->attrs, d->nattrs, "workgroup_size")->span,
               "@workgroup_size is only for compute shader entry points");
  if (d->stage == 1) {
    ast_attr *ws = sema_find_attr(d->attrs, d->nattrs, "workgroup_size");
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
  ast_attr *sg = sema_find_attr(d->attrs, d->nattrs, "subgroup_size");
  if (sg) resolve_subgroup_size(c, d, sg);
}

/* Declarations may be used before they are declared, so resolving one may
 * resolve others first; that recursion is bounded. */
static int enter_resolution(sctx *c, ast_decl *d) {
  if (c->resolve_depth >= SEMA_MAX_DECL_DEPTH) {
    if (!c->depth_reported)
      diag_error(c->d, d->name_span,
                 "'%s' is reached through more than %d declarations used before they are declared "
                 "or calls (a limit of lockstep)",
                 d->name ? d->name : "", SEMA_MAX_DECL_DEPTH);
    c->depth_reported = 1;
    return 0;
  }
  c->resolve_depth++;
  return 1;
}

static int nest_over(sctx *c, src_span s, int level, const char *how) {
  if (!c->nest_reported)
    diag_error(c->d, s,
               "statements and expressions nest %d levels deep here%s, more than %d (a limit of "
               "lockstep)",
               level, how, SEMA_MAX_NEST);
  c->nest_reported = 1;
  return 0;
}

/* The deepest level of the current function's body so far, counting
 * through calls. */
static void nest_note(sctx *c, int level) {
  if (c->fn && c->fn_nest && level > c->fn_nest[c->fn->index]) c->fn_nest[c->fn->index] = level;
}

int sema_nest_enter(sctx *c, src_span s) {
  if (c->nest >= SEMA_MAX_NEST)
    return nest_over(c, s, c->nest + 1, ", counting the declarations used before they are "
                                        "declared and the functions called before they are");
  c->nest++;
  nest_note(c, c->nest - c->nest_base);
  return 1;
}

int sema_nest_call(sctx *c, const ast_decl *fn, src_span s) {
  if (!c->fn || !c->fn_nest) return 1;
  const int level = c->nest - c->nest_base + c->fn_nest[fn->index];
  if (level > SEMA_MAX_NEST) {
    char how[160];
    snprintf(how, sizeof how, ", counting through this call of '%s' and what it calls",
             fn->name);
    return nest_over(c, s, level, how);
  }
  nest_note(c, level);
  return 1;
}

void sema_resolve_global(sctx *c, ast_decl *d) {
  if (d->index < 0 || d->index >= c->m->ast->ndecls || c->m->ast->decls[d->index] != d) return;
  if (c->state[d->index] == 2) return;
  if (c->state[d->index] != 1 && !enter_resolution(c, d)) return;
  if (c->state[d->index] == 1) {
    if (d->kind != DECL_FN)
      diag_error(c->d, d->name_span, "'%s' is defined in terms of itself", d->name ? d->name : "");
    return;
  }
  c->state[d->index] = 1;
  /* module-scope declarations see no locals */
  int saved_frame = c->frame, saved_scope = c->scope;
  c->frame = c->nlocals;
  c->scope = c->nlocals - 1;
  if (d->kind != DECL_FN)
    sema_check_attr_names(c, d->attrs, d->nattrs,
                          d->kind == DECL_VAR        ? SEMA_AT_VAR
                          : d->kind == DECL_OVERRIDE ? SEMA_AT_OVERRIDE
                                                     : SEMA_AT_OTHER);
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
  c->frame = saved_frame;
  c->scope = saved_scope;
  c->state[d->index] = 2;
  c->resolve_depth--;
}

/* -------------------------------------------------------------- statements */

static void stmt(sctx *c, ast_stmt *s);

/* Statements and bodies take only diagnostic attributes. */
static void check_stmt_attrs(sctx *c, ast_stmt *s) {
  for (int i = 0; i < s->nattrs; i++) {
    if (strcmp(s->attrs[i].name, "diagnostic"))
      diag_error(c->d, s->attrs[i].span, "'@%s' is not allowed on a statement", s->attrs[i].name);
    else
      sema_check_diagnostic_attr(c, &s->attrs[i]);
  }
  /* a switch body's attributes are a syntactic form of their own */
  int nb = s->kind == ST_SWITCH ? s->u.switch_.nbody_attrs : 0;
  sema_check_diagnostic_conflicts(c, s->attrs, s->nattrs - nb);
  if (nb) sema_check_diagnostic_conflicts(c, s->attrs + s->nattrs - nb, nb);
}

static void block(sctx *c, ast_stmt *s) {
  if (!s) return;
  check_stmt_attrs(c, s);
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
    if (d->access_name) {
      /* §var and value declarations: only storage variables name an access mode */
      diag_error(c->d, d->space_span, "only storage variables take an access mode");
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

/* Dawn's swizzle_assignment language feature (not in the WGSL spec, whose
 * swizzles are values): `v.zy = e`, `v.yz.x = e`, `v.xyz[i] = e` on a
 * writable vector reference or pointer, with no component named twice.
 * Returns the assigned type, or NULL when e is not such a target. */
static const type *swizzle_target(ast_expr *e) {
  if (!e || !e->type) return NULL;
  ast_expr *b = e->kind == EX_MEMBER ? e->u.member.base : e->kind == EX_INDEX ? e->u.index.base : NULL;
  if (!b || !b->type) return NULL;
  if (e->kind == EX_INDEX)
    return b->kind == EX_MEMBER && b->nswizzle > 1 && swizzle_target(b) ? e->type : NULL;
  if (e->nswizzle < 1) return NULL;
  const type *bt = b->type;
  int base_ok = ((bt->kind == TY_REF || bt->kind == TY_PTR) && bt->elem->kind == TY_VEC &&
                 bt->access != ACC_READ) ||
                (b->kind == EX_MEMBER && b->nswizzle > 1 && swizzle_target(b));
  if (!base_ok || (e->nswizzle == 1 && e->type->kind == TY_REF)) return NULL;
  for (int i = 0; i < e->nswizzle; i++)
    for (int k = 0; k < i; k++)
      if (e->swizzle[i] == e->swizzle[k]) return NULL;
  return e->type;
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

static void stmt_kind(sctx *c, ast_stmt *s);

static void stmt(sctx *c, ast_stmt *s) {
  if (!s || !sema_nest_enter(c, s->span)) return;
  stmt_kind(c, s);
  sema_nest_leave(c);
}

static void stmt_kind(sctx *c, ast_stmt *s) {
  char b[128];
  if (s->kind != ST_BLOCK) check_stmt_attrs(c, s); /* block() checks its own */
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
      /* §Phony Assignment: the right-hand side is constructible, a pointer,
       * a texture or a sampler; a runtime-sized array is none of them */
      else if (t && type_has_runtime_array(type_unref(t)) && t->kind == TY_REF)
        diag_error(c->d, r->span, "a phony assignment cannot load %s (it holds a runtime-sized array)",
                   TN(type_unref(t), b));
      break;
    }
    const type *lt = sema_expr(c, l);
    const type *st = lt && lt->kind != TY_REF ? swizzle_target(l) : NULL;
    if (st)
      diag_warning(c->d, l->span,
                   "assignment to a swizzle is Dawn's swizzle_assignment language feature, not "
                   "standard WGSL, where a swizzle of several components is a value "
                   "(§Vector Access Expression); assign the components one by one");
    if (!st && !is_writable_ref(c, l, "assign to this")) {
      sema_value(c, r);
      break;
    }
    if (!st) st = l->type->elem;
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
    if (t && s->u.call->ref == REF_DECL && s->u.call->decl &&
        sema_find_attr(s->u.call->decl->attrs, s->u.call->decl->nattrs, "must_use"))
      diag_error(c->d, s->span, "the result of '%s' must be used (it is @must_use)", s->u.call->decl->name);
    if (s->u.call->ref == REF_BUILTIN_FN && t && t->kind != TY_VOID &&
        builtin_fn_info((builtin_fn)s->u.call->builtin)->use == BR_MUST)
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
      /* §Switch Statement: the selector and the case selectors convert to
       * one type: a concrete case selector's, or i32 when all are abstract */
      const type *common = c->T->t_i32;
      for (int i = 0; i < s->u.switch_.ncases; i++)
        for (int j = 0; j < s->u.switch_.cases[i].nselectors; j++) {
          ast_expr *e = s->u.switch_.cases[i].selectors[j];
          const type *et = e ? sema_value(c, e) : NULL;
          if (et && (et->kind == TY_I32 || et->kind == TY_U32) && common == c->T->t_i32) common = et;
        }
      sema_convert_expr(c, s->u.switch_.selector, common);
      t = common;
    }
    int defaults = 0;
    /* the case values seen so far, hashed (a switch may have thousands) */
    int nsel = 0;
    for (int i = 0; i < s->u.switch_.ncases; i++) nsel += s->u.switch_.cases[i].nselectors;
    unsigned scap = 16;
    while (scap < (unsigned)nsel * 2 + 2) scap *= 2;
    ast_expr **seen = calloc(scap, sizeof *seen);
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
        if (e->cval && seen) {
          unsigned h = (unsigned)((uint64_t)e->cval->i * 0x9E3779B97F4A7C15u >> 32) & (scap - 1);
          for (; seen[h]; h = (h + 1) & (scap - 1))
            if (seen[h]->cval->i == e->cval->i) break;
          if (seen[h]) {
            diag_error(c->d, e->span, "duplicate case value %lld", (long long)e->cval->i);
            diag_note(c->d, seen[h]->span, "the earlier case");
          } else {
            seen[h] = e;
          }
        }
      }
      defaults += is_default;
      block(c, k->body);
    }
    c->switch_depth--;
    free(seen);
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
    if (body) check_stmt_attrs(c, body);
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
      int sl = c->cont_loop, ss = c->cont_switch;
      c->cont_loop = c->loop_depth;
      c->cont_switch = c->switch_depth;
      ast_stmt *cb = s->u.loop.continuing;
      check_stmt_attrs(c, cb);
      int m2 = open_scope(c);
      for (int i = 0; i < cb->u.block.n; i++) {
        ast_stmt *x = cb->u.block.stmts[i];
        if (x->kind == ST_BREAK_IF && i != cb->u.block.n - 1)
          diag_error(c->d, x->span, "'break if' must be the last statement of a continuing block");
        stmt(c, x);
      }
      close_scope(c, m2);
      c->in_continuing--;
      c->cont_loop = sl;
      c->cont_switch = ss;
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
    else if (c->cont_loop == c->loop_depth && c->cont_switch == c->switch_depth)
      /* a break of a loop or switch nested in the continuing block is fine */
      diag_error(c->d, s->span, "use 'break if' to leave a loop from its continuing block");
    break;
  case ST_BREAK_IF:
    if (c->cont_loop != c->loop_depth) diag_error(c->d, s->span, "'break if' is only allowed at the end of a continuing block");
    cond_expr(c, s->u.expr, "break if condition");
    break;
  case ST_CONTINUE:
    if (!c->loop_depth) diag_error(c->d, s->span, "'continue' outside a loop");
    else if (c->cont_loop == c->loop_depth) diag_error(c->d, s->span, "'continue' is not allowed in a continuing block");
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
  case ST_DISCARD: break; /* stage rules: sema_stage.c */
  case ST_EMPTY: break;
  }
}

/* §Statements Behavior Analysis: the ways a statement can finish. */
enum { BH_NEXT = 1, BH_RETURN = 2, BH_BREAK = 4, BH_CONTINUE = 8 };

/* loop {b1 continuing {b2}} (for and while loops desugar to it). */
static int loop_behavior(sctx *c, ast_stmt *s, int b1, int b2) {
  int r;
  if (b1 == BH_RETURN) r = BH_RETURN;
  else if ((b1 | b2) & BH_BREAK) r = ((b1 | b2) | BH_NEXT) & ~(BH_BREAK | BH_CONTINUE);
  else r = (b1 | b2) & ~(BH_CONTINUE | BH_NEXT);
  if (!r) diag_error(c->d, s->span, "this loop never finishes: it has no break and does not always return");
  return r ? r : BH_NEXT;
}

static int behavior(sctx *c, ast_stmt *s) {
  if (!s) return BH_NEXT;
  switch (s->kind) {
  case ST_BLOCK: {
    int acc = BH_NEXT;
    /* §Behavior Analysis: every statement has a non-empty behavior, also
     * one after a statement that cannot fall through (whose behavior then
     * does not add to the sequence's) */
    for (int i = 0; i < s->u.block.n; i++) {
      int b = behavior(c, s->u.block.stmts[i]);
      if (acc & BH_NEXT) acc = (acc & ~BH_NEXT) | b;
    }
    return acc;
  }
  case ST_RETURN: return BH_RETURN;
  case ST_BREAK: return BH_BREAK;
  case ST_CONTINUE: return BH_CONTINUE;
  case ST_BREAK_IF: return BH_BREAK | BH_NEXT;
  case ST_IF: return behavior(c, s->u.if_.then) | (s->u.if_.else_ ? behavior(c, s->u.if_.else_) : BH_NEXT);
  case ST_SWITCH: {
    int u = 0;
    for (int i = 0; i < s->u.switch_.ncases; i++) u |= behavior(c, s->u.switch_.cases[i].body);
    return u & BH_BREAK ? (u | BH_NEXT) & ~BH_BREAK : u;
  }
  case ST_LOOP:
    return loop_behavior(c, s, behavior(c, s->u.loop.body),
                         s->u.loop.continuing ? behavior(c, s->u.loop.continuing) : BH_NEXT);
  case ST_FOR: case ST_WHILE: {
    /* `if !cond { break; }` starts the body when there is a condition */
    int b = behavior(c, s->u.loop.body);
    if (s->u.loop.cond) b |= BH_BREAK;
    return loop_behavior(c, s, b, BH_NEXT);
  }
  default: return BH_NEXT; /* declarations, assignments, calls, discard */
  }
}

void sema_resolve_fn_body(sctx *c, ast_decl *fn) {
  if (c->body_state[fn->index]) return;
  sema_resolve_global(c, fn);
  if (!enter_resolution(c, fn)) return;
  c->body_state[fn->index] = 1;
  ast_decl *saved_fn = c->fn;
  /* the callee's locals go on top of the caller's, hidden from each other */
  int saved_frame = c->frame, saved_scope = c->scope;
  c->frame = c->nlocals;
  c->scope = c->nlocals - 1;
  int sl = c->loop_depth, ss = c->switch_depth, sc = c->in_continuing;
  int scl = c->cont_loop, scs = c->cont_switch;
  c->cont_loop = -1;
  c->cont_switch = 0;
  c->loop_depth = c->switch_depth = c->in_continuing = 0;
  int sba = c->body_active, ska = c->skip_active;
  c->body_active = c->skip_active = 0;
  c->fn = fn;
  const int saved_base = c->nest_base;
  c->nest_base = c->nest;
  int mark = open_scope(c);
  /* §Declaration and Scope: parameters are in scope across the body and end
   * where its top-level declarations end, so those cannot reuse their names */
  for (int i = 0; i < fn->nparams; i++)
    if (fn->params[i]->rtype) push_local(c, fn->params[i]);
  for (int i = 0; fn->body && i < fn->body->u.block.n; i++) stmt(c, fn->body->u.block.stmts[i]);
  close_scope(c, mark);
  /* §Behavior Analysis: a body with a return type must behave as {Return} */
  int bh = c->d->errors ? BH_RETURN : behavior(c, fn->body);
  if (fn->rtype && bh != BH_RETURN && (bh & BH_NEXT))
    diag_error(c->d, fn->name_span, "'%s' must return a value on every path", fn->name);
  c->fn = saved_fn;
  c->nest_base = saved_base;
  c->frame = saved_frame;
  c->scope = saved_scope;
  c->loop_depth = sl;
  c->switch_depth = ss;
  c->in_continuing = sc;
  c->cont_loop = scl;
  c->cont_switch = scs;
  c->body_active = sba;
  c->skip_active = ska;
  c->body_state[fn->index] = 2;
  c->resolve_depth--;
}

/* -------------------------------------------------------------- directives */


static void directives(sctx *c) {
  ast_module *am = c->m->ast;
  for (int i = 0; i < am->ndirectives; i++) {
    ast_directive *dv = &am->directives[i];
    if (dv->kind == DIR_DIAGNOSTIC && dv->nnames >= 1) {
      /* §Diagnostic Filtering: the severity is one of four names */
      static const char *const sev[] = {"error", "warning", "info", "off"};
      int ok = 0;
      for (int k = 0; k < 4; k++) ok |= !strcmp(sev[k], dv->names[0]);
      if (!ok)
        diag_error(c->d, dv->name_spans[0], "unknown diagnostic severity '%s' (error, warning, info or off)",
                   dv->names[0]);
      if (dv->nnames < 2) continue;
      sema_check_diagnostic_rule(c, dv->names[1], dv->name_spans[1]);
      /* global filters all share one affected range, the module */
      for (int j = 0; j < i; j++) {
        ast_directive *o = &am->directives[j];
        if (o->kind == DIR_DIAGNOSTIC && o->nnames >= 2 && !strcmp(o->names[1], dv->names[1]) &&
            strcmp(o->names[0], dv->names[0])) {
          diag_error(c->d, dv->name_spans[0], "conflicting diagnostic filters for '%s' on the same range",
                     dv->names[1]);
          diag_note(c->d, o->name_spans[0], "the other filter is here");
          break;
        }
      }
      continue;
    }
    for (int k = 0; k < dv->nnames; k++) {
      const char *n = dv->names[k];
      if (dv->kind == DIR_ENABLE) {
        const sema_extension *e = sema_extension_find(n);
        if (!e) {
          diag_error(c->d, dv->name_spans[k], "unknown extension '%s'", n);
          continue;
        }
        if (e->flag) *(int *)((char *)c + e->flag) = 1;
        if (e->implies) *(int *)((char *)c + e->implies) = 1;
      } else if (dv->kind == DIR_REQUIRES) {
        if (!sema_language_known(n)) diag_error(c->d, dv->name_spans[k], "unknown language extension '%s'", n);
      }
    }
  }
}

void sema_resolve(wgsl_module *m) {
  sctx c = {0};
  c.m = m;
  c.d = &m->diags;
  c.T = &m->types;
  c.cont_loop = -1;
  c.scope = -1;
  ast_module *am = m->ast;
  int n = am->ndecls;
  c.state = arena_alloc(&m->arena, (size_t)n + 1);
  c.body_state = arena_alloc(&m->arena, (size_t)n + 1);
  c.call_depth = arena_alloc(&m->arena, sizeof *c.call_depth * ((size_t)n + 1));
  c.fn_nest = arena_alloc(&m->arena, sizeof *c.fn_nest * ((size_t)n + 1));
  if (!c.state || !c.body_state || !c.call_depth || !c.fn_nest) return;
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
  sema_check_stages(&c);
  sema_check_aliasing(&c);
  uni_analyse(&c);
  free(c.ltab);
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
  m->nlines = diag_count_lines(m->src, len);
  m->line_starts = arena_alloc(&m->arena, (size_t)m->nlines * sizeof *m->line_starts);
  if (m->line_starts) diag_line_starts(m->src, len, m->line_starts);
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
const uint32_t *wgsl_module_line_starts(const wgsl_module *m, uint32_t *n) {
  *n = m->line_starts ? m->nlines : 0;
  return m->line_starts;
}

static int require_feature(wgsl_module *m, const char *ext, const char *feature, const char *advice);

int wgsl_module_require_feature(wgsl_module *m, const char *ext, const char *feature) {
  return require_feature(m, ext, feature, "create the device with it in requiredFeatures");
}

int wgsl_module_refuse_extension(wgsl_module *m, const char *ext, const char *feature) {
  return require_feature(m, ext, feature, "a feature lockstep does not offer");
}

static int require_feature(wgsl_module *m, const char *ext, const char *feature, const char *advice) {
  if (!m || !m->ast) return 0;
  int n = 0;
  for (int i = 0; i < m->ast->ndirectives; i++) {
    const ast_directive *dv = &m->ast->directives[i];
    if (dv->kind != DIR_ENABLE) continue;
    for (int k = 0; k < dv->nnames; k++)
      if (!strcmp(dv->names[k], ext)) {
        diag_error(&m->diags, dv->name_spans[k],
                   "'enable %s;' needs the device feature \"%s\" (%s)", ext, feature, advice);
        n++;
      }
  }
  if (n) m->ok = 0;
  return n;
}
