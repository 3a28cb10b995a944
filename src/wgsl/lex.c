/*
 * lex.c — first stage of the WGSL front end: source bytes -> token array
 * (lex.h). One pass splits the text into tokens, skipping blankspace and
 * comments and checking UTF-8, literals and reserved words; a second pass runs
 * the spec's template-list discovery over the tokens so that the parser
 * (parse.c) never has to guess what a '<' means. Numeric literal values are
 * recomputed from the token text by lex_int_value / lex_float_value.
 */
#include "lex.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tok_names[] = {
#define X_(n, s) s,
    LEX_TOKENS(X_)
#undef X_
};

const char *lex_token_name(tok_kind k) {
  return (unsigned)k < TK_COUNT_ ? tok_names[k] : "token";
}

/* The spec's reserved words, in strcmp order for bsearch. */
static const char *const reserved_words[] = {
    "NULL", "Self", "abstract", "active", "alignas", "alignof", "as", "asm",
    "asm_fragment", "async", "attribute", "auto", "await", "become", "cast",
    "catch", "class", "co_await", "co_return", "co_yield", "coherent",
    "column_major", "common", "compile", "compile_fragment", "concept",
    "const_cast", "consteval", "constexpr", "constinit", "crate", "debugger",
    "decltype", "delete", "demote", "demote_to_helper", "do", "dynamic_cast",
    "enum", "explicit", "export", "extends", "extern", "external",
    "fallthrough", "filter", "final", "finally", "friend", "from", "fxgroup",
    "get", "goto", "groupshared", "highp", "impl", "implements", "import",
    "inline", "instanceof", "interface", "layout", "lowp", "macro",
    "macro_rules", "match", "mediump", "meta", "mod", "module", "move", "mut",
    "mutable", "namespace", "new", "nil", "noexcept", "noinline",
    "nointerpolation", "non_coherent", "noncoherent", "noperspective", "null",
    "nullptr", "of", "operator", "package", "packoffset", "partition", "pass",
    "patch", "pixelfragment", "precise", "precision", "premerge", "priv",
    "protected", "pub", "public", "readonly", "ref", "regardless", "register",
    "reinterpret_cast", "require", "resource", "restrict", "self", "set",
    "shared", "sizeof", "smooth", "snorm", "static", "static_assert",
    "static_cast", "std", "subroutine", "super", "target", "template", "this",
    "thread_local", "throw", "trait", "try", "type", "typedef", "typeid",
    "typename", "typeof", "union", "unless", "unorm", "unsafe", "unsized",
    "use", "using", "varying", "virtual", "volatile", "wgsl", "where", "with",
    "writeonly", "yield",
};

/* Compares the counted string s[0..n) with the C string w, like strcmp. */
static int cmp_word(const char *s, size_t n, const char *w) {
  size_t m = strlen(w);
  int c = memcmp(s, w, n < m ? n : m);
  if (c) return c;
  return n < m ? -1 : n > m ? 1 : 0;
}

static int is_reserved(const char *s, size_t n) {
  size_t lo = 0, hi = sizeof reserved_words / sizeof reserved_words[0];
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = cmp_word(s, n, reserved_words[mid]);
    if (c == 0) return 1;
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return 0;
}

/* Keyword tokens sit in alphabetical order in LEX_TOKENS; their names are the
 * spelling in quotes. */
static tok_kind keyword_kind(const char *s, size_t n) {
  int lo = TK_KW_ALIAS, hi = TK_KW_WHILE + 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    const char *w = tok_names[mid] + 1;
    size_t m = strlen(w) - 1;
    int c = memcmp(s, w, n < m ? n : m);
    if (c == 0) c = n < m ? -1 : n > m ? 1 : 0;
    if (c == 0) return (tok_kind)mid;
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return TK_IDENT;
}

/* ---- UTF-8 ---------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[i] (0 when invalid); *cp gets the
 * code point. Rejects overlong forms, surrogates and values past U+10FFFF. */
