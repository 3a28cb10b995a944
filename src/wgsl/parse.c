/*
 * parse.c — second stage of the WGSL front end: tokens (lex.c) -> syntax tree
 * (ast.h), which the resolver (sema.c) then checks and types. This half holds
 * the module, directives, declarations and statements; expressions, types and
 * attributes are in parse_expr.c.
 *
 * Error handling: the first error puts the parser in "panic" (later errors are
 * dropped as likely consequences); the statement and declaration loops then
 * skip to a ';' or a block boundary and go on, so one run reports several
 * independent errors (mistakes that leave the construct readable, such as
 * `a & b | c`, are reported without panic). Every loop consumes at least one
 * token per turn, recursion is bounded by PARSE_MAX_DEPTH and expression trees
 * by PARSE_MAX_EXPR_HEIGHT, so any input is parsed in linear time and later
 * phases can recurse over the tree without exhausting the C stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_impl.h"

static ast_stmt *new_stmt(parser *p, ast_stmt_kind k, uint32_t start) {
  ast_stmt *s = parse_alloc(p, sizeof *s);
  if (!s) return NULL;
  s->kind = k;
  s->span.start = s->span.end = start;
  return s;
}

static ast_decl *new_decl(parser *p, ast_decl_kind k, uint32_t start) {
  ast_decl *d = parse_alloc(p, sizeof *d);
  if (!d) return NULL;
  d->kind = k;
  d->span.start = d->span.end = start;
  d->group = d->binding = d->override_id = d->builtin_value = -1;
  d->index = -1;
  return d;
}

/* ident for a declared name: sets name and name_span. */
static int decl_name(parser *p, ast_decl *d, const char *what) {
  token *t = parse_cur(p);
  if (t->kind != TK_IDENT) return parse_expected(p, what, NULL);
  parse_next(p);
  d->name_span = t->span;
  return (d->name = parse_text(p, t)) != NULL;
}

static int is_plain_ident_expr(const ast_expr *e) {
  return e->kind == EX_IDENT && e->u.ident.ntargs == 0 && !e->parenthesized;
}

static src_span attrs_span(const ast_attr *attrs, int n) {
  src_span s = {attrs[0].span.start, attrs[n - 1].span.end};
  return s;
}

/* ---- Recovery -------------------------------------------------------------- */

static int starts_statement(tok_kind k) {
  switch (k) {
  case TK_KW_LET: case TK_KW_VAR: case TK_KW_CONST: case TK_KW_IF: case TK_KW_FOR:
  case TK_KW_WHILE: case TK_KW_LOOP: case TK_KW_SWITCH: case TK_KW_RETURN:
  case TK_KW_BREAK: case TK_KW_CONTINUE: case TK_KW_DISCARD: case TK_KW_CONST_ASSERT:
    return 1;
  default:
    return 0;
  }
}

static int starts_global(tok_kind k) {
  switch (k) {
  case TK_KW_FN: case TK_KW_VAR: case TK_KW_CONST: case TK_KW_OVERRIDE: case TK_KW_STRUCT:
  case TK_KW_ALIAS: case TK_KW_CONST_ASSERT: case TK_KW_LET: case TK_AT: case TK_KW_ENABLE:
  case TK_KW_REQUIRES: case TK_KW_DIAGNOSTIC:
    return 1;
  default:
    return 0;
  }
}

/* Skips to just past the next ';', to the '}' closing the enclosing block, to
 * just past a skipped {...} group, or to the next statement keyword. */
static void recover_statement(parser *p) {
  size_t bal = 0;
  for (;;) {
    tok_kind k = parse_peek(p);
    if (k == TK_EOF) break;
    if (bal == 0) {
      if (k == TK_SEMI) {
        parse_next(p);
        break;
      }
      if (k == TK_RBRACE || starts_statement(k)) break;
    }
    parse_next(p);
    if (k == TK_LBRACE) bal++;
    else if (k == TK_RBRACE && --bal == 0) break;
  }
  p->panic = 0;
}

static void recover_global(parser *p) {
  size_t bal = 0;
  for (;;) {
    tok_kind k = parse_peek(p);
    if (k == TK_EOF) break;
    if (bal == 0) {
      if (k == TK_SEMI) {
        parse_next(p);
        break;
      }
      if (starts_global(k)) break;
    }
    parse_next(p);
    if (k == TK_LBRACE) bal++;
    else if (k == TK_RBRACE && (bal == 0 || --bal == 0)) break;
  }
  p->panic = 0;
}

/* ---- Statements ------------------------------------------------------------ */

static ast_stmt *parse_statement(parser *p);

