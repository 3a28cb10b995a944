/*
 * parse_impl.h — state shared by the two halves of the WGSL parser:
 * parse.c (module, declarations, statements) and parse_expr.c (expressions,
 * types, attributes). Not part of the front end's interface; see parse.h.
 */
#ifndef LS_WGSL_PARSE_IMPL_H
#define LS_WGSL_PARSE_IMPL_H

#include "parse.h"

typedef struct parser {
  const char *src;
  size_t len;
  token *toks; /* ends with TK_EOF; the parser may split a token in place */
  size_t ntoks, pos;
  arena *a;
  diag_list *d;
  uint32_t prev_end; /* end of the last consumed token, for node spans */
  int depth;         /* nesting of blocks, brackets, else-if links */
  int eh;            /* height of the expression tree last returned */
  int panic;         /* an error was reported: stay quiet until recovery */
  int fatal;         /* nesting too deep or out of memory: stop parsing */
  /* One scratch stack for every list under construction; nested lists
   * finish before their parent pushes again, so each list is contiguous. */
  unsigned char *scratch;
  size_t stop, scap;
} parser;

static inline token *parse_cur(parser *p) { return &p->toks[p->pos]; }
static inline tok_kind parse_peek(parser *p) { return p->toks[p->pos].kind; }
static inline tok_kind parse_peek2(parser *p) {
  return p->pos + 1 < p->ntoks ? p->toks[p->pos + 1].kind : TK_EOF;
}
static inline token *parse_next(parser *p) {
  token *t = &p->toks[p->pos];
  if (t->kind != TK_EOF) {
    p->pos++;
    p->prev_end = t->span.end;
  }
  return t;
}
static inline int parse_accept(parser *p, tok_kind k) {
  if (parse_peek(p) != k) return 0;
  parse_next(p);
  return 1;
}
static inline uint32_t parse_start(parser *p) { return parse_cur(p)->span.start; }
static inline src_span parse_span_from(parser *p, uint32_t start) {
  src_span s = {start, p->prev_end > start ? p->prev_end : start};
  return s;
}

/* Reports an error unless one is already pending (panic) or parsing stopped;
 * always sets panic. */
void parse_error(parser *p, src_span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* An error that does not derail parsing (the construct was read in full):
 * reported without entering panic, unless already in panic. */
void parse_soft_error(parser *p, src_span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* "expected X <context>, found Y" at the current token; returns 0. */
int parse_expected(parser *p, const char *what, const char *context);
/* Consumes a token of kind k or reports "expected 'k' <context>, found ...". */
int parse_expect(parser *p, tok_kind k, const char *context);
/* How the current token is named in messages ("identifier 'foo'"). */
const char *parse_describe(parser *p, const token *t, char *buf, size_t cap);

/* Depth guard around every construct that recurses. */
int parse_enter(parser *p);
static inline void parse_leave(parser *p) { p->depth--; }

void *parse_alloc(parser *p, size_t size);
const char *parse_text(parser *p, const token *t); /* arena copy of its text */
/* Scratch stack: remember parse_mark(), push elements, then parse_collect()
 * copies them to the arena (NULL when there are none) and pops them. */
static inline size_t parse_mark(parser *p) { return p->stop; }
void parse_push(parser *p, const void *elem, size_t size);
void *parse_collect(parser *p, size_t mark, size_t size, int *count);

ast_expr *parse_new_expr(parser *p, ast_expr_kind k, uint32_t start);
ast_expr *parse_expression(parser *p);
ast_expr *parse_unary(parser *p);
/* type_specifier: ident with an optional template list. */
ast_expr *parse_type(parser *p);
/* `_template_args_start expr, ... _template_args_end`: the list of the
 * current template start token. */
ast_expr **parse_template_args(parser *p, int *count);
/* attribute*: returns 0 on a syntax error. */
int parse_attributes(parser *p, ast_attr **attrs, int *nattrs);

#endif
