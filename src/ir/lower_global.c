/*
 * lower_global.c — where the module-scope variables an entry point uses live
 * for this pipeline: resources become binding slots (ir_binding: buffers,
 * textures, samplers, immediate data), workgroup variables are placed in
 * workgroup memory (and remembered for observers as ir_wgvar), private
 * ones in registers or per-invocation memory. Each is placed on its first
 * use, so unused variables take nothing. Also the sizes that depend on the
 * pipeline (override-sized arrays). Called by the expression lowering
 * (lower_expr.c, lower_texture.c) and the driver (lower.c); calls only the
 * emitter (emit.c) and the resolver's evaluation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_int.h"

/* ---------------------------------------------------------------- sizes */

uint32_t lw_array_count(lw *L, const type *t, src_span s) {
  if (!TYPE_OVERRIDE_SIZED(t)) return t->n;
  ast_expr id = {.kind = EX_IDENT, .span = s, .ref = REF_DECL, .decl = t->count_decl};
  const cvalue *v = sema_eval(L->m, t->count_expr ? t->count_expr : &id, &L->env, L->d);
  if (!v) {
    L->failed = 1;
    return 1;
  }
  if (v->i <= 0 || v->i > (1 << 24)) {
    if (t->count_expr)
      lw_fail(L, t->count_expr->span, "this array count is %lld; it must be between 1 and %d",
              (long long)v->i, 1 << 24);
    else
      lw_fail(L, s, "override '%s' = %lld sizes an array; the count must be between 1 and %d",
              t->count_decl->name, (long long)v->i, 1 << 24);
    return 1;
  }
  return (uint32_t)v->i;
}

uint64_t lw_type_size(lw *L, const type *t, src_span s) {
  if (t->kind == TY_ARRAY && TYPE_OVERRIDE_SIZED(t))
    return (uint64_t)lw_array_count(L, t, s) * t->stride;
  return t->size;
}

static uint64_t align_up(uint64_t x, uint32_t a) { return (x + a - 1) / a * a; }

/* ------------------------------------------------- invocation memory */

void lw_list_sizes(char *b, size_t cap, const lw_sized *v, uint32_t n, uint32_t total) {
  size_t k = 0;
  b[0] = 0;
  for (uint32_t i = 0; i < n && k < cap; i++) {
    int w = v[i].name ? snprintf(b + k, cap - k, "%s'%s' %llu bytes", i ? ", " : "", v[i].name,
                                 (unsigned long long)v[i].bytes)
                      : snprintf(b + k, cap - k, "%sa copy of an array value, %llu bytes",
                                 i ? ", " : "", (unsigned long long)v[i].bytes);
    if (w < 0) return;
    k += (size_t)w;
    if (v[i].fn && k < cap) {
      w = snprintf(b + k, cap - k, " in '%s'", v[i].fn);
      if (w < 0) return;
      k += (size_t)w;
    }
  }
  if (total > n && k < cap) snprintf(b + k, cap - k, ", and %u more", total - n);
}

int lw_check_private(lw *L) {
  if (L->priv_bytes <= LW_MAX_PRIVATE_BYTES) return 1;
  ast_module *am = L->m->ast;
  lw_sized v[LW_LIST_SHOWN] = {{0}};
  uint32_t n = 0, total = 0;
  for (int i = 0; i < am->ndecls; i++) {
    ast_decl *d = am->decls[i];
    if (!L->gvars[i].placed || d->kind != DECL_VAR || d->space != AS_PRIVATE ||
        L->gvars[i].r.kind != RF_MEM)
      continue;
    if (n < LW_LIST_SHOWN) v[n++] = (lw_sized){d->name, NULL, d->rtype->size};
    total++;
  }
  char list[512];
  lw_list_sizes(list, sizeof list, v, n, total);
  lw_fail(L, L->entry->name_span,
          "entry point '%s' uses %llu bytes of private memory per invocation (%s), over "
          "lockstep's limit of %llu bytes; keep large data in storage or workgroup memory",
          L->entry->name, (unsigned long long)L->priv_bytes, list,
          (unsigned long long)LW_MAX_PRIVATE_BYTES);
  return 0;
}