/* Pushes statements onto the scratch stack up to the closing '}' of a block
 * whose '{' is already taken (or up to `continuing` when in_loop). */
static void statement_list(parser *p, int in_loop) {
  while (parse_peek(p) != TK_RBRACE && parse_peek(p) != TK_EOF) {
    if (in_loop && parse_peek(p) == TK_KW_CONTINUING) return;
    size_t before = p->pos;
    ast_stmt *s = parse_statement(p);
    if (s && !p->panic) parse_push(p, &s, sizeof s);
    if (p->panic) recover_statement(p);
    if (p->pos == before) parse_next(p);
  }
}

/* '{' statements '}' with attributes already read; the block node's span
 * starts at start (the attributes). */
static ast_stmt *parse_block(parser *p, uint32_t start, ast_attr *attrs, int nattrs) {
  if (!parse_expect(p, TK_LBRACE, "to begin block")) return NULL;
  if (!parse_enter(p)) return NULL;
  size_t mark = parse_mark(p);
  statement_list(p, 0);
  parse_leave(p);
  ast_stmt *b = new_stmt(p, ST_BLOCK, start);
  if (!b) return NULL;
  b->attrs = attrs;
  b->nattrs = nattrs;
  b->u.block.stmts = parse_collect(p, mark, sizeof(ast_stmt *), &b->u.block.n);
  parse_expect(p, TK_RBRACE, "to close block");
  b->span = parse_span_from(p, start);
  return b;
}

/* compound_statement: attribute* '{' statement* '}' */
static ast_stmt *parse_compound(parser *p) {
  uint32_t start = parse_start(p);
  ast_attr *attrs;
  int n;
  if (!parse_attributes(p, &attrs, &n)) return NULL;
  return parse_block(p, start, attrs, n);
}

static int check_lhs(const ast_expr *e) {
  switch (e->kind) {
  case EX_IDENT: return e->u.ident.ntargs == 0;
  case EX_CALL: return 1;
  case EX_MEMBER: return check_lhs(e->u.member.base);
  case EX_INDEX: return check_lhs(e->u.index.base);
  case EX_UNARY:
    return (e->u.unary.op == UN_DEREF || e->u.unary.op == UN_ADDR) && check_lhs(e->u.unary.operand);
  default: return 0;
  }
}

static int assign_op(tok_kind k, ast_binop *op) {
  switch (k) {
  case TK_EQ: *op = BIN_COUNT_; return 1;
  case TK_PLUS_EQ: *op = BIN_ADD; return 1;
  case TK_MINUS_EQ: *op = BIN_SUB; return 1;
  case TK_STAR_EQ: *op = BIN_MUL; return 1;
  case TK_SLASH_EQ: *op = BIN_DIV; return 1;
  case TK_PERCENT_EQ: *op = BIN_MOD; return 1;
  case TK_AND_EQ: *op = BIN_AND; return 1;
  case TK_OR_EQ: *op = BIN_OR; return 1;
  case TK_XOR_EQ: *op = BIN_XOR; return 1;
  case TK_SHL_EQ: *op = BIN_SHL; return 1;
  case TK_SHR_EQ: *op = BIN_SHR; return 1;
  default: return 0;
  }
}

/* Assignment, `_ = e`, increment/decrement or a function call, without the
 * ';' (the for-loop header uses these too). */
static ast_stmt *parse_simple(parser *p) {
  uint32_t start = parse_start(p);
  ast_binop op;
  if (parse_accept(p, TK_UNDERSCORE)) {
    if (!parse_expect(p, TK_EQ, "after '_'")) return NULL;
    ast_expr *rhs = parse_expression(p);
    ast_stmt *s = rhs ? new_stmt(p, ST_ASSIGN, start) : NULL;
    if (!s) return NULL;
    s->u.assign.op = BIN_COUNT_;
    s->u.assign.rhs = rhs;
    s->span = parse_span_from(p, start);
    return s;
  }
  ast_expr *lhs = parse_unary(p);
  if (!lhs) return NULL;
  tok_kind k = parse_peek(p);
  ast_stmt *s;
  if (k == TK_PLUS_PLUS || k == TK_MINUS_MINUS || assign_op(k, &op)) {
    if (!check_lhs(lhs)) parse_soft_error(p, lhs->span, "invalid left-hand side of assignment");
    parse_next(p);
    if (k == TK_PLUS_PLUS || k == TK_MINUS_MINUS) {
      if (!(s = new_stmt(p, ST_INCDEC, start))) return NULL;
      s->u.incdec.lhs = lhs;
      s->u.incdec.inc = k == TK_PLUS_PLUS;
    } else {
      ast_expr *rhs = parse_expression(p);
      if (!rhs || !(s = new_stmt(p, ST_ASSIGN, start))) return NULL;
      s->u.assign.op = op;
      s->u.assign.lhs = lhs;
      s->u.assign.rhs = rhs;
    }
  } else if (lhs->kind == EX_CALL && !lhs->parenthesized) {
    if (!(s = new_stmt(p, ST_CALL, start))) return NULL;
    s->u.call = lhs;
  } else {
    char buf[96];
    parse_error(p, parse_cur(p)->span,
                "expected '=', compound assignment, '++' or '--' after expression, found %s",
                parse_describe(p, parse_cur(p), buf, sizeof buf));
    return NULL;
  }
  s->span = parse_span_from(p, start);
  return s;
}

