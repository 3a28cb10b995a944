/*
 * alias.c — WGSL's alias analysis (§Alias Analysis): a function must not
 * reach one memory location through two root identifiers when one of the
 * accesses writes. Functions are summarised leaves first (which module-scope
 * variables and which pointer parameters they read and write, counting
 * their callees), and every call site is checked against its callee's
 * summary.
 */
#include <stdlib.h>
#include <string.h>

#include "sema_int.h"

/* A small set of declarations. */
typedef struct dset {
  ast_decl **v;
  int n, cap;
} dset;

enum { RD = 1, WR = 2 };

/* What a function reads and writes, counting the functions it calls. */
typedef struct summary {
  int state;            /* 0 not yet, 1 in progress, 2 done */
  dset greads, gwrites; /* module-scope variables */
  uint8_t *params;      /* per parameter: RD | WR through it */
} summary;

typedef struct actx {
  sctx *c;
  summary *sum;   /* per module declaration index */
  ast_decl *fn;   /* function being summarised */
  int failed;     /* out of memory */
} actx;

static int dset_has(const dset *s, const ast_decl *d) {
  for (int i = 0; i < s->n; i++)
    if (s->v[i] == d) return 1;
  return 0;
}

static void dset_add(actx *A, dset *s, ast_decl *d) {
  if (dset_has(s, d)) return;
  if (s->n == s->cap) {
    int cap = s->cap ? s->cap * 2 : 8;
    ast_decl **n = realloc(s->v, sizeof *n * (size_t)cap);
    if (!n) {
      A->failed = 1;
      return;
    }
    s->v = n;
    s->cap = cap;
  }
  s->v[s->n++] = d;
}

static int is_module_var(const ast_decl *d) {
  return d && d->kind == DECL_VAR && d->space != AS_FUNCTION;
}

/* The variable or pointer parameter a memory view or pointer starts from
 * (through lets, &, *, indexing and member access); NULL when none. */
static ast_decl *root_of(ast_expr *e) {
  for (int guard = 0; e && guard < 4096; guard++) {
    switch (e->kind) {
    case EX_IDENT: {
      ast_decl *d = e->ref == REF_DECL ? e->decl : NULL;
      if (!d) return NULL;
      if (d->kind == DECL_LET && d->rtype && d->rtype->kind == TY_PTR) {
        e = d->init;
        continue;
      }
      if (d->kind == DECL_VAR || d->kind == DECL_PARAM) return d;
      return NULL;
    }
    case EX_UNARY:
      if (e->u.unary.op != UN_ADDR && e->u.unary.op != UN_DEREF) return NULL;
      e = e->u.unary.operand;
      continue;
    case EX_INDEX: e = e->u.index.base; continue;
    case EX_MEMBER: e = e->u.member.base; continue;
    default: return NULL;
    }
  }
  return NULL;
}

/* Records an access to the memory of root r in the current function. */
static void access(actx *A, ast_decl *r, int how) {
  if (!r) return;
  summary *s = &A->sum[A->fn->index];
  if (is_module_var(r)) {
    if (how & RD) dset_add(A, &s->greads, r);
    if (how & WR) dset_add(A, &s->gwrites, r);
  } else if (r->kind == DECL_PARAM) {
    for (int i = 0; i < A->fn->nparams; i++)
      if (A->fn->params[i] == r) s->params[i] |= (uint8_t)how;
  }
}

static void summarise(actx *A, ast_decl *fn);
static void value(actx *A, ast_expr *e);

/* The index expressions along a memory view are values; the view itself is
 * not accessed. */
static void view_indices(actx *A, ast_expr *e) {
  while (e) {
    if (e->kind == EX_INDEX) {
      value(A, e->u.index.index);
      e = e->u.index.base;
    } else if (e->kind == EX_MEMBER) {
      e = e->u.member.base;
    } else if (e->kind == EX_UNARY && (e->u.unary.op == UN_ADDR || e->u.unary.op == UN_DEREF)) {
      e = e->u.unary.operand;
    } else {
      if (e->kind != EX_IDENT) value(A, e);
      return;
    }
  }
}