uint32_t lw_fn_alloc(lw *L, const type *t, const ast_decl *d, src_span s) {
  uint64_t off = align_up(L->fn_top, t->align < 4 ? 4 : t->align);
  const uint64_t end = off + t->size;
  if (end - L->fn_base > LW_MAX_FUNCTION_BYTES) {
    /* name what the stack already holds at this point */
    lw_sized v[LW_LIST_SHOWN] = {{0}};
    uint32_t n = 0;
    for (; n < L->nfnblocks && n < LW_LIST_SHOWN; n++) {
      const lw_fnblock *f = &L->fnblocks[n];
      v[n] = (lw_sized){f->decl ? f->decl->name : NULL, f->fn ? f->fn->name : NULL, f->bytes};
    }
    char list[512];
    lw_list_sizes(list, sizeof list, v, n, L->nfnblocks);
    char head[160];
    if (d) snprintf(head, sizeof head, "function variable '%s' (%u bytes)", d->name, t->size);
    else
      snprintf(head, sizeof head, "the copy of this array value made to index it at run time (%u bytes)",
               t->size);
    lw_fail(L, d ? d->name_span : s,
            "%s brings the function memory of one invocation to %llu bytes, over lockstep's "
            "limit of %llu bytes (the function variables of every function active at once along "
            "the calls from the entry point)%s%s",
            head, (unsigned long long)(end - L->fn_base),
            (unsigned long long)LW_MAX_FUNCTION_BYTES, n ? "; already held: " : "", list);
    return 0;
  }
  if (L->nfnblocks == L->capfnblocks) {
    uint32_t cap = L->capfnblocks ? L->capfnblocks * 2 : 16;
    lw_fnblock *nb = realloc(L->fnblocks, cap * sizeof *nb);
    if (!nb) {
      lw_fail(L, s, "out of memory");
      return 0;
    }
    L->fnblocks = nb;
    L->capfnblocks = cap;
  }
  L->fnblocks[L->nfnblocks++] = (lw_fnblock){d, L->cur_fn, off, t->size};
  L->fn_top = end;
  if (end > L->fn_peak) L->fn_peak = end;
  return (uint32_t)off;
}

lw_scope lw_scope_enter(const lw *L) { return (lw_scope){L->top, L->fn_top}; }

void lw_scope_leave(lw *L, lw_scope sc) {
  L->top = sc.top;
  L->fn_top = sc.fn_top;
  while (L->nfnblocks && L->fnblocks[L->nfnblocks - 1].off >= sc.fn_top) L->nfnblocks--;
}

int lw_needs_memory(const type *t) {
  /* matrices too: a column may be indexed (and assigned) at run time */
  if (t->kind == TY_ARRAY || t->kind == TY_MAT) return 1;
  if (t->kind == TY_STRUCT)
    for (int i = 0; i < t->nfields; i++)
      if (lw_needs_memory(t->fields[i].type)) return 1;
  return 0;
}

/* -------------------------------------------------------------- globals */

/* WGSL's AccessibleSlots(T) at byte offset off: the 4-byte slots that hold
 * a byte of T other than padding. */
static void imm_slots(const type *t, uint32_t off, uint64_t *mask) {
  switch (t->kind) {
  case TY_VEC:
    for (uint32_t k = 0; k < t->n; k++) imm_slots(t->elem, off + k * t->elem->size, mask);
    return;
  case TY_MAT:
    for (uint32_t c = 0; c < t->n; c++)
      for (uint32_t k = 0; k < t->rows; k++)
        imm_slots(t->elem, off + c * t->align + k * t->elem->size, mask);
    return;
  case TY_ARRAY:
    for (uint32_t i = 0; i < t->n; i++) imm_slots(t->elem, off + i * t->stride, mask);
    return;
  case TY_STRUCT:
    for (int i = 0; i < t->nfields; i++) imm_slots(t->fields[i].type, off + t->fields[i].offset, mask);
    return;
  default: /* a scalar: 4 bytes, or 2 for f16 */
    if (off / 4 < 64) *mask |= UINT64_C(1) << (off / 4);
    return;
  }
}

/* A new binding slot for resource variable d (filled by the caller), or
 * NULL after an error: two variables of one entry point may not share a
 * binding. */