/* var / let / const without the ';'; start covers any attributes. */
static ast_decl *parse_value_decl(parser *p, uint32_t start) {
  tok_kind k = parse_peek(p);
  ast_decl *d = new_decl(p, k == TK_KW_VAR ? DECL_VAR : k == TK_KW_LET ? DECL_LET : DECL_CONST, start);
  if (!d) return NULL;
  parse_next(p);
  if (k == TK_KW_VAR && parse_peek(p) == TK_TEMPLATE_START) {
    int n;
    ast_expr **args = parse_template_args(p, &n);
    if (p->panic) return NULL;
    for (int i = 0; i < n && i < 2; i++) {
      if (!is_plain_ident_expr(args[i])) {
        parse_error(p, args[i]->span, i == 0 ? "expected address space name" : "expected access mode name");
        return NULL;
      }
    }
    if (n > 2) {
      parse_error(p, args[2]->span, "'var' takes at most an address space and an access mode");
      return NULL;
    }
    if (n >= 1) {
      d->space_name = args[0]->u.ident.name;
      d->space_span = args[0]->span;
    }
    if (n >= 2) d->access_name = args[1]->u.ident.name;
  }
  const char *what = k == TK_KW_VAR ? "variable name" : "constant name";
  if (!decl_name(p, d, what)) return NULL;
  if (parse_accept(p, TK_COLON) && !(d->type = parse_type(p))) return NULL;
  if (k == TK_KW_VAR) {
    if (parse_accept(p, TK_EQ) && !(d->init = parse_expression(p))) return NULL;
  } else {
    if (!parse_expect(p, TK_EQ, k == TK_KW_LET ? "in 'let' declaration" : "in 'const' declaration"))
      return NULL;
    if (!(d->init = parse_expression(p))) return NULL;
  }
  d->span = parse_span_from(p, start);
  return d;
}

static ast_stmt *decl_stmt(parser *p, ast_decl *d, uint32_t start) {
  ast_stmt *s = d ? new_stmt(p, ST_DECL, start) : NULL;
  if (!s) return NULL;
  s->u.decl = d;
  return s;
}

/* An else-if chain becomes nested ST_IF nodes: each link counts as one level
 * of nesting, since later phases recurse down the chain. */
static ast_stmt *parse_if(parser *p, uint32_t start) {
  ast_stmt *first = NULL, *tail = NULL;
  uint32_t if_start = start;
  int links = 0;
  for (;;) {
    parse_next(p); /* 'if' */
    ast_expr *cond = parse_expression(p);
    ast_stmt *then = cond ? parse_compound(p) : NULL;
    ast_stmt *s = then ? new_stmt(p, ST_IF, if_start) : NULL;
    if (!s) break;
    s->u.if_.cond = cond;
    s->u.if_.then = then;
    if (tail) tail->u.if_.else_ = s;
    else first = s;
    tail = s;
    if (!parse_accept(p, TK_KW_ELSE)) break;
    if (parse_peek(p) != TK_KW_IF) {
      tail->u.if_.else_ = parse_compound(p);
      break;
    }
    if (!parse_enter(p)) break;
    links++;
    if_start = parse_start(p);
  }
  p->depth -= links;
  /* each link of an else-if chain spans to the end of the chain */
  for (ast_stmt *s = first; s && s->kind == ST_IF; s = s->u.if_.else_) s->span.end = p->prev_end;
  return first;
}

static int skip_to_clause(parser *p) {
  size_t bal = 0;
  for (;;) {
    tok_kind k = parse_peek(p);
    if (k == TK_EOF) return 0;
    if (bal == 0 && (k == TK_KW_CASE || k == TK_KW_DEFAULT || k == TK_RBRACE)) break;
    parse_next(p);
    if (k == TK_LBRACE) bal++;
    else if (k == TK_RBRACE) bal--;
  }
  p->panic = 0;
  return 1;
}

