/*
 * lint.c — static findings for `lockstep check SHADER.wgsl`: mistakes the
 * seed lessons warn about that are valid WGSL, found on the resolved module
 * (wgsl/ast.h after the resolver), before any pipeline exists. Each finding
 * has an id, a message, a span and a suggested fix.
 *
 *   workgroup-size-lanes     size not a multiple of 64: idle lanes per width
 *   workgroup-size-limit     a dimension or the product over the defaults
 *   workgroup-storage-limit  var<workgroup> bytes over 16,384, per variable
 *   missing-guard            a global index into a storage array with no
 *                            comparison before it
 *   arraylength-guard        (note) a guard against arrayLength of a buffer
 *                            the shader writes: a pool's capacity, not its
 *                            live count
 *   dispatch-2d-index        global_invocation_id.x indexes while
 *                            workgroup_id.y is used: a 2D dispatch whose
 *                            index was not rebuilt
 *   uniform-standard-layout  a uniform buffer's type breaks the uniform
 *                            rules that apply without the language
 *                            extension uniform_buffer_standard_layout
 *                            (stride 16, member offsets, space after a
 *                            struct member); module-wide, silent when the
 *                            module requires the extension
 * A barrier in non-uniform control flow is the front end's error (the
 * spec's uniformity analysis, wgsl/uniformity.c), not a lint finding.
 *
 * "Before it" for the guard is structural: a comparison that involves the
 * index in the condition of an enclosing if/loop, or in an earlier if of an
 * enclosing block whose branch leaves (return, break, continue).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../wgsl/sema.h"
#include "check.h"

#define LINT_MAX_SET 256

typedef struct lint_ctx {
  chk_lint *out;
  ast_decl *fn;
  ast_decl *taint[LINT_MAX_SET]; /* values derived from a global index */
  int ntaint;
  ast_decl *guarded[LINT_MAX_SET];
  int nguarded;
  ast_decl *reported[LINT_MAX_SET]; /* storage variables already reported */
  int nreported;
  int uses_wid_y;
  ast_expr *gid_x_index; /* an index built from global_invocation_id.x */
  uint8_t *callee_seen;  /* per module declaration: walked into already */
  int ndecls;
} lint_ctx;

/* Whether a walk over what an entry point reaches should go into the
 * function e calls: each function once per walk, since functions that
 * call the next twice would otherwise be walked 2^depth times. */
static int lint_enter_call(lint_ctx *c, const ast_expr *e) {
  if (e->kind != EX_CALL || !e->decl || e->decl->kind != DECL_FN || !e->decl->body) return 0;
  const int i = e->decl->index;
  if (i < 0 || i >= c->ndecls || c->callee_seen[i]) return 0;
  c->callee_seen[i] = 1;
  return 1;
}

/* Starts a new walk from the entry point. */
static void lint_walk_reset(lint_ctx *c) { memset(c->callee_seen, 0, (size_t)c->ndecls); }

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void lint_add(chk_lint *l, const char *id, diag_severity sev, src_span span,
                     const char *fmt, ...) {
  if (l->count == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 8;
    chk_lint_finding *n = realloc(l->items, nc * sizeof *n);
    if (!n) return;
    l->items = n;
    l->cap = nc;
  }
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  /* "message|fix" */
  char *bar = strchr(buf, '|');
  if (bar) *bar = 0;
  chk_lint_finding *f = &l->items[l->count];
  f->id = id;
  f->severity = sev;
  f->span = span;
  f->message = strdup(buf);
  f->fix = bar ? strdup(bar + 1) : NULL;
  if (f->message) l->count++;
  else free(f->fix);
}

static int lint_in(ast_decl *const *set, int n, const ast_decl *d) {
  for (int i = 0; i < n; i++)
    if (set[i] == d) return 1;
  return 0;
}

static int lint_is_builtin_param(const ast_decl *d, int bv) {
  return d && d->kind == DECL_PARAM && d->builtin_value == bv;
}

/* Does e refer to a global-index value? */
static int lint_tainted(lint_ctx *c, const ast_expr *e) {
  if (!e) return 0;
  switch (e->kind) {
  case EX_IDENT:
    return e->decl && (lint_is_builtin_param(e->decl, BV_GLOBAL_INVOCATION_ID) ||
                       lint_is_builtin_param(e->decl, BV_GLOBAL_INVOCATION_INDEX) ||
                       lint_in(c->taint, c->ntaint, e->decl));
  case EX_CALL:
    for (int i = 0; i < e->u.call.nargs; i++)
      if (lint_tainted(c, e->u.call.args[i])) return 1;
    return 0;
  case EX_INDEX: return lint_tainted(c, e->u.index.base) || lint_tainted(c, e->u.index.index);
  case EX_MEMBER: return lint_tainted(c, e->u.member.base);
  case EX_UNARY: return lint_tainted(c, e->u.unary.operand);
  case EX_BINARY: return lint_tainted(c, e->u.binary.lhs) || lint_tainted(c, e->u.binary.rhs);
  default: return 0;
  }
}

