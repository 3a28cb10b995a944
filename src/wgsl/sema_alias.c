/*
 * sema_alias.c — WGSL's alias analysis (§Alias Analysis). For every
 * function, from the leaves of the call graph up, it records which
 * module-scope variables and which pointer parameters are read and written
 * (including through the functions it calls), following each memory view
 * back to its root identifier. At each call site it then refuses two
 * pointer arguments with one root when either is written, and a pointer
 * argument rooted at a module-scope variable that the callee also accesses
 * when one of the two accesses writes. Runs after resolution, without
 * errors (so the call graph is acyclic and at most SEMA_MAX_CALL_DEPTH deep).
 */
#include <stdlib.h>
#include <string.h>

#include "../util/ptrmap.h"
#include "sema_int.h"

enum { A_READ = 1, A_WRITE = 2 };

typedef struct fsum {
  int done;
  int *mods, nmods, capmods; /* module-scope variables accessed */
  uint8_t *mod_how;          /* A_READ | A_WRITE per entry of mods */
  uint8_t *param_how;        /* per parameter */
} fsum;

typedef struct actx {
  sctx *c;
  fsum *sums;       /* per module declaration */
  int *slot;        /* per module declaration: index into the current mods, -1 */
  ast_decl *fn;     /* function being summarised */
  fsum *cur;
  ptrmap roots;     /* pointer let -> its root identifier (root_of) */
  int failed;
} actx;

static void summarise(actx *a, ast_decl *fn);

/* One step towards the root identifier of a memory view or pointer
 * expression: a variable or a pointer parameter (NULL when there is none,
 * e.g. a value), or, when the view goes through a pointer let, that let in
 * *let (its initializer leads on). */
static ast_decl *root_step(ast_expr *e, ast_decl **let) {
  *let = NULL;
  while (e) {
    switch (e->kind) {
    case EX_UNARY:
      if (e->u.unary.op != UN_ADDR && e->u.unary.op != UN_DEREF) return NULL;
      e = e->u.unary.operand;
      break;
    case EX_INDEX: e = e->u.index.base; break;
    case EX_MEMBER: e = e->u.member.base; break;
    case EX_CALL:
      /* a view's root is its first argument's (MEM VIEW) */
      if (e->ref == REF_BUILTIN_FN && builtin_fn_info((builtin_fn)e->builtin)->mem == BM_VIEW &&
          e->u.call.nargs > 0) {
        e = e->u.call.args[0];
        break;
      }
      return NULL;
    case EX_IDENT: {
      ast_decl *d = e->ref == REF_DECL ? e->decl : NULL;
      if (!d) return NULL;
      if (d->kind == DECL_VAR) return d;
      if (d->kind == DECL_PARAM) return d->rtype && d->rtype->kind == TY_PTR ? d : NULL;
      if (d->kind == DECL_LET && d->rtype && d->rtype->kind == TY_PTR) *let = d;
      return NULL;
    }
    default: return NULL;
    }
  }
  return NULL;
}

/* The root identifier of a memory view or pointer expression. Each pointer
 * let's root is remembered (a->roots) the first time a walk passes it, so
 * that a chain of lets, each naming the one before, costs one walk in all. */
static ast_decl *root_of(actx *a, ast_expr *e) {
  ast_decl *let, *root = root_step(e, &let);
  for (ast_decl *l = let; l;) {
    void *known;
    if (ptrmap_get(&a->roots, l, &known)) {
      root = known;
      break;
    }
    root = root_step(l->init, &l);
  }
  for (ast_decl *l = let; l && !ptrmap_get(&a->roots, l, NULL);) {
    ast_decl *next;
    (void)root_step(l->init, &next);
    (void)ptrmap_put(&a->roots, l, root);
    l = next;
  }
  return root;
}

static int is_global(actx *a, ast_decl *d) {
  ast_module *am = a->c->m->ast;
  return d->index >= 0 && d->index < am->ndecls && am->decls[d->index] == d;
}

static int param_index(ast_decl *fn, ast_decl *p) {
  for (int i = 0; i < fn->nparams; i++)
    if (fn->params[i] == p) return i;
  return -1;
}

