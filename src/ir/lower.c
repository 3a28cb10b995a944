/*
 * lower.c — pipeline creation: a resolved module + entry point + override
 * values -> an ir_program for the SIMT VM.
 *
 * Control flow is structured, and lanes reconverge through mask slots:
 *   if:    MSAVE M; MAND c; JNONE else; <then>; else: MANDN M,c; JNONE end;
 *          <else>; end: MLOAD M
 *   loop:  MSAVE E; MSAVE L; top: MSAVE C; <body>; cont: MLOAD C;
 *          <continuing>; MLOAD L; JANY top; MLOAD E
 * return/break/continue KILL their lanes from every slot between the target
 * construct and the current nesting (so those lanes stay off until the
 * construct ends) and jump to the innermost body end, where the mask is
 * rebuilt. User functions are inlined (WGSL has no recursion), so a call
 * needs no stack. Expressions are in lower_expr.c, the placement of
 * module-scope variables in lower_global.c, the emitter in emit.c (emit.h
 * draws who calls whom).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_int.h"

/* --------------------------------------------------------------- frames */

static void frame_push(lw *L, frame *f, frame_kind k) {
  memset(f, 0, sizeof *f);
  f->kind = k;
  f->up = L->fr;
  L->fr = f;
}

/* Pops the frame and points its pending jumps at the current position. */
static void frame_pop(lw *L, frame *f) {
  for (uint32_t i = 0; i < f->npending; i++)
    if (f->pending[i] < L->ncode || f->pending[i] == L->ncode) L->code[f->pending[i]].a = L->ncode;
  free(f->pending);
  L->fr = f->up;
}

static void jump_to_body_end(lw *L, unsigned op) {
  frame *f = L->fr;
  uint32_t j = lw_emit(L, op, 0, 0, 0, 0);
  if (L->failed || !f) return;
  if (f->npending == f->cappending) {
    uint32_t cap = f->cappending ? f->cappending * 2 : 4;
    uint32_t *n = realloc(f->pending, cap * sizeof *n);
    if (!n) {
      lw_fail(L, L->span, "out of memory");
      return;
    }
    f->pending = n;
    f->cappending = cap;
  }
  f->pending[f->npending++] = j;
}

/* Lanes in exec leave: clear them from slots [lo, mtop) and jump. */
static void kill_and_leave(lw *L, uint32_t lo) {
  lw_emit(L, IR_KILL, lo, L->mtop, 0, 0);
  L->nkills++;
  jump_to_body_end(L, IR_JMP);
}

/* After a construct whose lanes may all have left (it contains a return,
 * break or continue), an empty mask means nothing in the enclosing body can
 * run: skip to its end. A subgroup whose lanes all returned then reaches
 * END instead of walking the rest of the code, barriers included. */
static void leave_if_empty(lw *L, uint32_t kills_before) {
  if (L->nkills != kills_before && L->fr) jump_to_body_end(L, IR_JNONE);
}

/* The module-scope private variables the entry point uses (statically
 * accessed, as the spec's limit counts them) and their initializers,
 * before the body. */
static int is_used_private(const lw *L, int i) {
  const ast_decl *d = L->m->ast->decls[i];
  return d->kind == DECL_VAR && d->space == AS_PRIVATE && d->rtype && L->reached[i];
}

static void place_privates(lw *L) {
  ast_module *am = L->m->ast;
  /* all of them first: function memory starts where they end */
  for (int i = 0; i < am->ndecls; i++)
    if (is_used_private(L, i)) (void)lw_global(L, am->decls[i]);
  L->fn_base = L->fn_top = L->fn_peak = (L->priv_bytes + 3) / 4 * 4;
  if (!lw_check_private(L)) return;
  for (int i = 0; i < am->ndecls && !L->failed; i++) {
    if (!is_used_private(L, i)) continue;
    ast_decl *d = am->decls[i];
    ref r = lw_global(L, d);
    src_span saved = L->span;
    L->span = d->span;
    if (d->init) {
      val v = lw_value(L, d->init);
      lw_init_var(L, r, &v);
    } else if (r.kind == RF_REG) {
      lw_init_var(L, r, NULL);
    } /* private memory is zeroed by the VM */
    L->span = saved;
  }
}

/* ------------------------------------------------------------ statements */

static void stmt(lw *L, ast_stmt *s);

/* One statement of a block; its temporaries (registers, copies of array
 * values in function memory) die with it, declarations live on until the
 * block ends. */
static void block_stmt(lw *L, ast_stmt *s) {
  lw_scope before = lw_scope_enter(L);
  stmt(L, s);
  if (s->kind != ST_DECL) lw_scope_leave(L, before);
}

