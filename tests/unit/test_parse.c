/*
 * test_parse.c — unit tests for the WGSL parser (src/wgsl/parse.c,
 * parse_expr.c): tree shapes for every declaration and statement kind,
 * operator precedence and the operator-mixing rules, error messages, spans,
 * recovery and nesting limits, and the child visitor (ast.h) over every
 * statement kind. Expressions are compared as S-expressions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wgsl/parse.h"

typedef struct parsed {
  const char *src;
  size_t len;
  arena a;
  diag_list d;
  ast_module *m;
} parsed;

static void parse_s(parsed *P, const char *src) {
  P->src = src;
  P->len = strlen(src);
  arena_init(&P->a, 0);
  diag_init(&P->d);
  P->m = parse_module(src, P->len, &P->a, &P->d);
  assert_non_null(P->m);
}

static void parse_done(parsed *P) {
  diag_free(&P->d);
  arena_free(&P->a);
}

static void expect_no_errors(const parsed *P) {
  if (P->d.errors) fail_msg("unexpected error: %s", P->d.items[0].message);
}

static const diag *find_error(const diag_list *d, const char *text) {
  for (size_t i = 0; i < d->count; i++)
    if (strstr(d->items[i].message, text)) return &d->items[i];
  return NULL;
}

static void expect_error(const parsed *P, const char *text) {
  if (!find_error(&P->d, text))
    fail_msg("no error containing \"%s\" (%zu errors, first: %s)", text, P->d.errors,
             P->d.count ? P->d.items[0].message : "-");
}

static int span_is(const parsed *P, src_span s, const char *text) {
  size_t n = s.end - s.start;
  return n == strlen(text) && memcmp(P->src + s.start, text, n) == 0;
}

#define assert_span(P, s, text)                                                         \
  do {                                                                                  \
    if (!span_is((P), (s), (text)))                                                     \
      fail_msg("span [%u,%u) is \"%.*s\", want \"%s\"", (s).start, (s).end,             \
               (int)((s).end - (s).start), (P)->src + (s).start, (text));               \
  } while (0)

/* ---- S-expressions ---------------------------------------------------------- */

typedef struct sbuf {
  char s[4096];
  size_t n;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
  va_end(ap);
  if (k > 0) b->n += (size_t)k;
  if (b->n >= sizeof b->s) b->n = sizeof b->s - 1;
}

static const char *binop_str(ast_binop op) {
  static const char *const s[] = {
#define X_(n, str) str,
      AST_BINOPS(X_)
#undef X_
  };
  return s[op];
}

static void sx(sbuf *b, const ast_expr *e) {
  if (!e) {
    put(b, "NULL");
    return;
  }
  switch (e->kind) {
  case EX_INT:
    put(b, "%llu", (unsigned long long)e->u.ilit.value);
    if (e->u.ilit.suffix) put(b, "%c", e->u.ilit.suffix);
    break;
  case EX_FLOAT:
    put(b, "%g", e->u.flit.value);
    if (e->u.flit.suffix) put(b, "%c", e->u.flit.suffix);
    break;
  case EX_BOOL: put(b, e->u.blit ? "true" : "false"); break;
  case EX_IDENT:
    put(b, "%s", e->u.ident.name);
    if (e->u.ident.ntargs) {
      put(b, "<");
      for (int i = 0; i < e->u.ident.ntargs; i++) {
        if (i) put(b, ",");
        sx(b, e->u.ident.targs[i]);
      }
      put(b, ">");
    }
    break;
  case EX_CALL:
    sx(b, e->u.call.callee);
    put(b, "(");
    for (int i = 0; i < e->u.call.nargs; i++) {
      if (i) put(b, ",");
      sx(b, e->u.call.args[i]);
    }
    put(b, ")");
    break;
  case EX_INDEX:
    put(b, "([] ");
    sx(b, e->u.index.base);
    put(b, " ");
    sx(b, e->u.index.index);
    put(b, ")");
    break;
  case EX_MEMBER:
    put(b, "(. ");
    sx(b, e->u.member.base);
    put(b, " %s)", e->u.member.name);
    break;
  case EX_UNARY: {
    static const char *const ops[] = {"-", "!", "~", "&", "*"};
    put(b, "(%s ", ops[e->u.unary.op]);
    sx(b, e->u.unary.operand);
    put(b, ")");
    break;
  }
  case EX_BINARY:
    put(b, "(%s ", binop_str(e->u.binary.op));
    sx(b, e->u.binary.lhs);
    put(b, " ");
    sx(b, e->u.binary.rhs);
    put(b, ")");
    break;
  }
}

static const char *sxs(const ast_expr *e) {
  static sbuf b;
  b.n = 0;
  b.s[0] = 0;
  sx(&b, e);
  return b.s;
}

/* `const x = <text>;` must parse cleanly to the S-expression want. */
static void check_expr(const char *text, const char *want) {
  char src[512];
  snprintf(src, sizeof src, "const x = %s;", text);
  parsed P;
  parse_s(&P, src);
  if (P.d.errors) fail_msg("'%s': %s", text, P.d.items[0].message);
  assert_int_equal(P.m->ndecls, 1);
  const char *got = sxs(P.m->decls[0]->init);
  if (strcmp(got, want)) fail_msg("'%s' parsed as %s, want %s", text, got, want);
  parse_done(&P);
}

/* `const x = <text>;` must fail with a message containing want. */
static void check_expr_error(const char *text, const char *want) {
  char src[512];
  snprintf(src, sizeof src, "const x = %s;", text);
  parsed P;
  parse_s(&P, src);
  if (P.d.errors != 1 || !find_error(&P.d, want))
    fail_msg("'%s': %zu errors, first '%s', want one with '%s'", text, P.d.errors,
             P.d.count ? P.d.items[0].message : "-", want);
  parse_done(&P);
}

/* As check_expr_error, and the message's span starts at byte `at` of text
 * and ends after byte `end` - 1. */
static void check_expr_error_span(const char *text, const char *want, uint32_t at, uint32_t end) {
  char src[512];
  int pre = snprintf(src, sizeof src, "const x = ");
  snprintf(src + pre, sizeof src - (size_t)pre, "%s;", text);
  parsed P;
  parse_s(&P, src);
  if (P.d.errors != 1 || !find_error(&P.d, want))
    fail_msg("'%s': %zu errors, want one with '%s'", text, P.d.errors, want);
  if (P.d.items[0].span.start != (uint32_t)pre + at || P.d.items[0].span.end != (uint32_t)pre + end)
    fail_msg("'%s': span [%u, %u), want [%u, %u)", text, P.d.items[0].span.start - (uint32_t)pre,
             P.d.items[0].span.end - (uint32_t)pre, at, end);
  parse_done(&P);
}

/* The body of `fn f() { <text> }`, which must parse cleanly. */
static const ast_stmt *body_of(parsed *P, const char *src) {
  parse_s(P, src);
  expect_no_errors(P);
  assert_int_equal(P->m->ndecls, 1);
  assert_int_equal(P->m->decls[0]->kind, DECL_FN);
  const ast_stmt *b = P->m->decls[0]->body;
  assert_non_null(b);
  assert_int_equal(b->kind, ST_BLOCK);
  return b;
}

