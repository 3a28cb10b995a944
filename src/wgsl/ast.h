/*
 * ast.h — the WGSL syntax tree. The parser (parse.c) builds it in the module's
 * arena; the resolver (sema.c) fills the "resolved" fields in place; lowering
 * (ir/lower.c) reads both. Nothing here knows about the VM.
 *
 * Types are written in WGSL as template-elaborated identifiers
 * (`array<vec4<f32>, N>`), so a type in the tree is an ast_expr of kind
 * EX_IDENT whose template arguments are expressions too; the resolver decides
 * what an identifier names.
 *
 * ast_stmt_children / ast_expr_children (at the end) are the one list of
 * each node's children that the analyses walk with.
 */
#ifndef LS_WGSL_AST_H
#define LS_WGSL_AST_H

#include <stdint.h>

#include "../util/diag.h"

struct type;      /* wgsl/types.h */
struct cvalue;    /* wgsl/sema.h: a constant value */
struct ast_decl;

/* Binary and unary operators; the string is the WGSL spelling. */
#define AST_BINOPS(X)                                                          \
  X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%")                  \
  X(AND, "&") X(OR, "|") X(XOR, "^") X(SHL, "<<") X(SHR, ">>")                 \
  X(LAND, "&&") X(LOR, "||")                                                   \
  X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=")

typedef enum ast_binop {
#define X_(n, s) BIN_##n,
  AST_BINOPS(X_)
#undef X_
  BIN_COUNT_
} ast_binop;

typedef enum ast_unop {
  UN_NEG,   /* -e */
  UN_NOT,   /* !e */
  UN_BITNOT,/* ~e */
  UN_ADDR,  /* &e */
  UN_DEREF  /* *e */
} ast_unop;

typedef enum ast_expr_kind {
  EX_INT,    /* integer literal: ilit */
  EX_FLOAT,  /* float literal: flit */
  EX_BOOL,   /* true / false: blit */
  EX_IDENT,  /* identifier, optionally with template arguments: ident */
  EX_CALL,   /* f(args), T(args), vec3<f32>(args), array(args): call */
  EX_INDEX,  /* base[index] */
  EX_MEMBER, /* base.name (struct member or swizzle) */
  EX_UNARY,
  EX_BINARY
} ast_expr_kind;

typedef struct ast_expr ast_expr;

/* What the resolver found an identifier or call to be. */
typedef enum ast_ref_kind {
  REF_NONE,
  REF_DECL,        /* a declaration: decl (var/let/const/override/param/fn) */
  REF_TYPE,        /* the identifier names a type: type */
  REF_BUILTIN_FN,  /* a built-in function: builtin (wgsl/builtins.def id) */
  REF_CONSTRUCT,   /* a value constructor or conversion of type `type` */
  REF_ENUMERANT    /* address space, access mode, texel format... : enumerant */
} ast_ref_kind;

struct ast_expr {
  ast_expr_kind kind;
  src_span span;
  union {
    struct { uint64_t value; char suffix; /* 0, 'i', 'u' */ } ilit;
    struct { double value; char suffix; /* 0, 'f', 'h' */ } flit;
    int blit;
    struct {
      const char *name;
      ast_expr **targs; /* template arguments; NULL when none */
      int ntargs;
    } ident;
    struct {
      ast_expr *callee; /* EX_IDENT (with or without template arguments) */
      ast_expr **args;
      int nargs;
    } call;
    struct { ast_expr *base, *index; } index;
    struct { ast_expr *base; const char *name; src_span name_span; } member;
    struct { ast_unop op; ast_expr *operand; } unary;
    struct { ast_binop op; ast_expr *lhs, *rhs; } binary;
  } u;
  int parenthesized; /* written inside ( ) — for the operator-mixing rules */

  /* Filled by the resolver. */
  const struct type *type;         /* the expression's type (a reference type
                                      for memory views) */
  const struct cvalue *cval;       /* value when a const-expression */
  ast_ref_kind ref;                /* EX_IDENT / EX_CALL: what it names */
  struct ast_decl *decl;           /* REF_DECL */
  int builtin;                     /* REF_BUILTIN_FN */
  int enumerant;                   /* REF_ENUMERANT */
  int is_override_expr;            /* depends on an override (not const) */
  int swizzle[4], nswizzle;        /* EX_MEMBER on a vector: lane indices */
  int member_index;                /* EX_MEMBER on a struct */
};

/* @name(args) */
typedef struct ast_attr {
  const char *name;
  src_span span;
  ast_expr **args;
  int nargs;
  int parens;          /* written with parentheses (even empty ones) */
} ast_attr;

typedef struct ast_stmt ast_stmt;

typedef enum ast_decl_kind {
  DECL_VAR,      /* var<space, access> name: T = init; (module or function) */
  DECL_LET,      /* let name: T = init; */
  DECL_CONST,    /* const name: T = init; */
  DECL_OVERRIDE, /* @id(n) override name: T = init; */
  DECL_PARAM,    /* a function parameter */
  DECL_FN,       /* fn name(params) -> R { body } */
  DECL_STRUCT,   /* struct name { members } */
  DECL_ALIAS,    /* alias name = T; */
  DECL_CONST_ASSERT
} ast_decl_kind;