static void record(actx *a, ast_decl *r, int how) {
  if (!r || !how) return;
  fsum *s = a->cur;
  if (r->kind == DECL_PARAM) {
    int i = param_index(a->fn, r);
    if (i >= 0) s->param_how[i] |= (uint8_t)how;
    return;
  }
  if (!is_global(a, r)) return; /* function variables cannot alias across calls */
  int k = a->slot[r->index];
  if (k < 0) {
    if (s->nmods == s->capmods) {
      int cap = s->capmods ? s->capmods * 2 : 8;
      int *m = realloc(s->mods, sizeof *m * (size_t)cap);
      uint8_t *h = realloc(s->mod_how, (size_t)cap);
      if (m) s->mods = m;
      if (h) s->mod_how = h;
      if (!m || !h) {
        a->failed = 1;
        return;
      }
      s->capmods = cap;
    }
    k = s->nmods++;
    s->mods[k] = r->index;
    s->mod_how[k] = 0;
    a->slot[r->index] = k;
  }
  s->mod_how[k] |= (uint8_t)how;
}

static int mod_access(const fsum *s, int index) {
  for (int i = 0; i < s->nmods; i++)
    if (s->mods[i] == index) return s->mod_how[i];
  return 0;
}

static void expr(actx *a, ast_expr *e, int how);
static void stmt(void *ctx, ast_stmt *s);

static void read_expr(void *ctx, ast_expr *e) { expr(ctx, e, A_READ); }

/* The children of a node that are only read. */
static const ast_visitor reads = {stmt, read_expr};

/* The index expressions along a memory view's chain are values read. */
static void view_indices(actx *a, ast_expr *e) {
  while (e) {
    if (e->kind == EX_INDEX) {
      expr(a, e->u.index.index, A_READ);
      e = e->u.index.base;
    } else if (e->kind == EX_MEMBER) {
      e = e->u.member.base;
    } else if (e->kind == EX_UNARY && (e->u.unary.op == UN_ADDR || e->u.unary.op == UN_DEREF)) {
      e = e->u.unary.operand;
    } else {
      if (e->kind == EX_CALL) expr(a, e, 0);
      return;
    }
  }
}

static void user_call(actx *a, ast_expr *e) {
  ast_decl *g = e->decl;
  fsum *gs = &a->sums[g->index];
  int n = e->u.call.nargs < g->nparams ? e->u.call.nargs : g->nparams;
  ast_decl *roots[64];
  for (int i = 0; i < n; i++) {
    ast_expr *arg = e->u.call.args[i];
    const type *pt = g->params[i]->rtype;
    if (i < 64) roots[i] = NULL;
    if (!pt || pt->kind != TY_PTR) {
      expr(a, arg, A_READ);
      continue;
    }
    ast_decl *r = root_of(a, arg);
    view_indices(a, arg);
    int how = gs->param_how[i];
    record(a, r, how);
    if (i < 64) roots[i] = r;
    if (!r || a->c->d->errors || i >= 64) continue;
    /* the argument against the callee's own module-scope accesses */
    if (is_global(a, r)) {
      int m = mod_access(gs, r->index);
      if (((how & A_WRITE) && m) || ((how & A_READ) && (m & A_WRITE))) {
        diag_error(a->c->d, arg->span,
                   "'%s' is passed to '%s' as a pointer that %s while '%s' also %s it directly (aliasing, §Alias Analysis)",
                   r->name, g->name, (how & A_WRITE) ? "writes" : "reads", g->name,
                   (m & A_WRITE) ? "writes" : "reads");
        continue;
      }
    }
    /* two arguments with one root, one of them written */
    for (int k = 0; k < i && k < 64; k++)
      if (roots[k] == r && ((how | gs->param_how[k]) & A_WRITE)) {
        diag_error(a->c->d, arg->span,
                   "'%s' is passed to '%s' twice as a pointer and written through (aliasing, §Alias Analysis)",
                   r->name, g->name);
        break;
      }
  }
  for (int i = n; i < e->u.call.nargs; i++) expr(a, e->u.call.args[i], A_READ);
  for (int i = 0; i < gs->nmods; i++) {
    ast_decl *v = a->c->m->ast->decls[gs->mods[i]];
    record(a, v, gs->mod_how[i]);
  }
}

/* How a built-in accesses memory through its pointer arguments: builtins.def's
 * MEM column. */