static size_t utf8_decode(const unsigned char *s, size_t n, size_t i, uint32_t *cp) {
  unsigned c = s[i];
  size_t len;
  uint32_t v, lo = 0x80, hi = 0xBF;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    v = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    v = c & 0x0F;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    v = c & 0x07;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (n - i < len) return 0;
  for (size_t k = 1; k < len; k++) {
    unsigned b = s[i + k];
    if (b < lo || b > hi) return 0;
    lo = 0x80;
    hi = 0xBF;
    v = (v << 6) | (b & 0x3F);
  }
  *cp = v;
  return len;
}

/* Pattern_White_Space outside ASCII. */
static int is_unicode_blank(uint32_t cp) {
  return cp == 0x85 || cp == 0x200E || cp == 0x200F || cp == 0x2028 || cp == 0x2029;
}

static int is_ascii_alpha(unsigned c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static int is_digit(unsigned c) { return c >= '0' && c <= '9'; }
static int is_hex(unsigned c) { return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
static int hex_val(unsigned c) { return is_digit(c) ? (int)(c - '0') : (int)((c | 0x20) - 'a' + 10); }

/* ---- Tokenizer ------------------------------------------------------------ */

typedef struct lexer {
  const unsigned char *s;
  size_t n;
  diag_list *d;
  token *toks; /* malloc'd while lexing; copied into the arena at the end */
  size_t count, cap;
  int oom;
} lexer;

static src_span span_of(size_t a, size_t b) {
  src_span sp = {(uint32_t)a, (uint32_t)b};
  return sp;
}

static void emit(lexer *L, tok_kind k, size_t a, size_t b) {
  if (L->oom) return;
  if (L->count == L->cap) {
    size_t cap = L->cap ? L->cap * 2 : 1024;
    token *t = realloc(L->toks, cap * sizeof *t);
    if (!t) {
      L->oom = 1;
      return;
    }
    L->toks = t;
    L->cap = cap;
  }
  L->toks[L->count].kind = k;
  L->toks[L->count].span = span_of(a, b);
  L->count++;
}

#include "xid.inc"

/* Is cp in one of the sorted ranges? */
static int in_ranges(const uint32_t (*r)[2], size_t n, uint32_t cp) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < r[mid][0]) hi = mid;
    else if (cp > r[mid][1]) lo = mid + 1;
    else return 1;
  }
  return 0;
}

static int xid_start_cp(uint32_t cp) { return in_ranges(xid_start, sizeof xid_start / sizeof xid_start[0], cp); }
static int xid_continue_cp(uint32_t cp) {
  return in_ranges(xid_continue, sizeof xid_continue / sizeof xid_continue[0], cp);
}

/* Length of the identifier character at s[i] (ASCII letter, digit, '_' or a
 * non-ASCII XID_Continue code point, §Identifiers), 0 if it is not one. */
static size_t ident_char(const lexer *L, size_t i) {
  unsigned c = L->s[i];
  if (c < 0x80) return (is_ascii_alpha(c) || is_digit(c) || c == '_') ? 1 : 0;
  uint32_t cp;
  size_t len = utf8_decode(L->s, L->n, i, &cp);
  if (!len || !xid_continue_cp(cp)) return 0;
  return len;
}

/* Checks one byte inside a comment; returns how far to advance. */
static size_t comment_byte(lexer *L, size_t i) {
  unsigned c = L->s[i];
  if (c == 0) {
    diag_error(L->d, span_of(i, i + 1), "null character is not allowed in WGSL source");
    return 1;
  }
  if (c < 0x80) return 1;
  uint32_t cp;
  size_t len = utf8_decode(L->s, L->n, i, &cp);
  if (!len) {
    diag_error(L->d, span_of(i, i + 1), "invalid UTF-8 byte 0x%02X at offset %zu", c, i);
    return 1;
  }
  return len;
}

static size_t skip_line_comment(lexer *L, size_t i) {
  while (i < L->n) {
    unsigned c = L->s[i];
    if (c == '\n' || c == '\v' || c == '\f' || c == '\r') break;
    if (c >= 0x80) {
      uint32_t cp;
      size_t len = utf8_decode(L->s, L->n, i, &cp);
      if (len && (cp == 0x85 || cp == 0x2028 || cp == 0x2029)) break;
    }
    i += comment_byte(L, i);
  }
  return i;
}

