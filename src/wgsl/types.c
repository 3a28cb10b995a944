/*
 * types.c — interning and layout of WGSL types (see types.h). The resolver
 * asks for types by shape; layout follows the spec's alignment and size
 * tables so that every byte of a buffer lands where a GPU would put it.
 */
#include "types.h"

#include <stdio.h>
#include <string.h>

static uint32_t round_up(uint32_t k, uint32_t n) { return k ? (n + k - 1) / k * k : n; }

/* Interning: a hash of the fields that identify a type (its shape, not
 * its layout), so asking for a type costs the same however many exist.
 * Structures are never shared. */
static unsigned key_hash(const type *p) {
  uintptr_t w[] = {(uintptr_t)p->kind, (uintptr_t)p->elem, p->n, p->rows, (uintptr_t)p->count_decl,
                   (uintptr_t)p->count_expr, (uintptr_t)p->space, (uintptr_t)p->access,
                   (uintptr_t)p->tex_kind, (uintptr_t)p->tex_dim, (uintptr_t)p->tex_format};
  uint64_t h = 1469598103934665603u;
  for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++) h = (h ^ (uint64_t)w[i]) * 1099511628211u;
  return (unsigned)(h ^ (h >> 29));
}

static int same_key(const type *a, const type *b) {
  return a->kind == b->kind && a->elem == b->elem && a->n == b->n && a->rows == b->rows &&
         a->count_decl == b->count_decl && a->count_expr == b->count_expr && a->space == b->space &&
         a->access == b->access && a->tex_kind == b->tex_kind && a->tex_dim == b->tex_dim &&
         a->tex_format == b->tex_format;
}

static void hash_put(type_table *t, const type *ty) {
  if ((t->hcount + 1) * 2 > t->hcap) {
    unsigned cap = t->hcap ? t->hcap * 2 : 256;
    const type **h = arena_alloc(t->arena, sizeof *h * cap);
    if (!h) return; /* lookups fall back to making a new type */
    memset(h, 0, sizeof *h * cap);
    for (unsigned i = 0; i < t->hcap; i++) {
      if (!t->hash[i]) continue;
      unsigned k = key_hash(t->hash[i]) & (cap - 1);
      while (h[k]) k = (k + 1) & (cap - 1);
      h[k] = t->hash[i];
    }
    t->hash = h;
    t->hcap = cap;
  }
  unsigned k = key_hash(ty) & (t->hcap - 1);
  while (t->hash[k]) k = (k + 1) & (t->hcap - 1);
  t->hash[k] = ty;
  t->hcount++;
}

static type *add(type_table *t, type proto) {
  type *ty = arena_alloc(t->arena, sizeof *ty);
  if (!ty) return NULL;
  *ty = proto;
  ty->depth = 1;
  if (ty->elem) ty->depth = ty->elem->depth + 1;
  for (int i = 0; i < ty->nfields; i++)
    if (ty->fields[i].type && ty->fields[i].type->depth + 1 > ty->depth) ty->depth = ty->fields[i].type->depth + 1;
  if (t->count == t->cap) {
    int cap = t->cap ? t->cap * 2 : 64;
    type **items = arena_grow(t->arena, t->items, (size_t)t->count, (size_t)cap, sizeof *items);
    if (!items) return ty;
    t->items = items;
    t->cap = cap;
  }
  t->items[t->count++] = ty;
  if (ty->kind != TY_STRUCT) hash_put(t, ty);
  return ty;
}

static const type *intern(type_table *t, type proto) {
  if (t->hcap)
    for (unsigned k = key_hash(&proto) & (t->hcap - 1); t->hash[k]; k = (k + 1) & (t->hcap - 1))
      if (same_key(t->hash[k], &proto)) return t->hash[k];
  return add(t, proto);
}

static const type *scalar(type_table *t, type_kind k, uint32_t size) {
  type p = {.kind = k, .align = size, .size = size, .words = 1};
  return add(t, p);
}

