/*
 * sema_stage.c — the rules that depend on which shader stage runs a
 * function. A helper function has no stage of its own: a construct that
 * only one stage allows (discard, derivatives and implicit-derivative
 * sampling in fragment shaders; barriers, workgroupUniformLoad and
 * workgroup variables in compute shaders) is an error only when an entry
 * point of another stage can reach it through its calls (WGSL §Discard
 * Statement, §Derivative Built-in Functions, §Synchronization Built-in
 * Functions, §Address Spaces). pixel_local variables are fragment-only
 * (chromium_experimental_pixel_local), and an entry point statically
 * accesses at most one immediate data variable (§Address Spaces), and no two
 * resource variables it statically accesses share a @group and @binding
 * pair (§Resource Interface). Runs after every function body is resolved.
 */
#include <stdio.h>
#include <string.h>

#include "sema_int.h"

typedef struct walk {
  sctx *c;
  ast_decl *entry;
  uint8_t *seen; /* per module declaration */
  ast_decl *immediate; /* the immediate data variable the entry point uses */
  ast_decl **resources; /* the resource variables it uses, so far */
  int nres;
  int reported;
} walk;

static const char *const stage_names[] = {"", "compute", "vertex", "fragment", "compute and fragment"};

static void report(walk *w, src_span s, const char *what, int stage) {
  if (w->reported) return;
  w->reported = 1;
  diag_error(w->c->d, s, "%s is only allowed in %s shaders (reached from %s entry point '%s')", what,
             stage_names[stage], stage_names[w->entry->stage], w->entry->name);
}

static void report_vertex(walk *w, src_span s, const ast_decl *d, const char *what) {
  if (w->reported) return;
  w->reported = 1;
  diag_error(w->c->d, s, "vertex entry point '%s' uses '%s', %s (a vertex shader only reads its storage)",
             w->entry->name, d->name, what);
}

static void fn_body(walk *w, ast_decl *fn);
static void expr(void *ctx, ast_expr *e);
static void stmt(void *ctx, ast_stmt *s);

static const ast_visitor visit = {stmt, expr};

static void expr(void *ctx, ast_expr *e) {
  walk *w = ctx;
  if (w->reported) return;
  if (e->kind == EX_IDENT) {
    ast_decl *d = e->ref == REF_DECL && e->decl && e->decl->kind == DECL_VAR ? e->decl : NULL;
    if (d && d->space == AS_WORKGROUP && w->entry->stage != 1)
      report(w, e->span, "a workgroup variable", 1);
    /* §Address Spaces: a vertex shader accesses storage buffers read-only
     * and no write or read_write storage texture */
    if (d && w->entry->stage == 2 && d->space == AS_STORAGE && d->access == ACC_READ_WRITE)
      report_vertex(w, e->span, d, "a read_write storage buffer");
    if (d && w->entry->stage == 2 && d->rtype && d->rtype->kind == TY_TEXTURE &&
        d->rtype->tex_kind == TEX_STORAGE && d->rtype->access != ACC_READ)
      report_vertex(w, e->span, d, "a storage texture with write or read_write access");
    if (d && d->space == AS_PIXEL_LOCAL && w->entry->stage != 3)
      report(w, e->span, "a pixel_local variable", 3);
    if (d && d->group >= 0 && d->binding >= 0 && !w->seen[d->index]) {
      w->seen[d->index] = 1;
      for (int k = 0; k < w->nres && !w->reported; k++)
        if (w->resources[k]->group == d->group && w->resources[k]->binding == d->binding) {
          w->reported = 1;
          diag_error(w->c->d, e->span, "'%s' and '%s' both use @group(%d) @binding(%d) in entry point '%s'",
                     w->resources[k]->name, d->name, d->group, d->binding, w->entry->name);
        }
      w->resources[w->nres++] = d;
    }
    if (d && d->space == AS_IMMEDIATE) {
      if (w->immediate && w->immediate != d && !w->reported) {
        w->reported = 1;
        diag_error(w->c->d, e->span, "entry point '%s' uses two immediate data variables ('%s' and '%s')",
                   w->entry->name, w->immediate->name, d->name);
      }
      w->immediate = d;
    }
    return;
  }
  if (e->kind == EX_CALL && e->ref == REF_BUILTIN_FN) {
    /* builtins.def's STAGE column: the stages a built-in is restricted to
     * (before its arguments: the call is the more specific finding) */
    const builtin_stage st = builtin_fn_info((builtin_fn)e->builtin)->stage;
    int allowed = st == BS_ANY || (int)st == w->entry->stage || (st == BS_NOVERT && w->entry->stage != 2);
    if (!allowed) {
      char b[96];
      snprintf(b, sizeof b, "'%s'", builtin_fn_name((builtin_fn)e->builtin));
      report(w, e->span, b, st);
    }
  }
  ast_expr_children(e, &visit, w);
  if (e->kind != EX_CALL) return;
  if (e->ref == REF_DECL && e->decl && e->decl->kind == DECL_FN) {
    fn_body(w, e->decl);
  }
}

static void stmt(void *ctx, ast_stmt *s) {
  walk *w = ctx;
  if (w->reported) return;
  if (s->kind == ST_DISCARD && w->entry->stage != 3) report(w, s->span, "'discard'", 3);
  ast_stmt_children(s, &visit, w);
}

static void fn_body(walk *w, ast_decl *fn) {
  int i = fn->index;
  if (i < 0 || i >= w->c->m->ast->ndecls || w->seen[i]) return;
  w->seen[i] = 1;
  if (fn->body) stmt(w, fn->body);
}

void sema_check_stages(sctx *c) {
  /* after errors the call graph may be deeper than the resolver allows */
  if (c->d->errors) return;
  ast_module *am = c->m->ast;
  for (int i = 0; i < am->ndecls; i++) {
    ast_decl *d = am->decls[i];
    if (d->kind != DECL_FN || !d->stage || !d->body) continue;
    walk w = {c, d, arena_alloc(&c->m->arena, (size_t)am->ndecls + 1), NULL,
              arena_alloc(&c->m->arena, sizeof(ast_decl *) * ((size_t)am->ndecls + 1)), 0, 0};
    if (!w.seen || !w.resources) return;
    memset(w.seen, 0, (size_t)am->ndecls + 1);
    fn_body(&w, d);
  }
}
