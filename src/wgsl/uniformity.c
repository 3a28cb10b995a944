/*
 * uniformity.c — the WGSL uniformity analysis. For each function (callees
 * first) a graph is built whose nodes stand for "this value / this point of
 * control flow may be non-uniform": CF_start, one node per parameter,
 * Value_return, MayBeNonUniform, and one RequiredToBeUniform node per
 * severity. An edge X -> Y says X is non-uniform when Y is. A call that
 * needs uniform control flow (barriers, workgroupUniformLoad, derivatives,
 * implicit-derivative texture sampling, subgroup and quad operations) adds
 * RequiredToBeUniform.S -> CF. Reaching MayBeNonUniform from a requirement
 * is a diagnostic of severity S (error, warning, info or off, chosen by the
 * innermost diagnostic filter); reaching CF_start or a parameter instead
 * becomes the function's tag, which its call sites apply. Function-scope
 * variables are tracked flow-sensitively: each assignment gives the
 * variable a new node, control-flow joins merge them, loops use a
 * placeholder per variable closed after the body. With `enable subgroups`
 * the whole analysis runs twice, once per uniformity scope (workgroup for
 * barriers and derivatives, subgroup for subgroup and quad operations),
 * each with its own function tags. Prefix uni_.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/ptrmap.h"
#include "sema_int.h"
#include "uniformity.h"

enum { SEV_ERROR, SEV_WARNING, SEV_INFO, SEV_OFF };
enum { RULE_DERIV, RULE_SUBGROUP, RULE_BARRIER, RULE_SGMAT, RULE_COUNT };
enum { B_NEXT = 1, B_RET = 2, B_BREAK = 4, B_CONT = 8 };
/* §Uniformity: with the subgroup_uniformity language extension the analysis
 * runs once per uniformity scope: workgroup (draw for other stages) for
 * barriers and derivatives, subgroup for subgroup and quad operations. */
enum { SCOPE_WG, SCOPE_SG, SCOPE_COUNT };

typedef struct unode {
  int *out;
  int n, cap;
  int mark;
  src_span span; /* where the value or branch is, for notes */
} unode;

typedef struct site {
  int node, sev, rule;
  src_span span;
  const char *what;
  const char *operand; /* a value that must be uniform (its name), or NULL
                          for control flow that must be */
} site;

/* What a function asks of its callers. */
typedef struct ftag {
  int done;
  int cs_required;        /* call site must be in uniform control flow ... */
  int cs_sev, cs_rule;    /* ... at the severity and rule of its strictest site */
  int ret_nonuniform;     /* return value may be non-uniform */
  uint8_t *param_required; /* per parameter: must be uniform (1 + severity) */
  uint8_t *param_rule;     /* ... under this rule */
  uint8_t *ret_param;      /* per parameter: return value depends on it */
  uint8_t *ptr_nonuniform; /* per function-space pointer parameter: the
                              contents may be non-uniform on return */
  uint8_t *ptr_dep;        /* [i * nparams + j]: pointer parameter i's
                              contents on return depend on parameter j */
} ftag;

typedef struct uctx {
  sctx *c;
  unode *nodes;
  int nn, capn;
  site *sites;
  int ns, caps;
  ast_decl **vars; /* tracked function-scope variables */
  int nvars, capvars;
  int *state;      /* current node of each tracked variable */
  ast_decl *fn;
  ftag *tags;      /* per module declaration, for the current scope */
  int scope;
  int maybe, cf_start, ret;
  int *params;
  int *pout;       /* per parameter: Value_return_i_contents, or -1 */
  int sev[RULE_COUNT];      /* effective severity per rule at the current point */
  int loop_cf;     /* CF' of the innermost loop, -1 outside */
  int *loop_vars;  /* the variables the innermost loop may assign ... */
  int *loop_state; /* ... and their placeholders (loop_nv of each) */
  int *loop_exit;  /* ... and their values where the loop is left (a break,
                      a break-if, a false condition), -1 before any */
  int loop_nv;
  int in_switch;   /* a break here leaves a switch, not the loop */
  int *sw_vars, *sw_exit, sw_nv; /* the same for the innermost switch: the
                      values its clauses leave it with (Vin(next)) */
  int view_only;   /* evaluating a pointer let's initializer: a variable
                      named without a load stands for its address (CF) */
  int *vtab;       /* variable -> 1 + its index in vars (hashed by address;
                      stale entries are checked against vars) */
  unsigned vcap, vused;
  /* Shared by every function's copy of the context (analyse_fn): */
  ptrmap *roots;   /* pointer let -> its root variable (root_decl) */
  ptrmap *wholes;  /* pointer let -> non-NULL when it views all of its
                      variable (whole_view) */
  int *stamp;      /* per tracked variable: the scan that last listed it */
  int capstamp, scan;
  int failed;
} uctx;

static int node(uctx *u, src_span span) {
  if (u->nn == u->capn) {
    int cap = u->capn ? u->capn * 2 : 256;
    unode *n = realloc(u->nodes, sizeof *n * (size_t)cap);
    if (!n) {
      u->failed = 1;
      return 0;
    }
    u->nodes = n;
    u->capn = cap;
  }
  unode *x = &u->nodes[u->nn];
  memset(x, 0, sizeof *x);
  x->span = span;
  return u->nn++;
}

static void edge(uctx *u, int from, int to) {
  if (u->failed || from == to) return;
  unode *x = &u->nodes[from];
  if (x->n == x->cap) {
    int cap = x->cap ? x->cap * 2 : 4;
    int *o = realloc(x->out, sizeof *o * (size_t)cap);
    if (!o) {
      u->failed = 1;
      return;
    }
    x->out = o;
    x->cap = cap;
  }
  x->out[x->n++] = to;
}

static int join(uctx *u, int a, int b, src_span span) {
  if (a == b) return a;
  int n = node(u, span);
  edge(u, n, a);
  edge(u, n, b);
  return n;
}

static void require_sev(uctx *u, int cf, int rule, int sev, src_span span, const char *what) {
  if (sev == SEV_OFF || u->failed || (rule == RULE_SUBGROUP) != (u->scope == SCOPE_SG)) return;
  if (u->ns == u->caps) {
    int cap = u->caps ? u->caps * 2 : 16;
    site *s = realloc(u->sites, sizeof *s * (size_t)cap);
    if (!s) {
      u->failed = 1;
      return;
    }
    u->sites = s;
    u->caps = cap;
  }
  u->sites[u->ns++] = (site){cf, sev, rule, span, what, NULL};
}

/* A requirement at the current filter's severity for rule. */
static void require(uctx *u, int cf, int rule, src_span span, const char *what) {
  require_sev(u, cf, rule, u->sev[rule], span, what);
}

/* The value at node v must be uniform (e.g. subgroupShuffleUp's delta). */
static void require_value(uctx *u, int v, int rule, src_span span, const char *what,
                          const char *operand) {
  int before = u->ns;
  require(u, v, rule, span, what);
  if (u->ns > before) u->sites[u->ns - 1].operand = operand;
}

static ast_decl *root_decl(uctx *u, ast_expr *e);

