/*
 * lower_int.h — state shared by the lowering files: lower.c (pipeline
 * creation, statements, control flow, calls), lower_global.c (where
 * module-scope variables live), lower_expr.c (expressions, memory views),
 * lower_builtin.c, lower_texture.c and lower_matrix.c (built-in functions),
 * and emit.c (the emitter, emit.h). Not used outside src/ir/. Who calls
 * whom is drawn in emit.h.
 *
 * Values live in registers; a value of a composite type occupies `n`
 * consecutive registers (its scalar leaves in order). During lowering,
 * temporaries are numbered from 0 and constants carry LW_CONST_TAG; the final
 * pass (lw_emit_finish) renumbers them so that constants come first, as ir.h
 * requires.
 */
#ifndef LS_IR_LOWER_INT_H
#define LS_IR_LOWER_INT_H

#include "../wgsl/sema.h"
#include "emit.h"
#include "lower.h"

typedef struct val {
  uint32_t reg;      /* first register */
  uint32_t n;        /* registers (scalar leaves) */
  const type *type;
  int is_var;        /* the registers belong to a mutable variable */
} val;

/* Where a memory view points. */
typedef enum ref_kind { RF_REG, RF_MEM } ref_kind;

typedef struct ref {
  ref_kind kind;
  const type *type;  /* store type of the view */
  /* RF_REG: a variable held in registers */
  uint32_t reg;
  /* RF_REG with has_dyn: one component of the vector at reg..reg+dyn_n-1,
   * chosen per lane by register dyn (v[i] with a runtime i) */
  int has_dyn;
  uint32_t dyn, dyn_n;
  /* RF_MEM */
  addr_space space;  /* AS_STORAGE/AS_UNIFORM: slot; AS_WORKGROUP;
                        AS_PRIVATE/AS_FUNCTION: per-lane memory */
  uint32_t slot;     /* AS_WORKGROUP: index into lw.wgvars */
  uint32_t addr;     /* register with the dynamic byte offset, or IR_NO_REG */
  uint32_t off;      /* constant byte offset */
} ref;

/* What a local name is bound to while its function is being inlined. */
typedef struct binding {
  int is_ref;
  val v;
  ref r;
} binding;

/* Per module-scope variable: where it lives for this pipeline. */
typedef struct gvar {
  int placed;
  ref r;
} gvar;

/* A block of function memory on the stack: a function variable, or a copy
 * of an array value indexed at run time (decl NULL). */
typedef struct lw_fnblock {
  const ast_decl *decl;
  const ast_decl *fn;  /* the function it belongs to */
  uint64_t off, bytes;
} lw_fnblock;

/* Registers and function memory in use where a scope starts; leaving the
 * scope frees what it took (lw_scope_enter / lw_scope_leave). */
typedef struct lw_scope {
  uint32_t top;
  uint64_t fn_top;
} lw_scope;

/* A structured construct whose body end is where lanes that leave early
 * (return, break, continue) jump once the mask is empty. */
typedef enum frame_kind { FR_BODY, FR_LOOP, FR_SWITCH, FR_FN } frame_kind;

typedef struct frame {
  struct frame *up;
  frame_kind kind;
  uint32_t *pending;  /* JMPs to patch to the body end */
  uint32_t npending, cappending;
  uint32_t kill_break;    /* FR_LOOP / FR_SWITCH: first slot `break` clears */
  uint32_t kill_continue; /* FR_LOOP: first slot `continue` clears */
  uint32_t kill_return;   /* FR_FN: first slot `return` clears */
  val ret;                /* FR_FN: registers of the return value */
} frame;

struct lw {
  wgsl_module *m;
  diag_list *d;
  const ls_limits *limits;
  eval_env env;
  ast_decl *entry;
  /* the emitter (emit.c); the others read these and set span, top, mtop
   * and f16, and patch jump targets in code */
  ir_insn *code;
  src_span *spans;
  uint32_t ncode, capcode;
  src_span span;          /* source of the instructions being emitted */
  uint32_t *consts;       /* the pool, in order of first use */
  uint32_t nconsts, capconsts;
  uint32_t *cindex;       /* hash index of the pool (emit.c) */
  uint32_t capcindex;
  uint32_t top, maxregs;  /* temporaries: a stack */
  uint32_t mtop, maxmasks;/* mask slots: a stack */
  int failed;             /* an error was reported: stop emitting */
  int f16;                /* emitting f16 arithmetic: lw_emit rounds every
                             f32 arithmetic result to f16 (F16R) */
  /* the rest of pipeline creation */
  ir_binding *bindings;
  uint32_t nbindings, capbindings;
  uint64_t imm_slots;     /* the immediate variable's AccessibleSlots */
  ir_sample *samples;     /* TSMP descriptors (lower_texture.c) */
  uint32_t nsamples, capsamples;
  gvar *gvars;            /* per module declaration */
  uint8_t *reached;       /* per module declaration: the entry point uses it
                             (sema_check_lowerable) */
  ir_wgvar *wgvars;       /* workgroup variables placed, for observers */
  uint32_t nwgvars;
  uint64_t wg_bytes;      /* workgroup memory placed so far */
  /* An invocation's memory: the module-scope private variables first
   * (priv_bytes, placed before the body), then function memory, a stack
   * from fn_base (lw_fn_alloc, popped by lw_scope_leave) whose deepest
   * point is fn_peak. In 64 bits: sizes add up past 2^32 before the limit
   * check refuses them. */
  uint64_t priv_bytes;
  uint64_t fn_base, fn_top, fn_peak;
  lw_fnblock *fnblocks;   /* what the function memory stack holds */
  uint32_t nfnblocks, capfnblocks;
  ast_decl *cur_fn;       /* the function whose body is being lowered */
  uint32_t builtin_reg[IR_BI_COUNT];
  frame *fr;
  uint32_t nkills;        /* KILLs emitted so far (return/break/continue) */
  int call_depth;
};

