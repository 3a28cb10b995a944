/*
 * test_lex.c — unit tests for the WGSL lexer (src/wgsl/lex.c): tokens,
 * literal forms and values, comments, blankspace, reserved words, bad input
 * and template-list discovery.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wgsl/lex.h"

typedef struct lexed {
  const char *src;
  size_t len;
  arena a;
  diag_list d;
  token *t;
  size_t n;
} lexed;

static void lex_n(lexed *L, const char *src, size_t len) {
  L->src = src;
  L->len = len;
  arena_init(&L->a, 0);
  diag_init(&L->d);
  L->t = lex_tokenize(src, len, &L->a, &L->d, &L->n);
  assert_non_null(L->t);
  assert_true(L->n >= 1);
  assert_int_equal(L->t[L->n - 1].kind, TK_EOF);
}

static void lex_s(lexed *L, const char *src) { lex_n(L, src, strlen(src)); }

static void lex_done(lexed *L) {
  diag_free(&L->d);
  arena_free(&L->a);
}

/* Kinds of all tokens but the final EOF, compared with the list. */
static void expect_kinds(const lexed *L, int n, ...) {
  va_list ap;
  va_start(ap, n);
  assert_int_equal(L->n - 1, (size_t)n);
  for (int i = 0; i < n; i++) {
    int k = va_arg(ap, int);
    if ((int)L->t[i].kind != k)
      fail_msg("token %d: got %s (kind %d), want kind %d", i, lex_token_name(L->t[i].kind),
               L->t[i].kind, k);
  }
  va_end(ap);
}

static int has_error(const diag_list *d, const char *text) {
  for (size_t i = 0; i < d->count; i++)
    if (strstr(d->items[i].message, text)) return 1;
  return 0;
}

static const diag *find_error(const diag_list *d, const char *text) {
  for (size_t i = 0; i < d->count; i++)
    if (strstr(d->items[i].message, text)) return &d->items[i];
  return NULL;
}

static void expect_text(const lexed *L, size_t i, const char *text) {
  size_t n = L->t[i].span.end - L->t[i].span.start;
  assert_int_equal(n, strlen(text));
  assert_memory_equal(L->src + L->t[i].span.start, text, n);
}

/* ---- Tokens ---------------------------------------------------------------- */

static void test_token_names(void **state) {
  (void)state;
  assert_string_equal(lex_token_name(TK_ARROW), "'->'");
  assert_string_equal(lex_token_name(TK_EOF), "end of file");
  assert_string_equal(lex_token_name(TK_KW_CONST_ASSERT), "'const_assert'");
  assert_string_equal(lex_token_name(TK_SHR_EQ), "'>>='");
}

static void test_empty_source(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "  \t\r\n  // only a comment");
  expect_kinds(&L, 0);
  assert_int_equal(L.d.errors, 0);
  assert_int_equal(L.t[0].span.start, L.len);
  lex_done(&L);
}

static void test_punctuation_maximal_munch(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "&& & &= || | |= -> -- -= - ++ += + *= * /= / %= % ^= ^ != ! == = "
            "@ [ ] { } : , . ( ) ;");
  expect_kinds(&L, 36, TK_AND_AND, TK_AND, TK_AND_EQ, TK_OR_OR, TK_OR, TK_OR_EQ, TK_ARROW,
               TK_MINUS_MINUS, TK_MINUS_EQ, TK_MINUS, TK_PLUS_PLUS, TK_PLUS_EQ, TK_PLUS,
               TK_STAR_EQ, TK_STAR, TK_SLASH_EQ, TK_SLASH, TK_PERCENT_EQ, TK_PERCENT, TK_XOR_EQ,
               TK_XOR, TK_NE, TK_BANG, TK_EQ_EQ, TK_EQ, TK_AT, TK_LBRACKET, TK_RBRACKET,
               TK_LBRACE, TK_RBRACE, TK_COLON, TK_COMMA, TK_DOT, TK_LPAREN, TK_RPAREN, TK_SEMI);
  lex_done(&L);
  /* '~' and '_' did not fit above */
  lex_s(&L, "~ _");
  expect_kinds(&L, 2, TK_TILDE, TK_UNDERSCORE);
  lex_done(&L);
  /* comparison and shift operators outside any template list */
  lex_s(&L, "1 >>= 2 >> 3 >= 4 > 5 <<= 6 << 7 <= 8 < 9");
  expect_kinds(&L, 17, TK_INT, TK_SHR_EQ, TK_INT, TK_SHR, TK_INT, TK_GE, TK_INT, TK_GT, TK_INT,
               TK_SHL_EQ, TK_INT, TK_SHL, TK_INT, TK_LE, TK_INT, TK_LT, TK_INT);
  assert_int_equal(L.d.errors, 0);
  lex_done(&L);
}

