/*
 * sema.h — the resolver's view of a module, shared with lowering.
 *
 * After parsing, sema_resolve() binds every identifier, gives every
 * expression a type, folds const-expressions to values (cvalue), marks
 * override-expressions, lays out structs and checks the rules of the subset
 * lockstep implements; anything outside it is rejected with a clear message
 * rather than mis-executed. Override-expressions are evaluated later, at
 * pipeline creation, by sema_eval() with the pipeline's override values —
 * the same folding code serves both.
 */
#ifndef LS_WGSL_SEMA_H
#define LS_WGSL_SEMA_H

#include <stddef.h>
#include <stdint.h>

#include "../util/arena.h"
#include "../util/diag.h"
#include "ast.h"
#include "builtins.h"
#include "types.h"
#include "wgsl.h"

/* @builtin(...) input values of compute entry points. */
typedef enum builtin_value {
  BV_LOCAL_INVOCATION_INDEX,
  BV_LOCAL_INVOCATION_ID,
  BV_GLOBAL_INVOCATION_ID,
  BV_WORKGROUP_ID,
  BV_NUM_WORKGROUPS,
  BV_GLOBAL_INVOCATION_INDEX, /* language extension linear_indexing */
  BV_WORKGROUP_INDEX,
  BV_SUBGROUP_INVOCATION_ID, /* enable subgroups; */
  BV_SUBGROUP_SIZE,
  BV_SUBGROUP_ID,            /* and language extension subgroup_id */
  BV_NUM_SUBGROUPS,
  BV_COUNT
} builtin_value;

/* A constant value. Scalars: integers (i32, u32, AbstractInt) in i — u32 as
 * 0..2^32-1, i32 sign-extended; floats (f32 already rounded to single,
 * AbstractFloat) in f; bool in b. Composites (vector, matrix by column,
 * array, struct): elems. */
typedef struct cvalue {
  const type *type;
  int64_t i;
  double f;
  int b;
  const struct cvalue **elems;
  int n;
} cvalue;

struct wgsl_module {
  arena arena;
  char *src;
  size_t len;
  char *filename;
  uint32_t *line_starts; /* diag_line_starts of src (in the arena) */
  uint32_t nlines;
  diag_list diags;
  ast_module *ast;
  type_table types;
  int ok;
};

/* Resolves m->ast in place; errors go to m->diags. */
void sema_resolve(wgsl_module *m);

/* Override values for sema_eval, indexed by the override decl's `index`
 * (position in the module's declaration list); NULL entries = not given. */
typedef struct eval_env {
  const cvalue **overrides;
  int count;
  /* Per declaration, for an override without a value: the override whose
   * own initializer fails or which has none and no pipeline constant (it,
   * or one its initializer depends on); -1 otherwise. sema_eval reports
   * that one's problem. NULL: overrides without a value are evaluated from
   * their initializers. */
  const int *cause;
} eval_env;

/* Evaluates a const- or override-expression. Returns NULL after reporting an
 * error into diags (e.g. division by zero, overflow). */
const cvalue *sema_eval(wgsl_module *m, ast_expr *e, const eval_env *env, diag_list *diags);
/* The checks WGSL makes on the right operand of l / r, l % r, l << r and
 * l >> r when r is known before execution (a const- or override-expression
 * with value rv) but l is not: an integer divisor with a zero component, a
 * shift amount of a concrete integer >= its bit width. lt is l's type.
 * Returns 0 after reporting into diags. */
int sema_check_known_rhs(ast_binop op, const type *lt, const cvalue *rv, src_span span,
                         diag_list *diags);
/* The same for built-in calls: the arguments (bit i: argument i) that f's
 * errors for known arguments read (clamp's low and high, extractBits'
 * offset and count, smoothstep's edges, ldexp's exponent); 0 for a
 * function without such a rule. */
unsigned sema_known_args(builtin_fn f);
/* Those errors for a call of result type rt whose known arguments are
 * args[i] (NULL: not known before the call runs): 0 after reporting one,
 * at arg_spans[i] where the rule names one argument (NULL: span). */
int sema_known_args_ok(builtin_fn f, const cvalue *const *args, int n, const type *rt,
                       src_span span, const src_span *arg_spans, diag_list *diags);
/* Converts a constant to type t (value conversion rules of the spec, e.g.
 * override values given as doubles); NULL + error when not representable. */
const cvalue *sema_convert(wgsl_module *m, const cvalue *v, const type *t, src_span span,
                           diag_list *diags);
/* A scalar constant of type t from a double (for pipeline constants). */
const cvalue *sema_scalar_from_double(wgsl_module *m, const type *t, double v, src_span span,
                                      diag_list *diags, const char *what);
/* The 32-bit patterns of a concrete constant's scalar leaves, in register
 * order (vectors by component, matrices by column, arrays and structs by
 * element/member). Writes at most max words; returns the count. */
uint32_t sema_value_words(const cvalue *v, uint32_t *out, uint32_t max);

/* Pipeline creation's gate: refuses (into d) the first construct reachable
 * from entry point fn that lowering cannot run yet. Returns 1 when none.
 * reached (one byte per module declaration) gets 1 for each module-scope
 * declaration the entry point statically uses, itself included. Time and
 * stack are linear in the reachable code (no declaration is walked twice). */
int sema_check_lowerable(wgsl_module *m, ast_decl *fn, diag_list *d, uint8_t *reached);

const char *builtin_value_name(builtin_value v);

#endif