/* ---- A whole shader ---------------------------------------------------------- */

static const char *const shader =
    "struct Params { conteo: u32 };\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read_write> datos: array<f32>;\n"
    "override TAM: u32 = 64u;\n"
    "var<workgroup> buf: array<f32, TAM>;\n"
    "const ANCHO: u32 = 4096u;\n"
    "@compute @workgroup_size(TAM)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3<u32>) {\n"
    "  let zancada = nwg.x * 64u;\n"
    "  var i = gid.x;\n"
    "  loop {\n"
    "    if (i >= params.conteo) { break; }\n"
    "    datos[i] = datos[i] * 0.99;\n"
    "    i += zancada;\n"
    "  }\n"
    "  for (var k = 0; k < 4; k++) { buf[k] = f32(k); }\n"
    "  workgroupBarrier();\n"
    "}\n";

static void test_realistic_shader(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, shader);
  expect_no_errors(&P);
  ast_module *m = P.m;
  assert_int_equal(m->ndirectives, 0);
  assert_int_equal(m->ndecls, 7);
  static const ast_decl_kind kinds[] = {DECL_STRUCT, DECL_VAR,   DECL_VAR, DECL_OVERRIDE,
                                        DECL_VAR,    DECL_CONST, DECL_FN};
  for (int i = 0; i < 7; i++) {
    assert_int_equal(m->decls[i]->kind, kinds[i]);
    assert_int_equal(m->decls[i]->index, i);
  }

  const ast_decl *st = m->decls[0];
  assert_string_equal(st->name, "Params");
  assert_int_equal(st->nmembers, 1);
  assert_string_equal(st->members[0].name, "conteo");
  assert_span(&P, st->members[0].name_span, "conteo");
  assert_span(&P, st->members[0].span, "conteo: u32");
  assert_string_equal(sxs(st->members[0].type), "u32");
  assert_span(&P, st->span, "struct Params { conteo: u32 }");

  const ast_decl *params = m->decls[1];
  assert_string_equal(params->name, "params");
  assert_span(&P, params->name_span, "params");
  assert_string_equal(params->space_name, "uniform");
  assert_null(params->access_name);
  assert_span(&P, params->space_span, "uniform");
  assert_int_equal(params->nattrs, 2);
  assert_string_equal(params->attrs[0].name, "group");
  assert_string_equal(params->attrs[1].name, "binding");
  assert_int_equal(params->attrs[1].nargs, 1);
  assert_string_equal(sxs(params->attrs[1].args[0]), "0");
  assert_span(&P, params->attrs[1].span, "@binding(0)");
  assert_span(&P, params->span, "@group(0) @binding(0) var<uniform> params: Params");

  const ast_decl *datos = m->decls[2];
  assert_string_equal(datos->space_name, "storage");
  assert_string_equal(datos->access_name, "read_write");
  assert_string_equal(sxs(datos->type), "array<f32>");
  assert_null(datos->init);

  assert_string_equal(sxs(m->decls[3]->init), "64u");
  assert_string_equal(sxs(m->decls[3]->type), "u32");
  assert_string_equal(sxs(m->decls[4]->type), "array<f32,TAM>");
  assert_string_equal(m->decls[4]->space_name, "workgroup");
  assert_string_equal(sxs(m->decls[5]->init), "4096u");

  const ast_decl *fn = m->decls[6];
  assert_string_equal(fn->name, "main");
  assert_int_equal(fn->nattrs, 2);
  assert_string_equal(fn->attrs[0].name, "compute");
  assert_int_equal(fn->attrs[0].nargs, 0);
  assert_string_equal(fn->attrs[1].name, "workgroup_size");
  assert_string_equal(sxs(fn->attrs[1].args[0]), "TAM");
  assert_int_equal(fn->nparams, 2);
  assert_int_equal(fn->params[0]->kind, DECL_PARAM);
  assert_string_equal(fn->params[0]->name, "gid");
  assert_string_equal(fn->params[0]->attrs[0].name, "builtin");
  assert_string_equal(sxs(fn->params[0]->attrs[0].args[0]), "global_invocation_id");
  assert_string_equal(sxs(fn->params[1]->type), "vec3<u32>");
  assert_null(fn->ret_type);

  const ast_stmt *body = fn->body;
  assert_int_equal(body->u.block.n, 5);
  const ast_stmt *s0 = body->u.block.stmts[0];
  assert_int_equal(s0->kind, ST_DECL);
  assert_int_equal(s0->u.decl->kind, DECL_LET);
  assert_string_equal(s0->u.decl->name, "zancada");
  assert_string_equal(sxs(s0->u.decl->init), "(* (. nwg x) 64u)");
  assert_span(&P, s0->span, "let zancada = nwg.x * 64u;");
  assert_span(&P, s0->u.decl->span, "let zancada = nwg.x * 64u");
  assert_int_equal(body->u.block.stmts[1]->u.decl->kind, DECL_VAR);

  const ast_stmt *loop = body->u.block.stmts[2];
  assert_int_equal(loop->kind, ST_LOOP);
  assert_null(loop->u.loop.continuing);
  assert_int_equal(loop->u.loop.body->u.block.n, 3);
  const ast_stmt *ifs = loop->u.loop.body->u.block.stmts[0];
  assert_int_equal(ifs->kind, ST_IF);
  assert_string_equal(sxs(ifs->u.if_.cond), "(>= i (. params conteo))");
  assert_true(ifs->u.if_.cond->parenthesized);
  assert_int_equal(ifs->u.if_.then->u.block.stmts[0]->kind, ST_BREAK);
  assert_null(ifs->u.if_.else_);
  const ast_stmt *as = loop->u.loop.body->u.block.stmts[1];
  assert_int_equal(as->kind, ST_ASSIGN);
  assert_int_equal(as->u.assign.op, BIN_COUNT_);
  assert_string_equal(sxs(as->u.assign.lhs), "([] datos i)");
  assert_string_equal(sxs(as->u.assign.rhs), "(* ([] datos i) 0.99)");
  const ast_stmt *inc = loop->u.loop.body->u.block.stmts[2];
  assert_int_equal(inc->kind, ST_ASSIGN);
  assert_int_equal(inc->u.assign.op, BIN_ADD);

  const ast_stmt *fr = body->u.block.stmts[3];
  assert_int_equal(fr->kind, ST_FOR);
  assert_int_equal(fr->u.loop.init->kind, ST_DECL);
  assert_span(&P, fr->u.loop.init->span, "var k = 0");
  assert_string_equal(sxs(fr->u.loop.cond), "(< k 4)");
  assert_int_equal(fr->u.loop.update->kind, ST_INCDEC);
  assert_true(fr->u.loop.update->u.incdec.inc);
  assert_string_equal(sxs(fr->u.loop.body->u.block.stmts[0]->u.assign.rhs), "f32(k)");

  const ast_stmt *call = body->u.block.stmts[4];
  assert_int_equal(call->kind, ST_CALL);
  assert_string_equal(sxs(call->u.call), "workgroupBarrier()");
  assert_span(&P, call->span, "workgroupBarrier();");
  parse_done(&P);
}

