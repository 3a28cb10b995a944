/*
 * lower_override.c — the override values of one pipeline: the pipeline
 * constants first, then the initializers of the others, each evaluated once
 * in dependency order (the resolver rejected cycles). An override whose
 * value cannot be computed (no initializer and no constant, a division by
 * zero...) is an error only where the entry point uses it: for each one the
 * environment names the override at the root of the failure (eval_env's
 * cause), so that the use reports it without walking the chain of
 * initializers again. Called once by lower_pipeline (lower.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_int.h"

static const cvalue *value_for(lw *L, ast_decl *d, const ls_constant_entry *cs, size_t n,
                               int *used_key) {
  char idbuf[16];
  if (d->override_id >= 0) snprintf(idbuf, sizeof idbuf, "%d", d->override_id);
  for (size_t i = 0; i < n; i++) {
    const char *k = cs[i].key;
    int match = (d->override_id >= 0 && !strcmp(k, idbuf)) ||
                (d->override_id < 0 && !strcmp(k, d->name));
    if (!match) continue;
    used_key[i] = 1;
    char what[160];
    snprintf(what, sizeof what, "pipeline constant '%s'", k);
    return sema_scalar_from_double(L->m, d->rtype, cs[i].value, d->name_span, L->d, what);
  }
  return NULL;
}

/* The overrides an initializer names: an edge from each to the override
 * whose initializer it is, in a list per override (head / next). */
typedef struct deps {
  const ast_module *am;
  int to;           /* the override whose initializer is being scanned */
  int *head, *next, *target;
  size_t n, cap;
  int *indegree;
  int failed;
} deps;

static void dep_expr(void *ctx, ast_expr *e);
static const ast_visitor dep_visit = {NULL, dep_expr};

static void dep_expr(void *ctx, ast_expr *e) {
  deps *g = ctx;
  ast_decl *d = e->kind == EX_IDENT && e->ref == REF_DECL ? e->decl : NULL;
  if (d && d->kind == DECL_OVERRIDE && d->index >= 0 && d->index < g->am->ndecls &&
      g->am->decls[d->index] == d) {
    if (g->n == g->cap) {
      size_t cap = g->cap ? g->cap * 2 : 64;
      int *nn = realloc(g->next, cap * sizeof *nn), *nt = nn ? realloc(g->target, cap * sizeof *nt) : NULL;
      if (nn) g->next = nn;
      if (!nn || !nt) {
        g->failed = 1;
        return;
      }
      g->target = nt;
      g->cap = cap;
    }
    g->target[g->n] = g->to;
    g->next[g->n] = g->head[d->index];
    g->head[d->index] = (int)g->n++;
    g->indegree[g->to]++;
  }
  ast_expr_children(e, &dep_visit, g);
}

/* Evaluates override i, whose dependencies are settled. */
static void settle(lw *L, int i, int *cause) {
  ast_decl *d = L->m->ast->decls[i];
  if (L->env.overrides[i]) return; /* a pipeline constant */
  if (!d->init) {
    cause[i] = i;
    return;
  }
  diag_list quiet;
  diag_init(&quiet);
  const cvalue *v = sema_eval(L->m, d->init, &L->env, &quiet);
  diag_free(&quiet);
  if (v) L->env.overrides[i] = sema_convert(L->m, v, d->rtype, d->init->span, L->d);
  if (!L->env.overrides[i]) cause[i] = i;
}

int lw_resolve_overrides(lw *L, const ls_constant_entry *cs, size_t n) {
  ast_module *am = L->m->ast;
  const int nd = am->ndecls;
  int *used_key = calloc(n ? n : 1, sizeof *used_key);
  int *cause = malloc(((size_t)nd + 1) * sizeof *cause);
  deps g = {.am = am};
  g.head = malloc(((size_t)nd + 1) * sizeof *g.head);
  g.indegree = calloc((size_t)nd + 1, sizeof *g.indegree);
  int *queue = malloc(((size_t)nd + 1) * sizeof *queue);
  int ok = used_key && cause && g.head && g.indegree && queue;
  for (int i = 0; ok && i < nd; i++) cause[i] = g.head[i] = -1;
  for (int i = 0; ok && i < nd; i++) {
    ast_decl *d = am->decls[i];
    if (d->kind != DECL_OVERRIDE || !d->rtype) continue;
    const cvalue *v = value_for(L, d, cs, n, used_key);
    if (v) L->env.overrides[i] = v;
    else if (L->d->errors) L->failed = 1;
    if (!v && d->init) {
      g.to = i;
      dep_expr(&g, d->init);
    }
  }
  if (!ok || g.failed) {
    lw_fail(L, L->span, "out of memory");
  } else {
    for (size_t i = 0; i < n; i++) {
      if (!used_key[i]) {
        /* a key may name an override by name even when it has an @id */
        lw_fail(L, L->entry->name_span,
                "pipeline constant '%s' does not name an override of this shader (by name, or by @id for overrides that have one)",
                cs[i].key);
      }
    }
    /* Kahn's order: an override once every one its initializer names is
     * settled; a failure passes its cause on to what depends on it */
    size_t qn = 0;
    for (int i = 0; i < nd; i++)
      if (am->decls[i]->kind == DECL_OVERRIDE && am->decls[i]->rtype && !g.indegree[i])
        queue[qn++] = i;
    for (size_t q = 0; q < qn; q++) {
      const int i = queue[q];
      if (cause[i] < 0) settle(L, i, cause);
      for (int k = g.head[i]; k >= 0; k = g.next[k]) {
        const int t = g.target[k];
        if (cause[i] >= 0 && cause[t] < 0) cause[t] = cause[i];
        if (--g.indegree[t] == 0) queue[qn++] = t;
      }
    }
  }
  free(used_key);
  free(g.head);
  free(g.next);
  free(g.target);
  free(g.indegree);
  free(queue);
  L->env.cause = cause;
  return !L->failed;
}