static void stmts(lw *L, ast_stmt *blk) {
  if (!blk) return;
  lw_scope mark = lw_scope_enter(L);
  for (int i = 0; i < blk->u.block.n && !L->failed; i++) block_stmt(L, blk->u.block.stmts[i]);
  lw_scope_leave(L, mark);
}

void lw_block(lw *L, ast_stmt *s) { stmts(L, s); }

/* Runs `body` with exec &= cond, else `els` with the complement. */
static void lower_if(lw *L, ast_stmt *s) {
  uint32_t kills = L->nkills;
  L->span = s->u.if_.cond->span;
  /* the else side reads the condition again: keep it from changing */
  val c = lw_own(L, lw_value(L, s->u.if_.cond));
  uint32_t M = lw_mask(L);
  lw_emit(L, IR_MSAVE, M, 0, 0, 0);
  lw_emit(L, IR_MAND, c.reg, 0, 0, 0);
  uint32_t j1 = lw_emit(L, IR_JNONE, 0, 0, 0, 0);
  frame f;
  frame_push(L, &f, FR_BODY);
  stmts(L, s->u.if_.then);
  frame_pop(L, &f);
  if (s->u.if_.else_) {
    L->span = s->u.if_.cond->span;
    uint32_t e = lw_emit(L, IR_MANDN, M, c.reg, 0, 0);
    if (!L->failed) L->code[j1].a = e;
    uint32_t j2 = lw_emit(L, IR_JNONE, 0, 0, 0, 0);
    frame_push(L, &f, FR_BODY);
    if (s->u.if_.else_->kind == ST_BLOCK) stmts(L, s->u.if_.else_);
    else stmt(L, s->u.if_.else_);
    frame_pop(L, &f);
    if (!L->failed) L->code[j2].a = L->ncode;
  } else if (!L->failed) {
    L->code[j1].a = L->ncode;
  }
  lw_emit(L, IR_MLOAD, M, 0, 0, 0);
  L->mtop = M;
  leave_if_empty(L, kills);
}

/* Lanes where cond holds (negate: where it does not) leave the innermost
 * loop: `break if e;`, and the test of a for or while loop. */
static void break_when(lw *L, ast_expr *cond, int negate) {
  L->span = cond->span;
  val c = lw_value(L, cond);
  uint32_t M = lw_mask(L);
  lw_emit(L, IR_MSAVE, M, 0, 0, 0);
  uint32_t t = c.reg;
  if (negate) {
    t = lw_reg(L, 1);
    lw_emit(L, IR_XOR, t, c.reg, lw_const(L, 1), 0);
  }
  uint32_t test = lw_emit(L, IR_MAND, t, 0, 0, 0);
  if (!L->failed) L->code[test].flags = IR_FLAG_LOOP_TEST;
  uint32_t j = lw_emit(L, IR_JNONE, 0, 0, 0, 0);
  frame *loop = L->fr;
  while (loop && loop->kind != FR_LOOP) loop = loop->up;
  lw_emit(L, IR_KILL, loop->kill_break, L->mtop, 0, 0);
  if (!L->failed) L->code[j].a = L->ncode;
  lw_emit(L, IR_MLOAD, M, 0, 0, 0);
  L->mtop = M;
  /* when the last lanes left, skip the rest of the body (and its barriers) */
  jump_to_body_end(L, IR_JNONE);
}



static void lower_loop(lw *L, ast_stmt *s) {
  lw_scope mark = lw_scope_enter(L);
  uint32_t kills = L->nkills;
  if (s->kind == ST_FOR && s->u.loop.init) stmt(L, s->u.loop.init);
  L->span = s->span;
  uint32_t E = lw_mask(L), Lm = lw_mask(L);
  lw_emit(L, IR_MSAVE, E, 0, 0, 0);
  lw_emit(L, IR_MSAVE, Lm, 0, 0, 0);
  uint32_t top = L->ncode;
  uint32_t C = lw_mask(L);
  lw_emit(L, IR_MSAVE, C, 0, 0, 0);
  frame f;
  frame_push(L, &f, FR_LOOP);
  f.kill_break = Lm;
  f.kill_continue = C + 1;
  if ((s->kind == ST_FOR || s->kind == ST_WHILE) && s->u.loop.cond) break_when(L, s->u.loop.cond, 1);
  /* the body's declarations stay visible to the continuing block */
  lw_scope body_mark = lw_scope_enter(L);
  ast_stmt *body = s->u.loop.body;
  for (int i = 0; body && i < body->u.block.n && !L->failed; i++) block_stmt(L, body->u.block.stmts[i]);
  /* continue and early exits land here; the frame stays for break-if */
  for (uint32_t i = 0; i < f.npending; i++) L->code[f.pending[i]].a = L->ncode;
  f.npending = 0;
  L->span = s->span;
  lw_emit(L, IR_MLOAD, C, 0, 0, 0);
  if (s->kind == ST_LOOP && s->u.loop.continuing) {
    ast_stmt *cb = s->u.loop.continuing;
    for (int i = 0; i < cb->u.block.n && !L->failed; i++) block_stmt(L, cb->u.block.stmts[i]);
  }
  if (s->kind == ST_FOR && s->u.loop.update) block_stmt(L, s->u.loop.update);
  lw_scope_leave(L, body_mark);
  frame_pop(L, &f);
  L->span = s->span;
  L->mtop = C;
  lw_emit(L, IR_MLOAD, Lm, 0, 0, 0);
  lw_emit(L, IR_JANY, top, 0, 0, 0);
  lw_emit(L, IR_MLOAD, E, 0, 0, 0);
  L->mtop = E;
  lw_scope_leave(L, mark);
  /* break and continue end inside the loop; only a return can empty it */
  leave_if_empty(L, kills);
}

