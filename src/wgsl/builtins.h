/*
 * builtins.h — builtins.def as C data: the enums its rows name and, per
 * built-in function, one builtin_info with every fact the compiler uses
 * about it (class, counts, evaluation, lowering, extension, stage,
 * uniformity, memory access, use of the result, effects). The resolver
 * (sema_*.c), the uniformity analysis, the pipeline-creation gate
 * (support.c) and lowering (src/ir/) ask here instead of listing
 * functions; builtins.c holds the tables and the name lookup.
 */
#ifndef LS_WGSL_BUILTINS_H
#define LS_WGSL_BUILTINS_H

typedef enum builtin_fn {
#define BUILTIN(id, name, kind, args, targs, eval, lower, ext, stage, unif, mem, use, fx) BF_##id,
#include "builtins.def"
  BF_COUNT
} builtin_fn;

/* Overload classes (BUILTIN_CLASS rows). */
typedef enum builtin_kind {
#define BUILTIN_CLASS(name, targs_by, args_by) BK_##name,
#include "builtins.def"
  BK_COUNT
} builtin_kind;

/* Extensions a built-in may need (BUILTIN_EXT rows); BX_CORE: none. */
typedef enum builtin_ext {
#define BUILTIN_EXT(name, directive, gate) BX_##name,
#include "builtins.def"
  BX_COUNT
} builtin_ext;

/* Uniformity behaviours (BUILTIN_UNIFORMITY rows). */
typedef enum builtin_unif {
#define BUILTIN_UNIFORMITY(name, call, result, param, param_name) BU_##name,
#include "builtins.def"
  BU_COUNT
} builtin_unif;

/* The values of the columns; builtins.def writes them without the prefix
 * (builtins.def's header says what each means). */
typedef enum builtin_check { BC_TABLE, BC_RULE } builtin_check;       /* TARGS_BY, ARGS_BY */
typedef enum builtin_gate { BG_CALL, BG_TYPE } builtin_gate;          /* GATE */
typedef enum builtin_eval { BE_RT, BE_CONST } builtin_eval;            /* EVAL */
typedef enum builtin_lower { BL_RUN, BL_NO } builtin_lower;           /* LOWER */
/* STAGE, numbered like ast_decl.stage */
typedef enum builtin_stage { BS_ANY = 0, BS_COMP = 1, BS_FRAG = 3, BS_NOVERT = 4 } builtin_stage;
typedef enum builtin_site {                                            /* CALL */
  BUC_FREE, BUC_BARRIER, BUC_DERIV, BUC_SUBGROUP, BUC_SGMAT
} builtin_site;
typedef enum builtin_result {                                          /* RESULT */
  BUR_ARGS, BUR_CF, BUR_MAYBE, BUR_SGSCOPE, BUR_RWTEX
} builtin_result;
typedef enum builtin_mem { BM_R, BM_W, BM_RW, BM_NONE, BM_VIEW } builtin_mem; /* MEM */
typedef enum builtin_use { BR_MUST, BR_MAY, BR_VOID } builtin_use;    /* USE */
typedef enum builtin_fx { BFX_PURE, BFX_EFFECT } builtin_fx;          /* FX */

/* One BUILTIN row. */
typedef struct builtin_info {
  const char *name;
  builtin_kind kind;
  int args;  /* -1: the class rule counts */
  int targs;
  builtin_eval eval;
  builtin_lower lower;
  builtin_ext ext;
  builtin_stage stage;
  builtin_unif unif;
  builtin_mem mem;
  builtin_use use;
  builtin_fx fx;
} builtin_info;

/* One BUILTIN_CLASS row: who checks the counts (TABLE: the resolver,
 * against the row's TARGS / ARGS; RULE: the class rule). */
typedef struct builtin_class_info {
  builtin_check targs_by, args_by;
} builtin_class_info;

/* One BUILTIN_EXT row. */
typedef struct builtin_ext_info {
  const char *directive; /* "" for BX_CORE */
  builtin_gate gate;
} builtin_ext_info;

/* One BUILTIN_UNIFORMITY row. */
typedef struct builtin_unif_info {
  builtin_site call;
  builtin_result result;
  int param;              /* the parameter required to be uniform, or -1 */
  const char *param_name; /* its name in diagnostics */
} builtin_unif_info;

const builtin_info *builtin_fn_info(builtin_fn f);
const builtin_class_info *builtin_class_info_of(builtin_kind k);
const builtin_ext_info *builtin_ext_info_of(builtin_ext x);
const builtin_unif_info *builtin_unif_info_of(builtin_unif u);

const char *builtin_fn_name(builtin_fn f);
builtin_kind builtin_fn_kind(builtin_fn f);

/* The builtin_fn a WGSL identifier names, or -1. Safe to call from any
 * thread at any time (the name hash is built once, under pthread_once). */
int builtin_find(const char *name);

#endif