/* ---- Module scope ------------------------------------------------------------ */

static void test_directives(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "enable f16, subgroups,;\n"
              "requires readonly_and_readwrite_storage_textures;\n"
              "diagnostic(off, derivative_uniformity);\n"
              "diagnostic(warning, chromium.unreachable_code,);\n"
              "fn f() {}");
  expect_no_errors(&P);
  assert_int_equal(P.m->ndirectives, 4);
  const ast_directive *d = P.m->directives;
  assert_int_equal(d[0].kind, DIR_ENABLE);
  assert_int_equal(d[0].nnames, 2);
  assert_string_equal(d[0].names[0], "f16");
  assert_string_equal(d[0].names[1], "subgroups");
  assert_span(&P, d[0].name_spans[1], "subgroups");
  assert_span(&P, d[0].span, "enable f16, subgroups,;");
  assert_int_equal(d[1].kind, DIR_REQUIRES);
  assert_string_equal(d[1].names[0], "readonly_and_readwrite_storage_textures");
  assert_int_equal(d[2].kind, DIR_DIAGNOSTIC);
  assert_int_equal(d[2].nnames, 2);
  assert_string_equal(d[2].names[0], "off");
  assert_string_equal(d[2].names[1], "derivative_uniformity");
  assert_string_equal(d[3].names[0], "warning");
  assert_string_equal(d[3].names[1], "chromium.unreachable_code");
  assert_span(&P, d[3].name_spans[1], "chromium.unreachable_code");
  assert_int_equal(P.m->ndecls, 1);
  parse_done(&P);

  parse_s(&P, "fn f() {}\nenable f16;");
  assert_int_equal(P.d.errors, 1);
  expect_error(&P, "directives must come before any declaration");
  parse_done(&P);
}

static void test_global_decls(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "alias Arr = array<vec4<f32>, 4>;\n"
              "const_assert 1 < 2;\n"
              "@id(7) override scale: f32;\n"
              "override bias = 1.5;\n"
              "var<private> counter: atomic<u32>;\n"
              "var<storage, read,> ro: array<u32,>;\n"
              "var plain: i32 = 3;\n"
              "const c: i32 = -1;\n"
              "struct S { @align(16) a: vec3<f32>, @size(16) @location(0) b: f32, };\n"
              "@fragment @must_use fn fs(@location(0) @interpolate(flat, either) x: u32,)"
              " -> @location(0) vec4<f32> { return vec4<f32>(); }\n"
              "fn noargs() {}\n"
              ";;\n");
  expect_no_errors(&P);
  ast_decl **d = P.m->decls;
  assert_int_equal(P.m->ndecls, 11);
  assert_int_equal(d[0]->kind, DECL_ALIAS);
  assert_string_equal(d[0]->name, "Arr");
  assert_string_equal(sxs(d[0]->type), "array<vec4<f32>,4>");
  assert_span(&P, d[0]->type->span, "array<vec4<f32>, 4>");
  assert_int_equal(d[1]->kind, DECL_CONST_ASSERT);
  assert_null(d[1]->name);
  assert_string_equal(sxs(d[1]->init), "(< 1 2)");
  assert_int_equal(d[2]->kind, DECL_OVERRIDE);
  assert_string_equal(d[2]->attrs[0].name, "id");
  assert_string_equal(sxs(d[2]->attrs[0].args[0]), "7");
  assert_null(d[2]->init);
  assert_null(d[3]->type);
  assert_string_equal(sxs(d[3]->init), "1.5");
  assert_string_equal(d[4]->space_name, "private");
  assert_string_equal(sxs(d[4]->type), "atomic<u32>");
  assert_string_equal(d[5]->access_name, "read");
  assert_string_equal(sxs(d[5]->type), "array<u32>");
  assert_null(d[6]->space_name);
  assert_string_equal(sxs(d[6]->init), "3");
  assert_int_equal(d[7]->kind, DECL_CONST);
  assert_string_equal(sxs(d[7]->init), "(- 1)");

  const ast_decl *s = d[8];
  assert_int_equal(s->kind, DECL_STRUCT);
  assert_int_equal(s->nmembers, 2);
  assert_string_equal(s->members[0].attrs[0].name, "align");
  assert_int_equal(s->members[1].nattrs, 2);
  assert_string_equal(s->members[1].attrs[1].name, "location");
  assert_span(&P, s->members[1].name_span, "b");
  assert_span(&P, s->members[1].span, "@size(16) @location(0) b: f32");

  const ast_decl *fs = d[9];
  assert_int_equal(fs->nattrs, 2);
  assert_string_equal(fs->attrs[1].name, "must_use");
  assert_int_equal(fs->nparams, 1);
  assert_int_equal(fs->params[0]->nattrs, 2);
  assert_int_equal(fs->params[0]->attrs[1].nargs, 2);
  assert_string_equal(sxs(fs->params[0]->attrs[1].args[1]), "either");
  assert_span(&P, fs->params[0]->span, "@location(0) @interpolate(flat, either) x: u32");
  assert_int_equal(fs->nret_attrs, 1);
  assert_string_equal(fs->ret_attrs[0].name, "location");
  assert_string_equal(sxs(fs->ret_type), "vec4<f32>");
  const ast_stmt *ret = fs->body->u.block.stmts[0];
  assert_int_equal(ret->kind, ST_RETURN);
  assert_string_equal(sxs(ret->u.expr), "vec4<f32>()");
  assert_span(&P, fs->name_span, "fs");
  assert_int_equal(d[10]->nparams, 0);
  assert_int_equal(d[10]->body->u.block.n, 0);
  parse_done(&P);
}

static void test_module_errors(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "let x = 1;\nconst y = 2;");
  assert_int_equal(P.d.errors, 1);
  expect_error(&P, "'let' declarations are not allowed at module scope");
  assert_int_equal(P.m->ndecls, 1); /* y still parsed */
  assert_string_equal(P.m->decls[0]->name, "y");
  parse_done(&P);

  parse_s(&P, "@group(0) const y = 2;");
  assert_int_equal(P.d.errors, 1);
  expect_error(&P, "attributes are not allowed on 'const' declarations");
  parse_done(&P);

  parse_s(&P, "const y;");
  expect_error(&P, "expected '=' in 'const' declaration, found ';'");
  parse_done(&P);

  parse_s(&P, "var<storage, read_write, extra> v: i32;");
  expect_error(&P, "at most an address space and an access mode");
  parse_done(&P);

  parse_s(&P, "var<1> v: i32;");
  expect_error(&P, "expected address space name");
  parse_done(&P);

  parse_s(&P, "struct S {}");
  expect_error(&P, "expected member name, found '}'");
  parse_done(&P);

  parse_s(&P, "struct S { a: i32 b: i32 }");
  expect_error(&P, "expected ',' or '}' in struct body, found identifier 'b'");
  parse_done(&P);

  parse_s(&P, "alias A = array<>;");
  expect_error(&P, "empty template argument list");
  parse_done(&P);

  parse_s(&P, "fn f(a: i32 b: i32) {}");
  expect_error(&P, "expected ',' or ')' in parameter list, found identifier 'b'");
  parse_done(&P);

  parse_s(&P, "@compute 42");
  expect_error(&P, "expected 'fn', 'var' or 'override' after attributes, found integer literal '42'");
  parse_done(&P);

  parse_s(&P, "return 1;");
  expect_error(&P, "expected declaration, found 'return'");
  parse_done(&P);

  parse_s(&P, "@diagnostic(off) fn f() {}");
  expect_error(&P, "@diagnostic expects (severity, rule name)");
  parse_done(&P);

  parse_s(&P, "@ fn f() {}");
  expect_error(&P, "expected attribute name after '@', found 'fn'");
  parse_done(&P);
}