static void lower_switch(lw *L, ast_stmt *s) {
  uint32_t kills = L->nkills;
  L->span = s->u.switch_.selector->span;
  val sel = lw_own(L, lw_value(L, s->u.switch_.selector));
  int n = s->u.switch_.ncases;
  /* one condition register per case; default = no other case matched */
  uint32_t conds = lw_reg(L, (uint32_t)n);
  uint32_t any = lw_reg(L, 1);
  lw_emit(L, IR_MOV, any, lw_const(L, 0), 0, 0);
  int default_case = -1;
  for (int i = 0; i < n; i++) {
    ast_case *k = &s->u.switch_.cases[i];
    lw_emit(L, IR_MOV, conds + i, lw_const(L, 0), 0, 0);
    for (int j = 0; j < k->nselectors; j++) {
      ast_expr *e = k->selectors[j];
      if (!e) continue;
      uint32_t bits = (uint32_t)e->cval->i;
      uint32_t t = lw_reg(L, 1);
      lw_emit(L, IR_IEQ, t, sel.reg, lw_const(L, bits), 0);
      lw_emit(L, IR_OR, conds + i, conds + i, t, 0);
    }
    lw_emit(L, IR_OR, any, any, conds + i, 0);
    if (k->has_default) default_case = i;
    for (int j = 0; j < k->nselectors; j++)
      if (!k->selectors[j]) default_case = i;
  }
  if (default_case >= 0) {
    uint32_t none = lw_reg(L, 1);
    lw_emit(L, IR_XOR, none, any, lw_const(L, 1), 0);
    lw_emit(L, IR_OR, conds + default_case, conds + default_case, none, 0);
  }
  uint32_t E = lw_mask(L);
  lw_emit(L, IR_MSAVE, E, 0, 0, 0);
  for (int i = 0; i < n && !L->failed; i++) {
    L->span = s->u.switch_.cases[i].span;
    lw_emit(L, IR_MLOAD, E, 0, 0, 0);
    lw_emit(L, IR_MAND, conds + i, 0, 0, 0);
    uint32_t j = lw_emit(L, IR_JNONE, 0, 0, 0, 0);
    uint32_t B = lw_mask(L);
    lw_emit(L, IR_MSAVE, B, 0, 0, 0);
    frame f;
    frame_push(L, &f, FR_SWITCH);
    f.kill_break = B;
    stmts(L, s->u.switch_.cases[i].body);
    frame_pop(L, &f);
    L->mtop = B;
    if (!L->failed) L->code[j].a = L->ncode;
  }
  lw_emit(L, IR_MLOAD, E, 0, 0, 0);
  L->mtop = E;
  leave_if_empty(L, kills);
}

/* The innermost frame of kind a or b. The resolver guarantees one exists. */
static frame *find_frame(lw *L, frame_kind a, frame_kind b) {
  for (frame *f = L->fr; f; f = f->up)
    if (f->kind == a || f->kind == b) return f;
  return NULL;
}