/* Does e mention a guarded decl, or clamp its value (%, min, select)? */
static int lint_guarded(lint_ctx *c, const ast_expr *e) {
  if (!e) return 0;
  switch (e->kind) {
  case EX_IDENT: return e->decl && lint_in(c->guarded, c->nguarded, e->decl);
  case EX_CALL:
    if (e->ref == REF_BUILTIN_FN) {
      const char *n = e->u.call.callee ? e->u.call.callee->u.ident.name : "";
      if (n && (!strcmp(n, "min") || !strcmp(n, "clamp") || !strcmp(n, "select"))) return 1;
    }
    for (int i = 0; i < e->u.call.nargs; i++)
      if (lint_guarded(c, e->u.call.args[i])) return 1;
    return 0;
  case EX_INDEX: return lint_guarded(c, e->u.index.index);
  case EX_MEMBER: return lint_guarded(c, e->u.member.base);
  case EX_UNARY: return lint_guarded(c, e->u.unary.operand);
  case EX_BINARY:
    if (e->u.binary.op == BIN_MOD || e->u.binary.op == BIN_AND) return 1;
    return lint_guarded(c, e->u.binary.lhs) || lint_guarded(c, e->u.binary.rhs);
  default: return 0;
  }
}

/* The variable a memory view is rooted at. */
static ast_decl *lint_root(const ast_expr *e) {
  while (e) {
    if (e->kind == EX_IDENT) return e->decl && e->decl->kind == DECL_VAR ? e->decl : NULL;
    if (e->kind == EX_INDEX) e = e->u.index.base;
    else if (e->kind == EX_MEMBER) e = e->u.member.base;
    else if (e->kind == EX_UNARY && (e->u.unary.op == UN_DEREF || e->u.unary.op == UN_ADDR))
      e = e->u.unary.operand;
    else return NULL;
  }
  return NULL;
}

/* Every decl of a guarded-value set mentioned by e. */
static void lint_mark(lint_ctx *c, const ast_expr *e) {
  if (!e) return;
  switch (e->kind) {
  case EX_IDENT:
    if (e->decl && !lint_in(c->guarded, c->nguarded, e->decl) && c->nguarded < LINT_MAX_SET)
      c->guarded[c->nguarded++] = e->decl;
    return;
  case EX_CALL:
    for (int i = 0; i < e->u.call.nargs; i++) lint_mark(c, e->u.call.args[i]);
    return;
  case EX_INDEX: lint_mark(c, e->u.index.base); lint_mark(c, e->u.index.index); return;
  case EX_MEMBER: lint_mark(c, e->u.member.base); return;
  case EX_UNARY: lint_mark(c, e->u.unary.operand); return;
  case EX_BINARY: lint_mark(c, e->u.binary.lhs); lint_mark(c, e->u.binary.rhs); return;
  default: return;
  }
}

static int lint_writes(const ast_stmt *s, const ast_decl *v);

/* Comparisons in a condition guard what they compare; a comparison with
 * arrayLength of a buffer the entry point writes is the pool pitfall. */
static int lint_has_alen(const ast_expr *e) {
  if (!e) return 0;
  if (e->kind == EX_CALL && e->ref == REF_BUILTIN_FN && builtin_fn_kind((builtin_fn)e->builtin) == BK_ALEN)
    return 1;
  if (e->kind == EX_BINARY) return lint_has_alen(e->u.binary.lhs) || lint_has_alen(e->u.binary.rhs);
  if (e->kind == EX_UNARY) return lint_has_alen(e->u.unary.operand);
  return 0;
}

/* A comparison in e against something other than arrayLength: a live count. */
static int lint_other_bound(const ast_expr *e) {
  if (!e || e->kind != EX_BINARY) return e && e->kind == EX_UNARY ? lint_other_bound(e->u.unary.operand) : 0;
  ast_binop op = e->u.binary.op;
  if (op == BIN_LAND || op == BIN_LOR) return lint_other_bound(e->u.binary.lhs) || lint_other_bound(e->u.binary.rhs);
  if (op == BIN_LT || op == BIN_LE || op == BIN_GT || op == BIN_GE) return !lint_has_alen(e);
  return 0;
}

static void lint_condition_in(lint_ctx *c, const ast_expr *e, int other);

static void lint_condition(lint_ctx *c, const ast_expr *e) { lint_condition_in(c, e, lint_other_bound(e)); }