static unsigned ptr_hash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0x9E3779B97F4A7C15u;
  return (unsigned)(x >> 24);
}

static int var_index(uctx *u, ast_decl *d) {
  if (!u->vcap) return -1;
  for (unsigned h = ptr_hash(d) & (u->vcap - 1); u->vtab[h]; h = (h + 1) & (u->vcap - 1)) {
    int i = u->vtab[h] - 1;
    if (i < u->nvars && u->vars[i] == d) return i;
  }
  return -1;
}

/* Records that d is tracked at index i: a hash of addresses whose entries
 * for variables of closed blocks go stale (lookups check them against
 * vars) and are dropped when the table is rebuilt. */
static void var_put(uctx *u, ast_decl *d, int i) {
  if ((u->vused + 1) * 2 > u->vcap) {
    unsigned cap = 64;
    while (cap < (unsigned)u->nvars * 4 + 4) cap *= 2;
    int *t = calloc(cap, sizeof *t);
    if (!t) {
      u->failed = 1;
      return;
    }
    free(u->vtab);
    u->vtab = t;
    u->vcap = cap;
    u->vused = 0;
    for (int k = 0; k < u->nvars; k++) { /* includes i */
      unsigned h = ptr_hash(u->vars[k]) & (cap - 1);
      while (t[h]) h = (h + 1) & (cap - 1);
      t[h] = k + 1;
      u->vused++;
    }
    return;
  }
  unsigned h = ptr_hash(d) & (u->vcap - 1);
  while (u->vtab[h]) h = (h + 1) & (u->vcap - 1);
  u->vtab[h] = i + 1;
  u->vused++;
}

/* ----------------------------------------------------- diagnostic filters */

static int parse_sev(const char *s) {
  if (!strcmp(s, "error")) return SEV_ERROR;
  if (!strcmp(s, "warning")) return SEV_WARNING;
  if (!strcmp(s, "info")) return SEV_INFO;
  if (!strcmp(s, "off")) return SEV_OFF;
  return -1;
}

static int parse_rule(const char *s) {
  if (!strcmp(s, "derivative_uniformity")) return RULE_DERIV;
  if (!strcmp(s, "subgroup_uniformity")) return RULE_SUBGROUP;
  if (!strcmp(s, "chromium.subgroup_matrix_uniformity")) return RULE_SGMAT;
  return -1;
}

/* Applies @diagnostic(severity, rule) attributes; saves the old state. */
static void apply_attrs(uctx *u, ast_attr *a, int n, int saved[RULE_COUNT]) {
  memcpy(saved, u->sev, sizeof u->sev);
  for (int i = 0; i < n; i++) {
    if (strcmp(a[i].name, "diagnostic") || a[i].nargs < 2) continue;
    ast_expr *rn = a[i].args[1];
    if (a[i].args[0]->kind != EX_IDENT) continue;
    int r = -1;
    if (rn->kind == EX_IDENT) {
      r = parse_rule(rn->u.ident.name);
    } else if (rn->kind == EX_MEMBER && rn->u.member.base->kind == EX_IDENT) {
      /* `name.name` parses as a member access */
      char buf[128];
      snprintf(buf, sizeof buf, "%s.%s", rn->u.member.base->u.ident.name, rn->u.member.name);
      r = parse_rule(buf);
    }
    int s = parse_sev(a[i].args[0]->u.ident.name);
    if (s >= 0 && r >= 0) u->sev[r] = s;
  }
}

/* ----------------------------------------------------------- expressions */

static int expr(uctx *u, int cf, ast_expr *e, int *val);
static int expr_view(uctx *u, int cf, ast_expr *e, int *val, int load);

static int is_ptr_let(const ast_decl *d) {
  return d && d->kind == DECL_LET && d->rtype && d->rtype->kind == TY_PTR;
}

/* One step of root_decl: the declaration a view names once its indices,
 * members and unary operators are stripped (NULL for none), and the
 * pointer let it names, whose initializer leads on, in *let. */
static ast_decl *root_step(ast_expr *e, ast_decl **let) {
  *let = NULL;
  while (e) {
    if (e->kind == EX_UNARY) e = e->u.unary.operand;
    else if (e->kind == EX_INDEX) e = e->u.index.base;
    else if (e->kind == EX_MEMBER) e = e->u.member.base;
    else break;
  }
  if (!e || e->kind != EX_IDENT || e->ref != REF_DECL) return NULL;
  if (is_ptr_let(e->decl)) *let = e->decl;
  return e->decl;
}

/* The root variable of a memory view (x, x[i].m, *p with p = &x...),
 * following `let p = &x;` to its variable. Each pointer let's root is
 * remembered (u->roots) the first time a walk passes it, so that a chain of
 * lets, each naming the one before, costs one walk in all and no C stack. */
static ast_decl *root_decl(uctx *u, ast_expr *e) {
  ast_decl *let, *d = root_step(e, &let), *root = d;
  for (ast_decl *l = let; l;) {
    void *known;
    if (ptrmap_get(u->roots, l, &known)) {
      root = known;
      break;
    }
    root = root_step(l->init, &l);
  }
  /* the second pass writes down what the first found for every let on the
   * way (it stops at the same remembered one) */
  for (ast_decl *l = let; l && !ptrmap_get(u->roots, l, NULL);) {
    ast_decl *next;
    (void)root_step(l->init, &next);
    (void)ptrmap_put(u->roots, l, root);
    l = next;
  }
  return root;
}

static int global_uniform(ast_decl *d) {
  if (d->kind == DECL_CONST || d->kind == DECL_OVERRIDE) return 1;
  if (d->kind != DECL_VAR) return 1;
  if (d->space == AS_HANDLE || d->space == AS_UNIFORM || d->space == AS_IMMEDIATE) return 1;
  if (d->space == AS_STORAGE && d->access == ACC_READ) return 1;
  return 0;
}

/* §Uniformity Rules for Expressions: workgroup_id, num_workgroups,
 * num_subgroups and (in a compute shader only) subgroup_size are uniform;
 * every other input is not. stage is the entry point's (1 = compute). */
static int uniform_builtin_attr(const ast_attr *attrs, int nattrs, int stage, int scope) {
  const ast_attr *a = NULL;
  for (int i = 0; i < nattrs; i++)
    if (!strcmp(attrs[i].name, "builtin")) a = &attrs[i];
  if (!a || a->nargs < 1 || a->args[0]->kind != EX_IDENT) return 0; /* @location inputs */
  const char *n = a->args[0]->u.ident.name;
  return !strcmp(n, "workgroup_id") || !strcmp(n, "num_workgroups") ||
         (!strcmp(n, "subgroup_size") && stage == 1) || !strcmp(n, "num_subgroups") ||
         (!strcmp(n, "subgroup_id") && scope == SCOPE_SG);
}

/* A structure parameter is one value: uniform only when every member is a
 * uniform built-in (the analysis does not split composites). */
static int is_builtin_nonuniform_value(ast_decl *p, int stage, int scope) {
  if (!p->nattrs && p->rtype && p->rtype->kind == TY_STRUCT) {
    for (int i = 0; i < p->rtype->nfields; i++) {
      const ast_member *mb = p->rtype->fields[i].decl;
      if (!mb || !uniform_builtin_attr(mb->attrs, mb->nattrs, stage, scope)) return 1;
    }
    return 0;
  }
  return !uniform_builtin_attr(p->attrs, p->nattrs, stage, scope);
}