void types_init(type_table *t, arena *a) {
  memset(t, 0, sizeof *t);
  t->arena = a;
  t->t_void = add(t, (type){.kind = TY_VOID});
  t->t_bool = scalar(t, TY_BOOL, 4);
  t->t_i32 = scalar(t, TY_I32, 4);
  t->t_u32 = scalar(t, TY_U32, 4);
  t->t_f32 = scalar(t, TY_F32, 4);
  t->t_f16 = scalar(t, TY_F16, 2);
  t->t_aint = scalar(t, TY_AINT, 8);
  t->t_afloat = scalar(t, TY_AFLOAT, 8);
}

const type *types_vec(type_table *t, const type *elem, uint32_t n) {
  uint32_t s = elem->size;
  type p = {.kind = TY_VEC, .elem = elem, .n = n, .words = n};
  p.align = (n == 2 ? 2 : 4) * s;
  p.size = n * s;
  return intern(t, p);
}

const type *types_mat(type_table *t, const type *elem, uint32_t cols, uint32_t rows) {
  const type *col = types_vec(t, elem, rows);
  type p = {.kind = TY_MAT, .elem = elem, .n = cols, .rows = rows, .words = cols * rows};
  p.align = col->align;
  p.size = cols * round_up(col->align, col->size);
  p.stride = round_up(col->align, col->size);
  return intern(t, p);
}

const type *types_array(type_table *t, const type *elem, uint32_t n, ast_decl *count_decl) {
  type p = {.kind = TY_ARRAY, .elem = elem, .n = n, .count_decl = count_decl};
  p.align = elem->align;
  p.stride = round_up(elem->align, elem->size);
  p.size = n * p.stride;
  p.words = n * elem->words;
  return intern(t, p);
}

const type *types_array_expr(type_table *t, const type *elem, ast_expr *count) {
  type p = {.kind = TY_ARRAY, .elem = elem, .count_expr = count};
  p.align = elem->align;
  p.stride = round_up(elem->align, elem->size);
  return intern(t, p);
}

const type *types_atomic(type_table *t, const type *elem) {
  type p = {.kind = TY_ATOMIC, .elem = elem, .align = elem->align, .size = elem->size, .words = elem->words};
  return intern(t, p);
}

const type *types_ptr(type_table *t, type_kind kind, addr_space s, const type *store,
                      access_mode a) {
  type p = {.kind = kind, .elem = store, .space = s, .access = a};
  return intern(t, p);
}

const type *types_texture(type_table *t, int kind, int dim, const type *sampled, int format,
                          access_mode a) {
  type p = {.kind = TY_TEXTURE, .elem = sampled, .tex_kind = kind, .tex_dim = dim,
            .tex_format = format, .access = a, .space = AS_HANDLE};
  return intern(t, p);
}

const type *types_binding_array(type_table *t, const type *elem, uint32_t n) {
  type p = {.kind = TY_BINDING_ARRAY, .elem = elem, .n = n, .space = AS_HANDLE};
  return intern(t, p);
}

const type *types_buffer(type_table *t, uint32_t n) {
  type p = {.kind = TY_BUFFER, .n = n, .align = 16, .size = n};
  return intern(t, p);
}

const type *types_sgmat(type_table *t, sgmat_use use, const type *elem, int eight_bit,
                        uint32_t cols, uint32_t rows) {
  /* not host-shareable: the layout only has to make arrays of them valid */
  type p = {.kind = TY_SGMAT, .elem = elem, .tex_kind = (int)use, .tex_format = eight_bit,
            .n = cols, .rows = rows, .align = 4, .size = 4, .words = 1};
  return intern(t, p);
}

const type *types_sampler(type_table *t, int comparison) {
  type p = {.kind = TY_SAMPLER, .tex_kind = comparison, .space = AS_HANDLE};
  return intern(t, p);
}

const char *const types_texel_formats[] = {
    "rgba8unorm", "rgba8snorm", "rgba8uint", "rgba8sint", "rgba16uint", "rgba16sint",
    "rgba16float", "r32uint", "r32sint", "r32float", "rg32uint", "rg32sint", "rg32float",
    "rgba32uint", "rgba32sint", "rgba32float", "bgra8unorm", "r8unorm", "r8snorm", "r8uint",
    "r8sint", "r16uint", "r16sint", "r16float", "rg8unorm", "rg8snorm", "rg8uint", "rg8sint",
    "rg16uint", "rg16sint", "rg16float", "rgb10a2uint", "rgb10a2unorm", "rg11b10ufloat",
    "r16unorm", "r16snorm", "rg16unorm", "rg16snorm", "rgba16unorm", "rgba16snorm", NULL};