static void lint_condition_in(lint_ctx *c, const ast_expr *e, int other) {
  if (!e) return;
  if (e->kind == EX_BINARY) {
    ast_binop op = e->u.binary.op;
    if (op == BIN_LAND || op == BIN_LOR) {
      lint_condition_in(c, e->u.binary.lhs, other);
      lint_condition_in(c, e->u.binary.rhs, other);
      return;
    }
    if (op == BIN_LT || op == BIN_LE || op == BIN_GT || op == BIN_GE) {
      lint_mark(c, e->u.binary.lhs);
      lint_mark(c, e->u.binary.rhs);
      const ast_expr *sides[2] = {e->u.binary.lhs, e->u.binary.rhs};
      for (int k = 0; k < 2; k++) {
        const ast_expr *x = sides[k];
        if (x->kind != EX_CALL || x->ref != REF_BUILTIN_FN ||
            builtin_fn_kind((builtin_fn)x->builtin) != BK_ALEN || x->u.call.nargs < 1)
          continue;
        ast_decl *v = lint_root(x->u.call.args[0]);
        if (!other && v && v->space == AS_STORAGE && v->access == ACC_READ_WRITE &&
            lint_writes(c->fn->body, v))
          lint_add(c->out, "arraylength-guard", DIAG_NOTE, e->span,
                   "this guard compares with arrayLength(&%s), the capacity of a buffer the shader "
                   "writes: when the buffer is larger than its live data (a pool of capacity C "
                   "with n live), the invocations past n still write|compare with the live count "
                   "instead, passed in a uniform (if (i >= params.count) { return; })",
                   v->name);
      }
    }
  }
  if (e->kind == EX_UNARY) lint_condition_in(c, e->u.unary.operand, other);
}

static void lint_expr(lint_ctx *c, ast_expr *e);
static void lint_expr_w(lint_ctx *c, ast_expr *e, int write);

static void lint_index(lint_ctx *c, ast_expr *e, int write) {
  ast_decl *v = lint_root(e->u.index.base);
  ast_expr *ix = e->u.index.index;
  /* global_invocation_id.x as (part of) an index */
  if (!c->gid_x_index && ix && lint_tainted(c, ix)) {
    const ast_expr *x = ix;
    while (x && x->kind == EX_BINARY) x = x->u.binary.lhs;
    if (x && x->kind == EX_MEMBER && x->nswizzle == 1 && x->swizzle[0] == 0 &&
        x->u.member.base->kind == EX_IDENT &&
        lint_is_builtin_param(x->u.member.base->decl, BV_GLOBAL_INVOCATION_ID))
      c->gid_x_index = e;
    else if (x && x->kind == EX_IDENT && x->decl && x->decl->init &&
             x->decl->init->kind == EX_MEMBER && x->decl->init->nswizzle == 1 &&
             x->decl->init->swizzle[0] == 0 && x->decl->init->u.member.base->kind == EX_IDENT &&
             lint_is_builtin_param(x->decl->init->u.member.base->decl, BV_GLOBAL_INVOCATION_ID))
      c->gid_x_index = e;
  }
  /* writes only: the lessons' story is the extra invocations that write;
   * a read past the end gives zeros (and a read-only input sized to the
   * dispatch is common) */
  if (!write || !v || v->space != AS_STORAGE || !ix) return;
  if (!lint_tainted(c, ix) || lint_guarded(c, ix)) return;
  if (lint_in(c->reported, c->nreported, v) || c->nreported >= LINT_MAX_SET) return;
  c->reported[c->nreported++] = v;
  lint_add(c->out, "missing-guard", DIAG_WARNING, e->span,
           "'%s' is indexed with a global invocation index that nothing compared with the "
           "element count: the dispatch is rounded up to whole workgroups, so the last "
           "workgroup's extra invocations access past the data|return early when the index "
           "is past the logical count: if (i >= params.count) { return; }",
           v->name);
}

static void lint_expr(lint_ctx *c, ast_expr *e) { lint_expr_w(c, e, 0); }

/* write: e is the left-hand side of an assignment */
static void lint_expr_w(lint_ctx *c, ast_expr *e, int write) {
  if (!e) return;
  switch (e->kind) {
  case EX_CALL:
    for (int i = 0; i < e->u.call.nargs; i++) lint_expr(c, e->u.call.args[i]);
    return;
  case EX_INDEX:
    lint_index(c, e, write);
    lint_expr_w(c, e->u.index.base, write);
    lint_expr(c, e->u.index.index);
    return;
  case EX_MEMBER:
    if (e->nswizzle == 1 && e->swizzle[0] == 1 && e->u.member.base->kind == EX_IDENT &&
        lint_is_builtin_param(e->u.member.base->decl, BV_WORKGROUP_ID))
      c->uses_wid_y = 1;
    lint_expr_w(c, e->u.member.base, write);
    return;
  case EX_UNARY: lint_expr(c, e->u.unary.operand); return;
  case EX_BINARY:
    lint_expr(c, e->u.binary.lhs);
    lint_expr(c, e->u.binary.rhs);
    return;
  default: return;
  }
}

