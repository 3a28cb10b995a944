/*
 * sema_int.h — state shared by the resolver's files: sema.c (module,
 * declarations, statements), sema_entry.c (entry point inputs) and
 * sema_expr.c (expressions, calls, types).
 * Not used outside src/wgsl/.
 */
#ifndef LS_WGSL_SEMA_INT_H
#define LS_WGSL_SEMA_INT_H

#include "eval.h"
#include "sema.h"

typedef struct scope_entry {
  const char *name;
  ast_decl *decl;    /* NULL: a scope boundary */
  int shadow;        /* the entry of the same name this one hides, or -1 */
} scope_entry;

typedef struct sctx {
  wgsl_module *m;
  diag_list *d;
  type_table *T;
  uint8_t *state;       /* per module declaration: 0 new, 1 resolving, 2 done */
  uint8_t *body_state;  /* per function: 0 new, 1 resolving, 2 done */
  scope_entry *locals;  /* block-scoped declarations, innermost last */
  int nlocals, caplocals;
  int frame;            /* first entry of the function being resolved: entries
                           below it belong to a caller and are not visible */
  int *ltab;            /* name -> 1 + index of its innermost entry; 0 empty,
                           -1 deleted (open addressing, malloc'd) */
  unsigned lcap, lused; /* slots, slots not empty */
  int scope;            /* the innermost scope boundary entry (frame - 1 when
                           none): declarations above it share its scope */
  ast_decl *fn;         /* function being resolved */
  int loop_depth;       /* loops around the current statement */
  int switch_depth;
  int in_continuing;    /* continuing blocks around the statement */
  int cont_loop;        /* loop_depth of the loop whose continuing block we
                           are directly in (not inside a nested loop), -1 */
  int cont_switch;      /* switch_depth when that continuing block began */
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
  int subgroup_size_control; /* enable subgroup_size_control; */
  int sgmat_enabled;    /* chromium_experimental_subgroup_matrix */
  int pixel_local_enabled; /* chromium_experimental_pixel_local */
  int input_attachments_enabled; /* chromium_internal_input_attachments */
  int fb_fetch_enabled; /* chromium_experimental_framebuffer_fetch */
  int atomic_vec2u_enabled; /* atomic_vec2u_min_max */
  int resource_table_enabled; /* chromium_experimental_resource_table */
  int clip_distances_enabled;   /* clip_distances */
  int dual_source_enabled;      /* dual_source_blending */
  int primitive_index_enabled;  /* primitive_index */
  int barycentric_enabled;      /* chromium_experimental_barycentric_coord */
  int uniformity_off;   /* chromium_disable_uniformity_analysis */
  int quiet_eval;       /* inside an operand a short circuit skips */
  int resolve_depth;    /* nested resolutions of declarations and bodies */
  int *call_depth;      /* per function: the deepest call chain below it */
  int depth_reported;
  /* Nesting of statements and expressions (sema_nest_enter): where the
   * resolver is (nest, counting the declarations and bodies it resolves on
   * the way, as its recursion does), where the current function's body
   * began (nest_base), and per function the deepest level of its body
   * counting through the calls it makes (fn_nest). */
  int nest, nest_base;
  int *fn_nest;
  int nest_reported;
  ast_decl **gtab;      /* module declarations by name (open addressing) */
  unsigned gmask;
} sctx;

/* directives.c: the rows of directives.def. An extension's flags are the
 * byte offsets of the sctx members `enable` sets (0: none; sctx begins with
 * its module pointer, never a flag). */
typedef struct sema_extension {
  const char *name;
  size_t flag, implies;
} sema_extension;
const sema_extension *sema_extension_find(const char *name);
int sema_language_known(const char *name);

/* Limits of lockstep (the spec lets implementations have them, §Limits):
 * how deep declarations used before their declaration may chain, and how
 * deep calls may nest; both bound the recursion of every later phase. */
#define SEMA_MAX_DECL_DEPTH 512
#define SEMA_MAX_CALL_DEPTH 512
/* ... and how deep statements and expressions may nest counting through
 * calls: the parser bounds one function's nesting, this bounds what a walk
 * from an entry point through what it calls (the later analyses, lowering's
 * inlining) or the resolver's own recursion meets, so that none of them
 * can exhaust the C stack. */