static size_t skip_block_comment(lexer *L, size_t i) {
  size_t start = i;
  size_t depth = 1;
  i += 2;
  while (i < L->n) {
    if (L->s[i] == '/' && i + 1 < L->n && L->s[i + 1] == '*') {
      depth++;
      i += 2;
    } else if (L->s[i] == '*' && i + 1 < L->n && L->s[i + 1] == '/') {
      i += 2;
      if (--depth == 0) return i;
    } else {
      i += comment_byte(L, i);
    }
  }
  diag_error(L->d, span_of(start, start + 2), "unterminated block comment");
  return i;
}

/* Finds the end of the numeric literal at s[i] following the spec's literal
 * patterns. *is_float tells its kind; *err gets a message when the text is
 * malformed (the returned end then covers what was examined). */
static size_t scan_number(const unsigned char *s, size_t n, size_t i, int *is_float,
                          const char **err) {
  size_t start = i;
  *err = NULL;
  *is_float = 0;
  if (s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    size_t d1 = 0, d2 = 0;
    int dot = 0;
    i += 2;
    while (i < n && is_hex(s[i])) i++, d1++;
    if (i < n && s[i] == '.' && (d1 > 0 || (i + 1 < n && is_hex(s[i + 1])))) {
      dot = 1;
      i++;
      while (i < n && is_hex(s[i])) i++, d2++;
    }
    if (d1 + d2 == 0) {
      *err = "expected hexadecimal digits after '0x'";
      return i;
    }
    if (i < n && (s[i] == 'p' || s[i] == 'P')) {
      size_t j = i + 1;
      if (j < n && (s[j] == '+' || s[j] == '-')) j++;
      if (j >= n || !is_digit(s[j])) {
        *err = "expected exponent digits after 'p' in hexadecimal float literal";
        return j;
      }
      while (j < n && is_digit(s[j])) j++;
      i = j;
      *is_float = 1;
      if (i < n && (s[i] == 'f' || s[i] == 'h')) i++;
    } else if (dot) {
      *is_float = 1;
    } else if (i < n && (s[i] == 'i' || s[i] == 'u')) {
      i++;
    }
    return i;
  }
  size_t d1 = 0;
  int fl = 0;
  while (i < n && is_digit(s[i])) i++, d1++;
  if (i < n && s[i] == '.' && (d1 > 0 || (i + 1 < n && is_digit(s[i + 1])))) {
    fl = 1;
    i++;
    while (i < n && is_digit(s[i])) i++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (s[j] == '+' || s[j] == '-')) j++;
    if (j >= n || !is_digit(s[j])) {
      *err = "expected exponent digits after 'e' in float literal";
      return j;
    }
    while (j < n && is_digit(s[j])) j++;
    i = j;
    fl = 1;
  }
  int leading_zero = d1 > 1 && s[start] == '0';
  if (i < n && (s[i] == 'f' || s[i] == 'h')) {
    if (!fl && leading_zero) *err = "numeric literals must not have leading zeros";
    fl = 1;
    i++;
  } else if (!fl) {
    if (leading_zero) *err = "integer literals must not have leading zeros";
    if (i < n && (s[i] == 'i' || s[i] == 'u')) i++;
  }
  *is_float = fl;
  return i;
}

static void lex_number(lexer *L, size_t *pi) {
  size_t start = *pi;
  int is_float;
  const char *err;
  size_t end = scan_number(L->s, L->n, start, &is_float, &err);
  if (end < L->n && ident_char(L, end)) {
    /* `12abc`, `1.0i`, `1e+f`: one bad literal rather than two tokens */
    size_t len;
    while (end < L->n && (len = ident_char(L, end))) end += len;
    if (!err) err = "invalid numeric literal";
  }
  if (!err) {
    union { uint64_t i; double f; } v;
    char suffix;
    err = is_float ? lex_float_value((const char *)L->s + start, end - start, &v.f, &suffix)
                   : lex_int_value((const char *)L->s + start, end - start, &v.i, &suffix);
  }
  if (err) {
    int shown = end - start > 40 ? 40 : (int)(end - start);
    diag_error(L->d, span_of(start, end), "%s: '%.*s%s'", err, shown,
               (const char *)L->s + start, end - start > 40 ? "..." : "");
  }
  emit(L, is_float ? TK_FLOAT : TK_INT, start, end);
  *pi = end;
}

