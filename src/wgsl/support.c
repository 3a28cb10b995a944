/*
 * support.c — the gate between the validator and lowering. The resolver
 * accepts all of WGSL; lowering (src/ir/) runs a subset. Before lowering an
 * entry point, sema_check_lowerable walks everything the entry point can
 * reach (its body, the functions it calls, the module variables and
 * constants they use) and refuses, with "... is not supported by lockstep
 * yet", every construct outside that subset — so nothing is mis-executed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/ptrmap.h"
#include "sema_int.h"

typedef struct gate {
  wgsl_module *m;
  diag_list *d;
  uint8_t *seen;     /* per module declaration: reached */
  ast_decl **queue;  /* the reached ones, in order; walked after */
  size_t nqueue;
  ptrmap ok;         /* types found fine (check_type) */
  int failed;
} gate;

static void refuse(gate *g, src_span s, const char *what) {
  if (g->failed) return;
  diag_error(g->d, s, "%s is not supported by lockstep yet", what);
  g->failed = 1;
}

/* The first unsupported part of a type, or NULL. */
static const char *type_problem(const type *t) {
  if (!t) return NULL;
  switch (t->kind) {
  case TY_TEXTURE:
    /* sampled, depth, multisampled, external and storage textures run
     * (lower_texture.c); storage texel formats are checked by lowering */
    if (t->tex_kind == TEX_SAMPLED || t->tex_kind == TEX_STORAGE || t->tex_kind == TEX_DEPTH ||
        t->tex_kind == TEX_MULTISAMPLED || t->tex_kind == TEX_DEPTH_MS ||
        t->tex_kind == TEX_EXTERNAL)
      return NULL;
    return "a texture";
  case TY_SAMPLER: return NULL;
  case TY_SGMAT: return "a subgroup matrix";
  case TY_BUFFER: return "a buffer";
  case TY_BINDING_ARRAY: return "a binding array";
  case TY_VEC: case TY_MAT: case TY_ARRAY: case TY_ATOMIC: case TY_PTR: case TY_REF:
    if (t->kind == TY_ATOMIC && t->elem && t->elem->kind != TY_I32 && t->elem->kind != TY_U32)
      return "this atomic type";
    return type_problem(t->elem);
  case TY_STRUCT:
    /* built-in result structures (atomicCompareExchangeWeak's, frexp's,
     * modf's) are plain structs to lowering */
    for (int i = 0; i < t->nfields; i++) {
      const char *p = type_problem(t->fields[i].type);
      if (p) return p;
    }
    return NULL;
  default: return NULL;
  }
}

/* The types found fine are remembered, so that an expression of a large
 * structure type is not walked member by member at every use. */
static void check_type(gate *g, const type *t, src_span s) {
  if (!t || ptrmap_get(&g->ok, t, NULL)) return;
  const char *p = type_problem(t);
  if (!p) (void)ptrmap_put(&g->ok, t, NULL);
  if (p) {
    char b[160];
    char tn[96];
    type_name(t, tn, sizeof tn);
    if (!strcmp(p, "a texture"))
      snprintf(b, sizeof b, "%s (in %s)", p, tn);
    else snprintf(b, sizeof b, "%s", p);
    refuse(g, s, b);
  }
}

static void expr(void *ctx, ast_expr *e);
static void stmt(void *ctx, ast_stmt *s);

static const ast_visitor visit = {stmt, expr};

/* A module-scope declaration the entry point reaches: queued once, walked
 * by sema_check_lowerable's loop. A local one (let, var, parameter) is
 * walked at its declaration and nowhere else: walking it again at every
 * use made a chain of lets quadratic and one that uses the previous let
 * twice exponential, and following calls and initializers recursively made
 * the C stack as deep as the input's chains. */
static void reach(gate *g, ast_decl *d) {
  ast_module *am = g->m->ast;
  if (!d || d->index < 0 || d->index >= am->ndecls || am->decls[d->index] != d) return;
  if (g->seen[d->index]) return;
  g->seen[d->index] = 1;
  g->queue[g->nqueue++] = d;
}

static void expr(void *ctx, ast_expr *e) {
  gate *g = ctx;
  if (g->failed) return;
  check_type(g, e->type, e->span);
  if (e->cval && e->kind != EX_CALL) return;
  if (e->kind == EX_CALL && e->ref == REF_BUILTIN_FN &&
      builtin_fn_info((builtin_fn)e->builtin)->lower != BL_RUN) { /* builtins.def's LOWER */
    char b[96];
    snprintf(b, sizeof b, "the built-in function '%s'", builtin_fn_name((builtin_fn)e->builtin));
    refuse(g, e->span, b);
    return;
  }
  if ((e->kind == EX_IDENT || e->kind == EX_CALL) && e->ref == REF_DECL) reach(g, e->decl);
  ast_expr_children(e, &visit, g);
}

/* A declaration's own parts: a function's signature and body, a value's
 * type and (but for a const, which is folded) its initializer. */
static void decl(gate *g, ast_decl *d) {
  switch (d->kind) {
  case DECL_FN:
    if (d->rtype) check_type(g, d->rtype, d->ret_type ? d->ret_type->span : d->name_span);
    for (int i = 0; i < d->nparams; i++) {
      check_type(g, d->params[i]->rtype, d->params[i]->name_span);
    }
    if (d->body) stmt(g, d->body);
    break;
  case DECL_VAR: case DECL_LET: case DECL_CONST: case DECL_OVERRIDE: case DECL_PARAM:
    if (d->kind == DECL_VAR && d->space == AS_PIXEL_LOCAL) {
      refuse(g, d->name_span, "the pixel_local address space");
      break;
    }
    check_type(g, d->rtype, d->name_span);
    if (d->kind != DECL_CONST && d->init) expr(g, d->init);
    break;
  default: break;
  }
}

static void stmt(void *ctx, ast_stmt *s) {
  gate *g = ctx;
  if (g->failed) return;
  if (s->kind == ST_DECL) {
    /* the declaration's type too, and a const's value is folded */
    decl(g, s->u.decl);
    return;
  }
  if (s->kind == ST_ASSIGN && s->u.assign.lhs && s->u.assign.lhs->type &&
      s->u.assign.lhs->type->kind != TY_REF) {
    refuse(g, s->u.assign.lhs->span, "assignment through a swizzle");
    return;
  }
  ast_stmt_children(s, &visit, g);
}

int sema_check_lowerable(wgsl_module *m, ast_decl *fn, diag_list *d, uint8_t *reached) {
  const size_t n = (size_t)m->ast->ndecls;
  gate g = {.m = m, .d = d, .seen = reached};
  g.queue = malloc((n + 1) * sizeof *g.queue);
  if (!g.queue) {
    diag_error(d, fn->name_span, "out of memory");
    return 0;
  }
  memset(reached, 0, n);
  for (int i = 0; i < fn->nparams && !g.failed; i++) {
    ast_decl *p = fn->params[i];
    /* a structure parameter's members are all compute built-ins (the
     * resolver checked them) */
    if (p->builtin_value < 0 && !(p->rtype && p->rtype->kind == TY_STRUCT))
      refuse(&g, p->name_span, "this entry point parameter");
  }
  if (!g.failed && fn->ret_type) refuse(&g, fn->ret_type->span, "an entry point return value");
  reach(&g, fn);
  for (size_t i = 0; i < g.nqueue && !g.failed; i++) decl(&g, g.queue[i]);
  free(g.queue);
  ptrmap_free(&g.ok);
  return !g.failed;
}