static void stmt(lw *L, ast_stmt *s) {
  if (!s || L->failed) return;
  L->span = s->span;
  switch (s->kind) {
  case ST_BLOCK: {
    stmts(L, s);
    break;
  }
  case ST_DECL: {
    ast_decl *d = s->u.decl;
    if (d->kind == DECL_CONST || d->kind == DECL_CONST_ASSERT) break;
    binding *b = calloc(1, sizeof *b);
    if (!b) {
      lw_fail(L, s->span, "out of memory");
      break;
    }
    /* inlining lowers a declaration once per call: the latest wins */
    free(d->lower);
    d->lower = b;
    if (d->kind == DECL_LET) {
      if (d->rtype->kind == TY_PTR) {
        b->is_ref = 1;
        b->r = lw_ptr(L, d->init);
      } else if (d->rtype->kind == TY_TEXTURE || d->rtype->kind == TY_SAMPLER) {
        /* texture_and_sampler_let: the let names its variable's slot */
        b->is_ref = 1;
        b->r.kind = RF_MEM;
        lw_handle_slot(L, d->init, &b->r.slot);
      } else {
        b->v = lw_own(L, lw_value(L, d->init));
      }
    } else { /* var */
      ref r = {.type = d->rtype, .addr = IR_NO_REG, .space = AS_FUNCTION};
      val init = {0};
      if (d->init) init = lw_value(L, d->init);
      if (lw_needs_memory(d->rtype)) {
        r.kind = RF_MEM;
        r.off = lw_fn_alloc(L, d->rtype, d, d->name_span);
        if (L->failed) break;
      } else {
        r.kind = RF_REG;
        r.reg = lw_reg(L, d->rtype->words);
      }
      L->span = s->span;
      lw_init_var(L, r, d->init ? &init : NULL);
      b->is_ref = 1;
      b->r = r;
    }
    break;
  }
  case ST_ASSIGN: {
    ast_expr *l = s->u.assign.lhs, *r = s->u.assign.rhs;
    if (!l) {
      /* _ = e runs e for its effects; a pointer or a reference is formed,
       * never loaded through (`_ = &s.arr` of a runtime-sized array is
       * valid, and `_ = data` of a large array need not copy it): the
       * variable is statically used, its indices are computed */
      if (r->cval) break; /* a constant, abstract ones included: nothing runs */
      /* a texture or sampler: nothing runs, but the variable is statically
       * used, so it takes its binding slot */
      uint32_t slot;
      const type *rt = type_unref(r->type);
      if (rt && (rt->kind == TY_TEXTURE || rt->kind == TY_SAMPLER))
        (void)lw_handle_slot(L, r, &slot);
      else if (r->type && r->type->kind == TY_PTR) (void)lw_ptr(L, r);
      else if (r->type && r->type->kind == TY_REF) (void)lw_ref(L, r);
      else (void)lw_value(L, r);
      break;
    }
    ref dst = lw_ref(L, l);
    if (s->u.assign.op == BIN_COUNT_) {
      val v = lw_value(L, r);
      L->span = s->span;
      lw_store(L, dst, v);
    } else {
      /* e1 op= e2 reads e1 before e2 runs: a call in e2 may store to the
       * variable (through a pointer or as a module-scope variable) */
      lw_check_known_rhs(L, s->u.assign.op, dst.type, r, s->span);
      val old = lw_load(L, dst);
      if (lw_has_call(r)) old = lw_own(L, old);
      val rhs = lw_value(L, r);
      L->span = s->span;
      val res = lw_binary(L, s->u.assign.op, old, rhs, dst.type);
      lw_store(L, dst, res);
    }
    break;
  }
  case ST_INCDEC: {
    ref dst = lw_ref(L, s->u.incdec.lhs);
    val old = lw_load(L, dst);
    val one = {.reg = lw_const(L, 1), .n = 1, .type = dst.type};
    val res = lw_binary(L, s->u.incdec.inc ? BIN_ADD : BIN_SUB, old, one, dst.type);
    lw_store(L, dst, res);
    break;
  }
  case ST_CALL: (void)lw_value(L, s->u.call); break;
  case ST_IF: lower_if(L, s); break;
  case ST_SWITCH: lower_switch(L, s); break;
  case ST_LOOP:
  case ST_FOR:
  case ST_WHILE: lower_loop(L, s); break;
  case ST_BREAK: {
    frame *f = find_frame(L, FR_LOOP, FR_SWITCH);
    kill_and_leave(L, f->kill_break);
    break;
  }
  case ST_BREAK_IF: break_when(L, s->u.expr, 0); break;
  case ST_CONTINUE: {
    frame *f = find_frame(L, FR_LOOP, FR_LOOP);
    kill_and_leave(L, f->kill_continue);
    break;
  }
  case ST_RETURN: {
    frame *f = find_frame(L, FR_FN, FR_FN);
    if (s->u.expr) {
      val v = lw_value(L, s->u.expr);
      L->span = s->span;
      for (uint32_t i = 0; i < v.n; i++) lw_emit(L, IR_MOVM, f->ret.reg + i, v.reg + i, 0, 0);
    }
    kill_and_leave(L, f->kill_return);
    break;
  }
  case ST_DISCARD:
  case ST_EMPTY: break;
  }
}

/* ----------------------------------------------------------------- calls */

