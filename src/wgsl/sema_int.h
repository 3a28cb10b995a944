/*
 * sema_int.h — state shared by the resolver's files: sema.c (module,
 * declarations, statements) and sema_expr.c (expressions, calls, types).
 * Not used outside src/wgsl/.
 */
#ifndef LS_WGSL_SEMA_INT_H
#define LS_WGSL_SEMA_INT_H

#include "eval.h"
#include "sema.h"

typedef struct scope_entry {
  const char *name;
  ast_decl *decl;
} scope_entry;

typedef struct sctx {
  wgsl_module *m;
  diag_list *d;
  type_table *T;
  uint8_t *state;       /* per module declaration: 0 new, 1 resolving, 2 done */
  uint8_t *body_state;  /* per function: 0 new, 1 resolving, 2 done */
  scope_entry *locals;  /* block-scoped declarations, innermost last */
  int nlocals, caplocals;
  ast_decl *fn;         /* function being resolved */
  int loop_depth;       /* loops around the current statement */
  int switch_depth;
  int in_continuing;
  /* `continue` must not skip a declaration its continuing block uses. While
   * a loop statement's body is resolved: where the body's declarations
   * start in locals, and how many of them the first continue had passed
   * (body_seen, -1 before any continue). While its continuing block is
   * resolved: the locals [skip_from, skip_to) that a continue skipped. */
  int body_active, body_mark, body_seen;
  src_span body_continue;
  int skip_active, skip_from, skip_to;
  src_span skip_continue;
  int f16_enabled;
  int subgroups_enabled;
  int uniformity_off;   /* chromium_disable_uniformity_analysis */
  ast_decl **gtab;      /* module declarations by name (open addressing) */
  unsigned gmask;
} sctx;

/* sema.c */
ast_decl *sema_lookup(sctx *c, const char *name);
void sema_resolve_global(sctx *c, ast_decl *d);
void sema_resolve_fn_body(sctx *c, ast_decl *fn);

/* alias.c: the spec's alias analysis over every function, after the
 * bodies are resolved without errors */
void sema_alias_analyse(sctx *c);

/* sema_expr.c */
const type *sema_expr(sctx *c, ast_expr *e);
/* Type of e after the load rule (references give their store type). */
const type *sema_value(sctx *c, ast_expr *e);
/* Resolves a type expression; NULL after an error. */
const type *sema_type(sctx *c, ast_expr *e);
/* Checks e and converts it to type t (abstract values are converted in
 * place); reports `what` in the error. Returns 0 on error. */
int sema_expect(sctx *c, ast_expr *e, const type *t, const char *what);
/* Converts an already-checked expression to t if allowed. */
int sema_convert_expr(sctx *c, ast_expr *e, const type *t);
/* Can a value of type `from` be converted automatically to `to`? */
int sema_can_convert(const type *from, const type *to);

/* The common type two operand types convert to, or NULL. */
const type *sema_unify(const type *a, const type *b);
/* 1: every expression is const; 0: const or override (any_override set);
 * -1: some runtime value. NULL entries are skipped. */
int sema_all_const(ast_expr **kids, int n, int *any_override);

/* sema_builtin.c */
/* The builtins.def id of a built-in function name, or -1. */
int sema_find_builtin(const char *name);
/* Resolves a call of built-in f (overload resolution, constant folding). */
const type *sema_builtin_call(sctx *c, ast_expr *e, builtin_fn f);

#endif