/* The rule a built-in's call site tag (builtins.def's CALL) reports under. */
static const int site_rule[] = {
    [BUC_FREE] = -1, [BUC_BARRIER] = RULE_BARRIER, [BUC_DERIV] = RULE_DERIV,
    [BUC_SUBGROUP] = RULE_SUBGROUP, [BUC_SGMAT] = RULE_SGMAT,
};

/* Is a call's result (function tag RESULT) possibly non-uniform? */
static int result_may_vary(const uctx *u, builtin_result r, ast_expr *e) {
  switch (r) {
  case BUR_MAYBE: return 1;
  case BUR_SGSCOPE: return u->scope != SCOPE_SG;
  case BUR_RWTEX: {
    /* reading a read_write storage texture may see other invocations' writes */
    if (e->u.call.nargs < 1 || !e->u.call.args[0]->type) return 0;
    const type *t = type_unref(e->u.call.args[0]->type);
    return t->kind == TY_TEXTURE && t->tex_kind == TEX_STORAGE && t->access == ACC_READ_WRITE;
  }
  case BUR_ARGS: case BUR_CF: return 0;
  }
  return 0;
}

/* A call of a built-in: builtins.def's UNIF column gives its tags. */
static void builtin_call(uctx *u, int cf, ast_expr *e, const int *argv, int v, int *val) {
  const builtin_fn f = (builtin_fn)e->builtin;
  const builtin_unif_info *bu = builtin_unif_info_of(builtin_fn_info(f)->unif);
  const char *name = builtin_fn_name(f);
  ast_expr **a = e->u.call.args;
  if (bu->call != BUC_FREE) require(u, cf, site_rule[bu->call], e->span, name);
  if (bu->param >= 0 && e->u.call.nargs == builtin_fn_info(f)->args)
    require_value(u, argv[bu->param], site_rule[bu->call], a[bu->param]->span, name, bu->param_name);
  if (bu->result == BUR_CF) {
    *val = cf; /* the loaded value is uniform */
  } else if (result_may_vary(u, bu->result, e)) {
    int r = node(u, e->span);
    edge(u, r, u->maybe);
    *val = r;
  } else {
    *val = v;
  }
}

static int call(uctx *u, int cf, ast_expr *e, int *val) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  int argv[16];
  int v = cf, saved_view = u->view_only;
  u->view_only = 0; /* a call's pointer arguments carry their contents */
  for (int i = 0; i < n; i++) {
    int x;
    cf = expr(u, cf, a[i], &x);
    if (i < 16) argv[i] = x;
    v = join(u, v, x, a[i]->span);
  }
  u->view_only = saved_view;
  if (e->ref == REF_BUILTIN_FN) {
    builtin_call(u, cf, e, argv, v, val);
    return cf;
  }
  if (e->ref == REF_DECL && e->decl && e->decl->kind == DECL_FN) {
    ftag *t = &u->tags[e->decl->index];
    /* a callee's requirement keeps the severity and rule its own site had
     * (the filter that applies is the one at the triggering location) */
    if (t->cs_required) require_sev(u, cf, t->cs_rule, t->cs_sev, e->span, e->decl->name);
    int r = node(u, e->span);
    edge(u, r, cf);
    if (t->ret_nonuniform) edge(u, r, u->maybe);
    for (int i = 0; i < n && i < 16 && i < e->decl->nparams; i++) {
      if (t->param_required && t->param_required[i])
        require_sev(u, argv[i], t->param_rule[i], t->param_required[i] - 1, a[i]->span, e->decl->name);
      if (t->ret_param && t->ret_param[i]) edge(u, r, argv[i]);
      /* Vout(call) of a variable passed by pointer: what the callee's
       * Value_return_i_contents reaches (its parameters, MayBeNonUniform),
       * and the call's control flow */
      if (a[i]->type && a[i]->type->kind == TY_PTR) {
        ast_decl *d = root_decl(u, a[i]);
        int vi = d ? var_index(u, d) : -1;
        if (vi >= 0) {
          int np = e->decl->nparams, nv = node(u, a[i]->span);
          edge(u, nv, cf);
          if (!t->ptr_dep || !t->ptr_nonuniform) { /* no tag: assume the worst */
            edge(u, nv, u->state[vi]);
            edge(u, nv, u->maybe);
            for (int j = 0; j < n && j < 16; j++) edge(u, nv, argv[j]);
          } else {
            if (t->ptr_nonuniform[i]) edge(u, nv, u->maybe);
            /* the old contents survive where the callee may not write */
            if (t->ptr_dep[i * np + i]) edge(u, nv, u->state[vi]);
            for (int j = 0; j < n && j < 16 && j < np; j++)
              if (t->ptr_dep[i * np + j]) edge(u, nv, argv[j]);
          }
          u->state[vi] = nv;
        }
      }
    }
    *val = r;
    return cf;
  }
  *val = v; /* value constructors */
  return cf;
}

/* A pointer parameter into memory other invocations may write (storage
 * read_write, workgroup) or per-invocation memory (private): what is
 * loaded through it is MayBeNonUniform (§Uniformity Rules for
 * Expressions). Function-space pointers carry their contents instead. */
static int ptr_param_nonuniform(const ast_decl *d) {
  const type *t = d->rtype;
  if (!t || t->kind != TY_PTR || t->access == ACC_READ) return 0;
  return t->space == AS_STORAGE || t->space == AS_WORKGROUP || t->space == AS_PRIVATE;
}

/* The value node of identifier e naming d (a parameter or variable). */
static int ident_value(uctx *u, int cf, ast_expr *e, ast_decl *d, int load) {
  if (d->kind == DECL_PARAM && d->rtype && d->rtype->kind == TY_PTR && d->rtype->space != AS_FUNCTION) {
    if (load && ptr_param_nonuniform(d)) {
      int r = node(u, e->span);
      edge(u, r, u->maybe);
      return r;
    }
    if (!load) {
      /* the pointer itself: which element the caller chose (the spec's
       * table says CF; keeping param_i makes workgroupUniformLoad(p)
       * require a uniform pointer from the caller) */
      int vi = var_index(u, d);
      return vi >= 0 ? join(u, cf, u->state[vi], e->span) : cf;
    }
    return cf;
  }
  if (d->kind == DECL_PARAM) {
    /* a function-space pointer parameter's contents change with stores */
    int vi = var_index(u, d);
    return vi >= 0 ? join(u, cf, u->state[vi], e->span) : cf;
  }
  int vi = var_index(u, d);
  if (vi >= 0) {
    if (!load && u->view_only) return cf;
    return join(u, cf, u->state[vi], e->span);
  }
  if (d->kind == DECL_VAR && !global_uniform(d)) {
    if (!load) {
      return cf;
    }
    int r = node(u, e->span);
    edge(u, r, u->maybe);
    return r;
  }
  if (d->kind == DECL_LET || d->kind == DECL_VAR) {
    int li = var_index(u, d);
    return li >= 0 ? u->state[li] : cf;
  }
  return cf;
}