static int lint_writes(const ast_stmt *s, const ast_decl *v) {
  if (!s) return 0;
  switch (s->kind) {
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.n; i++)
      if (lint_writes(s->u.block.stmts[i], v)) return 1;
    return 0;
  case ST_ASSIGN: return s->u.assign.lhs && lint_root(s->u.assign.lhs) == v;
  case ST_INCDEC: return lint_root(s->u.incdec.lhs) == v;
  case ST_IF: return lint_writes(s->u.if_.then, v) || lint_writes(s->u.if_.else_, v);
  case ST_LOOP: case ST_FOR: case ST_WHILE:
    return lint_writes(s->u.loop.body, v) || lint_writes(s->u.loop.continuing, v) ||
           lint_writes(s->u.loop.init, v) || lint_writes(s->u.loop.update, v);
  case ST_SWITCH:
    for (int i = 0; i < s->u.switch_.ncases; i++)
      if (lint_writes(s->u.switch_.cases[i].body, v)) return 1;
    return 0;
  default: return 0;
  }
}

/* Does the statement (a branch) always leave: return, break, continue? */
static int lint_leaves(const ast_stmt *s) {
  if (!s) return 0;
  if (s->kind == ST_RETURN || s->kind == ST_BREAK || s->kind == ST_CONTINUE) return 1;
  if (s->kind == ST_BLOCK && s->u.block.n) return lint_leaves(s->u.block.stmts[s->u.block.n - 1]);
  return 0;
}

static void lint_stmt(lint_ctx *c, ast_stmt *s);

static void lint_block(lint_ctx *c, ast_stmt *s) {
  if (!s) return;
  int mark = c->nguarded;
  if (s->kind == ST_BLOCK)
    for (int i = 0; i < s->u.block.n; i++) lint_stmt(c, s->u.block.stmts[i]);
  else
    lint_stmt(c, s);
  c->nguarded = mark;
}

static void lint_stmt(lint_ctx *c, ast_stmt *s) {
  if (!s) return;
  switch (s->kind) {
  case ST_BLOCK: lint_block(c, s); return;
  case ST_DECL: {
    ast_decl *d = s->u.decl;
    lint_expr(c, d->init);
    if (d->init && lint_tainted(c, d->init) && c->ntaint < LINT_MAX_SET) c->taint[c->ntaint++] = d;
    return;
  }
  case ST_ASSIGN:
    lint_expr_w(c, s->u.assign.lhs, 1);
    lint_expr(c, s->u.assign.rhs);
    if (s->u.assign.lhs && s->u.assign.lhs->kind == EX_IDENT && s->u.assign.lhs->decl &&
        lint_tainted(c, s->u.assign.rhs) && c->ntaint < LINT_MAX_SET &&
        !lint_in(c->taint, c->ntaint, s->u.assign.lhs->decl))
      c->taint[c->ntaint++] = s->u.assign.lhs->decl;
    return;
  case ST_INCDEC: lint_expr_w(c, s->u.incdec.lhs, 1); return;
  case ST_CALL: lint_expr(c, s->u.call); return;
  case ST_RETURN: case ST_BREAK_IF: lint_expr(c, s->u.expr); return;
  case ST_IF: {
    lint_expr(c, s->u.if_.cond);
    int mark = c->nguarded;
    lint_condition(c, s->u.if_.cond);
    lint_block(c, s->u.if_.then);
    lint_block(c, s->u.if_.else_);
    /* an early exit guards what follows in this block */
    if (!lint_leaves(s->u.if_.then) && !lint_leaves(s->u.if_.else_)) c->nguarded = mark;
    return;
  }
  case ST_SWITCH:
    lint_expr(c, s->u.switch_.selector);
    for (int i = 0; i < s->u.switch_.ncases; i++) lint_block(c, s->u.switch_.cases[i].body);
    return;
  case ST_LOOP: case ST_FOR: case ST_WHILE: {
    int mark = c->nguarded;
    lint_stmt(c, s->u.loop.init);
    lint_expr(c, s->u.loop.cond);
    lint_condition(c, s->u.loop.cond);
    lint_block(c, s->u.loop.body);
    lint_block(c, s->u.loop.continuing);
    lint_stmt(c, s->u.loop.update);
    c->nguarded = mark;
    return;
  }
  default: return;
  }
}

/* -------------------------------------------------------- workgroup size */

static int lint_const_u(const ast_expr *e, uint64_t *out) {
  if (!e) {
    *out = 1;
    return 1;
  }
  if (!e->cval || e->is_override_expr) return 0;
  if (e->cval->i <= 0) return 0;
  *out = (uint64_t)e->cval->i;
  return 1;
}

