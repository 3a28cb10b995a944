/*
 * lower_texture.c — the texture built-ins of compute shaders to the
 * texture opcodes (op.def: TLD, TST, TSMP, TQRY): textureLoad,
 * textureStore, textureDimensions, textureNumLevels and textureNumLayers,
 * and the sampling functions a compute shader may call (textureSampleLevel,
 * textureSampleGrad, textureSampleBaseClampToEdge, textureGather,
 * textureGatherCompare, textureSampleCompareLevel) on the module-scope
 * texture and sampler variables lowering places as binding slots (lower.c).
 * A handle parameter of a function names the caller's variable: calls are
 * inlined, so it is that variable's slot.
 *
 * A texel address is four fresh consecutive registers (x, y, z-or-layer,
 * level) so the VM reads one run whatever the texture's dimension; what
 * the type lacks is 0. A sampling instruction reads a block of IR_SMPIN_COUNT
 * registers (ir.h) and points at a descriptor (ir_program.samples) with
 * the sampler slot and the const operands; those descriptors are also the
 * texture-sampler pairs the API validates against the layout.
 */
#include <stdlib.h>

#include "lower_int.h"

static val bad(void) { return (val){0}; }

int lw_handle_slot(lw *L, ast_expr *x, uint32_t *slot) {
  if (x && x->kind == EX_IDENT && x->ref == REF_DECL && x->decl) {
    ast_decl *d = x->decl;
    if (d->kind == DECL_VAR) {
      ref r = lw_global(L, d);
      if (L->failed) return 0;
      *slot = r.slot;
      return 1;
    }
    if ((d->kind == DECL_PARAM || d->kind == DECL_LET) && d->lower) {
      *slot = ((const binding *)d->lower)->r.slot;
      return 1;
    }
  }
  lw_fail(L, x ? x->span : L->span,
          "this texture or sampler expression is not supported by lockstep yet");
  return 0;
}

/* Copies n components of v (a scalar: one) into dst.. */
static void put(lw *L, uint32_t dst, val v, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) lw_emit(L, IR_MOV, dst + i, v.reg + (v.n == 1 ? 0 : i), 0, 0);
}

/* Evaluates argument a into the n registers at dst. */
static int arg_into(lw *L, ast_expr *a, uint32_t dst, uint32_t n) {
  val v = lw_value(L, a);
  if (L->failed) return 0;
  put(L, dst, v, n < v.n ? n : v.n);
  return 1;
}

/* n fresh registers holding 0: an input block whose absent parts read 0. */
static uint32_t zeroed_block(lw *L, uint32_t n) {
  const uint32_t blk = lw_reg(L, n), zero = lw_const(L, 0);
  for (uint32_t i = 0; i < n; i++) lw_emit(L, IR_MOV, blk + i, zero, 0, 0);
  return blk;
}

/* The texel address block of textureLoad / textureStore: coords, then the
 * array index when the texture is arrayed, then (load of a sampled
 * texture) the level. Arguments run left to right and each is copied
 * before the next, so none can alias a variable a later call changes. */
static uint32_t address(lw *L, ast_expr **args, int nargs, int arrayed, int level, int *next) {
  const uint32_t blk = zeroed_block(L, 4);
  int k = 1;
  if (!arg_into(L, args[k++], blk, 3)) return 0;
  if (arrayed && k < nargs && !arg_into(L, args[k++], blk + 2, 1)) return 0;
  if (level && k < nargs && !arg_into(L, args[k++], blk + 3, 1)) return 0;
  *next = k;
  return blk;
}

static int is_arrayed(ir_tex_dim d) { return d == IR_TEXDIM_2D_ARRAY || d == IR_TEXDIM_CUBE_ARRAY; }