val lw_call(lw *L, ast_expr *e) {
  ast_decl *fn = e->decl;
  val res = {0};
  if (++L->call_depth > 64) {
    lw_fail(L, e->span, "calls nest more than 64 deep");
    return res;
  }
  /* arguments first, in order, in the caller's context */
  size_t np = fn->nparams > 0 ? (size_t)fn->nparams : 1;
  binding *bs = calloc(np, sizeof *bs);
  if (!bs) {
    lw_fail(L, e->span, "out of memory");
    return res;
  }
  for (int i = 0; i < fn->nparams && !L->failed; i++) {
    ast_expr *a = e->u.call.args[i];
    const int kind = fn->params[i]->rtype->kind;
    if (kind == TY_PTR) {
      bs[i].is_ref = 1;
      bs[i].r = lw_ptr(L, a);
    } else if (kind == TY_TEXTURE || kind == TY_SAMPLER) {
      /* a handle names its module-scope variable's binding slot */
      bs[i].is_ref = 1;
      bs[i].r.kind = RF_MEM;
      lw_handle_slot(L, a, &bs[i].r.slot);
    } else {
      bs[i].v = lw_own(L, lw_value(L, a));
    }
  }
  void **saved = calloc(np, sizeof *saved);
  if (!saved) {
    free(bs);
    lw_fail(L, e->span, "out of memory");
    return res;
  }
  for (int i = 0; i < fn->nparams; i++) {
    saved[i] = fn->params[i]->lower;
    fn->params[i]->lower = &bs[i];
  }
  src_span call_span = L->span;
  ast_decl *caller = L->cur_fn;
  L->cur_fn = fn;
  frame f;
  frame_push(L, &f, FR_FN);
  if (fn->rtype) {
    f.ret.reg = lw_reg(L, fn->rtype->words);
    f.ret.n = fn->rtype->words;
    f.ret.type = fn->rtype;
  }
  uint32_t F = lw_mask(L), R = lw_mask(L);
  lw_emit(L, IR_MSAVE, F, 0, 0, 0);
  lw_emit(L, IR_MSAVE, R, 0, 0, 0);
  f.kill_return = R;
  stmts(L, fn->body);
  frame_pop(L, &f);
  L->cur_fn = caller;
  L->span = call_span;
  lw_emit(L, IR_MLOAD, F, 0, 0, 0);
  L->mtop = F;
  for (int i = 0; i < fn->nparams; i++) fn->params[i]->lower = saved[i];
  free(saved);
  free(bs);
  L->call_depth--;
  res = f.ret;
  return res;
}

/* ------------------------------------------------------ pipeline checks */

static int check_workgroup_size(lw *L, ir_program *p) {
  ast_decl *fn = L->entry;
  static const char *const lim_names[3] = {"maxComputeWorkgroupSizeX", "maxComputeWorkgroupSizeY",
                                           "maxComputeWorkgroupSizeZ"};
  const uint64_t lims[3] = {L->limits->max_compute_workgroup_size_x, L->limits->max_compute_workgroup_size_y,
                            L->limits->max_compute_workgroup_size_z};
  uint64_t product = 1;
  src_span attr_span = fn->name_span;
  for (int i = 0; i < fn->nattrs; i++)
    if (!strcmp(fn->attrs[i].name, "workgroup_size")) attr_span = fn->attrs[i].span;
  for (int i = 0; i < 3; i++) {
    ast_expr *e = fn->wg_size[i];
    int64_t v = 1;
    if (e) {
      const cvalue *c = sema_eval(L->m, e, &L->env, L->d);
      if (!c) {
        L->failed = 1;
        return 0;
      }
      v = c->i;
      if (v <= 0) {
        lw_fail(L, e->span, "workgroup size %c must be greater than 0, found %lld", "xyz"[i], (long long)v);
        return 0;
      }
    }
    if ((uint64_t)v > lims[i]) {
      lw_fail(L, e ? e->span : attr_span,
              "workgroup size %c = %lld exceeds the device limit %s (%llu)", "xyz"[i], (long long)v,
              lim_names[i], (unsigned long long)lims[i]);
      return 0;
    }
    p->wg_size[i] = (uint32_t)v;
    product *= (uint64_t)v;
  }
  if (product > L->limits->max_compute_invocations_per_workgroup) {
    lw_fail(L, attr_span,
            "@workgroup_size(%u, %u, %u) is %llu invocations per workgroup, over the device limit "
            "maxComputeInvocationsPerWorkgroup (%llu); request a higher limit when creating the device "
            "if the adapter offers one",
            p->wg_size[0], p->wg_size[1], p->wg_size[2], (unsigned long long)product,
            (unsigned long long)L->limits->max_compute_invocations_per_workgroup);
    return 0;
  }
  /* @subgroup_size(N): a power of two dividing workgroup size x; whether
   * the adapter runs N is for the device to say (pipeline.c) */
  if (fn->sg_size) {
    ast_expr *e = fn->sg_size;
    const cvalue *c = sema_eval(L->m, e, &L->env, L->d);
    if (!c) {
      L->failed = 1;
      return 0;
    }
    if (c->i <= 0 || (c->i & (c->i - 1)) != 0) {
      lw_fail(L, e->span, "@subgroup_size must be a power of two, found %lld", (long long)c->i);
      return 0;
    }
    if (c->i > UINT32_MAX || p->wg_size[0] % (uint64_t)c->i != 0) {
      lw_fail(L, e->span, "workgroup size x = %u is not a multiple of @subgroup_size(%lld)",
              p->wg_size[0], (long long)c->i);
      return 0;
    }
    p->subgroup_size = (uint32_t)c->i;
    p->subgroup_size_span = e->span;
  }
  return 1;
}