/* ---- Statements -------------------------------------------------------------- */

static void test_declaration_statements(void **state) {
  (void)state;
  parsed P;
  const ast_stmt *b = body_of(&P, "fn f() { var a: i32; var<function> b = 1; let c: f32 = 2.0; "
                                  "const d = 3; const_assert d == 3; ; }");
  assert_int_equal(b->u.block.n, 6);
  const ast_decl *a = b->u.block.stmts[0]->u.decl;
  assert_int_equal(a->kind, DECL_VAR);
  assert_string_equal(sxs(a->type), "i32");
  assert_null(a->init);
  assert_string_equal(b->u.block.stmts[1]->u.decl->space_name, "function");
  assert_int_equal(b->u.block.stmts[2]->u.decl->kind, DECL_LET);
  assert_string_equal(sxs(b->u.block.stmts[2]->u.decl->type), "f32");
  assert_int_equal(b->u.block.stmts[3]->u.decl->kind, DECL_CONST);
  assert_int_equal(b->u.block.stmts[4]->kind, ST_DECL);
  assert_int_equal(b->u.block.stmts[4]->u.decl->kind, DECL_CONST_ASSERT);
  assert_string_equal(sxs(b->u.block.stmts[4]->u.decl->init), "(== d 3)");
  assert_int_equal(b->u.block.stmts[5]->kind, ST_EMPTY);
  parse_done(&P);
}

static void test_assignment_statements(void **state) {
  (void)state;
  parsed P;
  const ast_stmt *b = body_of(&P, "fn f() { _ = g(); a.b[2] <<= 1; *p = 1; (*p).x = 2; a >>= 1; "
                                  "i--; j++; a %= 2; a ^= b; &x = y; g(1, 2,); "
                                  "vec2<f32>(1)[0] = 2; }");
  assert_int_equal(b->u.block.n, 12);
  const ast_stmt *const *s = (const ast_stmt *const *)b->u.block.stmts;
  assert_int_equal(s[0]->kind, ST_ASSIGN);
  assert_null(s[0]->u.assign.lhs);
  assert_int_equal(s[0]->u.assign.op, BIN_COUNT_);
  assert_string_equal(sxs(s[0]->u.assign.rhs), "g()");
  assert_int_equal(s[1]->u.assign.op, BIN_SHL);
  assert_string_equal(sxs(s[1]->u.assign.lhs), "([] (. a b) 2)");
  assert_string_equal(sxs(s[2]->u.assign.lhs), "(* p)");
  assert_string_equal(sxs(s[3]->u.assign.lhs), "(. (* p) x)");
  assert_int_equal(s[4]->u.assign.op, BIN_SHR);
  assert_int_equal(s[5]->kind, ST_INCDEC);
  assert_false(s[5]->u.incdec.inc);
  assert_string_equal(sxs(s[5]->u.incdec.lhs), "i");
  assert_true(s[6]->u.incdec.inc);
  assert_int_equal(s[7]->u.assign.op, BIN_MOD);
  assert_int_equal(s[8]->u.assign.op, BIN_XOR);
  assert_string_equal(sxs(s[9]->u.assign.lhs), "(& x)");
  assert_int_equal(s[10]->kind, ST_CALL);
  assert_string_equal(sxs(s[10]->u.call), "g(1,2)");
  assert_int_equal(s[11]->kind, ST_ASSIGN);
  assert_string_equal(sxs(s[11]->u.assign.lhs), "([] vec2<f32>(1) 0)");
  parse_done(&P);
}

static void test_control_statements(void **state) {
  (void)state;
  parsed P;
  const ast_stmt *b = body_of(&P, "fn f() { while i < 4 { continue; } { discard; } return; "
                                  "return a + 1; for (;;) { break; } "
                                  "for (i = 0; i < 4; i += 1) {} for (g(); ; h()) {} }");
  assert_int_equal(b->u.block.n, 7);
  const ast_stmt *const *s = (const ast_stmt *const *)b->u.block.stmts;
  assert_int_equal(s[0]->kind, ST_WHILE);
  assert_string_equal(sxs(s[0]->u.loop.cond), "(< i 4)");
  assert_int_equal(s[0]->u.loop.body->u.block.stmts[0]->kind, ST_CONTINUE);
  assert_int_equal(s[1]->kind, ST_BLOCK);
  assert_int_equal(s[1]->u.block.stmts[0]->kind, ST_DISCARD);
  assert_int_equal(s[2]->kind, ST_RETURN);
  assert_null(s[2]->u.expr);
  assert_string_equal(sxs(s[3]->u.expr), "(+ a 1)");
  assert_span(&P, s[3]->span, "return a + 1;");
  assert_int_equal(s[4]->kind, ST_FOR);
  assert_null(s[4]->u.loop.init);
  assert_null(s[4]->u.loop.cond);
  assert_null(s[4]->u.loop.update);
  assert_int_equal(s[4]->u.loop.body->u.block.stmts[0]->kind, ST_BREAK);
  assert_int_equal(s[5]->u.loop.init->kind, ST_ASSIGN);
  assert_int_equal(s[5]->u.loop.update->u.assign.op, BIN_ADD);
  assert_int_equal(s[6]->u.loop.init->kind, ST_CALL);
  assert_null(s[6]->u.loop.cond);
  assert_int_equal(s[6]->u.loop.update->kind, ST_CALL);
  assert_span(&P, s[6]->span, "for (g(); ; h()) {}");
  parse_done(&P);
}

static void test_if_chain(void **state) {
  (void)state;
  parsed P;
  const ast_stmt *b = body_of(&P, "fn f() { if a { x(); } else if b { y(); } else { z(); } "
                                  "if (c) {} else {} }");
  assert_int_equal(b->u.block.n, 2);
  const ast_stmt *i1 = b->u.block.stmts[0];
  assert_int_equal(i1->kind, ST_IF);
  assert_string_equal(sxs(i1->u.if_.cond), "a");
  const ast_stmt *i2 = i1->u.if_.else_;
  assert_non_null(i2);
  assert_int_equal(i2->kind, ST_IF);
  assert_string_equal(sxs(i2->u.if_.cond), "b");
  assert_int_equal(i2->u.if_.else_->kind, ST_BLOCK);
  assert_string_equal(sxs(i2->u.if_.else_->u.block.stmts[0]->u.call), "z()");
  assert_span(&P, i1->span, "if a { x(); } else if b { y(); } else { z(); }");
  assert_span(&P, i2->span, "if b { y(); } else { z(); }");
  assert_span(&P, i2->u.if_.then->span, "{ y(); }");
  const ast_stmt *i3 = b->u.block.stmts[1];
  assert_true(i3->u.if_.cond->parenthesized);
  assert_int_equal(i3->u.if_.else_->kind, ST_BLOCK);
  parse_done(&P);
}