static int parse_case(parser *p, ast_case *c) {
  size_t mark = parse_mark(p);
  uint32_t start = parse_start(p);
  memset(c, 0, sizeof *c);
  if (parse_accept(p, TK_KW_DEFAULT)) {
    ast_expr *none = NULL;
    parse_push(p, &none, sizeof none);
    c->has_default = 1;
  } else {
    parse_next(p); /* 'case' */
    do {
      ast_expr *e = NULL;
      if (parse_accept(p, TK_KW_DEFAULT)) c->has_default = 1;
      else if (!(e = parse_expression(p))) goto fail;
      parse_push(p, &e, sizeof e);
    } while (parse_accept(p, TK_COMMA) && parse_peek(p) != TK_COLON &&
             parse_peek(p) != TK_LBRACE && parse_peek(p) != TK_AT);
  }
  c->selectors = parse_collect(p, mark, sizeof(ast_expr *), &c->nselectors);
  parse_accept(p, TK_COLON);
  if (!(c->body = parse_compound(p))) return 0;
  c->span = parse_span_from(p, start);
  return 1;
fail:
  p->stop = mark;
  return 0;
}

static ast_stmt *parse_switch(parser *p, uint32_t start, ast_attr *attrs, int nattrs) {
  ast_stmt *s = new_stmt(p, ST_SWITCH, start);
  if (!s) return NULL;
  parse_next(p);
  if (!(s->u.switch_.selector = parse_expression(p))) return NULL;
  /* attributes of the switch body go with the statement's own */
  ast_attr *battrs;
  int nb;
  if (!parse_attributes(p, &battrs, &nb)) return NULL;
  if (nb) {
    ast_attr *all = parse_alloc(p, (size_t)(nattrs + nb) * sizeof *all);
    if (!all) return NULL;
    if (nattrs) memcpy(all, attrs, (size_t)nattrs * sizeof *all);
    memcpy(all + nattrs, battrs, (size_t)nb * sizeof *all);
    attrs = all;
    nattrs += nb;
  }
  s->u.switch_.nbody_attrs = nb;
  s->attrs = attrs;
  s->nattrs = nattrs;
  uint32_t body_start = parse_start(p);
  if (!parse_expect(p, TK_LBRACE, "to begin switch body")) return NULL;
  if (!parse_enter(p)) return NULL;
  size_t mark = parse_mark(p);
  while (parse_peek(p) != TK_RBRACE && parse_peek(p) != TK_EOF) {
    ast_case c;
    if (parse_peek(p) != TK_KW_CASE && parse_peek(p) != TK_KW_DEFAULT) {
      parse_expected(p, "'case', 'default' or '}'", "in switch body");
      if (!skip_to_clause(p)) break;
      continue;
    }
    if (parse_case(p, &c)) parse_push(p, &c, sizeof c);
    if (p->panic && !skip_to_clause(p)) break;
  }
  parse_leave(p);
  s->u.switch_.cases = parse_collect(p, mark, sizeof(ast_case), &s->u.switch_.ncases);
  if (!parse_expect(p, TK_RBRACE, "to close switch body")) return s;
  if (s->u.switch_.ncases == 0)
    parse_soft_error(p, parse_span_from(p, body_start), "switch statement must have at least one clause");
  s->span = parse_span_from(p, start);
  return s;
}

/* continuing attribute* '{' statement* (break if expr ;)? '}' */
static ast_stmt *parse_continuing(parser *p) {
  uint32_t start = parse_start(p);
  parse_next(p);
  ast_attr *attrs;
  int nattrs;
  if (!parse_attributes(p, &attrs, &nattrs)) return NULL;
  if (!parse_expect(p, TK_LBRACE, "after 'continuing'")) return NULL;
  if (!parse_enter(p)) return NULL;
  size_t mark = parse_mark(p);
  while (parse_peek(p) != TK_RBRACE && parse_peek(p) != TK_EOF) {
    size_t before = p->pos;
    ast_stmt *s;
    if (parse_peek(p) == TK_KW_BREAK && parse_peek2(p) == TK_KW_IF) {
      uint32_t bstart = parse_start(p);
      parse_next(p);
      parse_next(p);
      ast_expr *e = parse_expression(p);
      if (e && parse_expect(p, TK_SEMI, "after statement") && (s = new_stmt(p, ST_BREAK_IF, bstart))) {
        s->u.expr = e;
        s->span = parse_span_from(p, bstart);
        parse_push(p, &s, sizeof s);
        if (parse_peek(p) != TK_RBRACE)
          parse_soft_error(p, parse_cur(p)->span,
                     "'break if' must be the last statement of the continuing block");
      }
    } else {
      s = parse_statement(p);
      if (s && !p->panic) parse_push(p, &s, sizeof s);
    }
    if (p->panic) recover_statement(p);
    if (p->pos == before) parse_next(p);
  }
  parse_leave(p);
  ast_stmt *b = new_stmt(p, ST_BLOCK, start);
  if (!b) return NULL;
  b->attrs = attrs;
  b->nattrs = nattrs;
  b->u.block.stmts = parse_collect(p, mark, sizeof(ast_stmt *), &b->u.block.n);
  parse_expect(p, TK_RBRACE, "to close continuing block");
  b->span = parse_span_from(p, start);
  return b;
}