/* Sum of roundUp(16, SizeOf(T)) over the workgroup variables the entry point
 * uses, after override substitution (the spec's rule). */
static int check_workgroup_storage(lw *L) {
  ast_module *am = L->m->ast;
  uint64_t total = 0;
  for (int i = 0; i < am->ndecls; i++)
    if (L->gvars[i].placed && am->decls[i]->space == AS_WORKGROUP && am->decls[i]->kind == DECL_VAR) {
      ast_decl *d = am->decls[i];
      total += (lw_type_size(L, d->rtype, d->span) + 15) / 16 * 16;
    }
  if (total <= L->limits->max_compute_workgroup_storage_size) return 1;
  lw_sized v[LW_LIST_SHOWN] = {{0}};
  uint32_t n = 0, all = 0;
  for (int i = 0; i < am->ndecls; i++) {
    ast_decl *d = am->decls[i];
    if (!L->gvars[i].placed || d->space != AS_WORKGROUP || d->kind != DECL_VAR) continue;
    if (n < LW_LIST_SHOWN)
      v[n++] = (lw_sized){d->name, NULL, (lw_type_size(L, d->rtype, d->span) + 15) / 16 * 16};
    all++;
  }
  char detail[512];
  lw_list_sizes(detail, sizeof detail, v, n, all);
  lw_fail(L, L->entry->name_span,
          "entry point '%s' uses %llu bytes of workgroup storage (%s), over the device limit "
          "maxComputeWorkgroupStorageSize (%llu)",
          L->entry->name, (unsigned long long)total, detail,
          (unsigned long long)L->limits->max_compute_workgroup_storage_size);
  return 0;
}

/* ---------------------------------------------------------- final pass */

static int binding_order(const void *x, const void *y) {
  const ir_binding *a = x, *b = y;
  if (a->group != b->group) return a->group < b->group ? -1 : 1;
  return a->binding < b->binding ? -1 : a->binding > b->binding;
}

/* Binding slots were numbered in order of first use; number them by
 * (group, binding) instead so listings and tools see a stable order. */
static void sort_bindings(lw *L) {
  uint32_t n = L->nbindings, map[256];
  if (n < 2 || n > 256) return;
  ir_binding sorted[256];
  memcpy(sorted, L->bindings, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, binding_order);
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < n; k++)
      if (sorted[k].group == L->bindings[i].group && sorted[k].binding == L->bindings[i].binding)
        map[i] = k;
  memcpy(L->bindings, sorted, n * sizeof *sorted);
  for (uint32_t pc = 0; pc < L->ncode; pc++) {
    ir_insn *in = &L->code[pc];
    const char *form = ir_op_form(in->op);
    uint32_t *f[4] = {&in->a, &in->b, &in->c, &in->d};
    for (int k = 0; k < 4; k++)
      if (form[k] == 's') *f[k] = map[*f[k]];
    if (in->op == IR_ATOMB) in->d = (in->d & 0xffu) | (map[in->d >> 8] << 8);
  }
  for (uint32_t i = 0; i < L->nsamples; i++) {
    L->samples[i].texture = map[L->samples[i].texture];
    L->samples[i].sampler = map[L->samples[i].sampler];
  }
}

/* Module declarations' scratch slots point at lowering state: clear them. */
static void clear_global_scratch(wgsl_module *m) {
  ast_module *am = m->ast;
  for (int i = 0; i < am->ndecls; i++) am->decls[i]->lower = NULL;
}

static void free_local_bindings(ast_stmt *s);

static void free_decl(ast_decl *d) {
  if (d && (d->kind == DECL_LET || d->kind == DECL_VAR)) {
    free(d->lower);
    d->lower = NULL;
  }
}