const type *types_texel_channel(type_table *t, int format) {
  const char *f = types_texel_formats[format];
  size_t n = strlen(f);
  if (n >= 4 && !strcmp(f + n - 4, "uint")) return t->t_u32;
  if (n >= 4 && !strcmp(f + n - 4, "sint")) return t->t_i32;
  return t->t_f32;
}

const type *types_struct(type_table *t, const char *name, type_field *fields, int n,
                         const type *concrete) {
  type p = {.kind = TY_STRUCT, .name = name, .fields = fields, .nfields = n, .concrete = concrete};
  /* in 64 bits: members that add up past 4 GiB are refused, not wrapped */
  uint64_t off = 0, words = 0;
  uint32_t align = 1;
  for (int i = 0; i < n; i++) {
    const type *m = fields[i].type;
    uint32_t a = fields[i].attr_align ? fields[i].attr_align : m->align;
    uint32_t sz = fields[i].attr_size ? fields[i].attr_size : m->size;
    if (a) off = (off + a - 1) / a * a;
    if (off > UINT32_MAX) return NULL;
    fields[i].offset = (uint32_t)off;
    off += sz;
    if (a > align) align = a;
    words += m->words;
  }
  off = (off + align - 1) / align * align;
  if (off > UINT32_MAX || words > UINT32_MAX) return NULL;
  p.align = align;
  p.size = (uint32_t)off;
  p.words = (uint32_t)words;
  return add(t, p);
}

int type_is_scalar(const type *t) { return t && t->kind >= TY_BOOL && t->kind <= TY_AFLOAT; }
int type_is_numeric_scalar(const type *t) {
  return t && t->kind >= TY_I32 && t->kind <= TY_AFLOAT;
}
int type_is_integer_scalar(const type *t) {
  return t && (t->kind == TY_I32 || t->kind == TY_U32 || t->kind == TY_AINT);
}
int type_is_float_scalar(const type *t) {
  return t && (t->kind == TY_F32 || t->kind == TY_F16 || t->kind == TY_AFLOAT);
}

int type_is_abstract(const type *t) {
  if (!t) return 0;
  switch (t->kind) {
  case TY_AINT:
  case TY_AFLOAT: return 1;
  case TY_VEC:
  case TY_MAT:
  case TY_ARRAY: return type_is_abstract(t->elem);
  case TY_STRUCT: return t->concrete != NULL;
  default: return 0;
  }
}

int type_is_constructible(const type *t) {
  switch (t->kind) {
  case TY_BOOL: case TY_I32: case TY_U32: case TY_F32: case TY_F16: case TY_AINT:
  case TY_AFLOAT: case TY_VEC: case TY_MAT: case TY_SGMAT: return 1;
  case TY_ARRAY: return t->n > 0 && !TYPE_OVERRIDE_SIZED(t) && type_is_constructible(t->elem);
  case TY_STRUCT:
    for (int i = 0; i < t->nfields; i++)
      if (!type_is_constructible(t->fields[i].type)) return 0;
    return 1;
  default: return 0;
  }
}

int type_is_host_shareable(const type *t) {
  switch (t->kind) {
  case TY_I32: case TY_U32: case TY_F32: case TY_F16: case TY_ATOMIC: return 1;
  case TY_VEC: case TY_MAT: return type_is_host_shareable(t->elem);
  case TY_ARRAY: return type_is_host_shareable(t->elem);
  case TY_STRUCT:
    for (int i = 0; i < t->nfields; i++)
      if (!type_is_host_shareable(t->fields[i].type)) return 0;
    return 1;
  default: return 0;
  }
}

int type_has_runtime_array(const type *t) {
  if (t->kind == TY_ARRAY) return t->n == 0 && !TYPE_OVERRIDE_SIZED(t);
  if (t->kind == TY_STRUCT && t->nfields > 0)
    return type_has_runtime_array(t->fields[t->nfields - 1].type);
  return 0;
}