/* An expression used as a value; a pointer-typed one (`&x`, `p`) is a
 * memory view whose load rule is not invoked. */
static int expr(uctx *u, int cf, ast_expr *e, int *val) {
  return expr_view(u, cf, e, val, !(e && e->type && e->type->kind == TY_PTR));
}

/* load: whether the memory view rooted in e is loaded from (the load rule
 * is invoked on it); module-scope variables and pointer parameters are
 * non-uniform only when it is. */
static int expr_view(uctx *u, int cf, ast_expr *e, int *val, int load) {
  if (!e || u->failed) {
    *val = cf;
    return cf;
  }
  if (e->cval || e->is_override_expr) {
    *val = cf;
    return cf;
  }
  switch (e->kind) {
  case EX_IDENT: {
    ast_decl *d = e->decl;
    if (e->ref != REF_DECL || !d) break;
    /* `let p = &x[i];` stands for its initializer (§Pointer Desugaring):
     * the view it chose (the let's value) and x as it is now */
    if (d->kind == DECL_LET && d->rtype && d->rtype->kind == TY_PTR) {
      ast_decl *r = root_decl(u, e);
      int li = var_index(u, d);
      if (r && r != d) {
        *val = join(u, li >= 0 ? u->state[li] : cf, ident_value(u, cf, e, r, load), e->span);
        return cf;
      }
    }
    *val = ident_value(u, cf, e, d, load);
    return cf;
  }
  case EX_CALL: return call(u, cf, e, val);
  case EX_INDEX: {
    int b, i;
    cf = expr_view(u, cf, e->u.index.base, &b, load);
    cf = expr(u, cf, e->u.index.index, &i);
    *val = join(u, b, i, e->span);
    return cf;
  }
  case EX_MEMBER: return expr_view(u, cf, e->u.member.base, val, load);
  case EX_UNARY:
    if (e->u.unary.op == UN_ADDR) return expr_view(u, cf, e->u.unary.operand, val, 0);
    if (e->u.unary.op == UN_DEREF) return expr_view(u, cf, e->u.unary.operand, val, load);
    return expr(u, cf, e->u.unary.operand, val);
  case EX_BINARY: {
    int l, r;
    cf = expr(u, cf, e->u.binary.lhs, &l);
    if (e->u.binary.op == BIN_LAND || e->u.binary.op == BIN_LOR) {
      /* short-circuit: the right side runs under the left's value */
      int cf2 = expr(u, l, e->u.binary.rhs, &r);
      *val = join(u, cf2, r, e->span);
      return cf;
    }
    cf = expr(u, cf, e->u.binary.rhs, &r);
    *val = join(u, l, r, e->span);
    return cf;
  }
  default: break;
  }
  *val = cf;
  return cf;
}

/* ------------------------------------------------------------ statements */

static int stmt(uctx *u, int cf, ast_stmt *s, int *beh);

static void track(uctx *u, ast_decl *d, int init) {
  if (u->nvars == u->capvars) {
    int cap = u->capvars ? u->capvars * 2 : 32;
    ast_decl **v = realloc(u->vars, sizeof *v * (size_t)cap);
    int *st = realloc(u->state, sizeof *st * (size_t)cap);
    if (v) u->vars = v;
    if (st) u->state = st;
    if (!v || !st) {
      u->failed = 1;
      return;
    }
    u->capvars = cap;
  }
  u->vars[u->nvars] = d;
  u->state[u->nvars++] = init;
  var_put(u, d, u->nvars - 1);
}

/* ------------------------------------------------ assigned-variable scans */

/* The tracked variables a statement may assign (directly, through a
 * pointer passed to a call): a branch or loop saves, merges and makes
 * placeholders for these only, so its cost does not grow with every
 * variable in scope. */
typedef struct vlist {
  int *v;
  int n, cap;
} vlist;