#define SEMA_MAX_NEST 2048

/* One level deeper (a statement or an expression) at s; 0, with an error
 * reported once, past SEMA_MAX_NEST. Each successful enter is matched by a
 * sema_nest_leave. */
int sema_nest_enter(sctx *c, src_span s);
static inline void sema_nest_leave(sctx *c) { c->nest--; }
/* A call of fn (its body resolved) at the current level: fn's nesting adds
 * to the caller's. 0, with an error reported once, past SEMA_MAX_NEST. */
int sema_nest_call(sctx *c, const ast_decl *fn, src_span s);

/* Constant values with more scalar leaves than this are not folded. */
#define SEMA_MAX_FOLD_WORDS (1u << 20)

/* Where const-evaluation errors go: nowhere inside a skipped operand (the
 * failed value is replaced by a zero of its type, never used). */
#define EVAL_DIAGS(c) ((c)->quiet_eval ? NULL : (c)->d)

/* sema.c */
ast_decl *sema_lookup(sctx *c, const char *name);
/* The attribute called name among a[0..n), or NULL. */
ast_attr *sema_find_attr(ast_attr *a, int n, const char *name);
/* Argument i of a, a non-negative constant integer; -1 after an error. */
int64_t sema_attr_int(sctx *c, ast_attr *a, int i, const char *what);

/* sema_attr.c: where an attribute may appear (one bit each) */
enum {
  SEMA_AT_MEMBER = 1, SEMA_AT_VAR = 2, SEMA_AT_OVERRIDE = 4, SEMA_AT_FN = 8, SEMA_AT_PARAM = 16,
  SEMA_AT_OTHER = 32, SEMA_AT_RET = 64
};
/* Attributes a[n] at a place (SEMA_AT_*): known names allowed there, their
 * argument counts, no duplicates, one stage attribute, @diagnostic forms. */
void sema_check_attr_names(sctx *c, ast_attr *a, int n, unsigned place);
/* @diagnostic(severity, rule): a known severity, a rule (unknown: warning). */
void sema_check_diagnostic_attr(sctx *c, ast_attr *a);
/* No two @diagnostic attributes of one form name the same rule. */
void sema_check_diagnostic_conflicts(sctx *c, ast_attr *a, int n);
/* An unknown single-token rule name draws a warning. */
void sema_check_diagnostic_rule(sctx *c, const char *rule, src_span span);
void sema_resolve_global(sctx *c, ast_decl *d);
void sema_resolve_fn_body(sctx *c, ast_decl *fn);

/* sema_entry.c */
/* The shader stage inputs and outputs of entry point d (every stage); sets
 * each parameter's compute built-in register (builtin_value). */
void sema_entry_io(sctx *c, ast_decl *d);
/* No IO attribute on the parameters or return type of function d, which is
 * not an entry point. */
void sema_non_entry_io(sctx *c, ast_decl *d);
/* The IO attributes of the members of structure d and their locations. */
void sema_struct_io(sctx *c, ast_decl *d);

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

/* A subgroup matrix component type argument: f32, f16, i32, u32, or i8/u8
 * (*eight 1/2, returned as i32/u32); NULL after an error. */
const type *sema_sgmat_component(sctx *c, ast_expr *e, int *eight);

/* The common type two operand types convert to, or NULL. */
const type *sema_unify(const type *a, const type *b);
/* 1: every expression is const; 0: const or override (any_override set);
 * -1: some runtime value. NULL entries are skipped. */
int sema_all_const(ast_expr **kids, int n, int *any_override);

/* sema_stage.c: constructs one shader stage allows, checked per entry
 * point over the functions it reaches. */
void sema_check_stages(sctx *c);
/* sema_alias.c: the spec's alias analysis at every call site. */
void sema_check_aliasing(sctx *c);

/* sema_builtin.c */
/* Resolves a call of built-in f (overload resolution, constant folding). */
const type *sema_builtin_call(sctx *c, ast_expr *e, builtin_fn f);

#endif