static void test_keywords_and_identifiers(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "alias break case const const_assert continue continuing default diagnostic "
            "discard else enable false fn for if let loop override requires return struct "
            "switch true var while");
  expect_kinds(&L, 26, TK_KW_ALIAS, TK_KW_BREAK, TK_KW_CASE, TK_KW_CONST, TK_KW_CONST_ASSERT,
               TK_KW_CONTINUE, TK_KW_CONTINUING, TK_KW_DEFAULT, TK_KW_DIAGNOSTIC, TK_KW_DISCARD,
               TK_KW_ELSE, TK_KW_ENABLE, TK_KW_FALSE, TK_KW_FN, TK_KW_FOR, TK_KW_IF, TK_KW_LET,
               TK_KW_LOOP, TK_KW_OVERRIDE, TK_KW_REQUIRES, TK_KW_RETURN, TK_KW_STRUCT,
               TK_KW_SWITCH, TK_KW_TRUE, TK_KW_VAR, TK_KW_WHILE);
  lex_done(&L);
  /* near misses of keywords are identifiers; '_x' and 'x_1' are fine */
  lex_s(&L, "fns lets _x x_1 Const iff vec3u _0");
  expect_kinds(&L, 8, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT,
               TK_IDENT);
  assert_int_equal(L.d.errors, 0);
  expect_text(&L, 3, "x_1");
  lex_done(&L);
}

static void test_unicode_identifiers(void **state) {
  (void)state;
  lexed L;
  /* Δέλτα, réflexion, 朝焼け, 𐰓𐰏𐰇 */
  lex_s(&L, "\xCE\x94\xCE\xAD\xCE\xBB\xCF\x84\xCE\xB1 r\xC3\xA9" "flexion "
            "\xE6\x9C\x9D\xE7\x84\xBC\xE3\x81\x91 \xF0\x90\xB0\x93\xF0\x90\xB0\x8F\xF0\x90\xB0\x87");
  expect_kinds(&L, 4, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT);
  assert_int_equal(L.d.errors, 0);
  expect_text(&L, 1, "r\xC3\xA9" "flexion");
  assert_int_equal(L.t[0].span.start, 0);
  assert_int_equal(L.t[0].span.end, 10);
  lex_done(&L);
}

static void test_blankspace(void **state) {
  (void)state;
  lexed L;
  /* all of Pattern_White_Space separates tokens, including U+0085, U+200E,
   * U+200F, U+2028 and U+2029 */
  lex_s(&L, "a\tb\vc\fd\re\nf\xC2\x85g\xE2\x80\x8Eh\xE2\x80\x8Fi\xE2\x80\xA8j\xE2\x80\xA9k");
  expect_kinds(&L, 11, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT,
               TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT);
  assert_int_equal(L.d.errors, 0);
  expect_text(&L, 6, "g");
  lex_done(&L);
}

/* ---- Comments -------------------------------------------------------------- */

static void test_comments(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "a // line comment ( { \n b /* block /* nested */ still comment */ c/**/d\n"
            "// comment at the end");
  expect_kinds(&L, 4, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT);
  expect_text(&L, 1, "b");
  expect_text(&L, 2, "c");
  expect_text(&L, 3, "d");
  assert_int_equal(L.d.errors, 0);
  lex_done(&L);
  /* a line comment ends at any line break, U+2028 included */
  lex_s(&L, "a // x\rb // y\xE2\x80\xA8" "c // z\xC2\x85" "d");
  expect_kinds(&L, 4, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT);
  lex_done(&L);
  /* '/' next to a comment stays a division */
  lex_s(&L, "a / /*x*/ b /= c");
  expect_kinds(&L, 5, TK_IDENT, TK_SLASH, TK_IDENT, TK_SLASH_EQ, TK_IDENT);
  lex_done(&L);
}