static ir_binding *new_binding(lw *L, ast_decl *d) {
  for (uint32_t i = 0; i < L->nbindings; i++) {
    if (L->bindings[i].group == (uint32_t)d->group && L->bindings[i].binding == (uint32_t)d->binding) {
      lw_fail(L, d->name_span, "'%s' and '%s' both use @group(%d) @binding(%d) in entry point '%s'",
              L->bindings[i].name, d->name, d->group, d->binding, L->entry->name);
      diag_note(L->d, L->bindings[i].span, "'%s' is declared here", L->bindings[i].name);
      return NULL;
    }
  }
  if (L->nbindings == L->capbindings) {
    uint32_t cap = L->capbindings ? L->capbindings * 2 : 8;
    ir_binding *n = realloc(L->bindings, cap * sizeof *n);
    if (!n) {
      lw_fail(L, d->span, "out of memory");
      return NULL;
    }
    L->bindings = n;
    L->capbindings = cap;
  }
  ir_binding *bd = &L->bindings[L->nbindings];
  memset(bd, 0, sizeof *bd);
  bd->group = (uint32_t)d->group;
  bd->binding = (uint32_t)d->binding;
  bd->name = strdup(d->name);
  bd->span = d->span;
  return bd;
}

/* The texel formats lockstep converts (vm/texture.c): the names of
 * LS_TEXTURE_FORMAT_LIST. */
static uint32_t texel_format(const char *name) {
  static const char *const names[] = {
#define X_(n, s) s,
      LS_TEXTURE_FORMAT_LIST(X_)
#undef X_
  };
  for (uint32_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(names[i], name)) return i + 1;
  return 0;
}

/* Fills the texture part of binding bd from the type of d; refuses the
 * texture types lowering does not run yet. */
static int texture_binding(lw *L, ast_decl *d, ir_binding *bd) {
  const type *t = d->rtype;
  char b[96];
  static const ir_tex_dim dims[] = {[TD_1D] = IR_TEXDIM_1D, [TD_2D] = IR_TEXDIM_2D,
                                    [TD_2D_ARRAY] = IR_TEXDIM_2D_ARRAY, [TD_3D] = IR_TEXDIM_3D,
                                    [TD_CUBE] = IR_TEXDIM_CUBE,
                                    [TD_CUBE_ARRAY] = IR_TEXDIM_CUBE_ARRAY};
  const int ms = t->tex_kind == TEX_MULTISAMPLED || t->tex_kind == TEX_DEPTH_MS;
  const int depth = t->tex_kind == TEX_DEPTH || t->tex_kind == TEX_DEPTH_MS;
  if (t->tex_kind == TEX_EXTERNAL) {
    bd->kind = IR_BIND_SAMPLED_TEXTURE;
    bd->tex_dim = IR_TEXDIM_2D;
    bd->tex_sample = IR_TEXS_F32;
    bd->tex_external = 1;
    return 1;
  }
  if ((t->tex_kind != TEX_SAMPLED && t->tex_kind != TEX_STORAGE && !depth && !ms) ||
      t->tex_dim < 0 || t->tex_dim > TD_CUBE_ARRAY) {
    lw_fail(L, d->name_span, "a texture of type %s is not supported by lockstep yet",
            type_name(t, b, sizeof b));
    return 0;
  }
  bd->tex_dim = dims[t->tex_dim];
  if (t->tex_kind != TEX_STORAGE) {
    const type *st = t->elem;
    bd->kind = IR_BIND_SAMPLED_TEXTURE;
    bd->tex_ms = ms;
    bd->tex_sample = depth ? IR_TEXS_DEPTH
                     : st && st->kind == TY_I32 ? IR_TEXS_I32
                     : st && st->kind == TY_U32 ? IR_TEXS_U32
                                                : IR_TEXS_F32;
    return 1;
  }
  const char *fname = types_texel_formats[t->tex_format];
  bd->tex_format = texel_format(fname);
  if (!bd->tex_format) {
    lw_fail(L, d->name_span, "the texel format '%s' is not supported by lockstep yet", fname);
    return 0;
  }
  bd->kind = t->access == ACC_WRITE  ? IR_BIND_WRITE_ONLY_STORAGE_TEXTURE
             : t->access == ACC_READ ? IR_BIND_READ_ONLY_STORAGE_TEXTURE
                                     : IR_BIND_READ_WRITE_STORAGE_TEXTURE;
  return 1;
}