static int builtin_access(builtin_fn f) {
  switch (builtin_fn_info(f)->mem) {
  case BM_R: return A_READ;
  case BM_W: return A_WRITE;
  case BM_RW: return A_READ | A_WRITE;
  case BM_NONE: case BM_VIEW: return 0;
  }
  return A_READ;
}

static void expr(actx *a, ast_expr *e, int how) {
  if (!e || a->failed) return;
  if (e->type && e->type->kind == TY_REF) {
    /* a memory view: its access belongs to its root identifier */
    record(a, root_of(a, e), how);
    view_indices(a, e);
    return;
  }
  switch (e->kind) {
  case EX_CALL:
    if (e->ref == REF_DECL && e->decl && e->decl->kind == DECL_FN) {
      user_call(a, e);
    } else if (e->ref == REF_BUILTIN_FN) {
      int acc = builtin_access((builtin_fn)e->builtin);
      for (int i = 0; i < e->u.call.nargs; i++) {
        ast_expr *arg = e->u.call.args[i];
        if (arg->type && arg->type->kind == TY_PTR) {
          record(a, root_of(a, arg), acc);
          view_indices(a, arg);
        } else {
          expr(a, arg, A_READ);
        }
      }
    } else {
      ast_expr_children(e, &reads, a);
    }
    break;
  case EX_UNARY:
    if (e->u.unary.op == UN_ADDR) view_indices(a, e->u.unary.operand); /* no access yet */
    else ast_expr_children(e, &reads, a);
    break;
  default: ast_expr_children(e, &reads, a); break;
  }
}

static void stmt(void *ctx, ast_stmt *s) {
  actx *a = ctx;
  if (a->failed) return;
  switch (s->kind) {
  case ST_ASSIGN:
    expr(a, s->u.assign.rhs, A_READ);
    if (s->u.assign.lhs)
      expr(a, s->u.assign.lhs, s->u.assign.op == BIN_COUNT_ ? A_WRITE : A_READ | A_WRITE);
    break;
  case ST_INCDEC: expr(a, s->u.incdec.lhs, A_READ | A_WRITE); break;
  default: ast_stmt_children(s, &reads, a); break; /* every other child is read */
  }
}

/* Callees first, so that a function's summary is final before its callers
 * use it (and before the slot marks of this function are in use). */
static void callees_expr(void *ctx, ast_expr *e);
static void callees(void *ctx, ast_stmt *s);

static const ast_visitor callee_walk = {callees, callees_expr};

static void callees_expr(void *ctx, ast_expr *e) {
  if (e->kind == EX_CALL && e->ref == REF_DECL && e->decl && e->decl->kind == DECL_FN)
    summarise(ctx, e->decl);
  ast_expr_children(e, &callee_walk, ctx);
}

static void callees(void *ctx, ast_stmt *s) { ast_stmt_children(s, &callee_walk, ctx); }

static void summarise(actx *a, ast_decl *fn) {
  fsum *s = &a->sums[fn->index];
  if (s->done || a->failed) return;
  s->done = 1;
  s->param_how = calloc((size_t)fn->nparams + 1, 1);
  if (!s->param_how) {
    a->failed = 1;
    return;
  }
  if (fn->body) callees(a, fn->body);
  ast_decl *saved_fn = a->fn;
  fsum *saved = a->cur;
  a->fn = fn;
  a->cur = s;
  if (fn->body) stmt(a, fn->body);
  for (int i = 0; i < s->nmods; i++) a->slot[s->mods[i]] = -1;
  a->fn = saved_fn;
  a->cur = saved;
}

void sema_check_aliasing(sctx *c) {
  if (c->d->errors) return;
  ast_module *am = c->m->ast;
  int n = am->ndecls;
  actx a = {.c = c, .sums = calloc((size_t)n + 1, sizeof(fsum)),
            .slot = malloc(sizeof(int) * ((size_t)n + 1))};
  if (a.sums && a.slot) {
    for (int i = 0; i < n; i++) a.slot[i] = -1;
    for (int i = 0; i < n; i++)
      if (am->decls[i]->kind == DECL_FN && am->decls[i]->body) summarise(&a, am->decls[i]);
  }
  for (int i = 0; a.sums && i < n; i++) {
    free(a.sums[i].mods);
    free(a.sums[i].mod_how);
    free(a.sums[i].param_how);
  }
  free(a.sums);
  free(a.slot);
  ptrmap_free(&a.roots);
}