static void test_unterminated_comment(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "a /* outer /* inner */ still open\n b");
  expect_kinds(&L, 1, TK_IDENT);
  assert_int_equal(L.d.errors, 1);
  const diag *g = find_error(&L.d, "unterminated block comment");
  assert_non_null(g);
  assert_int_equal(g->span.start, 2); /* at the comment's start */
  assert_int_equal(g->span.end, 4);
  lex_done(&L);
}

/* ---- Literals -------------------------------------------------------------- */

typedef struct int_case {
  const char *text;
  uint64_t value;
  char suffix;
} int_case;

static void test_int_literals(void **state) {
  (void)state;
  static const int_case cases[] = {
      {"0", 0, 0},
      {"123", 123, 0},
      {"1u", 1, 'u'},
      {"0i", 0, 'i'},
      {"0u", 0, 'u'},
      {"0x123", 0x123, 0},
      {"0X123u", 0x123, 'u'},
      {"0x3f", 0x3f, 0},
      {"0xABCDEFi", 0xABCDEF, 'i'},
      {"2147483647i", 2147483647u, 'i'},
      {"4294967295u", 4294967295u, 'u'},
      {"0xFFFFFFFFu", 0xFFFFFFFFu, 'u'},
      {"9223372036854775807", 9223372036854775807ull, 0},
      {"0x7fffffffffffffff", 0x7fffffffffffffffull, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    lexed L;
    lex_s(&L, cases[i].text);
    if (L.n != 2 || L.t[0].kind != TK_INT || L.d.errors)
      fail_msg("'%s' did not lex as one integer literal", cases[i].text);
    uint64_t v = 1;
    char suffix = 'x';
    assert_null(lex_int_value(cases[i].text, strlen(cases[i].text), &v, &suffix));
    if (v != cases[i].value || suffix != cases[i].suffix)
      fail_msg("'%s': value %llu suffix %d", cases[i].text, (unsigned long long)v, suffix);
    lex_done(&L);
  }
}

typedef struct float_case {
  const char *text;
  double value;
  char suffix;
} float_case;

static void test_float_literals(void **state) {
  (void)state;
  static const float_case cases[] = {
      /* decimal forms from the spec's examples */
      {"0.e+4f", 0.0, 'f'},
      {"01.", 1.0, 0},
      {".01", 0.01, 0},
      {"12.34", 12.34, 0},
      {".0f", 0.0, 'f'},
      {"0h", 0.0, 'h'},
      {"1e-3", 1e-3, 0},
      {"1.", 1.0, 0},
      {".5", 0.5, 0},
      {"1e3", 1000.0, 0},
      {"1E3", 1000.0, 0},
      {"1.5e-3f", (double)1.5e-3f, 'f'},
      {"1f", 1.0, 'f'},
      {"0f", 0.0, 'f'},
      {"2.5h", 2.5, 'h'},
      {"0.1f", (double)0.1f, 'f'},
      {"0.1", 0.1, 0},
      {"00.5", 0.5, 0},
      {"1.7976931348623157e308", 1.7976931348623157e308, 0},
      /* past 20 significant digits the rest reads as zeros */
      {"0.1000000000000000000000000000000000000000009", 0.1, 0},
      {"12345678901234567890123e-3", 12345678901234567890.0, 0},
      /* hexadecimal forms from the spec's examples */
      {"0xa.fp+2", 43.75, 0},
      {"0x1P+4f", 16.0, 'f'},
      {"0X.3", 0.1875, 0},
      {"0x3p+2h", 12.0, 'h'},
      {"0X1.fp-4", 0.12109375, 0},
      {"0x3.2p+2h", 12.5, 'h'},
      {"0x1p4", 16.0, 0},
      {"0x1.8p-3f", 0.1875, 'f'},
      {"0x1.", 1.0, 0},
      {"0x1.f", 1.9375, 0}, /* no exponent: 'f' is a digit */
      {"0x1p-149f", 0x1p-149, 'f'},
      {"0x1.fffffffffffffp1023", 0x1.fffffffffffffp1023, 0},
      {"0x1p-1074", 0x1p-1074, 0},
      {"0x1.00000000000008p0", 1.0, 0},        /* a tie rounds to even */
      {"0x1.00000000000018p0", 0x1.0000000000002p0, 0},
      {"0x0.0000000000001p-1022", 0x1p-1074, 0}, /* smallest subnormal */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    lexed L;
    lex_s(&L, cases[i].text);
    if (L.n != 2 || L.t[0].kind != TK_FLOAT || L.d.errors)
      fail_msg("'%s' did not lex as one float literal (%zu tokens, %zu errors: %s)",
               cases[i].text, L.n, L.d.errors, L.d.count ? L.d.items[0].message : "");
    double v = -1;
    char suffix = 'x';
    assert_null(lex_float_value(cases[i].text, strlen(cases[i].text), &v, &suffix));
    if (v != cases[i].value || suffix != cases[i].suffix)
      fail_msg("'%s': value %a (want %a) suffix %d", cases[i].text, v, cases[i].value, suffix);
    lex_done(&L);
  }
}

typedef struct bad_case {
  const char *text;
  const char *message;
} bad_case;

static void test_literal_errors(void **state) {
  (void)state;
  static const bad_case cases[] = {
      {"012", "leading zeros"},
      {"00", "leading zeros"},
      {"01f", "leading zeros"},
      {"2147483648i", "does not fit in i32"},
      {"0x80000000i", "does not fit in i32"},
      {"4294967296u", "does not fit in u32"},
      {"9223372036854775808", "64-bit AbstractInt"},
      {"18446744073709551616", "too large"},
      {"0x10000000000000000", "too large"},
      {"1e", "exponent digits"},
      {"1e+f", "exponent digits"},
      {"0x", "hexadecimal digits"},
      {"0x1p", "exponent digits"},
      {"12abc", "invalid numeric literal"},
      {"1.0i", "invalid numeric literal"},
      {"1uu", "invalid numeric literal"},
      {"1e999", "out of range"},
      {"1e39f", "out of range for f32"},
      {"65520.0h", "out of range for f16"},
      {"0x1p128f", "out of range for f32"},
      {"0x1p1024", "out of range"},
      {"0x1p16h", "out of range for f16"},
      {"0x1.00000001p0f", "exactly represented in f32"},
      {"0x1p-150f", "exactly represented in f32"},
      {"0x1.001p0h", "exactly represented in f16"},
      {"0x1.00000000000000001p0f", "exactly represented in f32"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    lexed L;
    lex_s(&L, cases[i].text);
    if (L.d.errors != 1 || !has_error(&L.d, cases[i].message))
      fail_msg("'%s': %zu errors, first '%s', want '%s'", cases[i].text, L.d.errors,
               L.d.count ? L.d.items[0].message : "", cases[i].message);
    /* one token covering the whole bad literal */
    assert_int_equal(L.n, 2);
    assert_int_equal(L.d.items[0].span.start, 0);
    lex_done(&L);
  }
}

static void test_literal_boundaries(void **state) {
  (void)state;
  lexed L;
  /* where a literal ends next to dots and operators */
  lex_s(&L, "v.x 1.5.x a[1]-2 .5+.5 0x1p4-1");
  expect_kinds(&L, 18, TK_IDENT, TK_DOT, TK_IDENT, TK_FLOAT, TK_DOT, TK_IDENT, TK_IDENT,
               TK_LBRACKET, TK_INT, TK_RBRACKET, TK_MINUS, TK_INT, TK_FLOAT, TK_PLUS, TK_FLOAT,
               TK_FLOAT, TK_MINUS, TK_INT);
  lex_done(&L);
}

/* ---- Bad input ------------------------------------------------------------- */

static void test_reserved_words(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "let NULL = 1; var yield: i32; fn Self() {} const asm_fragment = 2; let ok = 3;");
  assert_int_equal(L.d.errors, 4);
  assert_true(has_error(&L.d, "'NULL' is a reserved word"));
  assert_true(has_error(&L.d, "'yield' is a reserved word"));
  assert_true(has_error(&L.d, "'Self' is a reserved word"));
  assert_true(has_error(&L.d, "'asm_fragment' is a reserved word"));
  const diag *g = find_error(&L.d, "'yield'");
  assert_int_equal(g->span.start, 18);
  assert_int_equal(g->span.end, 23);
  /* the words still become identifier tokens so parsing can go on */
  assert_int_equal(L.t[1].kind, TK_IDENT);
  lex_done(&L);
  /* words that merely contain a reserved word are fine */
  lex_s(&L, "nulls Selfie yields asm_ mod1");
  assert_int_equal(L.d.errors, 0);
  lex_done(&L);
}

static void test_underscores(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "_ __x _y");
  expect_kinds(&L, 3, TK_UNDERSCORE, TK_IDENT, TK_IDENT);
  assert_int_equal(L.d.errors, 1);
  const diag *g = find_error(&L.d, "must not start with '__'");
  assert_non_null(g);
  assert_int_equal(g->span.start, 2);
  lex_done(&L);
}