static void lint_workgroup(lint_ctx *c, ast_decl *fn) {
  uint64_t s[3];
  src_span at = fn->name_span;
  for (int i = 0; i < fn->nattrs; i++)
    if (!strcmp(fn->attrs[i].name, "workgroup_size")) at = fn->attrs[i].span;
  for (int i = 0; i < 3; i++)
    if (!lint_const_u(fn->wg_size[i], &s[i])) return; /* override-sized: known per pipeline */
  uint64_t n = s[0] * s[1] * s[2];
  if (n == 1) return; /* one invocation for a scalar task (lesson 000's preparar) is deliberate */
  static const uint64_t lim[3] = {256, 256, 64};
  for (int i = 0; i < 3; i++)
    if (s[i] > lim[i])
      lint_add(c->out, "workgroup-size-limit", DIAG_WARNING, at,
               "workgroup size %c = %llu is over the default maxComputeWorkgroupSize%c (%llu): "
               "pipeline creation fails unless the device was created with a higher limit|use at "
               "most %llu, or request maxComputeWorkgroupSize%c in requiredLimits",
               "xyz"[i], (unsigned long long)s[i], "XYZ"[i], (unsigned long long)lim[i],
               (unsigned long long)lim[i], "XYZ"[i]);
  if (n > 256)
    lint_add(c->out, "workgroup-size-limit", DIAG_WARNING, at,
             "@workgroup_size(%llu, %llu, %llu) is %llu invocations, over the default "
             "maxComputeInvocationsPerWorkgroup (256): each dimension may be within its limit "
             "but the product is not|keep the product at most 256, or request "
             "maxComputeInvocationsPerWorkgroup in requiredLimits",
             (unsigned long long)s[0], (unsigned long long)s[1], (unsigned long long)s[2],
             (unsigned long long)n);
  /* @subgroup_size(N) pins the width, and x is a multiple of N (the
   * resolver and pipeline creation check it): no lane is idle */
  uint64_t pinned = 0;
  if (fn->sg_size && lint_const_u(fn->sg_size, &pinned) && pinned && n % pinned == 0) return;
  if (n % 64) {
    char detail[300];
    size_t o = 0;
    static const uint64_t widths[] = {32, 64, 16, 8};
    for (int k = 0; k < 4; k++) {
      uint64_t w = widths[k];
      if (n % w == 0) continue;
      uint64_t lanes = (n + w - 1) / w * w;
      o += (size_t)snprintf(detail + o, sizeof detail - o, "%s%llu -> %llu lanes at W = %llu, %.1f%% idle",
                            o ? "; " : "", (unsigned long long)n, (unsigned long long)lanes,
                            (unsigned long long)w, 100.0 * (double)(lanes - n) / (double)lanes);
      if (o >= sizeof detail) break;
    }
    uint64_t up = (n + 63) / 64 * 64;
    lint_add(c->out, "workgroup-size-lanes", DIAG_WARNING, at,
             "a workgroup of %llu invocations is not a multiple of the subgroup width of every "
             "common GPU (8, 16, 32, 64): %s|use a multiple of 64, e.g. @workgroup_size(%llu)",
             (unsigned long long)n, detail, (unsigned long long)(up > 256 ? 64 : up));
  }
}

/* Workgroup variables an entry point uses, and their bytes (the spec's
 * roundUp(16, SizeOf(T))). */
typedef struct lint_wgset {
  lint_ctx *c;
  ast_decl **set;
  int *n;
} lint_wgset;

static void lint_collect_wg(void *ctx, ast_expr *e);
static void lint_collect_stmt(void *ctx, ast_stmt *s);

static const ast_visitor lint_wg_walk = {lint_collect_stmt, lint_collect_wg};

static void lint_collect_stmt(void *ctx, ast_stmt *s) { ast_stmt_children(s, &lint_wg_walk, ctx); }

static void lint_collect_wg(void *ctx, ast_expr *e) {
  lint_wgset *w = ctx;
  if (e->kind == EX_IDENT && e->decl && e->decl->kind == DECL_VAR && e->decl->space == AS_WORKGROUP &&
      !lint_in(w->set, *w->n, e->decl) && *w->n < LINT_MAX_SET)
    w->set[(*w->n)++] = e->decl;
  /* a user function: its variables count for the entry point */
  if (lint_enter_call(w->c, e)) lint_collect_stmt(w, e->decl->body);
  ast_expr_children(e, &lint_wg_walk, w);
}