/* lower.c */
void lw_block(lw *L, ast_stmt *s);
/* Inlines a call of user function fn with argument values/refs. */
val lw_call(lw *L, ast_expr *call);

/* lower_override.c: the override values (L->env) from the pipeline
 * constants and the initializers; 0 after an error. */
int lw_resolve_overrides(lw *L, const ls_constant_entry *cs, size_t n);

/* lower_global.c */
/* Element count of an array type for this pipeline (override-sized arrays
 * take their override's value). */
uint32_t lw_array_count(lw *L, const type *t, src_span s);
uint64_t lw_type_size(lw *L, const type *t, src_span s);
/* The byte offset in the invocation's memory of a new block of function
 * memory for a value of type t: function variable d, or (d NULL) a copy of
 * an array value. Past LW_MAX_FUNCTION_BYTES it fails (naming d, or s for
 * a copy) and returns 0. */
uint32_t lw_fn_alloc(lw *L, const type *t, const ast_decl *d, src_span s);
/* A variable (or block) a limit's message names, with its size. */
typedef struct lw_sized {
  const char *name; /* NULL: a copy of an array value */
  const char *fn;   /* the function it belongs to, or NULL */
  uint64_t bytes;
} lw_sized;
#define LW_LIST_SHOWN 6 /* how many a message names */
/* "'a' 4096 bytes in 'f', 'b' 16 bytes, and 3 more" into b: the n entries
 * of v, then how many of total were left out. */
void lw_list_sizes(char *b, size_t cap, const lw_sized *v, uint32_t n, uint32_t total);
/* Past LW_MAX_PRIVATE_BYTES of private variables: fails, naming them. */
int lw_check_private(lw *L);
lw_scope lw_scope_enter(const lw *L);
void lw_scope_leave(lw *L, lw_scope sc);
/* Where module-scope variable d lives (placed on first use). */
ref lw_global(lw *L, ast_decl *d);
/* Whether a variable of type t lives in memory rather than registers. */
int lw_needs_memory(const type *t);

/* lower_expr.c */
val lw_value(lw *L, ast_expr *e);
ref lw_ref(lw *L, ast_expr *e);
/* The view a pointer-valued expression points at. */
ref lw_ptr(lw *L, ast_expr *e);
val lw_load(lw *L, ref r);
void lw_store(lw *L, ref r, val v);
val lw_constant(lw *L, const cvalue *v);
/* Copies v into fresh registers when it aliases a variable. */
val lw_own(lw *L, val v);
/* Whether evaluating e calls a user function or a built-in with effects
 * (builtins.def's FX: atomics, workgroupUniformLoad), which may store to a
 * variable whose registers an earlier operand still aliases. */
int lw_has_call(ast_expr *e);
/* Pipeline creation's half of sema_check_known_rhs: l op rhs where rhs is
 * an override-expression (and l is not): a zero integer divisor or a shift
 * amount >= 32 is a pipeline-creation error. */
void lw_check_known_rhs(lw *L, ast_binop op, const type *lt, ast_expr *rhs, src_span span);
val lw_binary(lw *L, ast_binop op, val a, val b, const type *rt);
/* A register holding the byte address of a view's word at extra offset
 * `plus`, for operations without a displacement field. */
uint32_t lw_addr(lw *L, ref r, uint32_t plus);
/* Zero-initialises (or initialises from v when v.n) a variable's storage. */
void lw_init_var(lw *L, ref r, const val *v);

/* lower_matrix.c */
/* matrix * vector, vector * matrix, matrix * matrix (rt: the result type). */
val lw_matrix_mul(lw *L, val a, val b, const type *rt);
val lw_transpose(lw *L, val m, const type *rt);
val lw_determinant(lw *L, val m, const type *rt);
/* Element idx (a register) of `count` elements of `width` registers each,
 * held in registers from base.reg: a chain of selects. */
val lw_select_element(lw *L, val base, uint32_t idx, uint32_t width, uint32_t count, const type *et);

/* lower_builtin.c */
val lw_builtin(lw *L, ast_expr *e);
/* lower_texture.c: textureLoad, textureStore and the texture queries. */
val lw_texture_builtin(lw *L, ast_expr *e, builtin_fn f);
/* The binding slot of the texture or sampler an argument names (a
 * module-scope variable, a handle parameter of an inlined call, or a let
 * of one, with texture_and_sampler_let). */
int lw_handle_slot(lw *L, ast_expr *x, uint32_t *slot);

#endif