static void test_bad_characters(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "a $ b # c ? \"d\"");
  assert_int_equal(L.d.errors, 5);
  expect_kinds(&L, 4, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT);
  const diag *g = find_error(&L.d, "unexpected character '$'");
  assert_non_null(g);
  assert_int_equal(g->span.start, 2);
  assert_int_equal(g->span.end, 3);
  assert_true(has_error(&L.d, "unexpected character '#'"));
  lex_done(&L);
  lex_s(&L, "\xEF\xBB\xBF" "fn");
  assert_int_equal(L.d.errors, 1);
  assert_true(has_error(&L.d, "byte order mark"));
  expect_kinds(&L, 1, TK_KW_FN);
  lex_done(&L);
  static const char nul[] = "a\0b";
  lex_n(&L, nul, 3);
  assert_int_equal(L.d.errors, 1);
  assert_true(has_error(&L.d, "null character"));
  expect_kinds(&L, 2, TK_IDENT, TK_IDENT);
  lex_done(&L);
}

static void test_invalid_utf8(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "a \xFF b");
  assert_int_equal(L.d.errors, 1);
  assert_true(has_error(&L.d, "invalid UTF-8 byte 0xFF at offset 2"));
  assert_int_equal(L.d.items[0].span.start, 2);
  expect_kinds(&L, 2, TK_IDENT, TK_IDENT);
  lex_done(&L);
  /* inside a comment, inside an identifier, overlong, surrogate, truncated */
  lex_s(&L, "// \xC3\x28\n");
  assert_int_equal(L.d.errors, 1);
  assert_true(has_error(&L.d, "offset 3"));
  lex_done(&L);
  lex_s(&L, "ab\x80" "cd");
  assert_int_equal(L.d.errors, 1);
  assert_true(has_error(&L.d, "offset 2"));
  lex_done(&L);
  lex_s(&L, "\xC0\xAF");
  assert_int_equal(L.d.errors, 2);
  lex_done(&L);
  lex_s(&L, "x \xED\xA0\x80");
  assert_true(L.d.errors >= 1);
  assert_true(has_error(&L.d, "byte 0xED at offset 2"));
  lex_done(&L);
  lex_s(&L, "/* \xE2\x82 */ x \xF0\x9F\x98");
  assert_true(has_error(&L.d, "offset 3"));
  assert_true(has_error(&L.d, "offset 11"));
  lex_done(&L);
}