static ast_stmt *parse_loop(parser *p, uint32_t start) {
  ast_stmt *s = new_stmt(p, ST_LOOP, start);
  if (!s) return NULL;
  parse_next(p);
  uint32_t bstart = parse_start(p);
  ast_attr *attrs;
  int nattrs;
  if (!parse_attributes(p, &attrs, &nattrs)) return NULL;
  if (!parse_expect(p, TK_LBRACE, "after 'loop'")) return NULL;
  if (!parse_enter(p)) return NULL;
  size_t mark = parse_mark(p);
  statement_list(p, 1);
  ast_stmt *body = new_stmt(p, ST_BLOCK, bstart);
  if (!body) return NULL;
  body->attrs = attrs;
  body->nattrs = nattrs;
  body->u.block.stmts = parse_collect(p, mark, sizeof(ast_stmt *), &body->u.block.n);
  body->span = parse_span_from(p, bstart);
  s->u.loop.body = body;
  if (parse_peek(p) == TK_KW_CONTINUING) s->u.loop.continuing = parse_continuing(p);
  parse_leave(p);
  if (p->panic) return NULL;
  if (!parse_expect(p, TK_RBRACE, s->u.loop.continuing ? "after continuing block" : "to close loop"))
    return NULL;
  body->span.end = p->prev_end;
  s->span = parse_span_from(p, start);
  return s;
}

static ast_stmt *parse_for(parser *p, uint32_t start) {
  ast_stmt *s = new_stmt(p, ST_FOR, start);
  if (!s) return NULL;
  parse_next(p);
  if (!parse_expect(p, TK_LPAREN, "after 'for'")) return NULL;
  if (parse_peek(p) != TK_SEMI) {
    tok_kind k = parse_peek(p);
    uint32_t istart = parse_start(p);
    if (k == TK_KW_VAR || k == TK_KW_LET || k == TK_KW_CONST)
      s->u.loop.init = decl_stmt(p, parse_value_decl(p, istart), istart);
    else
      s->u.loop.init = parse_simple(p);
    if (!s->u.loop.init) return NULL;
    s->u.loop.init->span = parse_span_from(p, istart);
  }
  if (!parse_expect(p, TK_SEMI, "after for-loop initializer")) return NULL;
  if (parse_peek(p) != TK_SEMI && !(s->u.loop.cond = parse_expression(p))) return NULL;
  if (!parse_expect(p, TK_SEMI, "after for-loop condition")) return NULL;
  if (parse_peek(p) != TK_RPAREN && !(s->u.loop.update = parse_simple(p))) return NULL;
  if (!parse_expect(p, TK_RPAREN, "after for-loop header")) return NULL;
  if (!(s->u.loop.body = parse_compound(p))) return NULL;
  s->span = parse_span_from(p, start);
  return s;
}

/* Statement kinds the grammar lets carry attributes. */
static int takes_attributes(tok_kind k) {
  return k == TK_LBRACE || k == TK_KW_IF || k == TK_KW_SWITCH || k == TK_KW_LOOP ||
         k == TK_KW_FOR || k == TK_KW_WHILE;
}