static void free_local_bindings(ast_stmt *s) {
  if (!s) return;
  switch (s->kind) {
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.n; i++) free_local_bindings(s->u.block.stmts[i]);
    break;
  case ST_DECL: free_decl(s->u.decl); break;
  case ST_IF:
    free_local_bindings(s->u.if_.then);
    free_local_bindings(s->u.if_.else_);
    break;
  case ST_SWITCH:
    for (int i = 0; i < s->u.switch_.ncases; i++) free_local_bindings(s->u.switch_.cases[i].body);
    break;
  case ST_LOOP:
  case ST_FOR:
  case ST_WHILE:
    free_local_bindings(s->u.loop.init);
    free_local_bindings(s->u.loop.body);
    free_local_bindings(s->u.loop.continuing);
    break;
  default: break;
  }
}

/* The registers of built-in input value v (vector ones: 3), allocated on
 * first use; the VM fills them before the first instruction. */
static uint32_t builtin_register(lw *L, builtin_value v) {
  static const ir_builtin map[BV_COUNT] = {
      IR_BI_LOCAL_INVOCATION_INDEX,  IR_BI_LOCAL_INVOCATION_ID, IR_BI_GLOBAL_INVOCATION_ID,
      IR_BI_WORKGROUP_ID,            IR_BI_NUM_WORKGROUPS,      IR_BI_GLOBAL_INVOCATION_INDEX,
      IR_BI_WORKGROUP_INDEX,         IR_BI_SUBGROUP_INVOCATION_ID, IR_BI_SUBGROUP_SIZE,
      IR_BI_SUBGROUP_ID,             IR_BI_NUM_SUBGROUPS};
  const ir_builtin bi = map[v];
  const uint32_t words = v == BV_LOCAL_INVOCATION_INDEX || v >= BV_GLOBAL_INVOCATION_INDEX ? 1 : 3;
  if (L->builtin_reg[bi] == IR_NO_REG) L->builtin_reg[bi] = lw_reg(L, words);
  return L->builtin_reg[bi];
}

/* The built-in value a member of a structure parameter carries (the
 * resolver made sure it has one, of the right type). */
static builtin_value member_builtin(const type_field *f) {
  for (int i = 0; f->decl && i < f->decl->nattrs; i++) {
    const ast_attr *a = &f->decl->attrs[i];
    if (strcmp(a->name, "builtin") || a->nargs != 1 || a->args[0]->kind != EX_IDENT) continue;
    for (int k = 0; k < BV_COUNT; k++)
      if (!strcmp(a->args[0]->u.ident.name, builtin_value_name((builtin_value)k))) return (builtin_value)k;
  }
  return BV_LOCAL_INVOCATION_INDEX; /* not reached */
}

void (*lower_pipeline_test_hook)(ir_program *p);