/* ---- Template lists -------------------------------------------------------- */

static void test_template_simple(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "array<f32, 4>");
  expect_kinds(&L, 6, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_COMMA, TK_INT, TK_TEMPLATE_END);
  lex_done(&L);
  lex_s(&L, "vec3<f32>(1.0)");
  expect_kinds(&L, 7, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_END, TK_LPAREN,
               TK_FLOAT, TK_RPAREN);
  lex_done(&L);
  lex_s(&L, "var<storage, read_write> x");
  expect_kinds(&L, 7, TK_KW_VAR, TK_TEMPLATE_START, TK_IDENT, TK_COMMA, TK_IDENT,
               TK_TEMPLATE_END, TK_IDENT);
  lex_done(&L);
}

static void test_template_comparisons(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "a < b && c > d");
  expect_kinds(&L, 7, TK_IDENT, TK_LT, TK_IDENT, TK_AND_AND, TK_IDENT, TK_GT, TK_IDENT);
  lex_done(&L);
  lex_s(&L, "a<b || c>d");
  expect_kinds(&L, 7, TK_IDENT, TK_LT, TK_IDENT, TK_OR_OR, TK_IDENT, TK_GT, TK_IDENT);
  lex_done(&L);
  /* ';' and '{' end any candidate */
  lex_s(&L, "i < n; x > y");
  expect_kinds(&L, 7, TK_IDENT, TK_LT, TK_IDENT, TK_SEMI, TK_IDENT, TK_GT, TK_IDENT);
  lex_done(&L);
  lex_s(&L, "if a < b { c > d }");
  expect_kinds(&L, 9, TK_KW_IF, TK_IDENT, TK_LT, TK_IDENT, TK_LBRACE, TK_IDENT, TK_GT,
               TK_IDENT, TK_RBRACE);
  lex_done(&L);
  /* a literal before '<' never starts a template list */
  lex_s(&L, "1 < 2 > 3");
  expect_kinds(&L, 5, TK_INT, TK_LT, TK_INT, TK_GT, TK_INT);
  lex_done(&L);
  /* both ends must be in the same indexing expression */
  lex_s(&L, "a[b<d]>()");
  expect_kinds(&L, 9, TK_IDENT, TK_LBRACKET, TK_IDENT, TK_LT, TK_IDENT, TK_RBRACKET, TK_GT,
               TK_LPAREN, TK_RPAREN);
  lex_done(&L);
}

