/*
 * types.h — WGSL types as the resolver (sema.c) builds them and lowering
 * (ir/lower.c) reads them. Types are interned per module: two types are equal
 * exactly when their pointers are. Host-shareable layout (alignment, size,
 * member offsets, array strides) is computed when a type is made, following
 * the spec's "Memory Layout" rules; lockstep uses the same layout for every
 * address space.
 */
#ifndef LS_WGSL_TYPES_H
#define LS_WGSL_TYPES_H

#include <stdint.h>

#include "../util/arena.h"
#include "ast.h"

typedef enum type_kind {
  TY_VOID,
  TY_BOOL,
  TY_I32,
  TY_U32,
  TY_F32,
  TY_F16,
  TY_AINT,   /* AbstractInt */
  TY_AFLOAT, /* AbstractFloat */
  TY_VEC,
  TY_MAT,
  TY_ARRAY,
  TY_STRUCT,
  TY_ATOMIC,
  TY_PTR,
  TY_REF,
  TY_TEXTURE, /* every texture type: tex_kind, tex_dim, elem (sampled type),
                 tex_format / access (storage textures) */
  TY_SAMPLER, /* sampler (tex_kind 0) or sampler_comparison (tex_kind 1) */
  TY_BINDING_ARRAY, /* binding_array<T, N> of textures or samplers (elem, n):
                       Dawn's sized_binding_array; validated only */
  TY_BUFFER,  /* buffer<N> (n = N bytes) or the runtime-sized buffer (n = 0):
                 opaque memory read through bufferView/bufferArrayView
                 (§Buffer Types). Validated only; lowering refuses it. */
  TY_SGMAT    /* subgroup_matrix_left/right/result<T, cols, rows>
                 (chromium_experimental_subgroup_matrix): tex_kind = sgmat_use,
                 elem = the shader scalar (i32/u32 for i8/u8), tex_format =
                 the 8-bit component (0 none, 1 i8, 2 u8), n = columns,
                 rows = rows. Validated only; lowering refuses it. */
} type_kind;

typedef enum sgmat_use { SGM_LEFT, SGM_RIGHT, SGM_RESULT } sgmat_use;

/* Texture families (type.tex_kind for TY_TEXTURE). */
typedef enum tex_kind {
  TEX_SAMPLED,      /* texture_1d<T> ... texture_cube_array<T> */
  TEX_MULTISAMPLED, /* texture_multisampled_2d<T> */
  TEX_DEPTH,        /* texture_depth_2d ... texture_depth_cube_array */
  TEX_DEPTH_MS,     /* texture_depth_multisampled_2d */
  TEX_STORAGE,      /* texture_storage_1d<F, A> ... */
  TEX_EXTERNAL,     /* texture_external */
  TEX_BUFFER,       /* texel_buffer<F, A> */
  TEX_INPUT_ATTACHMENT /* input_attachment<T> (chromium_internal_input_attachments) */
} tex_kind;

/* Texture dimensions (type.tex_dim). */
typedef enum tex_dim { TD_1D, TD_2D, TD_2D_ARRAY, TD_3D, TD_CUBE, TD_CUBE_ARRAY } tex_dim;

typedef enum addr_space {
  AS_NONE,
  AS_FUNCTION,
  AS_PRIVATE,
  AS_WORKGROUP,
  AS_UNIFORM,
  AS_STORAGE,
  AS_HANDLE,
  AS_IMMEDIATE,  /* var<immediate> (§Address Spaces): validated; lowering refuses */
  AS_PIXEL_LOCAL /* var<pixel_local> (chromium_experimental_pixel_local): validated */
} addr_space;

typedef enum access_mode { ACC_NONE, ACC_READ, ACC_WRITE, ACC_READ_WRITE } access_mode;

typedef struct type type;

typedef struct type_field {
  const char *name;
  const type *type;
  uint32_t offset;
  uint32_t attr_align, attr_size; /* @align / @size, 0 when absent */
  src_span span;
  const ast_member *decl; /* a declared structure's member (its IO attributes), else NULL */
} type_field;