ref lw_global(lw *L, ast_decl *d) {
  gvar *g = &L->gvars[d->index];
  if (g->placed) return g->r;
  ref r = {.kind = RF_MEM, .type = d->rtype, .addr = IR_NO_REG, .space = (addr_space)d->space};
  char b[128];
  if (d->rtype && (d->rtype->kind == TY_TEXTURE || d->rtype->kind == TY_SAMPLER)) {
    ir_binding *bd = new_binding(L, d);
    if (!bd) return r;
    if (d->rtype->kind == TY_SAMPLER) {
      bd->kind = d->rtype->tex_kind ? IR_BIND_COMPARISON_SAMPLER : IR_BIND_SAMPLER;
    } else if (!texture_binding(L, d, bd)) {
      free((char *)bd->name);
      return r;
    }
    r.slot = L->nbindings++;
    g->placed = 1;
    g->r = r;
    return r;
  }
  switch (d->space) {
  case AS_IMMEDIATE: {
    /* read like a uniform buffer, from the pass's immediate data */
    ir_binding *bd = new_binding(L, d);
    if (!bd) return r;
    bd->kind = IR_BIND_IMMEDIATE;
    bd->group = bd->binding = UINT32_MAX;
    bd->min_size = d->rtype->size;
    if (d->rtype->size > 256) {
      lw_fail(L, d->name_span, "immediate data of %u bytes is more than lockstep holds (256)",
              d->rtype->size);
      free((char *)bd->name);
      return r;
    }
    imm_slots(d->rtype, 0, &L->imm_slots);
    r.space = AS_UNIFORM;
    r.slot = L->nbindings++;
    break;
  }
  case AS_STORAGE:
  case AS_UNIFORM: {
    ir_binding *bd = new_binding(L, d);
    if (!bd) return r;
    bd->kind = d->space == AS_UNIFORM ? IR_BIND_UNIFORM
               : d->access == ACC_READ_WRITE ? IR_BIND_STORAGE
                                             : IR_BIND_READ_ONLY_STORAGE;
    const type *t = d->rtype;
    if (t->kind == TY_ARRAY && t->n == 0) bd->min_size = t->stride;
    else if (t->kind == TY_STRUCT && type_has_runtime_array(t)) {
      const type_field *last = &t->fields[t->nfields - 1];
      bd->min_size = last->offset + last->type->stride;
      uint32_t a = t->align;
      bd->min_size = (bd->min_size + a - 1) / a * a;
    } else bd->min_size = t->size;
    r.slot = L->nbindings++;
    break;
  }
  case AS_WORKGROUP: {
    /* offsets past 2^32 are only ever seen by check_workgroup_storage,
     * which refuses them */
    uint64_t size = lw_type_size(L, d->rtype, d->type ? d->type->span : d->span);
    L->wg_bytes = align_up(L->wg_bytes, d->rtype->align < 4 ? 4 : d->rtype->align);
    r.off = (uint32_t)L->wg_bytes;
    L->wg_bytes += size;
    /* remembered for observers: the sanitizer names the variable an
     * access hit (the flags of LDW/STW/ATOMW point back here) */
    ir_wgvar *nw = realloc(L->wgvars, (L->nwgvars + 1) * sizeof *nw);
    char *nm = strdup(d->name);
    if (!nw || !nm) {
      free(nm);
      if (nw) L->wgvars = nw;
      lw_fail(L, d->span, "out of memory");
      return r;
    }
    L->wgvars = nw;
    nw[L->nwgvars] = (ir_wgvar){nm, r.off, (uint32_t)size, d->span};
    r.slot = L->nwgvars++;
    break;
  }
  case AS_PRIVATE:
    if (lw_needs_memory(d->rtype)) {
      /* past 2^32 only lw_check_private sees the offsets, and refuses */
      L->priv_bytes = align_up(L->priv_bytes, d->rtype->align < 4 ? 4 : d->rtype->align);
      r.off = (uint32_t)L->priv_bytes;
      L->priv_bytes += d->rtype->size;
    } else {
      /* registers, allocated below every temporary so they live for the
       * whole program; initialised where the entry point starts */
      r.kind = RF_REG;
      r.reg = lw_reg(L, d->rtype->words);
    }
    break;
  default:
    lw_fail(L, d->span, "variable '%s' of type %s cannot be used here", d->name,
            type_name(d->rtype, b, sizeof b));
    return r;
  }
  g->placed = 1;
  g->r = r;
  return r;
}