int type_has_atomic(const type *t) {
  if (t->kind == TY_ATOMIC) return 1;
  if (t->kind == TY_ARRAY) return type_has_atomic(t->elem);
  if (t->kind == TY_STRUCT)
    for (int i = 0; i < t->nfields; i++)
      if (type_has_atomic(t->fields[i].type)) return 1;
  return 0;
}

int type_has_override_array(const type *t) {
  if (t->kind == TY_ARRAY) return TYPE_OVERRIDE_SIZED(t) || type_has_override_array(t->elem);
  if (t->kind == TY_STRUCT)
    for (int i = 0; i < t->nfields; i++)
      if (type_has_override_array(t->fields[i].type)) return 1;
  return 0;
}

int type_has_sgmat(const type *t) {
  if (!t) return 0;
  if (t->kind == TY_SGMAT) return 1;
  if (t->kind == TY_ARRAY) return type_has_sgmat(t->elem);
  if (t->kind == TY_STRUCT)
    for (int i = 0; i < t->nfields; i++)
      if (type_has_sgmat(t->fields[i].type)) return 1;
  return 0;
}

const type *type_scalar_of(const type *t) {
  if (!t) return NULL;
  if (t->kind == TY_VEC || t->kind == TY_MAT) return t->elem;
  if (type_is_scalar(t)) return t;
  return NULL;
}

const type *type_unref(const type *t) { return t && t->kind == TY_REF ? t->elem : t; }

const type *types_concretize(type_table *t, const type *ty) {
  if (!ty) return ty;
  switch (ty->kind) {
  case TY_AINT: return t->t_i32;
  case TY_AFLOAT: return t->t_f32;
  case TY_VEC: return types_vec(t, types_concretize(t, ty->elem), ty->n);
  case TY_MAT: return types_mat(t, types_concretize(t, ty->elem), ty->n, ty->rows);
  case TY_ARRAY:
    return type_is_abstract(ty) ? types_array(t, types_concretize(t, ty->elem), ty->n, ty->count_decl)
                                : ty;
  case TY_STRUCT: return ty->concrete ? ty->concrete : ty;
  default: return ty;
  }
}

const type *types_with_scalar(type_table *t, const type *shape, const type *s) {
  if (shape->kind == TY_VEC) return types_vec(t, s, shape->n);
  if (shape->kind == TY_MAT) return types_mat(t, s, shape->n, shape->rows);
  return s;
}

const char *addr_space_name(addr_space s) {
  static const char *names[] = {"none",    "function", "private",  "workgroup",
                                "uniform", "storage",  "handle",   "immediate",
                                "pixel_local"};
  return names[s];
}

const char *access_name(access_mode a) {
  static const char *names[] = {"none", "read", "write", "read_write"};
  return names[a];
}

static void put(char *buf, unsigned len, unsigned *n, const char *s) {
  while (*s && *n + 1 < len) buf[(*n)++] = *s++;
  buf[*n] = 0;
}