static void test_switch(void **state) {
  (void)state;
  parsed P;
  const ast_stmt *b = body_of(&P, "fn f() { switch x { case 1, 2: { a(); } case 3 {} "
                                  "case 4, default, { } default: {} case 5, {} } }");
  const ast_stmt *s = b->u.block.stmts[0];
  assert_int_equal(s->kind, ST_SWITCH);
  assert_string_equal(sxs(s->u.switch_.selector), "x");
  assert_int_equal(s->u.switch_.ncases, 5);
  const ast_case *c = s->u.switch_.cases;
  assert_int_equal(c[0].nselectors, 2);
  assert_string_equal(sxs(c[0].selectors[1]), "2");
  assert_false(c[0].has_default);
  assert_int_equal(c[0].body->u.block.n, 1);
  assert_span(&P, c[0].span, "case 1, 2: { a(); }");
  assert_int_equal(c[1].nselectors, 1);
  assert_int_equal(c[2].nselectors, 2);
  assert_null(c[2].selectors[1]);
  assert_true(c[2].has_default);
  assert_int_equal(c[3].nselectors, 1);
  assert_null(c[3].selectors[0]);
  assert_true(c[3].has_default);
  assert_int_equal(c[4].nselectors, 1);
  parse_done(&P);

  parse_s(&P, "fn f() { switch x { } }");
  expect_error(&P, "switch statement must have at least one clause");
  parse_done(&P);
  parse_s(&P, "fn f() { switch x { case 1 {} x = 2; default {} } }");
  expect_error(&P, "expected 'case', 'default' or '}' in switch body, found identifier 'x'");
  assert_int_equal(P.d.errors, 1);
  parse_done(&P);
}

static void test_loop_continuing(void **state) {
  (void)state;
  parsed P;
  const ast_stmt *b = body_of(&P, "fn f() { loop { a(); continuing { i++; break if i > 3; } } "
                                  "loop { continuing { } } }");
  const ast_stmt *l = b->u.block.stmts[0];
  assert_int_equal(l->kind, ST_LOOP);
  assert_int_equal(l->u.loop.body->u.block.n, 1);
  const ast_stmt *c = l->u.loop.continuing;
  assert_non_null(c);
  assert_int_equal(c->kind, ST_BLOCK);
  assert_int_equal(c->u.block.n, 2);
  assert_int_equal(c->u.block.stmts[0]->kind, ST_INCDEC);
  const ast_stmt *bi = c->u.block.stmts[1];
  assert_int_equal(bi->kind, ST_BREAK_IF);
  assert_string_equal(sxs(bi->u.expr), "(> i 3)");
  assert_span(&P, bi->span, "break if i > 3;");
  assert_span(&P, c->span, "continuing { i++; break if i > 3; }");
  const ast_stmt *l2 = b->u.block.stmts[1];
  assert_int_equal(l2->u.loop.body->u.block.n, 0);
  assert_int_equal(l2->u.loop.continuing->u.block.n, 0);
  parse_done(&P);

  parse_s(&P, "fn f() { loop { break if x; } }");
  assert_int_equal(P.d.errors, 1);
  expect_error(&P, "'break if' is only allowed as the last statement of a continuing block");
  parse_done(&P);
  parse_s(&P, "fn f() { loop { continuing { break if x; a(); } } }");
  assert_int_equal(P.d.errors, 1);
  expect_error(&P, "'break if' must be the last statement of the continuing block");
  parse_done(&P);
  parse_s(&P, "fn f() { loop { continuing { } a(); } }");
  expect_error(&P, "expected '}' after continuing block, found identifier 'a'");
  parse_done(&P);
  parse_s(&P, "fn f() { if x { continuing { } } }");
  expect_error(&P, "expected statement, found 'continuing'");
  parse_done(&P);
}

static void test_statement_attributes(void **state) {
  (void)state;
  parsed P;
  const ast_stmt *b = body_of(&P, "fn f() @diagnostic(off, derivative_uniformity) { "
                                  "@diagnostic(off, x) { } "
                                  "@diagnostic(warning, a.b) if c { } "
                                  "loop @diagnostic(info, y) { break; } "
                                  "@diagnostic(off, p) switch s @diagnostic(off, q) { default {} } "
                                  "@diagnostic(off, w) while c { } "
                                  "@diagnostic(off, z) for (;;) { } }");
  assert_int_equal(b->nattrs, 1);
  assert_string_equal(b->attrs[0].name, "diagnostic");
  assert_string_equal(sxs(b->attrs[0].args[1]), "derivative_uniformity");
  const ast_stmt *const *s = (const ast_stmt *const *)b->u.block.stmts;
  assert_int_equal(b->u.block.n, 6);
  assert_int_equal(s[0]->kind, ST_BLOCK);
  assert_int_equal(s[0]->nattrs, 1);
  assert_span(&P, s[0]->span, "@diagnostic(off, x) { }");
  assert_int_equal(s[1]->kind, ST_IF);
  assert_int_equal(s[1]->nattrs, 1);
  assert_string_equal(sxs(s[1]->attrs[0].args[1]), "(. a b)");
  assert_int_equal(s[2]->nattrs, 0);
  assert_int_equal(s[2]->u.loop.body->nattrs, 1); /* on the loop body */
  assert_int_equal(s[3]->nattrs, 2);               /* statement and body attributes */
  assert_string_equal(sxs(s[3]->attrs[1].args[1]), "q");
  assert_int_equal(s[4]->nattrs, 1);
  assert_int_equal(s[5]->nattrs, 1);
  parse_done(&P);

  parse_s(&P, "fn f() { @diagnostic(off, x) let a = 1; a = 2; }");
  assert_int_equal(P.d.errors, 1);
  expect_error(&P, "attributes are not allowed on this statement");
  assert_int_equal(P.m->decls[0]->body->u.block.n, 2); /* both statements kept */
  parse_done(&P);
}