typedef struct ast_member {
  const char *name;
  src_span span;
  ast_expr *type;
  ast_attr *attrs;
  int nattrs;
  src_span name_span; /* added by the parser: the member's name (span covers
                         attributes through type) */
} ast_member;

typedef struct ast_decl {
  ast_decl_kind kind;
  src_span span;       /* the whole declaration */
  const char *name;    /* NULL for const_assert */
  src_span name_span;
  ast_attr *attrs;
  int nattrs;

  /* var / let / const / override / param / alias (type) */
  ast_expr *type;      /* declared type, NULL when inferred */
  ast_expr *init;      /* initializer; const_assert: the condition */
  /* var<space, access>: the identifiers as written, NULL when omitted */
  const char *space_name, *access_name;
  src_span space_span;

  /* fn */
  struct ast_decl **params;
  int nparams;
  ast_expr *ret_type;  /* NULL = no return type */
  ast_attr *ret_attrs;
  int nret_attrs;
  ast_stmt *body;      /* ST_BLOCK */

  /* struct */
  ast_member *members;
  int nmembers;

  /* Filled by the resolver. */
  const struct type *rtype;    /* resolved type of the value / variable store
                                  type / function return / alias target */
  const struct cvalue *cval;   /* const and override default values */
  int space;                   /* var: sema address space (types.h) */
  int access;                  /* var: sema access mode */
  int group, binding;          /* var: resource position, -1 when none */
  int override_id;             /* override: @id value or -1 */
  int builtin_value;           /* param/member: @builtin id or -1 */
  int stage;                   /* fn: entry point stage (0 = none) */
  ast_expr *wg_size[3];        /* fn: @workgroup_size arguments (NULL=1) */
  ast_expr *sg_size;           /* fn: @subgroup_size argument, or NULL */
  int index;                   /* position in the module's declaration list */
  int used;                    /* referenced somewhere */
  void *lower;                 /* scratch slot for the lowering phase */
} ast_decl;

typedef enum ast_stmt_kind {
  ST_BLOCK,       /* { stmts } */
  ST_DECL,        /* var / let / const / const_assert inside a function */
  ST_ASSIGN,      /* lhs op= rhs (op BIN_COUNT_ for plain '='); lhs NULL: _ = rhs */
  ST_INCDEC,      /* lhs++ / lhs-- */
  ST_CALL,        /* f(args); */
  ST_IF,          /* if cond then else_ (else_: ST_BLOCK, ST_IF or NULL) */
  ST_SWITCH,
  ST_LOOP,        /* loop { body continuing { cont break if e; } } */
  ST_FOR,         /* for (init; cond; update) body */
  ST_WHILE,       /* while cond body */
  ST_BREAK,
  ST_BREAK_IF,    /* break if e;  (last statement of a continuing block) */
  ST_CONTINUE,
  ST_RETURN,
  ST_DISCARD,
  ST_EMPTY        /* ; */
} ast_stmt_kind;

typedef struct ast_case {
  ast_expr **selectors; /* NULL entry = `default` */
  int nselectors;
  int has_default;
  ast_stmt *body;       /* ST_BLOCK */
  src_span span;
} ast_case;

struct ast_stmt {
  ast_stmt_kind kind;
  src_span span;
  ast_attr *attrs;
  int nattrs;
  union {
    struct { ast_stmt **stmts; int n; } block;
    ast_decl *decl;
    struct { ast_binop op; ast_expr *lhs, *rhs; } assign; /* op == BIN_COUNT_ for '=' */
    struct { ast_expr *lhs; int inc; } incdec;
    ast_expr *call;                                       /* ST_CALL: an EX_CALL */
    struct { ast_expr *cond; ast_stmt *then, *else_; } if_;
    /* the last nbody_attrs of the statement's attributes are those of its
     * body (`switch e @diagnostic(...) {`), whose range is the body only */
    struct { ast_expr *selector; ast_case *cases; int ncases; int nbody_attrs; } switch_;
    /* ST_LOOP: body, continuing (NULL if absent; its last statement may be
     * ST_BREAK_IF). ST_FOR: init, cond, update, body. ST_WHILE: cond, body. */
    struct {
      ast_stmt *init;       /* for */
      ast_expr *cond;       /* for / while */
      ast_stmt *update;     /* for */
      ast_stmt *body;       /* ST_BLOCK */
      ast_stmt *continuing; /* loop: ST_BLOCK or NULL */
    } loop;
    ast_expr *expr;         /* ST_RETURN (may be NULL), ST_BREAK_IF */
  } u;
};

/* A global directive: enable / requires / diagnostic. */
typedef struct ast_directive {
  enum { DIR_ENABLE, DIR_REQUIRES, DIR_DIAGNOSTIC } kind;
  src_span span;
  const char **names;   /* enable/requires: extension names;
                           diagnostic: [severity, rule] */
  src_span *name_spans;
  int nnames;
} ast_directive;