static void name_into(const type *t, char *buf, unsigned len, unsigned *n) {
  char tmp[32];
  if (!t) {
    put(buf, len, n, "<error>");
    return;
  }
  switch (t->kind) {
  case TY_VOID: put(buf, len, n, "void"); break;
  case TY_BOOL: put(buf, len, n, "bool"); break;
  case TY_I32: put(buf, len, n, "i32"); break;
  case TY_U32: put(buf, len, n, "u32"); break;
  case TY_F32: put(buf, len, n, "f32"); break;
  case TY_F16: put(buf, len, n, "f16"); break;
  case TY_AINT: put(buf, len, n, "abstract-int"); break;
  case TY_AFLOAT: put(buf, len, n, "abstract-float"); break;
  case TY_VEC:
    snprintf(tmp, sizeof tmp, "vec%u<", t->n);
    put(buf, len, n, tmp);
    name_into(t->elem, buf, len, n);
    put(buf, len, n, ">");
    break;
  case TY_MAT:
    snprintf(tmp, sizeof tmp, "mat%ux%u<", t->n, t->rows);
    put(buf, len, n, tmp);
    name_into(t->elem, buf, len, n);
    put(buf, len, n, ">");
    break;
  case TY_ARRAY:
    put(buf, len, n, "array<");
    name_into(t->elem, buf, len, n);
    if (t->count_expr) {
      put(buf, len, n, ", (override-expression)");
    } else if (t->count_decl) {
      put(buf, len, n, ", ");
      put(buf, len, n, t->count_decl->name);
    } else if (t->n) {
      snprintf(tmp, sizeof tmp, ", %u", t->n);
      put(buf, len, n, tmp);
    }
    put(buf, len, n, ">");
    break;
  case TY_STRUCT: put(buf, len, n, t->name); break;
  case TY_ATOMIC:
    put(buf, len, n, "atomic<");
    name_into(t->elem, buf, len, n);
    put(buf, len, n, ">");
    break;
  case TY_PTR:
  case TY_REF:
    put(buf, len, n, t->kind == TY_PTR ? "ptr<" : "ref<");
    put(buf, len, n, addr_space_name(t->space));
    put(buf, len, n, ", ");
    name_into(t->elem, buf, len, n);
    if (t->space == AS_STORAGE) {
      put(buf, len, n, ", ");
      put(buf, len, n, access_name(t->access));
    }
    put(buf, len, n, ">");
    break;
  case TY_SAMPLER: put(buf, len, n, t->tex_kind ? "sampler_comparison" : "sampler"); break;
  case TY_BINDING_ARRAY:
    put(buf, len, n, "binding_array<");
    name_into(t->elem, buf, len, n);
    snprintf(tmp, sizeof tmp, ", %u>", t->n);
    put(buf, len, n, tmp);
    break;
  case TY_BUFFER:
    if (t->n) snprintf(tmp, sizeof tmp, "buffer<%u>", t->n);
    else snprintf(tmp, sizeof tmp, "buffer");
    put(buf, len, n, tmp);
    break;
  case TY_SGMAT: {
    static const char *const uses[] = {"left", "right", "result"};
    put(buf, len, n, "subgroup_matrix_");
    put(buf, len, n, uses[t->tex_kind]);
    put(buf, len, n, "<");
    if (t->tex_format) put(buf, len, n, t->tex_format == 1 ? "i8" : "u8");
    else name_into(t->elem, buf, len, n);
    snprintf(tmp, sizeof tmp, ", %u, %u>", t->n, t->rows);
    put(buf, len, n, tmp);
    break;
  }
  case TY_TEXTURE: {
    static const char *const dims[] = {"1d", "2d", "2d_array", "3d", "cube", "cube_array"};
    switch (t->tex_kind) {
    case TEX_SAMPLED: case TEX_MULTISAMPLED:
      put(buf, len, n, t->tex_kind == TEX_SAMPLED ? "texture_" : "texture_multisampled_");
      put(buf, len, n, dims[t->tex_dim]);
      put(buf, len, n, "<");
      name_into(t->elem, buf, len, n);
      put(buf, len, n, ">");
      break;
    case TEX_DEPTH: put(buf, len, n, "texture_depth_"); put(buf, len, n, dims[t->tex_dim]); break;
    case TEX_DEPTH_MS: put(buf, len, n, "texture_depth_multisampled_2d"); break;
    case TEX_EXTERNAL: put(buf, len, n, "texture_external"); break;
    case TEX_INPUT_ATTACHMENT:
      put(buf, len, n, "input_attachment<");
      name_into(t->elem, buf, len, n);
      put(buf, len, n, ">");
      break;
    default:
      put(buf, len, n, t->tex_kind == TEX_BUFFER ? "texel_buffer<" : "texture_storage_");
      if (t->tex_kind == TEX_STORAGE) {
        put(buf, len, n, dims[t->tex_dim]);
        put(buf, len, n, "<");
      }
      put(buf, len, n, types_texel_formats[t->tex_format]);
      put(buf, len, n, ", ");
      put(buf, len, n, access_name(t->access));
      put(buf, len, n, ">");
      break;
    }
    break;
  }
  }
}

const char *type_name(const type *t, char *buf, unsigned len) {
  unsigned n = 0;
  if (len) buf[0] = 0;
  name_into(t, buf, len, &n);
  return buf;
}