static void test_statement_errors(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "fn f() { (a + b) = c; *1 = 2; f<i32> += 1; }");
  assert_int_equal(P.d.errors, 3);
  expect_error(&P, "invalid left-hand side of assignment");
  assert_int_equal(P.m->decls[0]->body->u.block.n, 3);
  parse_done(&P);
  parse_s(&P, "fn f() { a + b = c; }");
  expect_error(&P, "expected '=', compound assignment, '++' or '--' after expression, found '+'");
  parse_done(&P);
  parse_s(&P, "fn f() { a; }");
  expect_error(&P, "expected '=', compound assignment, '++' or '--' after expression, found ';'");
  parse_done(&P);
  parse_s(&P, "fn f() { let a; }");
  expect_error(&P, "expected '=' in 'let' declaration, found ';'");
  parse_done(&P);
  parse_s(&P, "fn f() { 1 = 2; }");
  expect_error(&P, "expected statement, found integer literal '1'");
  parse_done(&P);
  parse_s(&P, "fn f() { f() g(); }");
  expect_error(&P, "expected ';' after statement, found identifier 'g'");
  parse_done(&P);
  parse_s(&P, "fn f() { for (var i = 0; i < 4) {} }");
  expect_error(&P, "expected ';' after for-loop condition, found ')'");
  parse_done(&P);
  parse_s(&P, "fn f() { let x = (1 + 2; }");
  expect_error(&P, "expected ')' to close parenthesized expression, found ';'");
  parse_done(&P);
  parse_s(&P, "fn f() { let x = a[1; }");
  expect_error(&P, "expected ']' to close index expression, found ';'");
  parse_done(&P);
  parse_s(&P, "fn f() { let x = a.(b); }");
  expect_error(&P, "expected member name after '.', found '('");
  parse_done(&P);
  parse_s(&P, "fn f() { let x = g(1 2); }");
  expect_error(&P, "expected ',' or ')' in argument list, found integer literal '2'");
  parse_done(&P);
  parse_s(&P, "fn f() {");
  expect_error(&P, "expected '}' to close block, found end of file");
  parse_done(&P);
}

/* ---- Expressions ------------------------------------------------------------- */

static void test_precedence(void **state) {
  (void)state;
  check_expr("a + b * c", "(+ a (* b c))");
  check_expr("a * b + c", "(+ (* a b) c)");
  check_expr("a - b - c", "(- (- a b) c)");
  check_expr("a / b % c * d", "(* (% (/ a b) c) d)");
  check_expr("-a * b", "(* (- a) b)");
  check_expr("a + b < c * d", "(< (+ a b) (* c d))");
  check_expr("a < b && c > d", "(&& (< a b) (> c d))");
  check_expr("a || b || c", "(|| (|| a b) c)");
  check_expr("a == b && c != d && e", "(&& (&& (== a b) (!= c d)) e)");
  check_expr("a & b & c", "(& (& a b) c)");
  check_expr("a | b", "(| a b)");
  check_expr("a ^ -b", "(^ a (- b))");
  check_expr("a << b", "(<< a b)");
  check_expr("a >> 2u < c", "(< (>> a 2u) c)");
  check_expr("a <= b", "(<= a b)");
  check_expr("a >= b", "(>= a b)");
  check_expr("!a.b[c]", "(! ([] (. a b) c))");
  check_expr("*p.x", "(* (. p x))");
  check_expr("(*p).x", "(. (* p) x)");
  check_expr("&a[0]", "(& ([] a 0))");
  check_expr("~~x", "(~ (~ x))");
  check_expr("- - x", "(- (- x))");
  check_expr("(a + b) * c", "(* (+ a b) c)");
  check_expr("(a & b) | c", "(| (& a b) c)");
  check_expr("(a < b) == (c < d)", "(== (< a b) (< c d))");
  check_expr("v.xyz.x", "(. (. v xyz) x)");
  check_expr("m[1][2]", "([] ([] m 1) 2)");
  check_expr("f(a, b,)", "f(a,b)");
  check_expr("vec3<f32>(1.0)", "vec3<f32>(1)");
  check_expr("array<f32, 4>()", "array<f32,4>()");
  check_expr("array(1, 2)", "array(1,2)");
  check_expr("ptr<function, i32>", "ptr<function,i32>");
  check_expr("array<vec4<f32>,2>", "array<vec4<f32>,2>");
  check_expr("bitcast<u32>(x) >> 1u", "(>> bitcast<u32>(x) 1u)");
  check_expr("select(a, b, x > y)", "select(a,b,(> x y))");
  check_expr("true && !false", "(&& true (! false))");
}

static void test_split_operators(void **state) {
  (void)state;
  /* the longest token valid here: `a--b` is a - (-b), `&&x` is &(&x) */
  check_expr("a--b", "(- a (- b))");
  check_expr("--a", "(- (- a))");
  check_expr("*&&x", "(* (& (& x)))");
  check_expr("a&&&b", "(&& a (& b))");
  check_expr_error("a++b", "expected expression, found '+'");
}

static void test_operator_mixing(void **state) {
  (void)state;
  /* from the operator after the first operand through the offending one,
   * as Dawn's compiler reports it */
  check_expr_error_span("a & b | c", "mixing '&' and '|'", 2, 7);
  check_expr_error_span("a * b + c << 1u", "mixing '+' and '<<'", 2, 12);
  check_expr_error_span("(a) ^ b * 2u", "mixing '^' and '*'", 4, 9);
  check_expr_error_span("a + b < c == d", "comparison operators cannot be chained", 2, 12);
  check_expr_error("a & b | c", "mixing '&' and '|' requires parentheses");
  check_expr_error("a | b ^ c", "mixing '|' and '^' requires parentheses");
  check_expr_error("a & b + c", "mixing '&' and '+' requires parentheses");
  check_expr_error("a + b & c", "mixing '+' and '&' requires parentheses");
  check_expr_error("a << b + c", "mixing '<<' and '+' requires parentheses");
  check_expr_error("a + b << c", "mixing '+' and '<<' requires parentheses");
  check_expr_error("a << b << c", "mixing '<<' and '<<' requires parentheses");
  check_expr_error("a < b < c", "comparison operators cannot be chained");
  check_expr_error("a == b != c", "comparison operators cannot be chained");
  check_expr_error("a && b || c", "mixing '&&' and '||' requires parentheses");
  check_expr_error("a || b && c", "mixing '||' and '&&' requires parentheses");
  check_expr_error("a || b & c", "mixing '||' and '&' requires parentheses");
  check_expr_error("a < b & c", "mixing '<' and '&' requires parentheses");

  /* the message covers the operators up to the offending one */
  parsed P;
  parse_s(&P, "const x = a & b | c;");
  assert_int_equal(P.d.errors, 1);
  assert_int_equal(P.d.items[0].span.start, 12);
  assert_int_equal(P.d.items[0].span.end, 17);
  assert_int_equal(P.m->ndecls, 1); /* the declaration is not lost */
  parse_done(&P);
}

static void test_literal_values(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "const a = 42u; const b = 0x1p-2f; const c = true; const d = 7; const e = 1.5h;");
  expect_no_errors(&P);
  const ast_expr *a = P.m->decls[0]->init;
  assert_int_equal(a->kind, EX_INT);
  assert_int_equal(a->u.ilit.value, 42);
  assert_int_equal(a->u.ilit.suffix, 'u');
  const ast_expr *b = P.m->decls[1]->init;
  assert_int_equal(b->kind, EX_FLOAT);
  assert_true(b->u.flit.value == 0.25);
  assert_int_equal(b->u.flit.suffix, 'f');
  assert_int_equal(P.m->decls[2]->init->kind, EX_BOOL);
  assert_true(P.m->decls[2]->init->u.blit);
  assert_int_equal(P.m->decls[3]->init->u.ilit.suffix, 0);
  assert_int_equal(P.m->decls[3]->init->u.ilit.value, 7);
  assert_int_equal(P.m->decls[4]->init->u.flit.suffix, 'h');
  assert_true(P.m->decls[4]->init->u.flit.value == 1.5);
  parse_done(&P);
}