ir_program *lower_pipeline(const wgsl_module *cm, const char *entry,
                           const ls_constant_entry *constants, size_t nconstants,
                           const ls_limits *limits, diag_list *diags) {
  wgsl_module *m = (wgsl_module *)cm; /* folding allocates in the module's arena */
  ast_module *am = m->ast;
  ast_decl *fn = NULL;
  int computes = 0;
  for (int i = 0; i < am->ndecls; i++) {
    ast_decl *d = am->decls[i];
    if (d->kind != DECL_FN || !d->stage) continue;
    if (d->stage == 1) computes++;
    if (entry && !strcmp(d->name, entry)) fn = d;
    if (!entry && d->stage == 1) fn = d;
  }
  src_span top = {0, 0};
  if (entry && !fn) {
    int exists = 0;
    for (int i = 0; i < am->ndecls; i++)
      if (am->decls[i]->kind == DECL_FN && !strcmp(am->decls[i]->name, entry)) exists = 1;
    diag_error(diags, top, exists ? "'%s' is a function but not an entry point (add @compute)"
                                  : "the shader has no entry point named '%s'",
               entry);
    return NULL;
  }
  if (!entry && computes != 1) {
    diag_error(diags, top, computes ? "the shader has %d compute entry points; name one" : "the shader has no compute entry point",
               computes);
    return NULL;
  }
  if (fn->stage != 1) {
    diag_error(diags, fn->name_span,
               "'%s' is a %s entry point; lockstep runs compute shaders only", fn->name,
               fn->stage == 2 ? "vertex" : "fragment");
    return NULL;
  }
  lw L = {0};
  L.reached = calloc((size_t)am->ndecls + 1, 1);
  if (!L.reached) {
    diag_error(diags, top, "out of memory");
    return NULL;
  }
  if (!sema_check_lowerable(m, fn, diags, L.reached)) { /* front end's gate */
    free(L.reached);
    return NULL;
  }
  L.m = m;
  L.d = diags;
  L.limits = limits;
  L.entry = fn;
  L.cur_fn = fn;
  L.span = fn->name_span;
  L.env.count = am->ndecls;
  L.env.overrides = calloc((size_t)am->ndecls + 1, sizeof *L.env.overrides);
  L.gvars = calloc((size_t)am->ndecls + 1, sizeof *L.gvars);
  ir_program *p = calloc(1, sizeof *p);
  if (!L.env.overrides || !L.gvars || !p) {
    diag_error(diags, top, "out of memory");
    goto fail;
  }
  for (int b = 0; b < IR_BI_COUNT; b++) L.builtin_reg[b] = IR_NO_REG;
  if (!lw_resolve_overrides(&L, constants, nconstants)) goto fail;
  if (!check_workgroup_size(&L, p)) goto fail;

  /* entry: slot 0 holds the lanes alive at the start */
  uint32_t m0 = lw_mask(&L);
  lw_emit(&L, IR_MSAVE, m0, 0, 0, 0);
  binding *pb = calloc((size_t)(fn->nparams ? fn->nparams : 1), sizeof *pb);
  if (!pb) goto fail;
  for (int i = 0; i < fn->nparams; i++) {
    ast_decl *prm = fn->params[i];
    pb[i].v.type = prm->rtype;
    pb[i].v.n = prm->rtype->words;
    if (prm->builtin_value >= 0) {
      pb[i].v.reg = builtin_register(&L, (builtin_value)prm->builtin_value);
    } else {
      /* a structure of built-ins: its own registers, member after member,
       * copied from the built-in ones at the start */
      pb[i].v.reg = lw_reg(&L, prm->rtype->words);
      uint32_t r = pb[i].v.reg;
      for (int k = 0; k < prm->rtype->nfields; k++) {
        const type_field *fl = &prm->rtype->fields[k];
        const uint32_t src = builtin_register(&L, member_builtin(fl));
        for (uint32_t w = 0; w < fl->type->words; w++) lw_emit(&L, IR_MOV, r + w, src + w, 0, 0);
        r += fl->type->words;
      }
    }
    prm->lower = &pb[i];
  }
  place_privates(&L);
  frame f;
  frame_push(&L, &f, FR_FN);
  f.kill_return = m0;
  stmts(&L, fn->body);
  frame_pop(&L, &f);
  lw_emit(&L, IR_END, 0, 0, 0, 0);
  for (int i = 0; i < fn->nparams; i++) fn->params[i]->lower = NULL;
  free(pb);
  for (int i = 0; i < am->ndecls; i++)
    if (am->decls[i]->kind == DECL_FN) free_local_bindings(am->decls[i]->body);
  clear_global_scratch(m);
  if (L.failed || diags->errors) goto fail;
  if (!check_workgroup_storage(&L)) goto fail;

  lw_emit_finish(&L);
  sort_bindings(&L);
  p->code = L.code;
  p->spans = L.spans;
  p->ncode = L.ncode;
  p->consts = L.consts;
  p->nconsts = L.nconsts;
  p->nregs = L.nconsts + L.maxregs;
  p->nmasks = L.maxmasks ? L.maxmasks : 1;
  memcpy(p->builtin_reg, L.builtin_reg, sizeof p->builtin_reg);
  p->wg_mem_size = (uint32_t)((L.wg_bytes + 15) / 16 * 16); /* checked against the limit */
  p->priv_mem_size = (uint32_t)((L.fn_peak + 3) / 4 * 4);
  p->bindings = L.bindings;
  p->nbindings = L.nbindings;
  p->samples = L.samples;
  p->nsamples = L.nsamples;
  p->imm_slots = L.imm_slots;
  p->wgvars = L.wgvars;
  p->nwgvars = L.nwgvars;
  p->entry_point = strdup(fn->name);
  p->source = m->src;
  p->filename = m->filename;
  p->source_len = (uint32_t)m->len;
  p->line_starts = wgsl_module_line_starts(m, &p->nlines);
  free(L.env.overrides);
  free((int *)L.env.cause);
  free(L.gvars);
  free(L.reached);
  free(L.fnblocks);
  if (lower_pipeline_test_hook) lower_pipeline_test_hook(p);
  return p;

fail:
  for (int i = 0; i < am->ndecls; i++)
    if (am->decls[i]->kind == DECL_FN) free_local_bindings(am->decls[i]->body);
  clear_global_scratch(m);
  lw_emit_release(&L);
  for (uint32_t i = 0; i < L.nbindings; i++) free((char *)L.bindings[i].name);
  free(L.bindings);
  free(L.samples);
  for (uint32_t i = 0; i < L.nwgvars; i++) free(L.wgvars[i].name);
  free(L.wgvars);
  free(L.env.overrides);
  free((int *)L.env.cause);
  free(L.gvars);
  free(L.reached);
  free(L.fnblocks);
  free(p);
  if (!diags->errors) diag_error(diags, top, "pipeline creation failed");
  return NULL;
}