/* A new TSMP descriptor; its index, or UINT32_MAX out of memory. */
static uint32_t new_sample(lw *L, const ir_sample *smp) {
  if (L->nsamples == L->capsamples) {
    uint32_t cap = L->capsamples ? L->capsamples * 2 : 8;
    ir_sample *n = realloc(L->samples, cap * sizeof *n);
    if (!n) {
      lw_fail(L, smp->span, "out of memory");
      return UINT32_MAX;
    }
    L->samples = n;
    L->capsamples = cap;
  }
  L->samples[L->nsamples] = *smp;
  return L->nsamples++;
}

static int is_unsigned(const ast_expr *a) {
  const type *t = type_unref(a->type);
  return t && t->kind == TY_U32;
}

/* The sampling built-ins: the input block, then one TSMP. */
static val sample(lw *L, ast_expr *e, builtin_fn f) {
  ast_expr **args = e->u.call.args;
  const int n = e->u.call.nargs;
  ir_sample smp = {.span = e->span};
  int k = 0;
  if (f == BF_TEXTURE_GATHER && n > 0 && args[0]->type &&
      type_unref(args[0]->type)->kind != TY_TEXTURE) {
    smp.component = (uint8_t)(args[0]->cval ? args[0]->cval->i : 0);
    k = 1;
  }
  if (n < k + 3) {
    lw_fail(L, e->span, "%s with too few arguments", builtin_fn_name(f));
    return bad();
  }
  if (!lw_handle_slot(L, args[k], &smp.texture) || !lw_handle_slot(L, args[k + 1], &smp.sampler))
    return bad();
  k += 2;
  const ir_binding *bd = &L->bindings[smp.texture];
  const int depth = bd->tex_sample == IR_TEXS_DEPTH;
  smp.kind = f == BF_TEXTURE_SAMPLE_LEVEL           ? IR_SMP_LEVEL
             : f == BF_TEXTURE_SAMPLE_GRAD          ? IR_SMP_GRAD
             : f == BF_TEXTURE_SAMPLE_BASE_CLAMP    ? IR_SMP_BASE_CLAMP
             : f == BF_TEXTURE_GATHER               ? IR_SMP_GATHER
             : f == BF_TEXTURE_GATHER_COMPARE       ? IR_SMP_GATHER_CMP
                                                    : IR_SMP_CMP_LEVEL;
  const uint32_t blk = zeroed_block(L, IR_SMPIN_COUNT);
  if (!arg_into(L, args[k++], blk + IR_SMPIN_COORD, 3)) return bad();
  if (is_arrayed(bd->tex_dim) && k < n) {
    if (is_unsigned(args[k])) smp.flags |= IR_SMPF_INDEX_U32;
    if (!arg_into(L, args[k++], blk + IR_SMPIN_INDEX, 1)) return bad();
  }
  switch (smp.kind) {
  case IR_SMP_LEVEL:
    if (k < n) {
      /* a depth texture's level is an integer, the others' an f32 */
      if (depth) smp.flags |= IR_SMPF_LEVEL_INT | (is_unsigned(args[k]) ? IR_SMPF_LEVEL_U32 : 0);
      if (!arg_into(L, args[k++], blk + IR_SMPIN_LEVEL, 1)) return bad();
    }
    break;
  case IR_SMP_GRAD:
    if (k + 1 < n) {
      if (!arg_into(L, args[k++], blk + IR_SMPIN_DDX, 3)) return bad();
      if (!arg_into(L, args[k++], blk + IR_SMPIN_DDY, 3)) return bad();
    }
    break;
  case IR_SMP_GATHER_CMP:
  case IR_SMP_CMP_LEVEL:
    if (k < n && !arg_into(L, args[k++], blk + IR_SMPIN_REF, 1)) return bad();
    break;
  default: break;
  }
  if (k < n) {
    /* the texel offset: a const-expression (the resolver checked its range) */
    const cvalue *cv = args[k]->cval;
    for (int i = 0; cv && i < cv->n && i < 3; i++) smp.offset[i] = (int8_t)cv->elems[i]->i;
  }
  const uint32_t idx = new_sample(L, &smp);
  if (idx == UINT32_MAX) return bad();
  const uint32_t d = lw_reg(L, 4);
  lw_emit(L, IR_TSMP, d, blk, smp.texture, idx);
  const int scalar = depth && smp.kind != IR_SMP_GATHER && smp.kind != IR_SMP_GATHER_CMP;
  return (val){.reg = d, .n = scalar ? 1 : 4, .type = e->type};
}