static ast_stmt *parse_statement(parser *p) {
  uint32_t start = parse_start(p);
  ast_attr *attrs = NULL;
  int nattrs = 0;
  if (!parse_attributes(p, &attrs, &nattrs)) return NULL;
  tok_kind k = parse_peek(p);
  if (nattrs && !takes_attributes(k)) {
    parse_soft_error(p, attrs_span(attrs, nattrs), "attributes are not allowed on this statement");
    attrs = NULL;
    nattrs = 0;
  }
  ast_stmt *s = NULL;
  switch (k) {
  case TK_SEMI:
    parse_next(p);
    if ((s = new_stmt(p, ST_EMPTY, start))) s->span = parse_span_from(p, start);
    return s;
  case TK_LBRACE:
    return parse_block(p, start, attrs, nattrs);
  case TK_KW_IF:
    s = parse_if(p, start);
    break;
  case TK_KW_SWITCH:
    return parse_switch(p, start, attrs, nattrs);
  case TK_KW_LOOP:
    s = parse_loop(p, start);
    break;
  case TK_KW_FOR:
    s = parse_for(p, start);
    break;
  case TK_KW_WHILE: {
    parse_next(p);
    ast_expr *cond = parse_expression(p);
    ast_stmt *body = cond ? parse_compound(p) : NULL;
    if (!body || !(s = new_stmt(p, ST_WHILE, start))) return NULL;
    s->u.loop.cond = cond;
    s->u.loop.body = body;
    break;
  }
  case TK_KW_RETURN:
    parse_next(p);
    if (!(s = new_stmt(p, ST_RETURN, start))) return NULL;
    if (parse_peek(p) != TK_SEMI && !(s->u.expr = parse_expression(p))) return NULL;
    goto semi;
  case TK_KW_BREAK:
    parse_next(p);
    if (parse_peek(p) == TK_KW_IF) {
      parse_soft_error(p, parse_span_from(p, start),
                 "'break if' is only allowed as the last statement of a continuing block");
      parse_next(p);
      if (!(s = new_stmt(p, ST_BREAK_IF, start)) || !(s->u.expr = parse_expression(p)))
        return NULL;
      goto semi;
    }
    s = new_stmt(p, ST_BREAK, start);
    goto semi;
  case TK_KW_CONTINUE:
    parse_next(p);
    s = new_stmt(p, ST_CONTINUE, start);
    goto semi;
  case TK_KW_DISCARD:
    parse_next(p);
    s = new_stmt(p, ST_DISCARD, start);
    goto semi;
  case TK_KW_CONST_ASSERT: {
    ast_decl *d = new_decl(p, DECL_CONST_ASSERT, start);
    if (!d) return NULL;
    parse_next(p);
    if (!(d->init = parse_expression(p))) return NULL;
    d->span = parse_span_from(p, start);
    s = decl_stmt(p, d, start);
    goto semi;
  }
  case TK_KW_VAR:
  case TK_KW_LET:
  case TK_KW_CONST:
    s = decl_stmt(p, parse_value_decl(p, start), start);
    goto semi;
  case TK_IDENT:
  case TK_LPAREN:
  case TK_STAR:
  case TK_AND:
  case TK_AND_AND:
  case TK_UNDERSCORE:
    s = parse_simple(p);
    goto semi;
  default:
    parse_expected(p, "statement", NULL);
    return NULL;
  }
  if (s) {
    s->attrs = attrs;
    s->nattrs = nattrs;
  }
  return s;
semi:
  if (!s || p->panic || !parse_expect(p, TK_SEMI, "after statement")) return NULL;
  s->span = parse_span_from(p, start);
  return s;
}

/* ---- Module scope ---------------------------------------------------------- */

typedef struct named {
  const char *name;
  src_span span;
} named;

static int take_name(parser *p, const char *what) {
  token *t = parse_cur(p);
  if (t->kind != TK_IDENT) return parse_expected(p, what, NULL);
  parse_next(p);
  named nm = {parse_text(p, t), t->span};
  parse_push(p, &nm, sizeof nm);
  return nm.name != NULL;
}

/* enable / requires / diagnostic; the directive keyword is current. */
static int parse_directive(parser *p, ast_directive *dir) {
  uint32_t start = parse_start(p);
  tok_kind k = parse_next(p)->kind;
  size_t mark = parse_mark(p);
  memset(dir, 0, sizeof *dir);
  if (k == TK_KW_DIAGNOSTIC) {
    dir->kind = DIR_DIAGNOSTIC;
    if (!parse_expect(p, TK_LPAREN, "after 'diagnostic'") || !take_name(p, "severity name") ||
        !parse_expect(p, TK_COMMA, "after severity name"))
      goto fail;
    /* the rule name may be `name.name`: kept as one string */
    token *t = parse_cur(p);
    if (t->kind != TK_IDENT) {
      parse_expected(p, "diagnostic rule name", NULL);
      goto fail;
    }
    parse_next(p);
    named rule = {NULL, t->span};
    if (parse_accept(p, TK_DOT)) {
      token *t2 = parse_cur(p);
      if (t2->kind != TK_IDENT) {
        parse_expected(p, "diagnostic rule name", "after '.'");
        goto fail;
      }
      parse_next(p);
      uint32_t n1 = t->span.end - t->span.start, n2 = t2->span.end - t2->span.start;
      char *s = parse_alloc(p, n1 + n2 + 2);
      if (!s) goto fail;
      memcpy(s, p->src + t->span.start, n1);
      s[n1] = '.';
      memcpy(s + n1 + 1, p->src + t2->span.start, n2);
      rule.name = s;
      rule.span.end = t2->span.end;
    } else if (!(rule.name = parse_text(p, t))) {
      goto fail;
    }
    parse_push(p, &rule, sizeof rule);
    parse_accept(p, TK_COMMA);
    if (!parse_expect(p, TK_RPAREN, "to close diagnostic control")) goto fail;
  } else {
    dir->kind = k == TK_KW_ENABLE ? DIR_ENABLE : DIR_REQUIRES;
    do {
      if (!take_name(p, "extension name")) goto fail;
    } while (parse_accept(p, TK_COMMA) && parse_peek(p) != TK_SEMI);
  }
  if (!parse_expect(p, TK_SEMI, "after directive")) goto fail;
  int n;
  named *names = parse_collect(p, mark, sizeof(named), &n);
  dir->names = parse_alloc(p, (size_t)n * sizeof(const char *));
  dir->name_spans = parse_alloc(p, (size_t)n * sizeof(src_span));
  if (!names || !dir->names || !dir->name_spans) return 0;
  for (int i = 0; i < n; i++) {
    dir->names[i] = names[i].name;
    dir->name_spans[i] = names[i].span;
  }
  dir->nnames = n;
  dir->span = parse_span_from(p, start);
  return 1;
fail:
  p->stop = mark;
  return 0;
}