static void call(actx *A, ast_expr *e) {
  int n = e->u.call.nargs;
  ast_expr **args = e->u.call.args;
  if (e->ref == REF_BUILTIN_FN) {
    builtin_fn f = (builtin_fn)e->builtin;
    for (int i = 0; i < n; i++) {
      const type *t = args[i]->type;
      if (!t || t->kind != TY_PTR) {
        value(A, args[i]);
        continue;
      }
      view_indices(A, args[i]);
      int how = f == BF_ARRAY_LENGTH                                   ? 0
                : f == BF_ATOMIC_LOAD || f == BF_WORKGROUP_UNIFORM_LOAD ? RD
                : f == BF_ATOMIC_STORE                                 ? WR
                                                                       : RD | WR;
      access(A, root_of(args[i]), how);
    }
    return;
  }
  if (e->ref != REF_DECL || !e->decl || e->decl->kind != DECL_FN) {
    for (int i = 0; i < n; i++) value(A, args[i]); /* constructors */
    return;
  }
  ast_decl *callee = e->decl;
  summarise(A, callee);
  summary *cs = &A->sum[callee->index];
  if (cs->state != 2 || !cs->params) return;
  ast_decl **roots = calloc((size_t)n + 1, sizeof *roots);
  if (!roots) {
    A->failed = 1;
    return;
  }
  for (int i = 0; i < n && i < callee->nparams; i++) {
    const type *t = args[i]->type;
    if (!t || t->kind != TY_PTR) {
      value(A, args[i]);
      continue;
    }
    view_indices(A, args[i]);
    ast_decl *r = roots[i] = root_of(args[i]);
    int how = cs->params[i];
    access(A, r, how);
    /* two pointer arguments with one root, one of them written */
    for (int k = 0; k < i && r; k++)
      if (roots[k] == r && ((how | cs->params[k]) & WR)) {
        diag_error(A->c->d, args[i]->span,
                   "pointer arguments %d and %d of '%s' both reach '%s', and '%s' writes "
                   "through one of them",
                   k + 1, i + 1, callee->name, r->name, callee->name);
        break;
      }
    /* a module-scope variable passed by pointer and used directly */
    if (r && is_module_var(r)) {
      int gw = dset_has(&cs->gwrites, r), gr = dset_has(&cs->greads, r);
      if (gw && how)
        diag_error(A->c->d, args[i]->span,
                   "'%s' is passed by pointer to '%s', which also writes it directly",
                   r->name, callee->name);
      else if (gr && (how & WR))
        diag_error(A->c->d, args[i]->span,
                   "'%s' is passed by pointer to '%s', which writes through the pointer and "
                   "also reads '%s' directly",
                   r->name, callee->name, r->name);
    }
  }
  free(roots);
  /* the callee's own accesses of module-scope variables */
  for (int i = 0; i < cs->greads.n; i++) access(A, cs->greads.v[i], RD);
  for (int i = 0; i < cs->gwrites.n; i++) access(A, cs->gwrites.v[i], WR);
}

/* An expression evaluated for its value: a memory view here is read. */
static void value(actx *A, ast_expr *e) {
  if (!e || e->cval) return;
  if (e->type && e->type->kind == TY_REF) {
    view_indices(A, e);
    access(A, root_of(e), RD);
    return;
  }
  switch (e->kind) {
  case EX_CALL: call(A, e); break;
  case EX_INDEX:
    value(A, e->u.index.base);
    value(A, e->u.index.index);
    break;
  case EX_MEMBER: value(A, e->u.member.base); break;
  case EX_UNARY:
    if (e->u.unary.op == UN_ADDR) view_indices(A, e->u.unary.operand);
    else value(A, e->u.unary.operand);
    break;
  case EX_BINARY:
    value(A, e->u.binary.lhs);
    value(A, e->u.binary.rhs);
    break;
  default: break;
  }
}

static void stmt(actx *A, ast_stmt *s) {
  if (!s) return;
  switch (s->kind) {
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.n; i++) stmt(A, s->u.block.stmts[i]);
    break;
  case ST_DECL: {
    ast_decl *d = s->u.decl;
    if ((d->kind == DECL_VAR || d->kind == DECL_LET) && d->init) value(A, d->init);
    break;
  }
  case ST_ASSIGN:
    if (s->u.assign.lhs) {
      view_indices(A, s->u.assign.lhs);
      access(A, root_of(s->u.assign.lhs), s->u.assign.op == BIN_COUNT_ ? WR : RD | WR);
    }
    value(A, s->u.assign.rhs);
    break;
  case ST_INCDEC:
    view_indices(A, s->u.incdec.lhs);
    access(A, root_of(s->u.incdec.lhs), RD | WR);
    break;
  case ST_CALL: value(A, s->u.call); break;
  case ST_IF:
    value(A, s->u.if_.cond);
    stmt(A, s->u.if_.then);
    stmt(A, s->u.if_.else_);
    break;
  case ST_SWITCH:
    value(A, s->u.switch_.selector);
    for (int i = 0; i < s->u.switch_.ncases; i++) stmt(A, s->u.switch_.cases[i].body);
    break;
  case ST_LOOP:
  case ST_FOR:
  case ST_WHILE:
    stmt(A, s->u.loop.init);
    value(A, s->u.loop.cond);
    stmt(A, s->u.loop.body);
    stmt(A, s->u.loop.continuing);
    stmt(A, s->u.loop.update);
    break;
  case ST_BREAK_IF:
  case ST_RETURN: value(A, s->u.expr); break;
  default: break;
  }
}

static void summarise(actx *A, ast_decl *fn) {
  summary *s = &A->sum[fn->index];
  if (s->state) return; /* done, or a cycle the resolver reported */
  s->state = 1;
  s->params = calloc((size_t)fn->nparams + 1, 1);
  if (!s->params) {
    A->failed = 1;
    return;
  }
  ast_decl *saved = A->fn;
  A->fn = fn;
  stmt(A, fn->body);
  A->fn = saved;
  s->state = 2;
}

void sema_alias_analyse(sctx *c) {
  ast_module *am = c->m->ast;
  actx A = {.c = c};
  A.sum = calloc((size_t)am->ndecls + 1, sizeof *A.sum);
  if (!A.sum) return;
  for (int i = 0; i < am->ndecls; i++)
    if (am->decls[i]->kind == DECL_FN && am->decls[i]->body) summarise(&A, am->decls[i]);
  for (int i = 0; i < am->ndecls; i++) {
    free(A.sum[i].greads.v);
    free(A.sum[i].gwrites.v);
    free(A.sum[i].params);
  }
  free(A.sum);
}