static void lex_ident(lexer *L, size_t *pi) {
  size_t start = *pi, i = start, len;
  while (i < L->n && (len = ident_char(L, i))) i += len;
  const char *text = (const char *)L->s + start;
  size_t n = i - start;
  tok_kind k = TK_IDENT;
  if (n == 1 && text[0] == '_') {
    k = TK_UNDERSCORE;
  } else if (n >= 2 && text[0] == '_' && text[1] == '_') {
    diag_error(L->d, span_of(start, i), "identifiers must not start with '__': '%.*s'",
               n > 40 ? 40 : (int)n, text);
  } else {
    k = keyword_kind(text, n);
    if (k == TK_IDENT && is_reserved(text, n))
      diag_error(L->d, span_of(start, i), "'%.*s' is a reserved word", (int)n, text);
  }
  emit(L, k, start, i);
  *pi = i;
}

/* Operators and punctuation, longest match first. Returns 0 if s[i] starts
 * none. */
static int lex_punct(lexer *L, size_t *pi) {
  const unsigned char *s = L->s;
  size_t i = *pi, n = L->n;
  unsigned c = s[i], c1 = i + 1 < n ? s[i + 1] : 0, c2 = i + 2 < n ? s[i + 2] : 0;
  tok_kind k;
  size_t len = 1;
  switch (c) {
  case '&': k = c1 == '&' ? (len = 2, TK_AND_AND) : c1 == '=' ? (len = 2, TK_AND_EQ) : TK_AND; break;
  case '|': k = c1 == '|' ? (len = 2, TK_OR_OR) : c1 == '=' ? (len = 2, TK_OR_EQ) : TK_OR; break;
  case '-':
    k = c1 == '>' ? (len = 2, TK_ARROW) : c1 == '-' ? (len = 2, TK_MINUS_MINUS)
        : c1 == '=' ? (len = 2, TK_MINUS_EQ) : TK_MINUS;
    break;
  case '+': k = c1 == '+' ? (len = 2, TK_PLUS_PLUS) : c1 == '=' ? (len = 2, TK_PLUS_EQ) : TK_PLUS; break;
  case '*': k = c1 == '=' ? (len = 2, TK_STAR_EQ) : TK_STAR; break;
  case '/': k = c1 == '=' ? (len = 2, TK_SLASH_EQ) : TK_SLASH; break;
  case '%': k = c1 == '=' ? (len = 2, TK_PERCENT_EQ) : TK_PERCENT; break;
  case '^': k = c1 == '=' ? (len = 2, TK_XOR_EQ) : TK_XOR; break;
  case '!': k = c1 == '=' ? (len = 2, TK_NE) : TK_BANG; break;
  case '=': k = c1 == '=' ? (len = 2, TK_EQ_EQ) : TK_EQ; break;
  case '>':
    if (c1 == '>') k = c2 == '=' ? (len = 3, TK_SHR_EQ) : (len = 2, TK_SHR);
    else k = c1 == '=' ? (len = 2, TK_GE) : TK_GT;
    break;
  case '<':
    if (c1 == '<') k = c2 == '=' ? (len = 3, TK_SHL_EQ) : (len = 2, TK_SHL);
    else k = c1 == '=' ? (len = 2, TK_LE) : TK_LT;
    break;
  case '@': k = TK_AT; break;
  case '[': k = TK_LBRACKET; break;
  case ']': k = TK_RBRACKET; break;
  case '{': k = TK_LBRACE; break;
  case '}': k = TK_RBRACE; break;
  case ':': k = TK_COLON; break;
  case ',': k = TK_COMMA; break;
  case '.': k = TK_DOT; break;
  case '(': k = TK_LPAREN; break;
  case ')': k = TK_RPAREN; break;
  case ';': k = TK_SEMI; break;
  case '~': k = TK_TILDE; break;
  default: return 0;
  }
  emit(L, k, i, i + len);
  *pi = i + len;
  return 1;
}

