/*
 * lower_texture.c — the texture built-ins of compute shaders to the
 * texture opcodes (op.def: TLD, TST, TQRY): textureLoad, textureStore,
 * textureDimensions, textureNumLevels and textureNumLayers on the
 * module-scope texture variables lowering places as binding slots
 * (lower.c). A texel address is four fresh consecutive registers (x, y,
 * z-or-layer, level) so the VM reads one run whatever the texture's
 * dimension; what the type lacks is 0.
 */
#include "lower_int.h"

static val bad(void) { return (val){0}; }

/* The binding slot of the texture an argument names. */
static int texture_slot(lw *L, ast_expr *x, uint32_t *slot) {
  if (x && x->kind == EX_IDENT && x->ref == REF_DECL && x->decl && x->decl->kind == DECL_VAR) {
    ref r = lw_global(L, x->decl);
    if (L->failed) return 0;
    *slot = r.slot;
    return 1;
  }
  lw_fail(L, x ? x->span : L->span,
          "a texture that is not a module-scope variable is not supported by lockstep yet");
  return 0;
}

/* Copies n components of v (a scalar: one) into dst.. */
static void put(lw *L, uint32_t dst, val v, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) lw_emit(L, IR_MOV, dst + i, v.reg + (v.n == 1 ? 0 : i), 0, 0);
}

/* The texel address block of textureLoad / textureStore: coords, then the
 * array index when the texture is arrayed, then (load of a sampled
 * texture) the level. Arguments run left to right and each is copied
 * before the next, so none can alias a variable a later call changes. */
static uint32_t address(lw *L, ast_expr **args, int nargs, int arrayed, int level, int *next) {
  uint32_t blk = lw_reg(L, 4);
  const uint32_t zero = lw_const(L, 0);
  for (int i = 0; i < 4; i++) lw_emit(L, IR_MOV, blk + (uint32_t)i, zero, 0, 0);
  int k = 1;
  val c = lw_value(L, args[k++]);
  if (L->failed) return 0;
  put(L, blk, c, c.n);
  if (arrayed && k < nargs) {
    val a = lw_value(L, args[k++]);
    if (L->failed) return 0;
    put(L, blk + 2, a, 1);
  }
  if (level && k < nargs) {
    val lv = lw_value(L, args[k++]);
    if (L->failed) return 0;
    put(L, blk + 3, lv, 1);
  }
  *next = k;
  return blk;
}

val lw_texture_builtin(lw *L, ast_expr *e, builtin_fn f) {
  ast_expr **args = e->u.call.args;
  int n = e->u.call.nargs;
  uint32_t slot;
  if (n < 1 || !texture_slot(L, args[0], &slot)) return bad();
  const ir_binding *bd = &L->bindings[slot];
  const int arrayed = bd->tex_dim == IR_TEXDIM_2D_ARRAY;
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
  case BF_TEXTURE_NUM_LEVELS:
  case BF_TEXTURE_NUM_LAYERS: {
    uint32_t d = lw_reg(L, 3);
    lw_emit(L, IR_TQRY, d, lw_const(L, 0), slot, f == BF_TEXTURE_NUM_LEVELS ? 1 : 2);
    return (val){.reg = d, .n = 1, .type = e->type};
  }
  case BF_TEXTURE_LOAD: {
    int k;
    uint32_t blk = address(L, args, n, arrayed, bd->kind == IR_BIND_SAMPLED_TEXTURE, &k);
    if (L->failed) return bad();
    uint32_t d = lw_reg(L, 4);
    lw_emit(L, IR_TLD, d, blk, slot, 0);
    return (val){.reg = d, .n = 4, .type = e->type};
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
