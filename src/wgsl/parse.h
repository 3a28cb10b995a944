/*
 * parse.h — WGSL parser: tokens -> syntax tree (ast.h). Recursive descent
 * over the spec's grammar; errors carry spans and the parser recovers at
 * statement and declaration boundaries so one run reports several errors.
 */
#ifndef LS_WGSL_PARSE_H
#define LS_WGSL_PARSE_H

#include "../util/arena.h"
#include "../util/diag.h"
#include "ast.h"
#include "lex.h"

/* Parses a whole translation unit. Never returns NULL unless memory runs out;
 * on syntax errors the returned module holds what could be parsed and diags
 * has the errors. Nesting deeper than PARSE_MAX_DEPTH is an error, not a
 * stack overflow. */
#define PARSE_MAX_DEPTH 256
/* Later phases walk expressions recursively, so the height of every
 * expression tree is bounded too (`a + b + c ...` is as tall as it is long). */
#define PARSE_MAX_EXPR_HEIGHT 512
ast_module *parse_module(const char *src, size_t len, arena *a, diag_list *diags);

#endif