static void test_template_spec_examples(void **state) {
  (void)state;
  lexed L;
  /* `a<b>c` reads as a template list, as the spec decides */
  lex_s(&L, "a<b>c");
  expect_kinds(&L, 5, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_END, TK_IDENT);
  lex_done(&L);
  lex_s(&L, "A ( B < C, D > ( E ) )");
  expect_kinds(&L, 12, TK_IDENT, TK_LPAREN, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_COMMA,
               TK_IDENT, TK_TEMPLATE_END, TK_LPAREN, TK_IDENT, TK_RPAREN, TK_RPAREN);
  lex_done(&L);
  lex_s(&L, "array<i32,select(2,3,a>b)>");
  expect_kinds(&L, 15, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_COMMA, TK_IDENT, TK_LPAREN,
               TK_INT, TK_COMMA, TK_INT, TK_COMMA, TK_IDENT, TK_GT, TK_IDENT, TK_RPAREN,
               TK_TEMPLATE_END);
  lex_done(&L);
  lex_s(&L, "A<B<<C>");
  expect_kinds(&L, 6, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_SHL, TK_IDENT, TK_TEMPLATE_END);
  lex_done(&L);
  lex_s(&L, "A<B<=C>");
  expect_kinds(&L, 6, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_LE, TK_IDENT, TK_TEMPLATE_END);
  lex_done(&L);
  lex_s(&L, "A<(B>=C)>");
  expect_kinds(&L, 8, TK_IDENT, TK_TEMPLATE_START, TK_LPAREN, TK_IDENT, TK_GE, TK_IDENT,
               TK_RPAREN, TK_TEMPLATE_END);
  lex_done(&L);
  lex_s(&L, "A<(B!=C)>");
  expect_kinds(&L, 8, TK_IDENT, TK_TEMPLATE_START, TK_LPAREN, TK_IDENT, TK_NE, TK_IDENT,
               TK_RPAREN, TK_TEMPLATE_END);
  lex_done(&L);
  lex_s(&L, "A<(B==C)>");
  expect_kinds(&L, 8, TK_IDENT, TK_TEMPLATE_START, TK_LPAREN, TK_IDENT, TK_EQ_EQ, TK_IDENT,
               TK_RPAREN, TK_TEMPLATE_END);
  lex_done(&L);
  /* an assignment ends any candidate */
  lex_s(&L, "a<b; c = d>e");
  expect_kinds(&L, 9, TK_IDENT, TK_LT, TK_IDENT, TK_SEMI, TK_IDENT, TK_EQ, TK_IDENT, TK_GT,
               TK_IDENT);
  lex_done(&L);
  lex_s(&L, "x<y += z>w");
  expect_kinds(&L, 7, TK_IDENT, TK_LT, TK_IDENT, TK_PLUS_EQ, TK_IDENT, TK_GT, TK_IDENT);
  lex_done(&L);
}