static void test_expression_spans(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "const x = (a + b) * f(c, d).e[g];");
  expect_no_errors(&P);
  const ast_expr *e = P.m->decls[0]->init;
  assert_span(&P, e->span, "(a + b) * f(c, d).e[g]");
  assert_span(&P, e->u.binary.lhs->span, "(a + b)");
  const ast_expr *idx = e->u.binary.rhs;
  assert_span(&P, idx->span, "f(c, d).e[g]");
  const ast_expr *mem = idx->u.index.base;
  assert_span(&P, mem->span, "f(c, d).e");
  assert_span(&P, mem->u.member.name_span, "e");
  assert_span(&P, mem->u.member.base->span, "f(c, d)");
  assert_span(&P, mem->u.member.base->u.call.callee->span, "f");
  assert_span(&P, P.m->decls[0]->name_span, "x");
  parse_done(&P);

  parse_s(&P, "const y = -vec2<f32>(1.0, 2.0).x;");
  expect_no_errors(&P);
  assert_span(&P, P.m->decls[0]->init->span, "-vec2<f32>(1.0, 2.0).x");
  assert_span(&P, P.m->decls[0]->init->u.unary.operand->u.member.base->u.call.callee->span,
              "vec2<f32>");
  parse_done(&P);
}

/* ---- Errors, recovery and limits --------------------------------------------- */

static void test_error_message_and_position(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "fn f() {\n  let x = 1\n}\n");
  assert_int_equal(P.d.errors, 1);
  assert_string_equal(P.d.items[0].message, "expected ';' after statement, found '}'");
  uint32_t line, col;
  diag_line_col(P.src, P.len, P.d.items[0].span.start, &line, &col);
  assert_int_equal(line, 3);
  assert_int_equal(col, 1);
  assert_int_equal(P.d.items[0].span.end - P.d.items[0].span.start, 1);
  parse_done(&P);

  parse_s(&P, "fn f() {\n  var y = ;\n}\n");
  assert_int_equal(P.d.errors, 1);
  assert_string_equal(P.d.items[0].message, "expected expression, found ';'");
  diag_line_col(P.src, P.len, P.d.items[0].span.start, &line, &col);
  assert_int_equal(line, 2);
  assert_int_equal(col, 11);
  parse_done(&P);
}

static void test_recovery(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "fn f() {\n"
              "  let a = 1\n"       /* missing ';' */
              "  let b = 2;\n"
              "  c = ;\n"           /* missing expression */
              "  d(;\n"             /* bad call */
              "  let e = 5;\n"
              "}\n"
              "fn g(x: ) {}\n"      /* bad parameter */
              "struct S { a: }\n"   /* bad member */
              "const k = 3;\n");
  assert_int_equal(P.d.errors, 5);
  assert_string_equal(P.d.items[0].message, "expected ';' after statement, found 'let'");
  assert_string_equal(P.d.items[1].message, "expected expression, found ';'");
  assert_string_equal(P.d.items[2].message, "expected expression, found ';'");
  assert_string_equal(P.d.items[3].message, "expected type, found ')'");
  assert_string_equal(P.d.items[4].message, "expected type, found '}'");
  uint32_t line, col;
  diag_line_col(P.src, P.len, P.d.items[2].span.start, &line, &col);
  assert_int_equal(line, 5);
  /* the good parts survive */
  assert_int_equal(P.m->ndecls, 2);
  const ast_decl *f = P.m->decls[0];
  assert_string_equal(f->name, "f");
  assert_int_equal(f->body->u.block.n, 2); /* b and e */
  assert_string_equal(f->body->u.block.stmts[0]->u.decl->name, "b");
  assert_string_equal(f->body->u.block.stmts[1]->u.decl->name, "e");
  assert_string_equal(P.m->decls[1]->name, "k");
  parse_done(&P);
}

static void test_lexer_errors_reach_parser(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "const NULL = 1;\nconst b = 012;");
  assert_int_equal(P.d.errors, 2);
  expect_error(&P, "'NULL' is a reserved word");
  expect_error(&P, "leading zeros");
  parse_done(&P);
}

static char *repeat(const char *head, const char *unit, size_t n, const char *mid,
                    const char *unit2, size_t n2, const char *tail) {
  size_t len = strlen(head) + strlen(unit) * n + strlen(mid) + strlen(unit2) * n2 + strlen(tail);
  char *s = malloc(len + 1), *q = s;
  assert_non_null(s);
  q += sprintf(q, "%s", head);
  for (size_t i = 0; i < n; i++) q += sprintf(q, "%s", unit);
  q += sprintf(q, "%s", mid);
  for (size_t i = 0; i < n2; i++) q += sprintf(q, "%s", unit2);
  sprintf(q, "%s", tail);
  return s;
}

static void expect_single_error(const char *src, const char *text) {
  parsed P;
  parse_s(&P, src);
  if (P.d.errors != 1 || !find_error(&P.d, text))
    fail_msg("%zu errors, first '%s', want one with '%s'", P.d.errors,
             P.d.count ? P.d.items[0].message : "-", text);
  parse_done(&P);
}

static void test_deep_nesting(void **state) {
  (void)state;
  char *s = repeat("const x = ", "(", 100000, "1", ")", 100000, ";");
  expect_single_error(s, "nesting too deep");
  free(s);
  s = repeat("const x = ", "(", 100000, "", "", 0, "");
  expect_single_error(s, "nesting too deep");
  free(s);
  s = repeat("fn f() ", "{", 100000, "", "}", 100000, "");
  expect_single_error(s, "nesting too deep");
  free(s);
  s = repeat("alias t = ", "array<", 100000, "f32", ">", 100000, ";");
  expect_single_error(s, "nesting too deep");
  free(s);
  s = repeat("const x = a", "[a", 100000, "", "]", 100000, ";");
  expect_single_error(s, "nesting too deep");
  free(s);
  s = repeat("fn f() { if a {}", " else if a {}", 100000, "", "", 0, " }");
  expect_single_error(s, "nesting too deep");
  free(s);
  /* trees that are tall without brackets: long operator chains */
  s = repeat("const x = ", "-", 100000, "1", "", 0, ";");
  expect_single_error(s, "expression nesting too deep");
  free(s);
  s = repeat("const x = 1", " + 1", 100000, "", "", 0, ";");
  expect_single_error(s, "expression nesting too deep");
  free(s);
  s = repeat("const x = v", ".x", 100000, "", "", 0, ";");
  expect_single_error(s, "expression nesting too deep");
  free(s);

  /* within the limits all is well */
  s = repeat("const x = ", "(", PARSE_MAX_DEPTH - 1, "1", ")", PARSE_MAX_DEPTH - 1, ";");
  parsed P;
  parse_s(&P, s);
  expect_no_errors(&P);
  parse_done(&P);
  free(s);
  s = repeat("fn f() ", "{", PARSE_MAX_DEPTH - 1, "", "}", PARSE_MAX_DEPTH - 1, "");
  parse_s(&P, s);
  expect_no_errors(&P);
  parse_done(&P);
  free(s);
  s = repeat("const x = 1", " + 1", PARSE_MAX_EXPR_HEIGHT - 1, "", "", 0, ";");
  parse_s(&P, s);
  expect_no_errors(&P);
  parse_done(&P);
  free(s);
}