static void lint_storage(lint_ctx *c, ast_decl *fn) {
  ast_decl *set[LINT_MAX_SET];
  int n = 0;
  lint_wgset w = {c, set, &n};
  lint_walk_reset(c);
  lint_collect_stmt(&w, fn->body);
  uint64_t total = 0;
  char detail[600];
  size_t o = 0;
  detail[0] = 0;
  for (int i = 0; i < n; i++) {
    const type *t = set[i]->rtype;
    if (!t || (t->kind == TY_ARRAY && t->n == 0)) return; /* override-sized: per pipeline */
    uint64_t b = ((uint64_t)t->size + 15) / 16 * 16;
    total += b;
    if (o < sizeof detail)
      o += (size_t)snprintf(detail + o, sizeof detail - o, "%s'%s' %llu bytes", o ? ", " : "",
                            set[i]->name, (unsigned long long)b);
  }
  if (total > 16384)
    lint_add(c->out, "workgroup-storage-limit", DIAG_WARNING, fn->name_span,
             "entry point '%s' uses %llu bytes of workgroup storage (%s), over the default "
             "maxComputeWorkgroupStorageSize (16384 bytes) by %llu bytes|make the tiles smaller "
             "(a 64 x 64 f32 tile alone is 16384 bytes), or request "
             "maxComputeWorkgroupStorageSize in requiredLimits",
             fn->name, (unsigned long long)total, detail, (unsigned long long)(total - 16384));
}

/* ------------------------------------------- uniform-buffer portability */

/* lockstep implements the language extension uniform_buffer_standard_layout:
 * uniform buffers have the storage layout. An implementation without it
 * applies the uniform rules of §Address Space Layout Constraints, and
 * rejects the module at shader creation. Each violated rule is reported
 * once per structure member (or once per variable for an array that is the
 * store type itself), naming the first uniform variable that reaches it. */
typedef struct lint_ul {
  chk_lint *out;
  const ast_decl *var;
  const type *seen[LINT_MAX_SET]; /* structures already checked */
  int nseen;
} lint_ul;

static uint32_t lint_round16(uint32_t n) { return (n + 15u) / 16u * 16u; }

static int lint_is_32bit(const type *t) {
  return t && (t->kind == TY_F32 || t->kind == TY_I32 || t->kind == TY_U32);
}

/* An array whose stride is not a multiple of 16. */
static void lint_ul_stride(lint_ul *u, const type *t, const char *path, src_span at) {
  char tn[128], en[96], fix[400];
  type_name(t, tn, sizeof tn);
  const type *e = t->elem;
  type_name(lint_is_32bit(e) ? e : e->kind == TY_VEC ? e->elem : e, en, sizeof en);
  /* 4 or 8 bytes: scalars or vec2 of 32 bits */
  uint32_t per = 16u / t->stride;
  if (t->n && (lint_is_32bit(e) || (e->kind == TY_VEC && e->n == 2 && lint_is_32bit(e->elem))))
    snprintf(fix, sizeof fix,
             "use vec4<%s> elements: array<vec4<%s>, %u> holds the same values, %u per element%s",
             en, en, (t->n + per - 1) / per, per,
             lint_is_32bit(e) ? " (element i at [i / 4][i % 4])" : " (.xy and .zw)");
  else
    snprintf(fix, sizeof fix, "wrap the element in a struct whose member has @size(%u)",
             lint_round16(t->stride));
  lint_add(u->out, "uniform-standard-layout", DIAG_WARNING, at,
           "uniform buffer '%s': '%s' (%s) has an element stride of %u bytes; without the language "
           "extension uniform_buffer_standard_layout, array elements in the uniform address "
           "space must be aligned to 16 bytes (a stride that is a multiple of 16), so such "
           "implementations reject the module|%s; or add `requires "
           "uniform_buffer_standard_layout;` to state that the module needs the extension",
           u->var->name, path, tn, t->stride, fix);
}

