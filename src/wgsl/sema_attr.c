/*
 * sema_attr.c — the resolver's rules for attributes as such: which names
 * exist and where each may appear, how many arguments each takes (one
 * table, attr_rows), no attribute twice, at most one shader stage
 * attribute, the integer arguments of @location, @group and the like, and
 * the forms of @diagnostic (§Attributes, §diagnostic). What an attribute
 * means is checked where it is used (sema.c, sema_entry.c).
 */
#include <string.h>

#include "sema_int.h"

ast_attr *sema_find_attr(ast_attr *a, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(a[i].name, name)) return &a[i];
  return NULL;
}

/* A const-expression attribute argument that must be a non-negative
 * integer; returns -1 after reporting an error. */
int64_t sema_attr_int(sctx *c, ast_attr *a, int i, const char *what) {
  if (a->nargs <= i) {
    diag_error(c->d, a->span, "@%s needs an argument", a->name);
    return -1;
  }
  ast_expr *e = a->args[i];
  const type *t = sema_value(c, e);
  if (!t) return -1;
  if (!type_is_integer_scalar(t) || !e->cval) {
    diag_error(c->d, e->span, "%s must be a constant integer", what);
    return -1;
  }
  if (e->cval->i < 0) {
    diag_error(c->d, e->span, "%s must not be negative, found %lld", what, (long long)e->cval->i);
    return -1;
  }
  /* §Attributes: the argument resolves to i32 or u32, so an AbstractInt
   * becomes an i32 and must fit one */
  if (t->kind == TY_AINT && e->cval->i > INT32_MAX) {
    diag_error(c->d, e->span, "%s must be an i32 or u32; %lld does not fit i32 (write %lldu for a u32)", what,
               (long long)e->cval->i, (long long)e->cval->i);
    return -1;
  }
  return e->cval->i;
}

/* Where each attribute may appear (§Attributes: "must only be applied
 * to ..."). */
/* ARGS_ELSEWHERE: the argument count is checked with the attribute's own
 * rules (workgroup_size, subgroup_size, diagnostic). */
enum { ARGS_ELSEWHERE = 255 };
typedef struct attr_row {
  const char *name;
  unsigned char places, min_args, max_args; /* max 0: written without parentheses */
} attr_row;
static const attr_row attr_rows[] = {
    {"align", SEMA_AT_MEMBER, 1, 1},
    {"binding", SEMA_AT_VAR, 1, 1},
    {"builtin", SEMA_AT_MEMBER | SEMA_AT_PARAM | SEMA_AT_RET, 1, 2},
    {"compute", SEMA_AT_FN, 0, 0},
    {"const", SEMA_AT_FN, 0, 0},
    {"diagnostic", SEMA_AT_FN, 0, ARGS_ELSEWHERE},
    {"fragment", SEMA_AT_FN, 0, 0},
    {"group", SEMA_AT_VAR, 1, 1},
    {"id", SEMA_AT_OVERRIDE, 1, 1},
    {"interpolate", SEMA_AT_MEMBER | SEMA_AT_PARAM | SEMA_AT_RET, 1, 2},
    {"invariant", SEMA_AT_MEMBER | SEMA_AT_PARAM | SEMA_AT_RET, 0, 0},
    {"location", SEMA_AT_MEMBER | SEMA_AT_PARAM | SEMA_AT_RET, 1, 1},
    {"blend_src", SEMA_AT_MEMBER, 1, 1},
    {"must_use", SEMA_AT_FN, 0, 0},
    {"size", SEMA_AT_MEMBER, 1, 1},
    {"vertex", SEMA_AT_FN, 0, 0},
    {"workgroup_size", SEMA_AT_FN, 0, ARGS_ELSEWHERE},
    {"subgroup_size", SEMA_AT_FN, 0, ARGS_ELSEWHERE},
};
enum { NATTR_ROWS = sizeof attr_rows / sizeof *attr_rows };

/* Attributes of extensions, known only when the extension is enabled. */
static int extension_attr(sctx *c, const char *n) {
  return (!strcmp(n, "color") && c->fb_fetch_enabled) ||
         (!strcmp(n, "input_attachment_index") && c->input_attachments_enabled);
}

/* §Diagnostic Filtering: @diagnostic(severity, rule) names one of four
 * severities (an unknown rule is only a warning). */
/* §Filterable Triggering Rules: an unknown rule name of one token should
 * draw a warning (`uniformity` itself, the barrier rule, is not
 * filterable); an unknown `name.name` rule is accepted silently. */
void sema_check_diagnostic_rule(sctx *c, const char *rule, src_span span) {
  if (strchr(rule, '.') || !strcmp(rule, "derivative_uniformity") || !strcmp(rule, "subgroup_uniformity"))
    return;
  diag_warning(c->d, span, "unknown diagnostic rule '%s' (derivative_uniformity or subgroup_uniformity)",
               rule);
}

/* The rule of @diagnostic(severity, rule) as one string (`a` or `a.b`);
 * NULL when the parser already refused the form. */