static void test_garbage_terminates(void **state) {
  (void)state;
  /* every loop must move on: unbalanced and random token soup */
  static const char *const srcs[] = {
      "}}}}))))]]]]>>>>",
      "fn fn fn ( ( ( { { {",
      "fn f() { switch { case case default : : } } }",
      "fn f() { loop { continuing { continuing { break if } } }",
      "struct { @ @ @ } var < < < > > > ; ; ;",
      "fn f() { for (for (;;) {}) {} else else } if",
      "@diagnostic(,) @@ fn f() -> -> {}",
      "const x = f(a, b, c, (d, e[f, g]), h;",
      "enable ; requires , ; diagnostic ( ) ;",
  };
  for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
    parsed P;
    parse_s(&P, srcs[i]);
    if (P.d.errors == 0) fail_msg("no error for '%s'", srcs[i]);
    parse_done(&P);
  }
  /* many errors: the list caps what it stores, parsing still finishes */
  char *s = repeat("fn f() {", "x = = ;", 5000, "", "", 0, "}");
  parsed P;
  parse_s(&P, s);
  assert_int_equal(P.d.errors, 5000);
  assert_int_equal(P.d.count, 100);
  parse_done(&P);
  free(s);
}

static void test_out_of_memory(void **state) {
  (void)state;
  for (size_t limit = 1024; limit <= 65536 * 4; limit *= 2) {
    arena a;
    diag_list d;
    arena_init(&a, limit);
    diag_init(&d);
    ast_module *m = parse_module(shader, strlen(shader), &a, &d);
    /* small arenas fail cleanly; a large enough one succeeds */
    if (m) assert_false(arena_failed(&a));
    else assert_true(arena_failed(&a));
    if (limit == 65536 * 4) assert_non_null(m);
    diag_free(&d);
    arena_free(&a);
  }
}

/* The child visitor (ast.h): a pre-order walk that records each statement's
 * kind and each expression's source text must meet every child of every
 * statement kind, in source order, and no type expression (template
 * arguments, callees). The expected order is read off the source below. */
typedef struct visit_log {
  const parsed *P;
  char buf[2048];
  size_t n;
} visit_log;

static void log_put(visit_log *L, const char *s, size_t k) {
  if (L->n + k + 2 >= sizeof L->buf) fail_msg("visit log overflow");
  memcpy(L->buf + L->n, s, k);
  L->n += k;
  L->buf[L->n++] = '|';
  L->buf[L->n] = 0;
}

static void log_stmt(void *ctx, ast_stmt *s);
static void log_expr(void *ctx, ast_expr *e);
static const ast_visitor log_walk = {log_stmt, log_expr};

static void log_stmt(void *ctx, ast_stmt *s) {
  static const char *const names[] = {"BLOCK", "DECL", "ASSIGN", "INCDEC", "CALL", "IF",
                                      "SWITCH", "LOOP", "FOR", "WHILE", "BREAK", "BREAK_IF",
                                      "CONTINUE", "RETURN", "DISCARD", "EMPTY"};
  assert_true((size_t)s->kind < sizeof names / sizeof names[0]);
  log_put(ctx, names[s->kind], strlen(names[s->kind]));
  ast_stmt_children(s, &log_walk, ctx);
}

static void log_expr(void *ctx, ast_expr *e) {
  visit_log *L = ctx;
  log_put(L, L->P->src + e->span.start, e->span.end - e->span.start);
  ast_expr_children(e, &log_walk, ctx);
}

static void test_child_visitor(void **state) {
  (void)state;
  parsed P;
  parse_s(&P, "fn f() {\n"
              "  var a = 1 + 2;\n"
              "  _ = a;\n"
              "  a = a * 3;\n"
              "  a++;\n"
              "  g(a, 4);\n"
              "  let b = -v[1].y;\n"
              "  let c = vec2<f32>(1.0);\n"
              "  if a > 0 { return a; } else { discard; }\n"
              "  switch a { case 1 { break; } default { } }\n"
              "  for (var i = 0; i < 4; i++) { continue; }\n"
              "  while a < 9 { a += 1; }\n"
              "  loop { continuing { break if a == 0; } }\n"
              "  ;\n"
              "}\n");
  expect_no_errors(&P);
  assert_int_equal(P.m->ndecls, 1);
  ast_stmt *body = P.m->decls[0]->body;
  assert_non_null(body);
  visit_log L = {&P, {0}, 0};
  ast_stmt_children(body, &log_walk, &L);
  assert_string_equal(L.buf,
                      "DECL|1 + 2|1|2|"
                      "ASSIGN|a|"
                      "ASSIGN|a|a * 3|a|3|"
                      "INCDEC|a|"
                      "CALL|g(a, 4)|a|4|"
                      "DECL|-v[1].y|v[1].y|v[1]|v|1|"
                      "DECL|vec2<f32>(1.0)|1.0|"
                      "IF|a > 0|a|0|BLOCK|RETURN|a|BLOCK|DISCARD|"
                      "SWITCH|a|BLOCK|BREAK|BLOCK|"
                      "FOR|DECL|0|i < 4|i|4|INCDEC|i|BLOCK|CONTINUE|"
                      "WHILE|a < 9|a|9|BLOCK|ASSIGN|a|1|"
                      "LOOP|BLOCK|BLOCK|BREAK_IF|a == 0|a|0|"
                      "EMPTY|");
  /* an absent callback is skipped: the if's condition is not met (its
   * branches' children are, through log_walk) */
  const ast_visitor stmts_only = {log_stmt, NULL};
  L.n = 0;
  L.buf[0] = 0;
  ast_stmt_children(body->u.block.stmts[7], &stmts_only, &L); /* the if */
  assert_string_equal(L.buf, "BLOCK|RETURN|a|BLOCK|DISCARD|");
  parse_done(&P);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_realistic_shader),
      cmocka_unit_test(test_directives),
      cmocka_unit_test(test_global_decls),
      cmocka_unit_test(test_module_errors),
      cmocka_unit_test(test_declaration_statements),
      cmocka_unit_test(test_assignment_statements),
      cmocka_unit_test(test_control_statements),
      cmocka_unit_test(test_if_chain),
      cmocka_unit_test(test_switch),
      cmocka_unit_test(test_loop_continuing),
      cmocka_unit_test(test_statement_attributes),
      cmocka_unit_test(test_statement_errors),
      cmocka_unit_test(test_precedence),
      cmocka_unit_test(test_split_operators),
      cmocka_unit_test(test_operator_mixing),
      cmocka_unit_test(test_literal_values),
      cmocka_unit_test(test_expression_spans),
      cmocka_unit_test(test_error_message_and_position),
      cmocka_unit_test(test_recovery),
      cmocka_unit_test(test_lexer_errors_reach_parser),
      cmocka_unit_test(test_deep_nesting),
      cmocka_unit_test(test_garbage_terminates),
      cmocka_unit_test(test_out_of_memory),
      cmocka_unit_test(test_child_visitor),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