static void vl_add(uctx *u, vlist *l, ast_decl *d) {
  int i = d ? var_index(u, d) : -1;
  if (i < 0) return;
  if (u->capstamp < u->nvars) {
    int cap = u->nvars * 2 + 16;
    int *s = realloc(u->stamp, sizeof *s * (size_t)cap);
    if (!s) {
      u->failed = 1;
      return;
    }
    memset(s + u->capstamp, 0, sizeof *s * (size_t)(cap - u->capstamp));
    u->stamp = s;
    u->capstamp = cap;
  }
  if (u->stamp[i] == u->scan) return;
  u->stamp[i] = u->scan;
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    int *v = realloc(l->v, sizeof *v * (size_t)cap);
    if (!v) {
      u->failed = 1;
      return;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = i;
}

typedef struct scan {
  uctx *u;
  vlist *l;
} scan;

static void scan_expr(void *ctx, ast_expr *e);
static void scan_stmt(void *ctx, ast_stmt *s);

static const ast_visitor scan_walk = {scan_stmt, scan_expr};

static void scan_expr(void *ctx, ast_expr *e) {
  scan *sc = ctx;
  if (e->kind != EX_CALL) {
    ast_expr_children(e, &scan_walk, sc);
    return;
  }
  /* a pointer argument may be written by the callee */
  for (int i = 0; i < e->u.call.nargs; i++) {
    ast_expr *a = e->u.call.args[i];
    if (a->type && a->type->kind == TY_PTR) vl_add(sc->u, sc->l, root_decl(sc->u, a));
    scan_expr(sc, a);
  }
}

static void scan_stmt(void *ctx, ast_stmt *s) {
  scan *sc = ctx;
  if (s->kind == ST_ASSIGN && s->u.assign.lhs) vl_add(sc->u, sc->l, root_decl(sc->u, s->u.assign.lhs));
  if (s->kind == ST_INCDEC) vl_add(sc->u, sc->l, root_decl(sc->u, s->u.incdec.lhs));
  ast_stmt_children(s, &scan_walk, sc);
}

/* The variables s (and the optional second statement) may assign. */
static vlist assigned_in(uctx *u, ast_stmt *s, ast_stmt *s2) {
  vlist l = {NULL, 0, 0};
  scan sc = {u, &l};
  u->scan++;
  if (s) scan_stmt(&sc, s);
  if (s2) scan_stmt(&sc, s2);
  return l;
}

/* Saves the states of the listed variables. */
/* §Function-scope variable value analysis: where control leaves a loop or
 * switch (a break, a clause falling through), the value of each listed
 * variable joins that statement's Vin(next). */
static void exit_record(uctx *u, int *exit, const int *vars, int nv, src_span span) {
  for (int k = 0; exit && k < nv; k++) {
    int i = vars[k];
    if (i >= u->nvars) continue;
    exit[k] = exit[k] < 0 ? u->state[i] : join(u, exit[k], u->state[i], span);
  }
}

static int *save_listed(uctx *u, const vlist *l) {
  int *s = malloc(sizeof *s * (size_t)(l->n + 1));
  if (!s) {
    u->failed = 1;
    return NULL;
  }
  for (int k = 0; k < l->n; k++) s[k] = u->state[l->v[k]];
  return s;
}

/* The statements of a block; the variables it declares stay tracked (a
 * loop's continuing block sees its body's declarations). */
static int block_open(uctx *u, int cf, ast_stmt *s, int *beh) {
  *beh = B_NEXT;
  if (!s) return cf;
  /* a body's own attributes (`if c @diagnostic(...) { }`, function and
   * case bodies) filter the diagnostics inside it */
  int saved[RULE_COUNT];
  apply_attrs(u, s->attrs, s->nattrs, saved);
  for (int i = 0; i < s->u.block.n && !u->failed; i++) {
    int b;
    cf = stmt(u, cf, s->u.block.stmts[i], &b);
    *beh = (*beh & ~B_NEXT) | b;
    if (!(b & B_NEXT)) break;
  }
  memcpy(u->sev, saved, sizeof u->sev);
  return cf;
}

static int block(uctx *u, int cf, ast_stmt *s, int *beh) {
  int mark = u->nvars;
  cf = block_open(u, cf, s, beh);
  u->nvars = mark;
  return cf;
}

/* One step of whole_view: 1 or 0 when e settles it; -1 when it goes on
 * through pointer let *let, whose initializer is `&v` (*rest = v). */
static int whole_step(const ast_expr *e, ast_decl **let, const ast_expr **rest) {
  *let = NULL;
  while (e->kind == EX_UNARY && e->u.unary.op == UN_DEREF) {
    e = e->u.unary.operand;
    if (e->kind == EX_UNARY && e->u.unary.op == UN_ADDR) {
      e = e->u.unary.operand;
      continue;
    }
    if (e->kind != EX_IDENT || e->ref != REF_DECL || !e->decl) return 0;
    if (e->decl->kind == DECL_PARAM) return 1;
    if (e->decl->kind != DECL_LET || !e->decl->init) return 0;
    const ast_expr *in = e->decl->init;
    if (in->kind != EX_UNARY || in->u.unary.op != UN_ADDR) return 0;
    *let = e->decl;
    *rest = in->u.unary.operand;
    return -1;
  }
  return e->kind == EX_IDENT;
}

/* Whether a memory view is all of its root variable: `x`, `*p` with p a
 * pointer parameter (all of what the caller passed) or `let p = &x;`. A
 * store to part of a variable keeps the rest's uniformity. The answer for
 * `*p` is p's, remembered (u->wholes) as root_decl remembers roots. */
static int whole_view(uctx *u, const ast_expr *e) {
  static char yes;
  ast_decl *first, *let;
  const ast_expr *from, *rest;
  int r = whole_step(e, &first, &from);
  for (let = first, rest = from; r < 0;) {
    void *known;
    if (ptrmap_get(u->wholes, let, &known)) {
      r = known != NULL;
      break;
    }
    r = whole_step(rest, &let, &rest);
  }
  for (let = first, rest = from; let && !ptrmap_get(u->wholes, let, NULL);) {
    (void)ptrmap_put(u->wholes, let, r ? &yes : NULL);
    if (whole_step(rest, &let, &rest) >= 0) break;
  }
  return r;
}

static void assign_to(uctx *u, int cf, ast_expr *lhs, int v) {
  ast_decl *d = root_decl(u, lhs);
  int vi = d ? var_index(u, d) : -1;
  if (vi < 0) return;
  int whole = whole_view(u, lhs);
  int nv = whole ? join(u, cf, v, lhs->span) : join(u, join(u, cf, v, lhs->span), u->state[vi], lhs->span);
  u->state[vi] = nv;
}

/* Value_return_i_contents -> the contents of each function-space pointer
 * parameter where the function returns. */
static void contents_at_return(uctx *u) {
  for (int i = 0; u->pout && i < u->fn->nparams; i++) {
    int vi = u->pout[i] >= 0 ? var_index(u, u->fn->params[i]) : -1;
    if (vi >= 0) edge(u, u->pout[i], u->state[vi]);
  }
}

static int stmt(uctx *u, int cf, ast_stmt *s, int *beh) {
  *beh = B_NEXT;
  if (!s || u->failed) return cf;
  int saved_sev[RULE_COUNT], body_sev[RULE_COUNT];
  /* a switch body's own filters start after the selector */
  int nbody = s->kind == ST_SWITCH ? s->u.switch_.nbody_attrs : 0;
  apply_attrs(u, s->attrs, s->nattrs - nbody, saved_sev);
  int v;
  switch (s->kind) {
  case ST_BLOCK: cf = block(u, cf, s, beh); break;
  case ST_DECL: {
    ast_decl *d = s->u.decl;
    if (d->kind == DECL_VAR || d->kind == DECL_LET) {
      /* a pointer let keeps the view its initializer chose; the contents
       * are read where it is used */
      int saved_view = u->view_only;
      u->view_only = d->kind == DECL_LET && d->rtype && d->rtype->kind == TY_PTR;
      if (d->init) cf = expr(u, cf, d->init, &v);
      else v = cf;
      u->view_only = saved_view;
      track(u, d, d->kind == DECL_VAR ? join(u, cf, v, d->name_span) : v);
    }
    break;
  }
  case ST_ASSIGN:
    if (s->u.assign.lhs && s->u.assign.op == BIN_COUNT_) {
      /* §Uniformity Rules for LHSValue expressions: e2[e1] adds an edge to
       * e1, so the elements a store chooses (its address, not the old
       * contents) flow into the variable's new value */
      int l, saved_view = u->view_only;
      u->view_only = 1;
      cf = expr_view(u, cf, s->u.assign.lhs, &l, 0);
      u->view_only = saved_view;
      cf = expr(u, cf, s->u.assign.rhs, &v);
      /* a full reference chooses no element (through a pointer parameter
       * its view would also carry the old contents, which a full store
       * replaces) */
      if (!whole_view(u, s->u.assign.lhs)) v = join(u, v, l, s->span);
      assign_to(u, cf, s->u.assign.lhs, v);
    } else if (s->u.assign.lhs) {
      int l;
      cf = expr(u, cf, s->u.assign.lhs, &l);
      cf = expr(u, cf, s->u.assign.rhs, &v);
      v = join(u, v, l, s->span);
      assign_to(u, cf, s->u.assign.lhs, v);
    } else {
      cf = expr(u, cf, s->u.assign.rhs, &v);
    }
    break;
  case ST_INCDEC:
    cf = expr(u, cf, s->u.incdec.lhs, &v);
    assign_to(u, cf, s->u.incdec.lhs, v);
    break;
  case ST_CALL: cf = expr(u, cf, s->u.call, &v); break;
  case ST_IF: {
    cf = expr(u, cf, s->u.if_.cond, &v);
    vlist l = assigned_in(u, s->u.if_.then, s->u.if_.else_);
    int *before = save_listed(u, &l);
    if (!before) { free(l.v); break; }
    int b1, b2 = B_NEXT;
    int cf1 = block(u, v, s->u.if_.then, &b1);
    int *after1 = save_listed(u, &l);
    if (!after1) { free(before); free(l.v); break; }
    for (int k = 0; k < l.n; k++) u->state[l.v[k]] = before[k];
    int cf2 = v;
    if (s->u.if_.else_) cf2 = stmt(u, v, s->u.if_.else_, &b2);
    /* variables assigned on either side depend on the condition */
    for (int k = 0; k < l.n; k++) {
      int i = l.v[k];
      /* only the branches that fall through reach the next statement (the
       * others leave through a break, continue or return) */
      if (!(b2 & B_NEXT) && (b1 & B_NEXT)) u->state[i] = after1[k];
      else if ((b1 & B_NEXT) && u->state[i] != after1[k])
        u->state[i] = join(u, u->state[i], after1[k], u->nodes[after1[k]].span);
      if (u->state[i] != before[k]) u->state[i] = join(u, u->state[i], v, s->span);
    }
    free(l.v);
    *beh = ((b1 | b2) & ~B_NEXT) | ((b1 | b2) & B_NEXT);
    if ((b1 | b2) == B_NEXT) {
      (void)cf1;
      (void)cf2;
      /* both sides fall through: control flow reconverges */
    } else {
      int n = node(u, s->span);
      edge(u, n, cf1);
      edge(u, n, cf2);
      edge(u, n, v);
      cf = n;
    }
    free(before);
    free(after1);
    break;
  }
  case ST_SWITCH: {
    cf = expr(u, cf, s->u.switch_.selector, &v);
    if (nbody) apply_attrs(u, s->attrs + s->nattrs - nbody, nbody, body_sev);
    vlist l = assigned_in(u, s, NULL);
    int *before = save_listed(u, &l), *acc = save_listed(u, &l);
    if (!before || !acc) { free(before); free(acc); free(l.v); break; }
    for (int k = 0; k < l.n; k++) acc[k] = -1;
    int all = 0, end = node(u, s->span), saved_in_switch = u->in_switch;
    int *saved_sv = u->sw_vars, *saved_se = u->sw_exit, saved_sn = u->sw_nv;
    u->in_switch = 1;
    u->sw_vars = l.v;
    u->sw_exit = acc;
    u->sw_nv = l.n;
    for (int i = 0; i < s->u.switch_.ncases; i++) {
      for (int k = 0; k < l.n; k++) u->state[l.v[k]] = before[k];
      int b;
      int c2 = block(u, v, s->u.switch_.cases[i].body, &b);
      edge(u, end, c2);
      /* a clause that falls through leaves the switch with its values;
       * its breaks recorded theirs (ST_BREAK) */
      if (b & B_NEXT) exit_record(u, acc, l.v, l.n, s->span);
      all |= b;
    }
    u->in_switch = saved_in_switch;
    u->sw_vars = saved_sv;
    u->sw_exit = saved_se;
    u->sw_nv = saved_sn;
    for (int k = 0; k < l.n; k++) {
      int i = l.v[k];
      u->state[i] = acc[k] >= 0 ? acc[k] : before[k];
      if (u->state[i] != before[k]) u->state[i] = join(u, u->state[i], v, s->span);
    }
    free(l.v);
    *beh = (all & ~B_BREAK) | ((all & B_BREAK) ? B_NEXT : 0);
    /* a break leaves the switch only: with behavior {Next} the clauses
     * reconverge at its end (§Uniformity Rules for Statements) */
    if (*beh != B_NEXT) {
      edge(u, end, v);
      cf = end;
    }
    free(before);
    free(acc);
    break;
  }
  case ST_LOOP: case ST_FOR: case ST_WHILE: {
    int mark = u->nvars;
    if (s->kind == ST_FOR && s->u.loop.init) {
      int b;
      cf = stmt(u, cf, s->u.loop.init, &b);
    }
    int cfp = node(u, s->span); /* CF' */
    edge(u, cfp, cf);
    /* placeholders for the variables the loop may assign only */
    vlist l = assigned_in(u, s, NULL);
    int nv = l.n;
    int *ph = malloc(sizeof *ph * (size_t)(nv + 1));
    int *ex = malloc(sizeof *ex * (size_t)(nv + 1));
    if (!ph || !ex) { u->failed = 1; free(ph); free(ex); free(l.v); break; }
    for (int k = 0; k < nv; k++) ex[k] = -1;
    for (int k = 0; k < nv; k++) {
      int i = l.v[k];
      ph[k] = node(u, u->nodes[u->state[i]].span);
      edge(u, ph[k], u->state[i]);
      u->state[i] = ph[k];
    }
    int body_cf = cfp;
    if (s->u.loop.cond) {
      int cv;
      body_cf = expr(u, cfp, s->u.loop.cond, &cv);
      body_cf = join(u, body_cf, cv, s->u.loop.cond->span);
      edge(u, cfp, cv);
      /* a false condition leaves with the values of the iteration's start */
      exit_record(u, ex, l.v, nv, s->span);
    }
    int b;
    int saved_loop = u->loop_cf;
    int *saved_ls = u->loop_state, *saved_lv = u->loop_vars, *saved_le = u->loop_exit, saved_nv = u->loop_nv;
    int saved_in_switch = u->in_switch;
    u->in_switch = 0;
    u->loop_cf = cfp;
    u->loop_state = ph;
    u->loop_vars = l.v;
    u->loop_exit = ex;
    u->loop_nv = nv;
    int end = block_open(u, body_cf, s->u.loop.body, &b);
    if (s->u.loop.continuing) {
      int b2;
      end = block(u, end, s->u.loop.continuing, &b2);
    }
    if (s->u.loop.update) {
      int b3;
      end = stmt(u, end, s->u.loop.update, &b3);
    }
    u->in_switch = saved_in_switch;
    u->loop_cf = saved_loop;
    u->loop_state = saved_ls;
    u->loop_vars = saved_lv;
    u->loop_exit = saved_le;
    u->loop_nv = saved_nv;
    /* CF' -> CF1: the next iteration starts where this one ended, unless
     * the body only breaks or returns (a single iteration) */
    if (b & (B_NEXT | B_CONT)) edge(u, cfp, end);
    for (int k = 0; k < nv; k++) {
      int i = l.v[k];
      /* the next iteration starts with the values this one ended with */
      if (u->state[i] != ph[k]) edge(u, ph[k], u->state[i]);
      /* after the loop: the values where it was left (Vin(next)); a loop
       * left only by returns has none to give */
      int fin = ex[k] >= 0 ? ex[k] : ph[k];
      /* a variable the loop does not end up assigning keeps its value
       * node, so that an enclosing `if` does not see it as changed */
      if (fin == ph[k] && u->nodes[ph[k]].n == 1) fin = u->nodes[ph[k]].out[0];
      u->state[i] = fin;
    }
    free(ph);
    free(ex);
    free(l.v);
    u->nvars = mark;
    *beh = (b & B_RET) | B_NEXT;
    /* without a return inside, invocations reconverge after the loop */
    int cf_in = cf;
    cf = (b & B_RET) ? cfp : cf_in;
    break;
  }
  case ST_BREAK_IF: {
    cf = expr(u, cf, s->u.expr, &v);
    if (u->loop_cf >= 0) edge(u, u->loop_cf, v);
    if (u->loop_cf >= 0) exit_record(u, u->loop_exit, u->loop_vars, u->loop_nv, s->span);
    break;
  }
  case ST_BREAK: case ST_CONTINUE:
    /* no edge for control flow: a non-uniform break or continue shows in
     * the behavior of the statements around it (their CFend); the loop's
     * placeholders take the variables' values here */
    if (s->kind == ST_BREAK && u->in_switch) {
      exit_record(u, u->sw_exit, u->sw_vars, u->sw_nv, s->span);
    } else if (s->kind == ST_BREAK && u->loop_cf >= 0) {
      exit_record(u, u->loop_exit, u->loop_vars, u->loop_nv, s->span);
    } else if (u->loop_cf >= 0) {
      /* continue: the next iteration starts with these values */
      for (int k = 0; u->loop_state && k < u->loop_nv; k++) {
        int i = u->loop_vars[k];
        if (i < u->nvars && u->state[i] != u->loop_state[k]) edge(u, u->loop_state[k], u->state[i]);
      }
    }
    *beh = s->kind == ST_BREAK ? B_BREAK : B_CONT;
    break;
  case ST_RETURN:
    if (s->u.expr) {
      cf = expr(u, cf, s->u.expr, &v);
      edge(u, u->ret, v);
    }
    edge(u, u->ret, cf);
    contents_at_return(u);
    *beh = B_RET;
    break;
  case ST_DISCARD:
    *beh = B_NEXT;
    break;
  default: break;
  }
  memcpy(u->sev, saved_sev, sizeof u->sev);
  return cf;
}

/* ----------------------------------------------------------- reachability */

/* Marks (with bit) every node from which `target` is reachable. */
static void reach_back(uctx *u, int target, int bit) {
  /* reverse adjacency built on the fly: iterate until no change (graphs are
   * small per function; bounded by nodes * edges passes in the worst case,
   * done instead with an explicit reverse graph) */
  int *cnt = calloc((size_t)u->nn + 1, sizeof *cnt);
  if (!cnt) { u->failed = 1; return; }
  int total = 0;
  for (int i = 0; i < u->nn; i++)
    for (int k = 0; k < u->nodes[i].n; k++) cnt[u->nodes[i].out[k]]++, total++;
  int *start = malloc(sizeof *start * ((size_t)u->nn + 1));
  int *rev = malloc(sizeof *rev * ((size_t)total + 1));
  int *stack = malloc(sizeof *stack * ((size_t)u->nn + 1));
  if (!start || !rev || !stack) {
    u->failed = 1;
    free(cnt); free(start); free(rev); free(stack);
    return;
  }
  int acc = 0;
  for (int i = 0; i < u->nn; i++) start[i] = acc, acc += cnt[i];
  start[u->nn] = acc;
  memset(cnt, 0, sizeof *cnt * (size_t)u->nn);
  for (int i = 0; i < u->nn; i++)
    for (int k = 0; k < u->nodes[i].n; k++) {
      int t = u->nodes[i].out[k];
      rev[start[t] + cnt[t]++] = i;
    }
  int sp = 0;
  u->nodes[target].mark |= bit;
  stack[sp++] = target;
  while (sp) {
    int x = stack[--sp];
    for (int k = start[x]; k < start[x + 1]; k++) {
      int y = rev[k];
      if (!(u->nodes[y].mark & bit)) {
        u->nodes[y].mark |= bit;
        stack[sp++] = y;
      }
    }
  }
  free(cnt); free(start); free(rev); free(stack);
}

/* The node nearest to n (breadth first) whose span shows where the
 * non-uniformity comes from. */
static src_span culprit(uctx *u, int from) {
  src_span best = u->nodes[from].span;
  int x = from;
  for (int steps = 0; steps < 64; steps++) {
    int next = -1;
    for (int k = 0; k < u->nodes[x].n; k++) {
      int y = u->nodes[x].out[k];
      if (u->nodes[y].mark & 1) {
        next = y;
        break;
      }
    }
    if (next < 0 || next == u->maybe) break;
    x = next;
    if (u->nodes[x].span.end > u->nodes[x].span.start) best = u->nodes[x].span;
  }
  return best;
}

/* The source of the non-uniformity: the last node before MayBeNonUniform
 * on a shortest path from `from` (a parameter, a load, an atomic...).
 * Breadth first over the marked nodes; *budget bounds the searches a
 * function may make, then the walk above answers. */
static src_span source_of(uctx *u, int from, int *budget) {
  if (*budget <= 0) return culprit(u, from);
  (*budget)--;
  int *prev = malloc(sizeof *prev * (size_t)u->nn), *queue = malloc(sizeof *queue * (size_t)u->nn);
  if (!prev || !queue) {
    free(prev);
    free(queue);
    return culprit(u, from);
  }
  for (int i = 0; i < u->nn; i++) prev[i] = -2;
  int head = 0, tail = 0, found = -1;
  prev[from] = -1;
  queue[tail++] = from;
  while (head < tail && found < 0) {
    int x = queue[head++];
    for (int k = 0; k < u->nodes[x].n; k++) {
      int y = u->nodes[x].out[k];
      if (prev[y] != -2 || !(u->nodes[y].mark & 1)) continue;
      prev[y] = x;
      if (y == u->maybe) {
        found = x;
        break;
      }
      queue[tail++] = y;
    }
  }
  src_span r = found >= 0 && u->nodes[found].span.end > u->nodes[found].span.start ? u->nodes[found].span
                                                                                   : culprit(u, from);
  free(prev);
  free(queue);
  return r;
}

static void analyse_fn(uctx *u, ast_decl *fn);

static void callees_expr(void *ctx, ast_expr *e);
static void analyse_callees(void *ctx, ast_stmt *s);

static const ast_visitor callee_walk = {analyse_callees, callees_expr};

static void callees_expr(void *ctx, ast_expr *e) {
  if (e->kind == EX_CALL && e->ref == REF_DECL && e->decl && e->decl->kind == DECL_FN)
    analyse_fn(ctx, e->decl);
  ast_expr_children(e, &callee_walk, ctx);
}

static void analyse_callees(void *ctx, ast_stmt *s) { ast_stmt_children(s, &callee_walk, ctx); }

static const char *const rule_names[] = {"derivative_uniformity", "subgroup_uniformity", "uniformity",
                                         "chromium.subgroup_matrix_uniformity"};

static void analyse_fn(uctx *u, ast_decl *fn) {
  ftag *tag = &u->tags[fn->index];
  if (tag->done || u->failed) return;
  tag->done = 1;
  analyse_callees(u, fn->body);
  /* a fresh graph for this function */
  uctx f = *u;
  f.nodes = NULL;
  f.nn = f.capn = 0;
  f.sites = NULL;
  f.ns = f.caps = 0;
  f.vars = NULL;
  f.state = NULL;
  f.nvars = f.capvars = 0;
  f.vtab = NULL;
  f.vcap = f.vused = 0;
  f.stamp = NULL;
  f.capstamp = f.scan = 0;
  f.fn = fn;
  f.loop_cf = -1;
  f.loop_state = NULL;
  f.loop_vars = NULL;
  f.loop_exit = NULL;
  f.loop_nv = 0;
  f.in_switch = 0;
  f.sw_vars = f.sw_exit = NULL;
  f.sw_nv = 0;
  f.view_only = 0;
  int saved[RULE_COUNT];
  apply_attrs(&f, fn->attrs, fn->nattrs, saved);
  f.maybe = node(&f, fn->name_span);
  f.cf_start = node(&f, fn->name_span);
  f.ret = node(&f, fn->name_span);
  f.params = calloc((size_t)fn->nparams + 1, sizeof *f.params);
  f.pout = calloc((size_t)fn->nparams + 1, sizeof *f.pout);
  if (!f.params || !f.pout) {
    free(f.params);
    free(f.pout);
    u->failed = 1;
    return;
  }
  for (int i = 0; i < fn->nparams; i++) {
    f.params[i] = node(&f, fn->params[i]->name_span);
    if (fn->stage && is_builtin_nonuniform_value(fn->params[i], fn->stage, f.scope)) edge(&f, f.params[i], f.maybe);
    /* parameters are read as tracked values */
    track(&f, fn->params[i], f.params[i]);
    const type *pt = fn->params[i]->rtype;
    f.pout[i] = pt && pt->kind == TY_PTR && pt->space == AS_FUNCTION ? node(&f, fn->params[i]->name_span) : -1;
  }
  int beh;
  block_open(&f, f.cf_start, fn->body, &beh);
  if (beh & B_NEXT) contents_at_return(&f);
  if (!f.failed) {
    reach_back(&f, f.maybe, 1);
    if (!fn->stage) {
      reach_back(&f, f.cf_start, 2);
      tag->param_required = arena_alloc(&u->c->m->arena, (size_t)fn->nparams + 1);
      tag->ret_param = arena_alloc(&u->c->m->arena, (size_t)fn->nparams + 1);
      tag->param_rule = arena_alloc(&u->c->m->arena, (size_t)fn->nparams + 1);
      tag->ptr_nonuniform = arena_alloc(&u->c->m->arena, (size_t)fn->nparams + 1);
      tag->ptr_dep = arena_alloc(&u->c->m->arena, (size_t)fn->nparams * (size_t)fn->nparams + 1);
      for (int i = 0; tag->ptr_nonuniform && i < fn->nparams; i++)
        tag->ptr_nonuniform[i] = f.pout[i] >= 0 && (f.nodes[f.pout[i]].mark & 1);
    }
    int budget = 16; /* source searches for this function's diagnostics */
    for (int i = 0; i < f.ns; i++) {
      site *s = &f.sites[i];
      if (f.nodes[s->node].mark & 1) {
        const char *why = s->rule == RULE_BARRIER ? "must only be called from uniform control flow"
                          : s->rule == RULE_DERIV ? "must only be called from uniform control flow (derivative_uniformity)"
                          : s->rule == RULE_SGMAT ? "must only be called from uniform control flow (chromium.subgroup_matrix_uniformity)"
                                                  : "must only be called from uniform control flow (subgroup_uniformity)";
        diag_severity sev = s->sev == SEV_ERROR ? DIAG_ERROR : DIAG_WARNING;
        if (s->sev == SEV_INFO) sev = DIAG_NOTE;
        if (s->operand) {
          diag_add(u->c->d, sev, s->span, "the %s of '%s' must be a uniform value%s", s->operand, s->what,
                   s->rule == RULE_SUBGROUP ? " (subgroup_uniformity)" : "");
          diag_note(u->c->d, source_of(&f, s->node, &budget), "it depends on this possibly non-uniform value");
        } else {
          diag_add(u->c->d, sev, s->span, "'%s' %s", s->what, why);
          diag_note(u->c->d, source_of(&f, s->node, &budget), "control flow depends on this possibly non-uniform value");
        }
        (void)rule_names;
      } else if (!fn->stage) {
        if (f.nodes[s->node].mark & 2) {
          if (!tag->cs_required || s->sev < tag->cs_sev) {
            tag->cs_sev = s->sev;
            tag->cs_rule = s->rule;
          }
          tag->cs_required = 1;
        }
      }
    }
    if (!fn->stage && tag->param_required && tag->param_rule) {
      for (int p = 0; p < fn->nparams; p++) {
        for (int i = 0; i < f.nn; i++) f.nodes[i].mark &= ~4;
        reach_back(&f, f.params[p], 4);
        for (int i = 0; i < f.ns; i++)
          if ((f.nodes[f.sites[i].node].mark & 4) && !(f.nodes[f.sites[i].node].mark & 1) &&
              (!tag->param_required[p] || f.sites[i].sev + 1 < tag->param_required[p])) {
            tag->param_required[p] = (uint8_t)(f.sites[i].sev + 1);
            tag->param_rule[p] = (uint8_t)f.sites[i].rule;
          }
        if (f.nodes[f.ret].mark & 4) tag->ret_param[p] = 1;
        for (int i = 0; tag->ptr_dep && i < fn->nparams; i++)
          if (f.pout[i] >= 0 && (f.nodes[f.pout[i]].mark & 4)) tag->ptr_dep[i * fn->nparams + p] = 1;
      }
      if (f.nodes[f.ret].mark & 1) tag->ret_nonuniform = 1;
    }
  }
  if (f.failed) u->failed = 1;
  for (int i = 0; i < f.nn; i++) free(f.nodes[i].out);
  free(f.nodes);
  free(f.sites);
  free(f.vars);
  free(f.vtab);
  free(f.stamp);
  free(f.state);
  free(f.params);
  free(f.pout);
}

void uni_analyse(sctx *c) {
  if (c->uniformity_off || c->d->errors) return;
  ast_module *am = c->m->ast;
  uctx u = {0};
  ptrmap roots = {0}, wholes = {0};
  u.roots = &roots;
  u.wholes = &wholes;
  u.c = c;
  u.loop_cf = -1;
  u.sev[RULE_DERIV] = SEV_ERROR;
  u.sev[RULE_SUBGROUP] = SEV_ERROR;
  u.sev[RULE_BARRIER] = SEV_ERROR;
  u.sev[RULE_SGMAT] = SEV_ERROR;
  /* diagnostic(severity, rule); directives */
  for (int i = 0; i < am->ndirectives; i++) {
    ast_directive *dv = &am->directives[i];
    if (dv->kind != DIR_DIAGNOSTIC || dv->nnames < 2) continue;
    int s = parse_sev(dv->names[0]), r = parse_rule(dv->names[1]);
    if (s >= 0 && r >= 0) u.sev[r] = s;
  }
  /* without `enable subgroups` there is nothing to check at subgroup scope */
  int nscopes = c->subgroups_enabled ? SCOPE_COUNT : 1;
  for (u.scope = 0; u.scope < nscopes && !u.failed; u.scope++) {
    u.tags = arena_alloc(&c->m->arena, sizeof *u.tags * ((size_t)am->ndecls + 1));
    if (!u.tags) break;
    memset(u.tags, 0, sizeof *u.tags * ((size_t)am->ndecls + 1));
    for (int i = 0; i < am->ndecls; i++)
      if (am->decls[i]->kind == DECL_FN && am->decls[i]->body) analyse_fn(&u, am->decls[i]);
  }
  ptrmap_free(&roots);
  ptrmap_free(&wholes);
}
