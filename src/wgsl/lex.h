/*
 * lex.h — WGSL tokens. The lexer turns source text into a token array in one
 * pass, then runs the spec's template-list discovery so that the parser sees
 * TK_TEMPLATE_START / TK_TEMPLATE_END instead of '<' / '>' where they open and
 * close a template list (`array<f32, 4>`), and plain comparison operators
 * everywhere else (`a < b`).
 */
#ifndef LS_WGSL_LEX_H
#define LS_WGSL_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "../util/arena.h"
#include "../util/diag.h"

/* X(name, spelling) — punctuation first, then keywords. */
#define LEX_TOKENS(X)                                                          \
  X(EOF, "end of file") X(IDENT, "identifier") X(INT, "integer literal")      \
  X(FLOAT, "floating point literal")                                           \
  X(TEMPLATE_START, "'<'") X(TEMPLATE_END, "'>'")                              \
  X(AND, "'&'") X(AND_AND, "'&&'") X(ARROW, "'->'") X(AT, "'@'")              \
  X(SLASH, "'/'") X(BANG, "'!'") X(LBRACKET, "'['") X(RBRACKET, "']'")        \
  X(LBRACE, "'{'") X(RBRACE, "'}'") X(COLON, "':'") X(COMMA, "','")           \
  X(EQ, "'='") X(EQ_EQ, "'=='") X(NE, "'!='") X(GT, "'>'") X(GE, "'>='")      \
  X(SHR, "'>>'") X(LT, "'<'") X(LE, "'<='") X(SHL, "'<<'")                    \
  X(PERCENT, "'%'") X(MINUS, "'-'") X(MINUS_MINUS, "'--'") X(DOT, "'.'")      \
  X(PLUS, "'+'") X(PLUS_PLUS, "'++'") X(OR, "'|'") X(OR_OR, "'||'")           \
  X(LPAREN, "'('") X(RPAREN, "')'") X(SEMI, "';'") X(STAR, "'*'")             \
  X(TILDE, "'~'") X(UNDERSCORE, "'_'") X(XOR, "'^'")                           \
  X(PLUS_EQ, "'+='") X(MINUS_EQ, "'-='") X(STAR_EQ, "'*='")                   \
  X(SLASH_EQ, "'/='") X(PERCENT_EQ, "'%='") X(AND_EQ, "'&='")                 \
  X(OR_EQ, "'|='") X(XOR_EQ, "'^='") X(SHR_EQ, "'>>='") X(SHL_EQ, "'<<='")   \
  X(KW_ALIAS, "'alias'") X(KW_BREAK, "'break'") X(KW_CASE, "'case'")          \
  X(KW_CONST, "'const'") X(KW_CONST_ASSERT, "'const_assert'")                  \
  X(KW_CONTINUE, "'continue'") X(KW_CONTINUING, "'continuing'")                \
  X(KW_DEFAULT, "'default'") X(KW_DIAGNOSTIC, "'diagnostic'")                  \
  X(KW_DISCARD, "'discard'") X(KW_ELSE, "'else'") X(KW_ENABLE, "'enable'")     \
  X(KW_FALSE, "'false'") X(KW_FN, "'fn'") X(KW_FOR, "'for'") X(KW_IF, "'if'")  \
  X(KW_LET, "'let'") X(KW_LOOP, "'loop'") X(KW_OVERRIDE, "'override'")         \
  X(KW_REQUIRES, "'requires'") X(KW_RETURN, "'return'")                        \
  X(KW_STRUCT, "'struct'") X(KW_SWITCH, "'switch'") X(KW_TRUE, "'true'")      \
  X(KW_VAR, "'var'") X(KW_WHILE, "'while'")

typedef enum tok_kind {
#define X_(n, s) TK_##n,
  LEX_TOKENS(X_)
#undef X_
  TK_COUNT_
} tok_kind;

typedef struct token {
  tok_kind kind;
  src_span span;
} token;

/* Tokenizes src[0..len). Reports errors (bad characters, unterminated block
 * comments, reserved words used as identifiers, malformed literals, invalid
 * UTF-8) into diags with their spans. Returns the token array (ending with
 * TK_EOF) allocated in `a`; *count is set. Returns NULL only when memory runs
 * out. */
token *lex_tokenize(const char *src, size_t len, arena *a, diag_list *diags, size_t *count);

/* "'->'" etc. for messages. */
const char *lex_token_name(tok_kind k);

/* Values of numeric literal tokens, reparsed from their text (the parser
 * calls these; the lexer calls them too, so a literal the lexer accepted
 * never fails here). Return NULL on success, else a static message.
 *
 * lex_int_value: *suffix is 0, 'i' or 'u'. Unsuffixed literals must fit in
 * AbstractInt (i64), 'i' in i32 and 'u' in u32.
 * lex_float_value: *suffix is 0, 'f' or 'h'. Decimal significands are cut to
 * 20 significant digits and hexadecimal ones to 16, as the spec allows; hex
 * literals are rounded exactly (suffixed ones must be exact in their type). */
const char *lex_int_value(const char *text, size_t n, uint64_t *value, char *suffix);
const char *lex_float_value(const char *text, size_t n, double *value, char *suffix);

#endif