val lw_texture_builtin(lw *L, ast_expr *e, builtin_fn f) {
  switch (f) {
  case BF_TEXTURE_SAMPLE_LEVEL: case BF_TEXTURE_SAMPLE_GRAD: case BF_TEXTURE_SAMPLE_BASE_CLAMP:
  case BF_TEXTURE_GATHER: case BF_TEXTURE_GATHER_COMPARE: case BF_TEXTURE_SAMPLE_COMPARE_LEVEL:
    return sample(L, e, f);
  default: break;
  }
  ast_expr **args = e->u.call.args;
  int n = e->u.call.nargs;
  uint32_t slot;
  if (n < 1 || !lw_handle_slot(L, args[0], &slot)) return bad();
  const ir_binding *bd = &L->bindings[slot];
  const int arrayed = is_arrayed(bd->tex_dim);
  switch (f) {
  case BF_TEXTURE_DIMENSIONS: {
    uint32_t lv = lw_const(L, 0);
    if (n > 1) {
      val v = lw_value(L, args[1]);
      if (L->failed) return bad();
      lv = v.reg;
    }
    uint32_t d = lw_reg(L, 3);
    lw_emit(L, IR_TQRY, d, lv, slot, 0);
    uint32_t w = bd->tex_dim == IR_TEXDIM_1D ? 1 : bd->tex_dim == IR_TEXDIM_3D ? 3 : 2;
    return (val){.reg = d, .n = w, .type = e->type};
  }
  case BF_TEXTURE_NUM_SAMPLES: {
    uint32_t d = lw_reg(L, 3);
    lw_emit(L, IR_TQRY, d, lw_const(L, 0), slot, 4);
    return (val){.reg = d, .n = 1, .type = e->type};
  }
  case BF_TEXTURE_NUM_LEVELS:
  case BF_TEXTURE_NUM_LAYERS: {
    uint32_t d = lw_reg(L, 3);
    /* a cube array's layers are 6 per cube */
    lw_emit(L, IR_TQRY, d, lw_const(L, 0), slot,
            f == BF_TEXTURE_NUM_LEVELS ? 1 : bd->tex_dim == IR_TEXDIM_CUBE_ARRAY ? 3 : 2);
    return (val){.reg = d, .n = 1, .type = e->type};
  }
  case BF_TEXTURE_LOAD: {
    int k;
    uint32_t blk = address(L, args, n, arrayed, bd->kind == IR_BIND_SAMPLED_TEXTURE, &k);
    if (L->failed) return bad();
    uint32_t d = lw_reg(L, 4);
    lw_emit(L, IR_TLD, d, blk, slot, 0);
    /* a depth texture's texel is its depth, in component 0 */
    return (val){.reg = d, .n = bd->tex_sample == IR_TEXS_DEPTH ? 1 : 4, .type = e->type};
  }
  case BF_TEXTURE_STORE: {
    int k;
    uint32_t blk = address(L, args, n, arrayed, 0, &k);
    if (L->failed) return bad();
    if (k >= n) {
      lw_fail(L, e->span, "textureStore without a value");
      return bad();
    }
    val v = lw_value(L, args[k]);
    if (L->failed) return bad();
    uint32_t vb = lw_reg(L, 4);
    put(L, vb, v, 4);
    lw_emit(L, IR_TST, blk, vb, slot, 0);
    return bad();
  }
  default:
    lw_fail(L, e->span, "the built-in function '%s' is not supported by lockstep yet",
            builtin_fn_name(f));
    return bad();
  }
}