static void lex_all(lexer *L) {
  const unsigned char *s = L->s;
  size_t n = L->n, i = 0;
  while (i < n && !L->oom) {
    unsigned c = s[i];
    if (c == ' ' || (c >= '\t' && c <= '\r')) {
      i++;
    } else if (c == 0) {
      diag_error(L->d, span_of(i, i + 1), "null character is not allowed in WGSL source");
      i++;
    } else if (c >= 0x80) {
      uint32_t cp;
      size_t len = utf8_decode(s, n, i, &cp);
      if (!len) {
        diag_error(L->d, span_of(i, i + 1), "invalid UTF-8 byte 0x%02X at offset %zu", c, i);
        i++;
      } else if (is_unicode_blank(cp)) {
        i += len;
      } else if (cp == 0xFEFF) {
        diag_error(L->d, span_of(i, i + len), "byte order mark (U+FEFF) is not allowed in WGSL source");
        i += len;
      } else if (xid_start_cp(cp)) {
        lex_ident(L, &i);
      } else {
        /* §Identifiers: only XID_Start letters begin an identifier */
        diag_error(L->d, span_of(i, i + len), "unexpected character U+%04X '%.*s'", (unsigned)cp, (int)len,
                   (const char *)s + i);
        i += len;
      }
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      i = skip_line_comment(L, i + 2);
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i = skip_block_comment(L, i);
    } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(s[i + 1]))) {
      lex_number(L, &i);
    } else if (is_ascii_alpha(c) || c == '_') {
      lex_ident(L, &i);
    } else if (!lex_punct(L, &i)) {
      if (c >= 0x21 && c < 0x7F)
        diag_error(L->d, span_of(i, i + 1), "unexpected character '%c'", (int)c);
      else
        diag_error(L->d, span_of(i, i + 1), "unexpected character 0x%02X", c);
      i++;
    }
  }
  emit(L, TK_EOF, n, n);
}

/* ---- Template list discovery --------------------------------------------- */

/* The spec's algorithm works on code points; here it walks tokens, treating
 * each multi-character token the way the code-point walk would treat its
 * characters. A '>' that closes a template list may be the first character of
 * '>=', '>>', '>>=' or the second of '->'; such tokens are split. */

typedef struct pending {
  size_t out; /* index of the '<' in the output */
  size_t depth;
} pending;

typedef struct tdisc {
  pending *stack;
  size_t n, cap;
  size_t depth;
  token *out;
  size_t nout;
  int oom;
} tdisc;

static void td_emit(tdisc *T, tok_kind k, uint32_t a, uint32_t b) {
  T->out[T->nout].kind = k;
  T->out[T->nout].span.start = a;
  T->out[T->nout].span.end = b;
  T->nout++;
}

static void td_push(tdisc *T, size_t out) {
  if (T->n == T->cap) {
    size_t cap = T->cap ? T->cap * 2 : 64;
    pending *p = realloc(T->stack, cap * sizeof *p);
    if (!p) {
      T->oom = 1;
      return;
    }
    T->stack = p;
    T->cap = cap;
  }
  T->stack[T->n].out = out;
  T->stack[T->n].depth = T->depth;
  T->n++;
}

/* A '>' at the current depth closes the innermost pending '<'. */
static int td_close(tdisc *T) {
  if (T->n == 0 || T->stack[T->n - 1].depth != T->depth) return 0;
  T->out[T->stack[T->n - 1].out].kind = TK_TEMPLATE_START;
  T->n--;
  return 1;
}

/* An assignment or a statement/declaration delimiter: no template list can
 * span it. */
static void td_clear(tdisc *T) {
  T->n = 0;
  T->depth = 0;
}

static void td_pop_level(tdisc *T) {
  while (T->n && T->stack[T->n - 1].depth >= T->depth) T->n--;
}