static void lint_ul_type(lint_ul *u, const type *t, const char *path, src_span at) {
  if (!t) return;
  if (t->kind == TY_ARRAY) {
    if (t->stride % 16u && t->elem) lint_ul_stride(u, t, path, at);
    char p[256];
    snprintf(p, sizeof p, "%s[i]", path);
    lint_ul_type(u, t->elem, p, at);
    return;
  }
  if (t->kind != TY_STRUCT) return;
  for (int i = 0; i < u->nseen; i++)
    if (u->seen[i] == t) return;
  if (u->nseen < LINT_MAX_SET) u->seen[u->nseen++] = t;
  const char *sn = t->name ? t->name : "?";
  for (int i = 0; i < t->nfields; i++) {
    const type_field *f = &t->fields[i];
    const type *ft = f->type;
    src_span fat = f->decl ? f->decl->name_span : f->span;
    char p[256], tn[128];
    snprintf(p, sizeof p, "%s.%s", path, f->name);
    if (ft && (ft->kind == TY_ARRAY || ft->kind == TY_STRUCT)) {
      /* RequiredAlignOf(T, uniform) = roundUp(16, AlignOf(T)); the offset
       * is already a multiple of AlignOf(T) */
      uint32_t req = ft->align > 16u ? ft->align : 16u;
      if (f->offset % req) {
        type_name(ft, tn, sizeof tn);
        lint_add(u->out, "uniform-standard-layout", DIAG_WARNING, fat,
                 "uniform buffer '%s': member '%s' of struct '%s' (%s) is at offset %u; without "
                 "the language extension uniform_buffer_standard_layout, a member of structure "
                 "or array type in the uniform address space needs an offset that is a multiple "
                 "of RequiredAlignOf = roundUp(16, AlignOf(%s)) = %u, so such implementations "
                 "reject the module|add @align(%u) to member '%s'; or add `requires "
                 "uniform_buffer_standard_layout;` to state that the module needs the extension",
                 u->var->name, f->name, sn, tn, f->offset, tn, req, req, f->name);
      }
    }
    const type_field *prev = i ? &t->fields[i - 1] : NULL;
    if (prev && prev->type && prev->type->kind == TY_STRUCT &&
        f->offset - prev->offset < lint_round16(prev->type->size)) {
      uint32_t need = lint_round16(prev->type->size);
      const char *pn = prev->type->name ? prev->type->name : "?";
      lint_add(u->out, "uniform-standard-layout", DIAG_WARNING, fat,
               "uniform buffer '%s': member '%s' of struct '%s' starts %u bytes after member '%s' "
               "of structure type '%s'; without the language extension "
               "uniform_buffer_standard_layout, a member that follows a structure member in the "
               "uniform address space must start at least roundUp(16, SizeOf(%s)) = %u bytes "
               "after it, so such implementations reject the module|add @align(16) to member "
               "'%s', or @size(%u) to member '%s'; or add `requires "
               "uniform_buffer_standard_layout;` to state that the module needs the extension",
               u->var->name, f->name, sn, f->offset - prev->offset, prev->name, pn, pn, need,
               f->name, need, prev->name);
    }
    lint_ul_type(u, ft, p, fat);
  }
}

/* sampler-layout-auto: a `sampler` read with a depth or integer texture.
 * Layout "auto" makes every `sampler` a "filtering" one, and WebGPU's
 * pipeline validation rejects a filtering sampler used with a texture
 * whose sample type is not "float": the module is valid, its pipeline
 * with layout "auto" is not. Each function is walked once, so each call is
 * reported once. */

static void lint_smp_expr(void *ctx, ast_expr *e);
static void lint_smp_stmt(void *ctx, ast_stmt *s);
static const ast_visitor lint_smp_walk = {lint_smp_stmt, lint_smp_expr};

static void lint_smp_stmt(void *ctx, ast_stmt *s) { ast_stmt_children(s, &lint_smp_walk, ctx); }

static void lint_smp_expr(void *ctx, ast_expr *e) {
  lint_ctx *c = ctx;
  if (e->kind == EX_CALL && e->ref == REF_BUILTIN_FN &&
      builtin_fn_kind((builtin_fn)e->builtin) == BK_TEX) {
    const ast_expr *tex = NULL, *smp = NULL;
    for (int i = 0; i < e->u.call.nargs; i++) {
      const type *t = type_unref(e->u.call.args[i]->type);
      if (t && t->kind == TY_TEXTURE && !tex) tex = e->u.call.args[i];
      if (t && t->kind == TY_SAMPLER && !t->tex_kind) smp = e->u.call.args[i];
    }
    const type *tt = tex ? type_unref(tex->type) : NULL;
    const int depth = tt && (tt->tex_kind == TEX_DEPTH || tt->tex_kind == TEX_DEPTH_MS);
    const int integer = tt && tt->tex_kind == TEX_SAMPLED && tt->elem &&
                        (tt->elem->kind == TY_I32 || tt->elem->kind == TY_U32);
    if (smp && (depth || integer)) {
      const char *sn = smp->kind == EX_IDENT ? smp->u.ident.name : "the sampler";
      const char *tn = tex->kind == EX_IDENT ? tex->u.ident.name : "the texture";
      const char *st = depth ? "depth" : tt->elem->kind == TY_I32 ? "sint" : "uint";
      lint_add(c->out, "sampler-layout-auto", DIAG_WARNING, e->span,
               "'%s' is a sampler read with the %s texture '%s': layout \"auto\" makes it a "
               "\"filtering\" sampler, and WebGPU rejects a filtering sampler with a texture "
               "whose sample type is not \"float\", so creating this pipeline with layout "
               "\"auto\" fails|give the pipeline an explicit layout whose entry for '%s' is a "
               "\"non-filtering\" sampler (and '%s' sampleType \"%s\")",
               sn, depth ? "depth" : "integer", tn, sn, tn, st);
    }
  }
  if (lint_enter_call(c, e)) lint_smp_stmt(c, e->decl->body);
  ast_expr_children(e, &lint_smp_walk, c);
}

