/*
 * sema_entry.c — the resolver's rules for the inputs of an entry point: its
 * @builtin parameters and the built-in members of its structure
 * parameters (which built-in values exist, their stage and type, none
 * twice) and its @location inputs (none twice).
 */
#include <stdlib.h>
#include <string.h>

#include "sema_int.h"

#define TN(t, b) type_name((t), (b), sizeof(b))

static const char *const builtin_value_names[BV_COUNT] = {
    "local_invocation_index", "local_invocation_id", "global_invocation_id", "workgroup_id",
    "num_workgroups", "global_invocation_index", "workgroup_index", "subgroup_invocation_id",
    "subgroup_size", "subgroup_id", "num_subgroups"};

const char *builtin_value_name(builtin_value v) { return builtin_value_names[v]; }

/* Built-in values of other stages or extensions: known names, refused with a
 * message that says why. */
static const char *const other_builtin_values[] = {
    "vertex_index", "instance_index", "position", "front_facing", "frag_depth",
    "sample_index", "sample_mask", "clip_distances", "primitive_index", "barycentric_coord",
    "subgroup_invocation_id", "subgroup_size", "subgroup_id", "num_subgroups", NULL};

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

/* The name in @builtin(name), or NULL. */
static const char *builtin_name(ast_attr *bi) {
  return bi && bi->nargs == 1 && bi->args[0]->kind == EX_IDENT ? bi->args[0]->u.ident.name : NULL;
}

/* §Built-in Inputs and Outputs: an entry point has no two built-in inputs
 * of the same name, counting the members of structure parameters. */
static void check_builtin_twice(sctx *c, ast_decl *d) {
  enum { MAXB = 64 }; /* entry points have a handful of built-ins */
  ast_attr *seen[MAXB];
  int n = 0;
  for (int i = 0; i < d->nparams; i++) {
    ast_decl *p = d->params[i];
    ast_attr *own[MAXB];
    int k = 0;
    if (sema_find_attr(p->attrs, p->nattrs, "builtin")) own[k++] = sema_find_attr(p->attrs, p->nattrs, "builtin");
    else if (p->rtype && p->rtype->kind == TY_STRUCT)
      for (int f = 0; f < p->rtype->nfields && k < MAXB; f++) {
        const ast_member *mb = p->rtype->fields[f].decl;
        ast_attr *bi = mb ? sema_find_attr(mb->attrs, mb->nattrs, "builtin") : NULL;
        if (bi) own[k++] = bi;
      }
    for (int j = 0; j < k; j++) {
      const char *nm = builtin_name(own[j]);
      if (!nm) continue;
      for (int q = 0; q < n; q++)
        if (!strcmp(builtin_name(seen[q]), nm)) {
          diag_error(c->d, own[j]->span, "@builtin(%s) is used by two inputs of '%s'", nm, d->name);
          return;
        }
      if (n < MAXB) seen[n++] = own[j];
    }
  }
}

/* §Entry Point IO: each built-in value and each @location at most once
 * among an entry point's inputs. */
void sema_entry_inputs(sctx *c, ast_decl *d) {
  check_builtin_twice(c, d);
  int64_t *locs = malloc(sizeof *locs * ((size_t)d->nparams + 1));
  int nloc = 0;
  for (int i = 0; i < d->nparams; i++) {
    ast_decl *p = d->params[i];
    ast_attr *lo = sema_find_attr(p->attrs, p->nattrs, "location");
    if (lo && lo->nargs == 1 && locs && i < 65536) {
      int64_t v = sema_attr_int(c, lo, 0, "@location");
      if (v >= 0 && v < (1 << 20)) locs[nloc++] = v * 65536 + i;
    }
  }
  if (locs) {
    qsort(locs, (size_t)nloc, sizeof *locs, cmp_i64);
    for (int k = 1; k < nloc; k++)
      if (locs[k] / 65536 == locs[k - 1] / 65536) {
        ast_decl *p = d->params[locs[k] % 65536];
        diag_error(c->d, sema_find_attr(p->attrs, p->nattrs, "location")->span,
                   "@location(%lld) is used by two inputs of '%s'", (long long)(locs[k] / 65536), d->name);
        break;
      }
  }
  free(locs);
}

/* The built-in input value that attribute bi (on a parameter or on a member
 * of a structure parameter of entry point d, of type t declared at ts)
 * names, or -1 after reporting why it is not one (or when it is an input
 * of another stage, which lockstep accepts and does not run). */
int sema_builtin_input(sctx *c, ast_decl *d, ast_attr *bi, const type *t, src_span ts) {
  char b[128];
  const char *n = bi->nargs == 1 && bi->args[0]->kind == EX_IDENT ? bi->args[0]->u.ident.name : "";
  int found = -1;
  for (int k = 0; k < BV_COUNT; k++)
    if (!strcmp(n, builtin_value_names[k])) found = k;
  if (found < 0) {
    int other = 0;
    for (int k = 0; other_builtin_values[k]; k++)
      if (!strcmp(n, other_builtin_values[k])) other = 1;
    /* valid built-in values of other stages are accepted here;
     * pipeline creation refuses running them */
    if (!other) diag_error(c->d, bi->span, "unknown built-in value '%s'", n);
    else if (d->stage == 1)
      diag_error(c->d, bi->span, "built-in value '%s' is not supported in a compute shader", n);
    return -1;
  }
  if (found >= BV_SUBGROUP_INVOCATION_ID && !c->subgroups_enabled) {
    diag_error(c->d, bi->span, "@builtin(%s) needs 'enable subgroups;'", n);
    return -1;
  }
  const type *want = found == BV_LOCAL_INVOCATION_INDEX || found >= BV_GLOBAL_INVOCATION_INDEX
                         ? c->T->t_u32
                         : types_vec(c->T, c->T->t_u32, 3);
  if (t != want) {
    char b2[64];
    diag_error(c->d, ts, "@builtin(%s) must have type %s, found %s", n, TN(want, b2), TN(t, b));
    return -1;
  }
  if (d->stage == 3 && (found == BV_SUBGROUP_INVOCATION_ID || found == BV_SUBGROUP_SIZE))
    return -1; /* a fragment input too; lockstep runs compute only */
  if (d->stage != 1) {
    diag_error(c->d, bi->span, "@builtin(%s) is a compute shader input", n);
    return -1;
  }
  return found;
}

/* A structure parameter p of compute entry point d: every member is a
 * built-in input (§Input-output Locations: each member of entry point IO is
 * a built-in value or has a location, and compute shaders have no
 * user-defined inputs, §location). */
void sema_struct_input(sctx *c, ast_decl *d, ast_decl *p) {
  const type *t = p->rtype;
  for (int i = 0; i < t->nfields; i++) {
    const ast_member *mb = t->fields[i].decl;
    if (!mb) continue;
    ast_attr *bi = sema_find_attr(mb->attrs, mb->nattrs, "builtin");
    ast_attr *lo = sema_find_attr(mb->attrs, mb->nattrs, "location");
    if (lo) {
      diag_error(c->d, lo->span, "member '%s' of parameter '%s': a compute entry point has no @location inputs",
                 mb->name, p->name);
      return;
    }
    if (!bi) {
      diag_error(c->d, mb->name_span, "member '%s' of parameter '%s' of compute entry point '%s' needs @builtin(...)",
                 mb->name, p->name, d->name);
      return;
    }
    if (sema_builtin_input(c, d, bi, t->fields[i].type, mb->type->span) < 0) return;
  }
}