typedef struct ast_module {
  ast_directive *directives;
  int ndirectives;
  ast_decl **decls;   /* module-scope declarations in source order */
  int ndecls;
} ast_module;

/* The child visitor: the one place that knows which statements and value
 * expressions each node holds, so that an analysis that needs "every
 * statement and expression below" (the stage rules, alias analysis, the
 * lowering gate, the uniformity analysis's scans) handles only the kinds
 * it cares about and hands the rest back here. A new statement or
 * expression kind is added to ast.c once.
 *
 * ast_stmt_children calls v->stmt for each child statement and v->expr for
 * each child expression of s, in source order, skipping absent (NULL)
 * children: a block's statements; a declaration's initializer; an
 * assignment's left side (when not `_`) then right side; an increment's
 * operand; a call statement's call; an if's condition, then, else; a
 * switch's selector and each clause body; a for's init, condition, update
 * and body, a while's condition and body, a loop's body and continuing
 * block; the value of return and break-if. ast_expr_children calls v->expr
 * for each operand: a call's arguments, an index's base then index, a
 * member access's base, a unary operand, a binary's left then right side.
 * Type expressions (declared types, template arguments, a call's callee)
 * and case selectors (const-expressions) are not children: the analyses
 * read the resolved types instead. Either callback may be NULL. The
 * visitor does not recurse by itself: a callback descends further by
 * calling these again. */
typedef struct ast_visitor {
  void (*stmt)(void *ctx, ast_stmt *s);
  void (*expr)(void *ctx, ast_expr *e);
} ast_visitor;

/* Inline (forced where the compiler allows), so that a walk through a
 * constant visitor compiles to direct calls: out of line, the indirect
 * calls cost bench_compile's front end about 4%. The switches have no
 * default, so that -Wswitch names a kind added above and not here. */
#if defined(__GNUC__)
#define AST_VISIT_INLINE static inline __attribute__((always_inline))
#else
#define AST_VISIT_INLINE static inline
#endif
AST_VISIT_INLINE void ast_child_stmt_(const ast_visitor *v, void *ctx, ast_stmt *s) {
  if (s && v->stmt) v->stmt(ctx, s);
}

AST_VISIT_INLINE void ast_child_expr_(const ast_visitor *v, void *ctx, ast_expr *e) {
  if (e && v->expr) v->expr(ctx, e);
}

AST_VISIT_INLINE void ast_stmt_children(ast_stmt *s, const ast_visitor *v, void *ctx) {
  if (!s) return;
  switch (s->kind) {
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.n; i++) ast_child_stmt_(v, ctx, s->u.block.stmts[i]);
    break;
  case ST_DECL: ast_child_expr_(v, ctx, s->u.decl->init); break;
  case ST_ASSIGN:
    ast_child_expr_(v, ctx, s->u.assign.lhs);
    ast_child_expr_(v, ctx, s->u.assign.rhs);
    break;
  case ST_INCDEC: ast_child_expr_(v, ctx, s->u.incdec.lhs); break;
  case ST_CALL: ast_child_expr_(v, ctx, s->u.call); break;
  case ST_IF:
    ast_child_expr_(v, ctx, s->u.if_.cond);
    ast_child_stmt_(v, ctx, s->u.if_.then);
    ast_child_stmt_(v, ctx, s->u.if_.else_);
    break;
  case ST_SWITCH:
    ast_child_expr_(v, ctx, s->u.switch_.selector);
    for (int i = 0; i < s->u.switch_.ncases; i++) ast_child_stmt_(v, ctx, s->u.switch_.cases[i].body);
    break;
  case ST_LOOP: case ST_FOR: case ST_WHILE:
    /* the parser fills only the fields each form has */
    ast_child_stmt_(v, ctx, s->u.loop.init);
    ast_child_expr_(v, ctx, s->u.loop.cond);
    ast_child_stmt_(v, ctx, s->u.loop.update);
    ast_child_stmt_(v, ctx, s->u.loop.body);
    ast_child_stmt_(v, ctx, s->u.loop.continuing);
    break;
  case ST_RETURN: case ST_BREAK_IF: ast_child_expr_(v, ctx, s->u.expr); break;
  case ST_BREAK: case ST_CONTINUE: case ST_DISCARD: case ST_EMPTY: break;
  }
}

AST_VISIT_INLINE void ast_expr_children(ast_expr *e, const ast_visitor *v, void *ctx) {
  if (!e) return;
  switch (e->kind) {
  case EX_CALL:
    for (int i = 0; i < e->u.call.nargs; i++) ast_child_expr_(v, ctx, e->u.call.args[i]);
    break;
  case EX_INDEX:
    ast_child_expr_(v, ctx, e->u.index.base);
    ast_child_expr_(v, ctx, e->u.index.index);
    break;
  case EX_MEMBER: ast_child_expr_(v, ctx, e->u.member.base); break;
  case EX_UNARY: ast_child_expr_(v, ctx, e->u.unary.operand); break;
  case EX_BINARY:
    ast_child_expr_(v, ctx, e->u.binary.lhs);
    ast_child_expr_(v, ctx, e->u.binary.rhs);
    break;
  case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_IDENT: break;
  }
}

#endif