static ast_decl *parse_fn(parser *p, uint32_t start) {
  ast_decl *d = new_decl(p, DECL_FN, start);
  if (!d) return NULL;
  parse_next(p);
  if (!decl_name(p, d, "function name") || !parse_expect(p, TK_LPAREN, "after function name"))
    return NULL;
  size_t mark = parse_mark(p);
  while (parse_peek(p) != TK_RPAREN) {
    uint32_t pstart = parse_start(p);
    ast_decl *prm = new_decl(p, DECL_PARAM, pstart);
    if (!prm || !parse_attributes(p, &prm->attrs, &prm->nattrs) ||
        !decl_name(p, prm, "parameter name") ||
        !parse_expect(p, TK_COLON, "after parameter name") || !(prm->type = parse_type(p)))
      goto fail;
    prm->span = parse_span_from(p, pstart);
    parse_push(p, &prm, sizeof prm);
    if (!parse_accept(p, TK_COMMA)) {
      if (parse_peek(p) != TK_RPAREN) {
        parse_expected(p, "',' or ')'", "in parameter list");
        goto fail;
      }
      break;
    }
  }
  parse_next(p);
  d->params = parse_collect(p, mark, sizeof(ast_decl *), &d->nparams);
  if (parse_accept(p, TK_ARROW)) {
    if (!parse_attributes(p, &d->ret_attrs, &d->nret_attrs) || !(d->ret_type = parse_type(p)))
      return NULL;
  }
  if (!(d->body = parse_compound(p))) return NULL;
  d->span = parse_span_from(p, start);
  return d;
fail:
  p->stop = mark;
  return NULL;
}

static ast_decl *parse_struct(parser *p, uint32_t start) {
  ast_decl *d = new_decl(p, DECL_STRUCT, start);
  if (!d) return NULL;
  parse_next(p);
  if (!decl_name(p, d, "struct name") || !parse_expect(p, TK_LBRACE, "after struct name"))
    return NULL;
  size_t mark = parse_mark(p);
  do {
    ast_member m;
    memset(&m, 0, sizeof m);
    m.span.start = parse_start(p);
    if (!parse_attributes(p, &m.attrs, &m.nattrs)) goto fail;
    token *t = parse_cur(p);
    if (t->kind != TK_IDENT) {
      parse_expected(p, "member name", NULL);
      goto fail;
    }
    parse_next(p);
    m.name_span = t->span;
    if (!(m.name = parse_text(p, t)) || !parse_expect(p, TK_COLON, "after member name") ||
        !(m.type = parse_type(p)))
      goto fail;
    m.span = parse_span_from(p, m.span.start);
    parse_push(p, &m, sizeof m);
  } while (parse_accept(p, TK_COMMA) && parse_peek(p) != TK_RBRACE);
  if (parse_peek(p) != TK_RBRACE) {
    parse_expected(p, "',' or '}'", "in struct body");
    goto fail;
  }
  parse_next(p);
  d->members = parse_collect(p, mark, sizeof(ast_member), &d->nmembers);
  d->span = parse_span_from(p, start);
  return d;
fail:
  p->stop = mark;
  return NULL;
}