/* A module that requires the extension already fails where it is missing,
 * whatever its layout (§Language Extensions: a requires-directive naming an
 * unsupported extension is a shader-creation error), so nothing is left to
 * warn about. */
static void lint_uniform_layout(const ast_module *am, chk_lint *out) {
  for (int i = 0; i < am->ndirectives; i++) {
    const ast_directive *dv = &am->directives[i];
    if (dv->kind != DIR_REQUIRES) continue;
    for (int k = 0; k < dv->nnames; k++)
      if (!strcmp(dv->names[k], "uniform_buffer_standard_layout")) return;
  }
  lint_ul *u = calloc(1, sizeof *u);
  if (!u) return;
  u->out = out;
  for (int i = 0; i < am->ndecls; i++) {
    const ast_decl *d = am->decls[i];
    if (d->kind != DECL_VAR || d->space != AS_UNIFORM || !d->rtype) continue;
    u->var = d;
    lint_ul_type(u, d->rtype, d->name, d->name_span);
  }
  free(u);
}

int chk_lint_module(const struct wgsl_module *m, chk_lint *out) {
  if (!m || !m->ast) return 0;
  size_t before = out->count;
  ast_module *am = m->ast;
  lint_uniform_layout(am, out);
  for (int i = 0; i < am->ndecls; i++) {
    ast_decl *fn = am->decls[i];
    if (fn->kind != DECL_FN || fn->stage != 1 || !fn->body) continue;
    lint_ctx *c = calloc(1, sizeof *c);
    uint8_t *seen = calloc((size_t)am->ndecls + 1, 1);
    if (!c || !seen) {
      free(c);
      free(seen);
      break;
    }
    c->out = out;
    c->fn = fn;
    c->callee_seen = seen;
    c->ndecls = am->ndecls;
    lint_workgroup(c, fn);
    lint_storage(c, fn);
    lint_walk_reset(c);
    lint_smp_stmt(c, fn->body);
    lint_block(c, fn->body);
    if (c->gid_x_index && c->uses_wid_y)
      lint_add(out, "dispatch-2d-index", DIAG_WARNING, c->gid_x_index->span,
               "global_invocation_id.x indexes here while the entry point also uses "
               "workgroup_id.y: with a 2D dispatch (x, y) global_invocation_id.x covers only "
               "the X axis, so every row of workgroups repeats the same indices|rebuild the "
               "index by hand: let i = (wid.y * WIDTH + wid.x) * WORKGROUP_SIZE + "
               "local_invocation_index");
    free(seen);
    free(c);
  }
  return (int)(out->count - before);
}

void chk_lint_free(chk_lint *l) {
  for (size_t i = 0; i < l->count; i++) {
    free(l->items[i].message);
    free(l->items[i].fix);
  }
  free(l->items);
  memset(l, 0, sizeof *l);
}

char *chk_lint_format(const chk_lint *l, const char *src, size_t len, const char *file) {
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < l->count; i++) {
    const chk_lint_finding *f = &l->items[i];
    diag g;
    g.severity = f->severity;
    g.span = f->span;
    size_t k = strlen(f->message) + strlen(f->id) + 8;
    g.message = malloc(k);
    if (!g.message) continue;
    snprintf(g.message, k, "%s [%s]", f->message, f->id);
    diag_format_one(&g, src, len, file, &buf, &n, &cap);
    free(g.message);
    if (f->fix) {
      diag h = {DIAG_NOTE, f->span, NULL};
      size_t kk = strlen(f->fix) + 8;
      h.message = malloc(kk);
      if (!h.message) continue;
      snprintf(h.message, kk, "fix: %s", f->fix);
      /* the fix as a note without repeating the source line */
      uint32_t line, col;
      diag_line_col(src, len, f->span.start, &line, &col);
      char head[1200];
      int hk = snprintf(head, sizeof head, "%s:%u:%u note: %s\n", file ? file : "<input>", line, col,
                        h.message);
      if (hk > 0) {
        size_t add = (size_t)hk < sizeof head ? (size_t)hk : sizeof head - 1;
        if (n + add + 1 > cap) {
          size_t nc = cap ? cap * 2 : 256;
          while (nc < n + add + 1) nc *= 2;
          char *p = realloc(buf, nc);
          if (!p) {
            free(h.message);
            continue;
          }
          buf = p;
          cap = nc;
        }
        memcpy(buf + n, head, add);
        n += add;
        buf[n] = 0;
      }
      free(h.message);
    }
  }
  return buf;
}