static int is_ident_pattern(tok_kind k) {
  return k == TK_IDENT || (k >= TK_KW_ALIAS && k <= TK_KW_WHILE && k != TK_KW_TRUE && k != TK_KW_FALSE);
}

static void discover_templates(tdisc *T, const token *in, size_t nin) {
  int after_ident = 0;
  for (size_t i = 0; i < nin && !T->oom; i++) {
    tok_kind k = in[i].kind;
    uint32_t a = in[i].span.start, b = in[i].span.end;
    int was_ident = after_ident;
    after_ident = 0;
    switch (k) {
    case TK_LT:
      td_emit(T, k, a, b);
      if (was_ident) td_push(T, T->nout - 1);
      break;
    case TK_LE: /* after an identifier the '=' is skipped; elsewhere it reads as '=' */
      td_emit(T, k, a, b);
      if (!was_ident) td_clear(T);
      break;
    case TK_SHL_EQ:
      td_emit(T, k, a, b);
      td_clear(T);
      break;
    case TK_GT:
      td_emit(T, td_close(T) ? TK_TEMPLATE_END : TK_GT, a, b);
      break;
    case TK_GE:
      if (td_close(T)) {
        td_emit(T, TK_TEMPLATE_END, a, a + 1);
        td_emit(T, TK_EQ, a + 1, b);
        td_clear(T);
      } else {
        td_emit(T, TK_GE, a, b);
      }
      break;
    case TK_SHR:
      if (td_close(T)) {
        td_emit(T, TK_TEMPLATE_END, a, a + 1);
        td_emit(T, td_close(T) ? TK_TEMPLATE_END : TK_GT, a + 1, b);
      } else {
        td_emit(T, TK_SHR, a, b);
      }
      break;
    case TK_SHR_EQ:
      if (td_close(T)) {
        td_emit(T, TK_TEMPLATE_END, a, a + 1);
        if (td_close(T)) {
          td_emit(T, TK_TEMPLATE_END, a + 1, a + 2);
          td_emit(T, TK_EQ, a + 2, b);
          td_clear(T);
        } else {
          td_emit(T, TK_GE, a + 1, b);
        }
      } else {
        td_emit(T, TK_SHR_EQ, a, b);
      }
      break;
    case TK_ARROW:
      if (td_close(T)) {
        td_emit(T, TK_MINUS, a, a + 1);
        td_emit(T, TK_TEMPLATE_END, a + 1, b);
      } else {
        td_emit(T, TK_ARROW, a, b);
      }
      break;
    case TK_LPAREN:
    case TK_LBRACKET:
      td_emit(T, k, a, b);
      T->depth++;
      break;
    case TK_RPAREN:
    case TK_RBRACKET:
      td_emit(T, k, a, b);
      td_pop_level(T);
      if (T->depth) T->depth--;
      break;
    case TK_EQ:
    case TK_PLUS_EQ:
    case TK_MINUS_EQ:
    case TK_STAR_EQ:
    case TK_SLASH_EQ:
    case TK_PERCENT_EQ:
    case TK_AND_EQ:
    case TK_OR_EQ:
    case TK_XOR_EQ:
    case TK_SEMI:
    case TK_LBRACE:
    case TK_COLON:
      td_emit(T, k, a, b);
      td_clear(T);
      break;
    case TK_AND_AND:
    case TK_OR_OR:
      td_emit(T, k, a, b);
      td_pop_level(T);
      break;
    default:
      td_emit(T, k, a, b);
      after_ident = is_ident_pattern(k);
      break;
    }
  }
}