static const char *diag_attr_rule(sctx *c, const ast_attr *a) {
  const ast_expr *r = a->nargs == 2 ? a->args[1] : NULL;
  if (r && r->kind == EX_IDENT) return r->u.ident.name;
  if (!r || r->kind != EX_MEMBER || r->u.member.base->kind != EX_IDENT) return NULL;
  const char *x = r->u.member.base->u.ident.name, *y = r->u.member.name;
  size_t nx = strlen(x), ny = strlen(y);
  char *s = arena_alloc(&c->m->arena, nx + ny + 2);
  if (!s) return NULL;
  memcpy(s, x, nx);
  s[nx] = '.';
  memcpy(s + nx + 1, y, ny + 1);
  return s;
}

void sema_check_diagnostic_attr(sctx *c, ast_attr *a) {
  static const char *const sev[] = {"error", "warning", "info", "off"};
  const char *n = a->nargs >= 1 && a->args[0]->kind == EX_IDENT ? a->args[0]->u.ident.name : "";
  int ok = 0;
  for (int k = 0; k < 4; k++) ok |= !strcmp(sev[k], n);
  if (!ok)
    diag_error(c->d, a->nargs ? a->args[0]->span : a->span,
               "unknown diagnostic severity '%s' (error, warning, info or off)", n);
  const char *rule = diag_attr_rule(c, a);
  if (rule) sema_check_diagnostic_rule(c, rule, a->args[1]->span);
}

/* §diagnostic: the diagnostic attributes of one syntactic form "must
 * specify different triggering rules", whatever their severities (the
 * module's directives, which may repeat a filter, are checked apart). */
void sema_check_diagnostic_conflicts(sctx *c, ast_attr *a, int n) {
  for (int i = 0; i < n; i++) {
    if (strcmp(a[i].name, "diagnostic") || a[i].nargs != 2 || a[i].args[0]->kind != EX_IDENT) continue;
    const char *ri = diag_attr_rule(c, &a[i]);
    for (int j = 0; ri && j < i; j++) {
      if (strcmp(a[j].name, "diagnostic") || a[j].nargs != 2 || a[j].args[0]->kind != EX_IDENT) continue;
      const char *rj = diag_attr_rule(c, &a[j]);
      if (rj && !strcmp(ri, rj)) {
        diag_error(c->d, a[i].span,
                   "conflicting diagnostic filters for '%s' on the same range (the diagnostic "
                   "attributes of one form name different rules)",
                   ri);
        diag_note(c->d, a[j].span, "the other filter is here");
        break;
      }
    }
  }
}

/* The argument count of attribute a against its row (§Attributes: each
 * attribute's grammar); 0 after an error. */
static int check_attr_args(sctx *c, const ast_attr *a, const attr_row *r) {
  if (r->max_args == ARGS_ELSEWHERE) return 1;
  if (r->max_args == 0 && a->parens) {
    diag_error(c->d, a->span, "'@%s' takes no arguments (and no parentheses)", a->name);
    return 0;
  }
  if (a->nargs < r->min_args || a->nargs > r->max_args) {
    if (r->min_args == r->max_args)
      diag_error(c->d, a->span, "'@%s' takes %d argument%s, found %d", a->name, r->min_args,
                 r->min_args == 1 ? "" : "s", a->nargs);
    else
      diag_error(c->d, a->span, "'@%s' takes %d to %d arguments, found %d", a->name, r->min_args,
                 r->max_args, a->nargs);
    return 0;
  }
  return 1;
}

void sema_check_attr_names(sctx *c, ast_attr *a, int n, unsigned place) {
  /* one bit per known attribute name: duplicates found in linear time */
  uint32_t seen = 0, seen_ext = 0;
  int stages = 0;
  for (int i = 0; i < n; i++) {
    int known = -1, ext = extension_attr(c, a[i].name);
    for (int k = 0; k < NATTR_ROWS; k++)
      if (!strcmp(attr_rows[k].name, a[i].name)) known = k;
    if (known < 0 && !ext) {
      diag_error(c->d, a[i].span, "unknown attribute '@%s'", a[i].name);
      continue;
    }
    if (known >= 0 && !(attr_rows[known].places & place)) {
      diag_error(c->d, a[i].span, "'@%s' is not allowed here", a[i].name);
      continue;
    }
    if (known >= 0 && !check_attr_args(c, &a[i], &attr_rows[known])) continue;
    uint32_t *set = known >= 0 ? &seen : &seen_ext;
    uint32_t bit = known >= 0 ? 1u << known : a[i].name[0] == 'c' ? 1u : 2u;
    if ((*set & bit) && strcmp(a[i].name, "diagnostic"))
      diag_error(c->d, a[i].span, "duplicate attribute '@%s'", a[i].name);
    if (!strcmp(a[i].name, "diagnostic")) sema_check_diagnostic_attr(c, &a[i]);
    /* §Entry Point Declaration: one shader stage attribute at most */
    if (!strcmp(a[i].name, "compute") || !strcmp(a[i].name, "vertex") || !strcmp(a[i].name, "fragment")) {
      if (stages++ && !(*set & bit))
        diag_error(c->d, a[i].span,
                   "a function has at most one shader stage attribute (@compute, @vertex or @fragment)");
    }
    *set |= bit;
  }
  sema_check_diagnostic_conflicts(c, a, n);
}