static ast_decl *parse_global(parser *p) {
  uint32_t start = parse_start(p);
  ast_attr *attrs;
  int nattrs;
  if (!parse_attributes(p, &attrs, &nattrs)) return NULL;
  tok_kind k = parse_peek(p);
  ast_decl *d = NULL;
  if (nattrs && k != TK_KW_FN && k != TK_KW_VAR && k != TK_KW_OVERRIDE) {
    if (k == TK_SEMI || !starts_global(k)) {
      parse_expected(p, "'fn', 'var' or 'override'", "after attributes");
      return NULL;
    }
    parse_soft_error(p, attrs_span(attrs, nattrs), "attributes are not allowed on %s declarations",
               lex_token_name(k));
  }
  switch (k) {
  case TK_SEMI:
    parse_next(p);
    return NULL;
  case TK_KW_FN:
    d = parse_fn(p, start);
    break;
  case TK_KW_VAR:
  case TK_KW_CONST:
  case TK_KW_LET:
    if (k == TK_KW_LET)
      parse_soft_error(p, parse_cur(p)->span, "'let' declarations are not allowed at module scope; "
                 "use 'const'");
    d = parse_value_decl(p, start);
    if (d && !parse_expect(p, TK_SEMI, "after declaration")) d = NULL;
    if (k == TK_KW_LET) d = NULL; /* read for the sake of recovery, then dropped */
    break;
  case TK_KW_OVERRIDE:
    if (!(d = new_decl(p, DECL_OVERRIDE, start))) return NULL;
    parse_next(p);
    if (!decl_name(p, d, "override name") ||
        (parse_accept(p, TK_COLON) && !(d->type = parse_type(p))) ||
        (parse_accept(p, TK_EQ) && !(d->init = parse_expression(p))))
      return NULL;
    d->span = parse_span_from(p, start);
    if (!parse_expect(p, TK_SEMI, "after declaration")) return NULL;
    break;
  case TK_KW_STRUCT:
    d = parse_struct(p, start);
    break;
  case TK_KW_ALIAS:
    if (!(d = new_decl(p, DECL_ALIAS, start))) return NULL;
    parse_next(p);
    if (!decl_name(p, d, "alias name") || !parse_expect(p, TK_EQ, "after alias name") ||
        !(d->type = parse_type(p)))
      return NULL;
    d->span = parse_span_from(p, start);
    if (!parse_expect(p, TK_SEMI, "after declaration")) return NULL;
    break;
  case TK_KW_CONST_ASSERT:
    if (!(d = new_decl(p, DECL_CONST_ASSERT, start))) return NULL;
    parse_next(p);
    if (!(d->init = parse_expression(p))) return NULL;
    d->span = parse_span_from(p, start);
    if (!parse_expect(p, TK_SEMI, "after declaration")) return NULL;
    break;
  default:
    parse_expected(p, "declaration", NULL);
    return NULL;
  }
  if (d && d->kind != DECL_CONST_ASSERT && d->kind != DECL_STRUCT && d->kind != DECL_ALIAS) {
    d->attrs = attrs;
    d->nattrs = nattrs;
  }
  return p->panic ? NULL : d;
}

static int is_directive(parser *p) {
  tok_kind k = parse_peek(p);
  return k == TK_KW_ENABLE || k == TK_KW_REQUIRES || k == TK_KW_DIAGNOSTIC;
}

ast_module *parse_module(const char *src, size_t len, arena *a, diag_list *diags) {
  size_t ntoks;
  token *toks = lex_tokenize(src, len, a, diags, &ntoks);
  if (!toks) return NULL;
  parser P;
  memset(&P, 0, sizeof P);
  parser *p = &P;
  p->src = src;
  p->len = len;
  p->toks = toks;
  p->ntoks = ntoks;
  p->a = a;
  p->d = diags;
  ast_module *m = parse_alloc(p, sizeof *m);
  if (!m) return NULL;

  size_t mark = parse_mark(p);
  while (is_directive(p)) {
    ast_directive dir;
    if (parse_directive(p, &dir)) parse_push(p, &dir, sizeof dir);
    if (p->panic) recover_global(p);
  }
  m->directives = parse_collect(p, mark, sizeof(ast_directive), &m->ndirectives);

  mark = parse_mark(p);
  while (parse_peek(p) != TK_EOF) {
    size_t before = p->pos;
    if (is_directive(p)) {
      ast_directive dir;
      token *t = parse_cur(p);
      parse_soft_error(p, t->span, "directives must come before any declaration");
      parse_directive(p, &dir);
    } else {
      ast_decl *d = parse_global(p);
      if (d) parse_push(p, &d, sizeof d);
    }
    if (p->panic) recover_global(p);
    if (p->pos == before) parse_next(p);
  }
  m->decls = parse_collect(p, mark, sizeof(ast_decl *), &m->ndecls);
  for (int i = 0; i < m->ndecls; i++) m->decls[i]->index = i;
  free(p->scratch);
  return arena_failed(a) ? NULL : m;
}