token *lex_tokenize(const char *src, size_t len, arena *a, diag_list *diags, size_t *count) {
  lexer L;
  memset(&L, 0, sizeof L);
  L.s = (const unsigned char *)src;
  L.n = len;
  L.d = diags;
  *count = 0;
  if (len >= UINT32_MAX) {
    diag_error(diags, span_of(0, 0), "source text is too large (4 GiB or more)");
    L.n = 0;
  }
  lex_all(&L);
  if (L.oom) {
    free(L.toks);
    a->failed = 1;
    return NULL;
  }
  size_t extra = 0;
  for (size_t i = 0; i < L.count; i++) {
    tok_kind k = L.toks[i].kind;
    extra += k == TK_SHR_EQ ? 2 : (k == TK_GE || k == TK_SHR || k == TK_ARROW);
  }
  tdisc T;
  memset(&T, 0, sizeof T);
  T.out = arena_alloc(a, (L.count + extra) * sizeof(token));
  if (!T.out) {
    free(L.toks);
    return NULL;
  }
  discover_templates(&T, L.toks, L.count);
  free(L.toks);
  free(T.stack);
  if (T.oom) {
    a->failed = 1;
    return NULL;
  }
  *count = T.nout;
  return T.out;
}

/* ---- Literal values -------------------------------------------------------- */

const char *lex_int_value(const char *text, size_t n, uint64_t *value, char *suffix) {
  *value = 0;
  *suffix = 0;
  if (n && (text[n - 1] == 'i' || text[n - 1] == 'u')) *suffix = text[--n];
  uint64_t v = 0;
  if (n > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    for (size_t i = 2; i < n; i++) {
      if (!is_hex((unsigned char)text[i])) return "malformed integer literal";
      if (v > (UINT64_MAX >> 4)) return "integer literal is too large";
      v = (v << 4) | (uint64_t)hex_val((unsigned char)text[i]);
    }
  } else {
    if (n == 0) return "malformed integer literal";
    for (size_t i = 0; i < n; i++) {
      unsigned d = (unsigned char)text[i] - '0';
      if (d > 9) return "malformed integer literal";
      if (v > (UINT64_MAX - d) / 10) return "integer literal is too large";
      v = v * 10 + d;
    }
  }
  *value = v;
  if (*suffix == 'i' && v > INT32_MAX) return "integer literal does not fit in i32";
  if (*suffix == 'u' && v > UINT32_MAX) return "integer literal does not fit in u32";
  if (!*suffix && v > INT64_MAX) return "integer literal does not fit in a 64-bit AbstractInt";
  return NULL;
}

/* A binary floating point format: p significand bits, lowest subnormal bit
 * exponent emin, largest exponent of the leading bit emax. */
typedef struct fformat {
  int p;
  int64_t emin, emax;
} fformat;

static const fformat F64 = {53, -1074, 1023}, F32 = {24, -149, 127}, F16 = {11, -24, 15};

static int bit_length(uint64_t v) {
  int b = 0;
  while (v) v >>= 1, b++;
  return b;
}

/* Rounds mant * 2^e2 to the nearest value of format f (ties to even).
 * Returns -1 on overflow; *inexact is set when rounding changed the value. */
static int round_binary(uint64_t mant, int64_t e2, fformat f, double *out, int *inexact) {
  if (mant == 0) {
    *out = 0.0;
    return 0;
  }
  int64_t top = e2 + bit_length(mant) - 1;
  if (top > f.emax) return -1;
  int64_t low = top - (f.p - 1);
  if (low < f.emin) low = f.emin;
  if (e2 < low) {
    int64_t s = low - e2;
    uint64_t m, dropped, half;
    if (s > 64) {
      m = 0, dropped = 1, half = 2; /* far below half an ulp */
    } else if (s == 64) {
      m = 0, dropped = mant, half = (uint64_t)1 << 63;
    } else {
      m = mant >> s;
      dropped = mant & (((uint64_t)1 << s) - 1);
      half = (uint64_t)1 << (s - 1);
    }
    if (dropped > half || (dropped == half && (m & 1))) m++;
    if (dropped) *inexact = 1;
    if (m && low + bit_length(m) - 1 > f.emax) return -1;
    mant = m;
    e2 = low;
  }
  *out = ldexp((double)mant, (int)e2);
  return 0;
}