struct type {
  type_kind kind;
  const type *elem;   /* vec/mat: scalar; array: element; atomic: i32/u32;
                         ptr/ref: store type */
  uint32_t n;         /* vec: width; mat: columns; array: element count,
                         0 = runtime-sized (or override-sized: count_decl) */
  uint32_t rows;      /* mat */
  ast_decl *count_decl; /* array sized by an override: that override */
  ast_expr *count_expr; /* array sized by another override-expression: it
                           (each such expression is its own type, §Array
                           Types; an alias shares it) */
  addr_space space;   /* ptr/ref */
  access_mode access; /* ptr/ref */
  const char *name;   /* struct name */
  type_field *fields; /* struct */
  const type *concrete; /* a built-in result structure with abstract members
                           (__frexp_result_abstract): the structure it
                           concretizes to (__frexp_result_f32) */
  int nfields;
  uint32_t align, size; /* layout; size 0 for runtime-sized arrays */
  uint32_t stride;    /* array: element stride */
  uint32_t words;     /* scalar leaves when held in registers */
  uint32_t depth;     /* nesting: 1 for scalars, 1 + the deepest element or
                         member otherwise (bounded by the resolver, so every
                         recursive walk over a type is bounded) */
  /* TY_TEXTURE / TY_SAMPLER (added for the full validator; lowering refuses
   * these types) */
  int tex_kind;       /* tex_kind; sampler: 1 = comparison */
  int tex_dim;        /* tex_dim */
  int tex_format;     /* storage textures: index into types_texel_formats */
};

/* The deepest type nesting the resolver accepts. */
#define TYPES_MAX_DEPTH 255

typedef struct type_table {
  arena *arena;
  type **items;
  int count, cap;
  const type **hash; /* interned non-struct types by shape (types.c) */
  unsigned hcap, hcount;
  const type *t_void, *t_bool, *t_i32, *t_u32, *t_f32, *t_f16, *t_aint, *t_afloat;
} type_table;

void types_init(type_table *t, arena *a);
const type *types_vec(type_table *t, const type *elem, uint32_t n);
const type *types_mat(type_table *t, const type *elem, uint32_t cols, uint32_t rows);
/* An array whose count is an override-expression (fixed at pipeline
 * creation). n == 0 and not override-sized: runtime-sized. */
#define TYPE_OVERRIDE_SIZED(t) ((t)->count_decl != NULL || (t)->count_expr != NULL)
const type *types_array_expr(type_table *t, const type *elem, ast_expr *count);
/* n == 0 and count_decl == NULL: runtime-sized. */
const type *types_array(type_table *t, const type *elem, uint32_t n, ast_decl *count_decl);
const type *types_atomic(type_table *t, const type *elem);
const type *types_ptr(type_table *t, type_kind kind, addr_space s, const type *store,
                      access_mode a);
/* Textures and samplers; sampled = the sampled type (f32/i32/u32) or NULL;
 * format = texel format index (storage), access for storage textures. */
const type *types_texture(type_table *t, int kind, int dim, const type *sampled, int format,
                          access_mode a);
const type *types_sampler(type_table *t, int comparison);
const type *types_binding_array(type_table *t, const type *elem, uint32_t n);
/* buffer<N> (n bytes) or the runtime-sized buffer (n == 0). */
const type *types_buffer(type_table *t, uint32_t n);
/* A subgroup matrix type; eight_bit: 0, 1 (i8, elem i32) or 2 (u8, elem u32). */
const type *types_sgmat(type_table *t, sgmat_use use, const type *elem, int eight_bit,
                        uint32_t cols, uint32_t rows);
/* The texel formats, NULL-terminated; and the channel type of each. */
extern const char *const types_texel_formats[];
const type *types_texel_channel(type_table *t, int format);
/* Structs are never deduplicated; layout computed from the fields. NULL
 * when the structure would be larger than 4 GiB (lockstep's limit for one
 * type, as for arrays) or when memory runs out. concrete: see
 * type.concrete (NULL for every declared structure). */
const type *types_struct(type_table *t, const char *name, type_field *fields, int n,
                         const type *concrete);

int type_is_scalar(const type *t);      /* bool, numeric, abstract */
int type_is_numeric_scalar(const type *t);
int type_is_integer_scalar(const type *t);  /* i32, u32, AbstractInt */
int type_is_float_scalar(const type *t);    /* f32, f16, AbstractFloat */
int type_is_abstract(const type *t);        /* contains an abstract scalar */
int type_is_constructible(const type *t);
int type_is_host_shareable(const type *t);
int type_has_runtime_array(const type *t);
int type_has_atomic(const type *t);
int type_has_override_array(const type *t);
int type_has_sgmat(const type *t);
/* The scalar of a scalar or vector type (the type itself for scalars). */
const type *type_scalar_of(const type *t);
/* Strips a reference: the type a load of t gives. */
const type *type_unref(const type *t);
/* Concretization (the spec's default conversion): AbstractInt -> i32,
 * AbstractFloat -> f32, applied through vectors and arrays, and the
 * abstract frexp / modf result structures to their f32 ones. */
const type *types_concretize(type_table *t, const type *ty);
/* The same shape with another scalar: vec3<f32> with u32 -> vec3<u32>. */
const type *types_with_scalar(type_table *t, const type *shape, const type *scalar);
/* Writes the WGSL spelling ("array<vec4<f32>, 4>") into buf. */
const char *type_name(const type *t, char *buf, unsigned len);
const char *addr_space_name(addr_space s);
const char *access_name(access_mode a);

#endif