static void test_template_split_tokens(void **state) {
  (void)state;
  lexed L;
  lex_s(&L, "array<vec4<f32>,2>");
  expect_kinds(&L, 9, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_START, TK_IDENT,
               TK_TEMPLATE_END, TK_COMMA, TK_INT, TK_TEMPLATE_END);
  lex_done(&L);
  /* '>>' closing two lists is split into two template ends */
  lex_s(&L, "array<vec4<f32>>");
  expect_kinds(&L, 7, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_START, TK_IDENT,
               TK_TEMPLATE_END, TK_TEMPLATE_END);
  assert_int_equal(L.t[5].span.start, 14);
  assert_int_equal(L.t[5].span.end, 15);
  assert_int_equal(L.t[6].span.start, 15);
  assert_int_equal(L.t[6].span.end, 16);
  lex_done(&L);
  /* '>>' closing one list: a template end, then a '>' */
  lex_s(&L, "a<b>>c");
  expect_kinds(&L, 6, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_END, TK_GT, TK_IDENT);
  lex_done(&L);
  /* '>=' after a template list: end, then '=' */
  lex_s(&L, "x: vec2<f32>=v");
  expect_kinds(&L, 8, TK_IDENT, TK_COLON, TK_IDENT, TK_TEMPLATE_START, TK_IDENT,
               TK_TEMPLATE_END, TK_EQ, TK_IDENT);
  assert_int_equal(L.t[6].span.start, 12);
  lex_done(&L);
  /* '>>=' after two lists */
  lex_s(&L, "a<b<c>>=d");
  expect_kinds(&L, 9, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_START, TK_IDENT,
               TK_TEMPLATE_END, TK_TEMPLATE_END, TK_EQ, TK_IDENT);
  lex_done(&L);
  /* '>>=' after one list: end, then '>=' */
  lex_s(&L, "a<b>>=d");
  expect_kinds(&L, 6, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_END, TK_GE, TK_IDENT);
  lex_done(&L);
  /* the '>' of '->' can close a list, leaving a '-' */
  lex_s(&L, "a<b->");
  expect_kinds(&L, 5, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_MINUS, TK_TEMPLATE_END);
  lex_done(&L);
  /* ... but a function's return arrow stays an arrow */
  lex_s(&L, "fn f(a: array<i32, 2>) -> vec4<f32>");
  expect_kinds(&L, 17, TK_KW_FN, TK_IDENT, TK_LPAREN, TK_IDENT, TK_COLON, TK_IDENT,
               TK_TEMPLATE_START, TK_IDENT, TK_COMMA, TK_INT, TK_TEMPLATE_END, TK_RPAREN,
               TK_ARROW, TK_IDENT, TK_TEMPLATE_START, TK_IDENT, TK_TEMPLATE_END);
  lex_done(&L);
}

static void test_template_deep(void **state) {
  (void)state;
  /* linear in size, however many candidates stay open */
  size_t n = 200000;
  char *src = malloc(n * 2 + 1);
  assert_non_null(src);
  for (size_t i = 0; i < n; i++) src[2 * i] = 'a', src[2 * i + 1] = '<';
  src[2 * n] = 0;
  lexed L;
  lex_s(&L, src);
  assert_int_equal(L.n, 2 * n + 1);
  assert_int_equal(L.t[1].kind, TK_LT);
  lex_done(&L);
  /* a<a<...a>>...> : every '>>' is split into two template ends */
  size_t m = n / 2;
  src[2 * m] = 'a';
  for (size_t i = 0; i < m; i++) src[2 * m + 1 + i] = '>';
  src[3 * m + 1] = 0;
  lex_s(&L, src);
  assert_int_equal(L.n, 3 * m + 2);
  assert_int_equal(L.d.errors, 0);
  for (size_t i = 0; i < m; i++) {
    if (L.t[2 * i + 1].kind != TK_TEMPLATE_START || L.t[2 * m + 1 + i].kind != TK_TEMPLATE_END)
      fail_msg("list %zu not paired", i);
  }
  lex_done(&L);
  free(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_token_names),
      cmocka_unit_test(test_empty_source),
      cmocka_unit_test(test_punctuation_maximal_munch),
      cmocka_unit_test(test_keywords_and_identifiers),
      cmocka_unit_test(test_unicode_identifiers),
      cmocka_unit_test(test_blankspace),
      cmocka_unit_test(test_comments),
      cmocka_unit_test(test_unterminated_comment),
      cmocka_unit_test(test_int_literals),
      cmocka_unit_test(test_float_literals),
      cmocka_unit_test(test_literal_errors),
      cmocka_unit_test(test_literal_boundaries),
      cmocka_unit_test(test_reserved_words),
      cmocka_unit_test(test_underscores),
      cmocka_unit_test(test_bad_characters),
      cmocka_unit_test(test_invalid_utf8),
      cmocka_unit_test(test_template_simple),
      cmocka_unit_test(test_template_comparisons),
      cmocka_unit_test(test_template_spec_examples),
      cmocka_unit_test(test_template_split_tokens),
      cmocka_unit_test(test_template_deep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