static const char *hex_float_value(const char *t, size_t n, char suffix, double *value) {
  uint64_t mant = 0;
  int nsig = 0, inexact = 0, point = 0;
  int64_t scale = 0, exp = 0;
  size_t i = 2;
  for (; i < n && t[i] != 'p' && t[i] != 'P'; i++) {
    if (t[i] == '.') {
      point = 1;
      continue;
    }
    int d = hex_val((unsigned char)t[i]);
    if (nsig == 0 && d == 0) {
      if (point) scale -= 4;
    } else if (nsig < 16) {
      mant = (mant << 4) | (uint64_t)d;
      nsig++;
      if (point) scale -= 4;
    } else {
      /* past 16 significant digits the spec lets the rest read as zeros */
      if (d) inexact = 1;
      if (!point) scale += 4;
    }
  }
  if (i < n) {
    int neg = 0;
    i++;
    if (i < n && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
    for (; i < n && is_digit((unsigned char)t[i]); i++)
      if (exp < 1000000000) exp = exp * 10 + (t[i] - '0');
    if (neg) exp = -exp;
  }
  fformat f = suffix == 'f' ? F32 : suffix == 'h' ? F16 : F64;
  if (round_binary(mant, scale + exp, f, value, &inexact) < 0)
    return suffix == 'f' ? "float literal is out of range for f32"
           : suffix == 'h' ? "float literal is out of range for f16"
                           : "float literal is out of range";
  if (suffix && inexact)
    return suffix == 'f' ? "hexadecimal float literal cannot be exactly represented in f32"
                         : "hexadecimal float literal cannot be exactly represented in f16";
  return NULL;
}

/* Decimal: keep the first 20 significant digits (the spec's truncation) and
 * hand a short normalized string "0.DDDDe±X" to strtod/strtof, so very long
 * literals cost no allocation. */
static const char *dec_float_value(const char *t, size_t n, char suffix, double *value) {
  char digits[21];
  int nsig = 0, point = 0;
  int64_t int_digits = 0, index = 0, first = 0, exp = 0;
  size_t i = 0;
  for (; i < n && t[i] != 'e' && t[i] != 'E'; i++) {
    if (t[i] == '.') {
      point = 1;
      continue;
    }
    if (!point) int_digits++;
    if (nsig == 0 && t[i] == '0') {
      index++;
      continue;
    }
    if (nsig == 0) first = index;
    if (nsig < 20) digits[nsig++] = t[i];
    index++;
  }
  digits[nsig] = 0;
  if (i < n) {
    int neg = 0;
    i++;
    if (i < n && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
    for (; i < n && is_digit((unsigned char)t[i]); i++)
      if (exp < 1000000000) exp = exp * 10 + (t[i] - '0');
    if (neg) exp = -exp;
  }
  if (nsig == 0) {
    *value = 0.0;
    return NULL;
  }
  int64_t e10 = int_digits - first + exp;
  if (e10 > 99999) e10 = 99999;
  if (e10 < -99999) e10 = -99999;
  /* strtod follows the C locale's decimal point, which the host may change */
  const char *dp = localeconv()->decimal_point;
  char buf[64];
  snprintf(buf, sizeof buf, "0%s%se%lld", dp && *dp && strlen(dp) < 8 ? dp : ".", digits,
           (long long)e10);
  if (suffix == 'f') {
    float v = strtof(buf, NULL);
    *value = v;
    if (isinf(v)) return "float literal is out of range for f32";
    return NULL;
  }
  double v = strtod(buf, NULL);
  *value = v;
  if (isinf(v)) return "float literal is out of range";
  if (suffix == 'h' && fabs(v) >= 65520.0) return "float literal is out of range for f16";
  return NULL;
}

const char *lex_float_value(const char *text, size_t n, double *value, char *suffix) {
  *value = 0.0;
  *suffix = 0;
  if (n > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    /* the f/h suffix of a hex float only exists after its exponent */
    if (memchr(text, 'p', n) || memchr(text, 'P', n))
      if (text[n - 1] == 'f' || text[n - 1] == 'h') *suffix = text[--n];
    return hex_float_value(text, n, *suffix, value);
  }
  if (n && (text[n - 1] == 'f' || text[n - 1] == 'h')) *suffix = text[--n];
  return dec_float_value(text, n, *suffix, value);
}
