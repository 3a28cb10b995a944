/*
 * parse_expr.c — the expression half of the WGSL parser (see parse_impl.h):
 * expressions, type specifiers, template argument lists and attributes, plus
 * the helpers both halves share (errors, depth guard, scratch lists).
 *
 * WGSL's expression grammar is not a precedence ladder: bitwise operators take
 * only unary operands and never mix with each other or with arithmetic,
 * shifts take unary operands, comparisons do not chain and '&&' / '||' do not
 * mix. The functions below follow the spec's recursive-descent form of that
 * grammar; what it rejects gets a "requires parentheses" message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_impl.h"

/* ---- Shared helpers -------------------------------------------------------- */

static void stop_parsing(parser *p) {
  p->fatal = 1;
  p->panic = 1;
  p->pos = p->ntoks - 1; /* the TK_EOF token: every loop ends */
}

void parse_error(parser *p, src_span span, const char *fmt, ...) {
  if (!p->panic && !p->fatal) {
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    diag_error(p->d, span, "%s", buf);
  }
  p->panic = 1;
}

void parse_soft_error(parser *p, src_span span, const char *fmt, ...) {
  if (p->panic || p->fatal) return;
  char buf[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  diag_error(p->d, span, "%s", buf);
}

const char *parse_describe(parser *p, const token *t, char *buf, size_t cap) {
  const char *what = t->kind == TK_IDENT ? "identifier"
                     : t->kind == TK_INT ? "integer literal"
                     : t->kind == TK_FLOAT ? "floating point literal"
                                           : NULL;
  if (!what) return lex_token_name(t->kind);
  uint32_t n = t->span.end - t->span.start;
  snprintf(buf, cap, "%s '%.*s%s'", what, n > 32 ? 32 : (int)n, p->src + t->span.start,
           n > 32 ? "..." : "");
  return buf;
}

int parse_expected(parser *p, const char *what, const char *context) {
  char buf[96];
  token *t = parse_cur(p);
  parse_error(p, t->span, "expected %s%s%s, found %s", what, context ? " " : "",
              context ? context : "", parse_describe(p, t, buf, sizeof buf));
  return 0;
}

int parse_expect(parser *p, tok_kind k, const char *context) {
  if (parse_accept(p, k)) return 1;
  return parse_expected(p, lex_token_name(k), context);
}

int parse_enter(parser *p) {
  if (p->depth >= PARSE_MAX_DEPTH) {
    if (!p->fatal)
      diag_error(p->d, parse_cur(p)->span, "nesting too deep (more than %d levels)",
                 PARSE_MAX_DEPTH);
    stop_parsing(p);
    return 0;
  }
  p->depth++;
  return 1;
}

void *parse_alloc(parser *p, size_t size) {
  void *m = arena_alloc(p->a, size);
  if (!m) stop_parsing(p);
  return m;
}

const char *parse_text(parser *p, const token *t) {
  char *s = arena_strndup(p->a, p->src + t->span.start, t->span.end - t->span.start);
  if (!s) stop_parsing(p);
  return s;
}

void parse_push(parser *p, const void *elem, size_t size) {
  if (p->fatal) return;
  if (p->scap - p->stop < size) {
    size_t cap = p->scap ? p->scap * 2 : 4096;
    while (cap - p->stop < size) cap *= 2;
    unsigned char *s = realloc(p->scratch, cap);
    if (!s) {
      p->a->failed = 1;
      stop_parsing(p);
      return;
    }
    p->scratch = s;
    p->scap = cap;
  }
  memcpy(p->scratch + p->stop, elem, size);
  p->stop += size;
}

void *parse_collect(parser *p, size_t mark, size_t size, int *count) {
  size_t bytes = p->stop - mark;
  p->stop = mark;
  *count = (int)(bytes / size);
  if (!bytes || p->fatal) {
    *count = 0;
    return NULL;
  }
  void *m = parse_alloc(p, bytes);
  if (m) memcpy(m, p->scratch + mark, bytes);
  else *count = 0;
  return m;
}

ast_expr *parse_new_expr(parser *p, ast_expr_kind k, uint32_t start) {
  ast_expr *e = parse_alloc(p, sizeof *e);
  if (!e) return NULL;
  e->kind = k;
  e->span.start = e->span.end = start;
  e->member_index = -1;
  e->builtin = -1;
  e->enumerant = -1;
  return e;
}

/* Records the height of the expression just built (see
 * PARSE_MAX_EXPR_HEIGHT); a tree taller than allowed stops the parse. */
static int set_height(parser *p, int h, src_span span) {
  p->eh = h;
  if (h <= PARSE_MAX_EXPR_HEIGHT) return 1;
  if (!p->fatal)
    diag_error(p->d, span, "expression nesting too deep (more than %d levels)",
               PARSE_MAX_EXPR_HEIGHT);
  stop_parsing(p);
  return 0;
}

static int max_int(int a, int b) { return a > b ? a : b; }

/* ---- Primary and postfix expressions ------------------------------------ */

/* `( expr, ... )` or `< expr, ... >`: open is the current token. p->eh gets
 * the tallest element's height. */
static ast_expr **parse_list(parser *p, tok_kind close, const char *what, int *count) {
  *count = 0;
  if (!parse_enter(p)) return NULL;
  parse_next(p);
  size_t mark = parse_mark(p);
  int h = 0;
  while (parse_peek(p) != close) {
    ast_expr *e = parse_expression(p);
    if (!e) goto fail;
    h = max_int(h, p->eh);
    parse_push(p, &e, sizeof e);
    if (!parse_accept(p, TK_COMMA)) {
      if (parse_peek(p) != close) {
        char expect[32];
        snprintf(expect, sizeof expect, "',' or %s", lex_token_name(close));
        parse_expected(p, expect, what);
        goto fail;
      }
      break;
    }
  }
  parse_next(p);
  parse_leave(p);
  p->eh = h;
  return parse_collect(p, mark, sizeof(ast_expr *), count);
fail:
  p->stop = mark;
  parse_leave(p);
  return NULL;
}

ast_expr **parse_template_args(parser *p, int *count) {
  uint32_t start = parse_start(p);
  ast_expr **args = parse_list(p, TK_TEMPLATE_END, "in template argument list", count);
  if (!p->panic && *count == 0)
    parse_soft_error(p, parse_span_from(p, start), "empty template argument list");
  return args;
}

/* ident or ident<...>; the identifier is the current token. */
static ast_expr *parse_template_ident(parser *p) {
  token *t = parse_next(p);
  ast_expr *e = parse_new_expr(p, EX_IDENT, t->span.start);
  if (!e || !(e->u.ident.name = parse_text(p, t))) return NULL;
  int h = 1;
  if (parse_peek(p) == TK_TEMPLATE_START) {
    int n;
    e->u.ident.targs = parse_template_args(p, &n);
    if (p->panic) return NULL;
    e->u.ident.ntargs = n;
    h = p->eh + 1;
  }
  e->span = parse_span_from(p, t->span.start);
  return set_height(p, h, e->span) ? e : NULL;
}

/* ident, ident<...>, ident(...) or ident<...>(...). */
static ast_expr *parse_ident_expr(parser *p) {
  uint32_t start = parse_start(p);
  ast_expr *e = parse_template_ident(p);
  if (!e || parse_peek(p) != TK_LPAREN) return e;
  int hc = p->eh;
  ast_expr *call = parse_new_expr(p, EX_CALL, start);
  if (!call) return NULL;
  int n;
  call->u.call.callee = e;
  call->u.call.args = parse_list(p, TK_RPAREN, "in argument list", &n);
  if (p->panic) return NULL;
  call->u.call.nargs = n;
  call->span = parse_span_from(p, start);
  return set_height(p, 1 + max_int(hc, p->eh), call->span) ? call : NULL;
}

static ast_expr *parse_primary(parser *p) {
  token *t = parse_cur(p);
  uint32_t start = t->span.start;
  ast_expr *e;
  switch (t->kind) {
  case TK_IDENT:
    return parse_ident_expr(p);
  case TK_INT: {
    if (!(e = parse_new_expr(p, EX_INT, start))) return NULL;
    /* a malformed literal was reported by the lexer */
    (void)lex_int_value(p->src + start, t->span.end - start, &e->u.ilit.value, &e->u.ilit.suffix);
    break;
  }
  case TK_FLOAT: {
    if (!(e = parse_new_expr(p, EX_FLOAT, start))) return NULL;
    (void)lex_float_value(p->src + start, t->span.end - start, &e->u.flit.value,
                          &e->u.flit.suffix);
    break;
  }
  case TK_KW_TRUE:
  case TK_KW_FALSE:
    if (!(e = parse_new_expr(p, EX_BOOL, start))) return NULL;
    e->u.blit = t->kind == TK_KW_TRUE;
    break;
  case TK_LPAREN:
    parse_next(p);
    if (!(e = parse_expression(p))) return NULL;
    if (!parse_expect(p, TK_RPAREN, "to close parenthesized expression")) return NULL;
    e->parenthesized = 1;
    e->span = parse_span_from(p, start);
    return e;
  default:
    parse_expected(p, "expression", NULL);
    return NULL;
  }
  parse_next(p);
  e->span = parse_span_from(p, start);
  p->eh = 1;
  return e;
}

/* primary_expression component_or_swizzle_specifier? — a loop, so long
 * member chains cost no stack. */
static ast_expr *parse_singular(parser *p) {
  uint32_t start = parse_start(p);
  ast_expr *e = parse_primary(p);
  while (e) {
    int hb = p->eh;
    if (parse_peek(p) == TK_LBRACKET) {
      parse_next(p);
      ast_expr *idx = parse_expression(p);
      if (!idx || !parse_expect(p, TK_RBRACKET, "to close index expression")) return NULL;
      ast_expr *x = parse_new_expr(p, EX_INDEX, start);
      if (!x) return NULL;
      x->u.index.base = e;
      x->u.index.index = idx;
      x->span = parse_span_from(p, start);
      if (!set_height(p, 1 + max_int(hb, p->eh), x->span)) return NULL;
      e = x;
    } else if (parse_peek(p) == TK_DOT) {
      parse_next(p);
      token *t = parse_cur(p);
      if (t->kind != TK_IDENT) {
        parse_expected(p, "member name", "after '.'");
        return NULL;
      }
      parse_next(p);
      ast_expr *x = parse_new_expr(p, EX_MEMBER, start);
      if (!x || !(x->u.member.name = parse_text(p, t))) return NULL;
      x->u.member.base = e;
      x->u.member.name_span = t->span;
      x->span = parse_span_from(p, start);
      if (!set_height(p, 1 + hb, x->span)) return NULL;
      e = x;
    } else {
      break;
    }
  }
  return e;
}

/* Takes the operator at the current token. '--', '++' and '&&' where a single
 * character operator is wanted (`a--b`, `&&p`) give up their first character
 * and stay, shortened, as the next token — the spec picks the longest token
 * valid in context. */
static void take_operator(parser *p, tok_kind single) {
  token *t = parse_cur(p);
  if (t->kind != single && t->span.end - t->span.start == 2 &&
      (t->kind == TK_MINUS_MINUS || t->kind == TK_PLUS_PLUS || t->kind == TK_AND_AND)) {
    t->kind = single;
    t->span.start++;
    p->prev_end = t->span.start;
    return;
  }
  parse_next(p);
}

typedef struct prefix_op {
  ast_unop op;
  uint32_t start;
} prefix_op;

ast_expr *parse_unary(parser *p) {
  /* prefix operators are collected first and applied inside-out, so that
   * `- - - ... x` needs no recursion here */
  size_t mark = parse_mark(p);
  for (;;) {
    prefix_op po;
    tok_kind single;
    po.start = parse_start(p);
    switch (parse_peek(p)) {
    case TK_MINUS:
    case TK_MINUS_MINUS: po.op = UN_NEG, single = TK_MINUS; break;
    case TK_BANG: po.op = UN_NOT, single = TK_BANG; break;
    case TK_TILDE: po.op = UN_BITNOT, single = TK_TILDE; break;
    case TK_AND:
    case TK_AND_AND: po.op = UN_ADDR, single = TK_AND; break;
    case TK_STAR: po.op = UN_DEREF, single = TK_STAR; break;
    default: goto operand;
    }
    take_operator(p, single);
    parse_push(p, &po, sizeof po);
  }
operand:;
  ast_expr *e = parse_singular(p);
  while (e && p->stop > mark) {
    p->stop -= sizeof(prefix_op);
    prefix_op po;
    memcpy(&po, p->scratch + p->stop, sizeof po);
    ast_expr *u = parse_new_expr(p, EX_UNARY, po.start);
    if (!u) return NULL;
    u->u.unary.op = po.op;
    u->u.unary.operand = e;
    u->span.end = e->span.end;
    e = set_height(p, p->eh + 1, u->span) ? u : NULL;
  }
  p->stop = mark;
  return e;
}

/* ---- Binary expressions ---------------------------------------------------- */

static int binop_of(tok_kind k, ast_binop *op) {
  switch (k) {
  case TK_PLUS: case TK_PLUS_PLUS: *op = BIN_ADD; return 1;
  case TK_MINUS: case TK_MINUS_MINUS: *op = BIN_SUB; return 1;
  case TK_STAR: *op = BIN_MUL; return 1;
  case TK_SLASH: *op = BIN_DIV; return 1;
  case TK_PERCENT: *op = BIN_MOD; return 1;
  case TK_AND: *op = BIN_AND; return 1;
  case TK_OR: *op = BIN_OR; return 1;
  case TK_XOR: *op = BIN_XOR; return 1;
  case TK_SHL: *op = BIN_SHL; return 1;
  case TK_SHR: *op = BIN_SHR; return 1;
  case TK_AND_AND: *op = BIN_LAND; return 1;
  case TK_OR_OR: *op = BIN_LOR; return 1;
  case TK_EQ_EQ: *op = BIN_EQ; return 1;
  case TK_NE: *op = BIN_NE; return 1;
  case TK_LT: *op = BIN_LT; return 1;
  case TK_LE: *op = BIN_LE; return 1;
  case TK_GT: *op = BIN_GT; return 1;
  case TK_GE: *op = BIN_GE; return 1;
  default: return 0;
  }
}

static const char *binop_spelling(ast_binop op) {
  static const char *const s[] = {
#define X_(n, str) str,
      AST_BINOPS(X_)
#undef X_
  };
  return (unsigned)op < BIN_COUNT_ ? s[op] : "?";
}

static int is_relational(ast_binop op) { return op >= BIN_EQ && op <= BIN_GE; }

/* Consumes the binary operator at the current token, known to map to op. */
static void take_binop(parser *p, ast_binop op) {
  take_operator(p, op == BIN_SUB ? TK_MINUS : op == BIN_ADD ? TK_PLUS : parse_peek(p));
}

/* Builds l op r where hl is l's height and p->eh holds r's. */
static ast_expr *binary(parser *p, ast_binop op, ast_expr *l, int hl, ast_expr *r) {
  if (!l || !r) return NULL;
  ast_expr *e = parse_new_expr(p, EX_BINARY, l->span.start);
  if (!e) return NULL;
  e->u.binary.op = op;
  e->u.binary.lhs = l;
  e->u.binary.rhs = r;
  e->span.end = r->span.end;
  return set_height(p, 1 + max_int(hl, p->eh), e->span) ? e : NULL;
}

/* The *_rest functions continue an expression from its first operand l,
 * whose height is in p->eh, and record in *last the outermost operator. */

static ast_expr *mul_rest(parser *p, ast_expr *l, ast_binop *last) {
  ast_binop op;
  while (l && (parse_peek(p) == TK_STAR || parse_peek(p) == TK_SLASH ||
               parse_peek(p) == TK_PERCENT)) {
    int hl = p->eh;
    binop_of(parse_peek(p), &op);
    take_binop(p, op);
    l = binary(p, op, l, hl, parse_unary(p));
    *last = op;
  }
  return l;
}

static ast_expr *shift_rest(parser *p, ast_expr *l, ast_binop *last) {
  tok_kind k = parse_peek(p);
  if (k == TK_SHL || k == TK_SHR) {
    ast_binop op = k == TK_SHL ? BIN_SHL : BIN_SHR;
    int hl = p->eh;
    parse_next(p);
    *last = op;
    return binary(p, op, l, hl, parse_unary(p));
  }
  l = mul_rest(p, l, last);
  while (l) {
    k = parse_peek(p);
    if (k != TK_PLUS && k != TK_MINUS && k != TK_MINUS_MINUS && k != TK_PLUS_PLUS) break;
    ast_binop op = (k == TK_PLUS || k == TK_PLUS_PLUS) ? BIN_ADD : BIN_SUB;
    int hl = p->eh;
    take_binop(p, op);
    ast_binop inner = op;
    ast_expr *r = parse_unary(p);
    if (r) r = mul_rest(p, r, &inner);
    l = binary(p, op, l, hl, r);
    *last = op;
  }
  return l;
}

static ast_expr *relational_rest(parser *p, ast_expr *l, ast_binop *last) {
  l = shift_rest(p, l, last);
  ast_binop op;
  if (!l || !binop_of(parse_peek(p), &op) || !is_relational(op)) return l;
  int hl = p->eh;
  parse_next(p);
  ast_binop inner = op;
  ast_expr *r = parse_unary(p);
  if (r) r = shift_rest(p, r, &inner);
  *last = op;
  return binary(p, op, l, hl, r);
}

/* The expression ended but a binary operator follows: the grammar forbids
 * that combination without parentheses. Report it, then take the rest of the
 * operator chain flat so that one mistake gives one message. The message
 * covers the operators from the first one after the expression's first
 * operand (first_op, a byte offset) through the offending one, the span
 * Dawn's compiler reports too. */
static ast_expr *reject_mixing(parser *p, ast_expr *e, ast_binop last, uint32_t first_op) {
  ast_binop op;
  if (!e || !binop_of(parse_peek(p), &op)) return e;
  token *t = parse_cur(p);
  src_span at = {first_op < t->span.start ? first_op : t->span.start, t->span.end};
  if (is_relational(last) && is_relational(op))
    parse_soft_error(p, at, "comparison operators cannot be chained: '%s' after '%s' "
                     "requires parentheses", binop_spelling(op), binop_spelling(last));
  else
    parse_soft_error(p, at, "mixing '%s' and '%s' requires parentheses",
                     binop_spelling(last), binop_spelling(op));
  while (e && binop_of(parse_peek(p), &op)) {
    int hl = p->eh;
    take_binop(p, op);
    e = binary(p, op, e, hl, parse_unary(p));
  }
  return e;
}

static ast_expr *expression_body(parser *p) {
  ast_expr *l = parse_unary(p);
  if (!l) return NULL;
  uint32_t first_op = parse_cur(p)->span.start;
  ast_binop last = BIN_COUNT_;
  tok_kind k = parse_peek(p);
  if (k == TK_AND || k == TK_OR || k == TK_XOR) {
    ast_binop op;
    binop_of(k, &op);
    while (l && parse_peek(p) == k) {
      int hl = p->eh;
      parse_next(p);
      l = binary(p, op, l, hl, parse_unary(p));
    }
    return reject_mixing(p, l, op, first_op);
  }
  l = relational_rest(p, l, &last);
  k = parse_peek(p);
  if (l && (k == TK_AND_AND || k == TK_OR_OR)) {
    ast_binop op = k == TK_AND_AND ? BIN_LAND : BIN_LOR;
    while (l && parse_peek(p) == k) {
      int hl = p->eh;
      parse_next(p);
      ast_binop inner = op;
      ast_expr *r = parse_unary(p);
      if (r) r = relational_rest(p, r, &inner);
      l = binary(p, op, l, hl, r);
    }
    last = op;
  }
  return reject_mixing(p, l, last, first_op);
}

ast_expr *parse_expression(parser *p) {
  if (!parse_enter(p)) return NULL;
  ast_expr *e = expression_body(p);
  parse_leave(p);
  return e;
}

ast_expr *parse_type(parser *p) {
  if (parse_peek(p) != TK_IDENT) {
    parse_expected(p, "type", NULL);
    return NULL;
  }
  return parse_template_ident(p);
}

/* ---- Attributes ------------------------------------------------------------ */

static int is_plain_ident(const ast_expr *e) {
  return e && e->kind == EX_IDENT && e->u.ident.ntargs == 0 && !e->parenthesized;
}

/* @diagnostic(severity, rule) where rule is `name` or `name.name`. */
static void check_diagnostic_attr(parser *p, const ast_attr *at) {
  const ast_expr *rule = at->nargs == 2 ? at->args[1] : NULL;
  int ok = at->nargs == 2 && is_plain_ident(at->args[0]) && rule && !rule->parenthesized &&
           (is_plain_ident(rule) ||
            (rule->kind == EX_MEMBER && is_plain_ident(rule->u.member.base)));
  if (!ok)
    parse_soft_error(p, at->span, "@diagnostic expects (severity, rule name), e.g. "
                     "@diagnostic(off, derivative_uniformity)");
}

int parse_attributes(parser *p, ast_attr **attrs, int *nattrs) {
  size_t mark = parse_mark(p);
  *attrs = NULL;
  *nattrs = 0;
  while (parse_peek(p) == TK_AT) {
    ast_attr at;
    memset(&at, 0, sizeof at);
    uint32_t start = parse_start(p);
    parse_next(p);
    token *t = parse_cur(p);
    /* attribute names are context-dependent; `const` and `diagnostic` are
     * keywords that double as attribute names */
    if (t->kind != TK_IDENT && t->kind != TK_KW_CONST && t->kind != TK_KW_DIAGNOSTIC) {
      parse_expected(p, "attribute name", "after '@'");
      goto fail;
    }
    parse_next(p);
    if (!(at.name = parse_text(p, t))) goto fail;
    if (parse_peek(p) == TK_LPAREN) {
      at.parens = 1;
      at.args = parse_list(p, TK_RPAREN, "in attribute arguments", &at.nargs);
      if (p->panic) goto fail;
    }
    at.span = parse_span_from(p, start);
    if (t->kind == TK_KW_DIAGNOSTIC) check_diagnostic_attr(p, &at);
    parse_push(p, &at, sizeof at);
  }
  *attrs = parse_collect(p, mark, sizeof(ast_attr), nattrs);
  return !p->fatal;
fail:
  p->stop = mark;
  return 0;
}
