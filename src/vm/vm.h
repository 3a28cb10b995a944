/*
 * vm.h — the SIMT virtual machine: runs one dispatch of an ir_program.
 *
 * A workgroup of N invocations is ceil(N / W) subgroups; lane l of subgroup s
 * is the invocation with local_invocation_index s*W + l. Every instruction is
 * executed for a whole subgroup (registers hold W lanes side by side) under
 * the subgroup's execution mask. The subgroups of one workgroup run on one
 * thread, each until it ends or reaches a barrier; when every subgroup still
 * running waits at a barrier they all go on. Workgroups are independent and
 * are spread over a pool of worker threads.
 */
#ifndef LS_VM_H
#define LS_VM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../ir/ir.h"
#include "observe.h"
#include "vm_lane.h" /* vm_f2u_bits, vm_bits_f */

typedef struct vm_pool vm_pool;

/* A pool of worker threads (threads >= 1; the caller's thread is one of
 * them). The threads start when a job first needs them, or at
 * vm_pool_start; one thread at a time calls vm_pool_start and vm_pool_run
 * (the device's queue thread). NULL when out of memory. */
vm_pool *vm_pool_create(unsigned threads);
void vm_pool_destroy(vm_pool *pool);
unsigned vm_pool_threads(const vm_pool *pool);
/* Starts every worker thread now (the queue thread does, as it starts,
 * so that creating a device does not wait for them). */
void vm_pool_start(vm_pool *pool);

/* f16 as the VM keeps it (vm.c): an f32 register holding an f16 value.
 * round: the f32 bits of the f16 nearest to f32 bits x (F16R); encode: the
 * 16-bit encoding of that f16; decode: the f32 bits of encoding h. */
uint32_t vm_f16_round_bits(uint32_t x);
uint32_t vm_f16_encode(uint32_t x);
uint32_t vm_f16_decode(uint32_t h);
/* F16R's hardware path (x86 F16C) on n values, n a multiple of 8; returns
 * 0 (and does nothing) where the host has none. For tests. */
int vm_f16_round_hw(uint32_t *dst, const uint32_t *src, int n);

/* A texture view as the texture opcodes see it (TLD, TST, TQRY; texture.c).
 * Level i of the view: w x h texels per slice, d slices (the depth of a 3D
 * texture, else the view's array layers); texel (x, y, z) at data + offset
 * + z * slice + y * row + x * texel bytes. */
#define VM_TEX_LEVELS 32
typedef struct vm_texture {
  uint8_t *data;
  uint32_t format;      /* ls_texture_format (lockstep.h) */
  uint32_t texel_bytes;
  uint32_t levels, layers;
  uint32_t samples;     /* 1, or 4 for a multisampled view: the sample
                           planes follow one another in level 0, and the
                           texel address's level is the sample index */
  struct {
    uint32_t w, h, d;
    uint64_t offset, row, slice;
  } level[VM_TEX_LEVELS];
} vm_texture;

/* A sampler's state (GPUSamplerDescriptor); the values of the ls_*
 * enums in lockstep.h. */
typedef struct vm_sampler {
  uint8_t address[3]; /* ls_address_mode for u, v, w */
  uint8_t mag, min, mip; /* ls_filter_mode */
  uint8_t compare;    /* ls_compare_function; 0 = not a comparison sampler */
  float lod_min, lod_max;
} vm_sampler;

/* Memory of one binding slot of the program (ir_program.bindings[i]). */
typedef struct vm_binding {
  uint8_t *data; /* start of the bound range */
  uint64_t size; /* bytes in the bound range */
  const vm_texture *tex; /* a texture binding's view; NULL for a buffer */
  const vm_sampler *smp; /* a sampler binding's state */
} vm_binding;

/* The texture opcodes on the live lanes of one subgroup of width w: rows
 * of w words, consecutive registers side by side (texture.c). */
/* One texel of level lv decoded to the shader's vec4 bits (the format's
 * channel transfer function); 0 and v = (0, 0, 0, 0) out of bounds. For
 * the texel reads of the sampling opcodes. */
int vm_tex_fetch(const vm_texture *t, uint32_t x, uint32_t y, uint32_t z, uint32_t lv,
                 uint32_t v[4]);
/* Returns the lanes whose address was out of bounds (for observers). */
uint64_t vm_tex_load(const vm_texture *t, uint32_t *dst, const uint32_t *adr, uint64_t live,
                     unsigned w);
/* Returns the lanes that stored (for observers). */
uint64_t vm_tex_store(const vm_texture *t, const uint32_t *adr, const uint32_t *val,
                      uint64_t live, unsigned w);
/* TSMP: the sampling described by smp (ir.h) of texture t, view
 * dimension dim (ir_tex_dim), with sampler s; in is the IR_SMPIN_COUNT input
 * rows, dst 4 rows (sample.c). at, when not NULL, gets 4 rows: the x, y,
 * z-or-layer and level of the first texel each lane's footprint read (for
 * observers). */
void vm_tex_sample(const vm_texture *t, unsigned dim, const vm_sampler *s, const ir_sample *smp,
                   uint32_t *dst, const uint32_t *in, uint64_t live, unsigned w, uint32_t *at);
/* The common sampling (sample.c's fast path) as plain numbers, for the
 * interpreter's lane kernel (vm_sample.inc): textureSampleLevel of a
 * one-level 2D (array) texture of four 8-bit unorm channels, linear and
 * clamped to the edge on both axes. vm_tex_sample_fast fills f and returns
 * 1 when the sampling is of that kind, else 0. */
typedef uint32_t vm_u32a __attribute__((may_alias, aligned(4)));
typedef struct vm_smp_fast {
  const vm_u32a *base;  /* level 0, layer 0: one word a texel */
  const float *dec;     /* code -> value, code / 255 (vm_tex_unorm8x4) */
  uint32_t row4, slice4; /* in texels; every index fits 31 bits */
  int32_t tw, th;       /* texels */
  float fw, fh, ox, oy; /* the size and the offset, as the general path converts them */
  uint32_t layers;      /* the array's layers; 0 when not arrayed */
  unsigned r, b;        /* the bytes of red and blue in a texel */
  int index_u32;        /* the array index is a u32 (else i32) */
} vm_smp_fast;
int vm_tex_sample_fast(const vm_texture *t, unsigned dim, const vm_sampler *s,
                       const ir_sample *smp, vm_smp_fast *f);
void vm_tex_query(const vm_texture *t, uint32_t *dst, const uint32_t *level, unsigned what,
                  unsigned w);
/* The decoding of a texture whose texels are four 8-bit unorm channels
 * (rgba8unorm, bgra8unorm: *bgra set), for sampling's fast path: code ->
 * value, the table every texel read uses; NULL for any other format. */
const float *vm_tex_unorm8x4(const vm_texture *t, int *bgra);
/* The bytes a store of v writes in a texel of the format (texel bytes of
 * out; the rest 0). For observers: the sanitizer's same-value rule. */
void vm_tex_encode(uint32_t format, const uint32_t v[4], uint8_t out[16]);

typedef struct vm_dispatch_desc {
  const ir_program *prog;
  const vm_binding *bindings; /* prog->nbindings entries */
  uint32_t groups[3];         /* workgroup counts, each >= 1 */
  uint32_t width;             /* subgroup width W: 8, 16, 32 or 64 */
  uint64_t budget;            /* max subgroup-instructions per workgroup;
                                 0 = unlimited */
  const vm_observer *observer; /* NULL: the plain interpreter (observe.h) */
  /* Nonzero (set by another thread) stops the dispatch soon (between
   * workgroups, or within VM_SLICE instructions inside one) with
   * VM_CANCELLED; NULL = never. */
  const _Atomic int *cancel;
  uint64_t deadline;        /* CLOCK_MONOTONIC ns past which the dispatch stops
                               with VM_TIMEOUT; 0 = none */
  uint64_t dispatch_budget; /* subgroup-instructions of the whole dispatch
                               (checked between workgroups); 0 = unlimited */
  uint64_t memory_limit;    /* bytes the workers' contexts may hold together
                               (fewer workers run when all would need more;
                               VM_NO_MEMORY when one would); 0 = unlimited */
} vm_dispatch_desc;

typedef enum vm_status {
  VM_OK,
  VM_BUDGET_EXCEEDED, /* a workgroup ran past the budget: a runaway shader */
  VM_NO_MEMORY,
  VM_CANCELLED, /* desc->cancel was set: the device is going away */
  VM_TIMEOUT,   /* past desc->deadline (the GPU timeout's equivalent) */
  VM_INVALID /* malformed program or description (an operand out of range,
                a bad width): a bug in lowering or in the caller; nothing ran */
} vm_status;

typedef struct vm_result {
  vm_status status;
  uint32_t pc;        /* VM_BUDGET_EXCEEDED, VM_TIMEOUT: where a subgroup was */
  uint32_t group[3];  /* ... in which workgroup */
  int whole_dispatch; /* VM_BUDGET_EXCEEDED by dispatch_budget, not a
                         workgroup's (pc is then the last one of the
                         workgroup named) */
  uint64_t instructions; /* subgroup-instructions executed in the dispatch */
  uint64_t memory_needed; /* bytes of one worker's context (UINT64_MAX when
                             that does not fit in the address space) */
} vm_result;

/* Runs the dispatch to completion (or to the first failure) and returns when
 * all workgroups are done. pool == NULL runs on the calling thread alone;
 * result may be NULL. */
vm_status vm_dispatch(vm_pool *pool, const vm_dispatch_desc *desc, vm_result *result);
/* The instruction set the interpreter runs on this host ("sse2", "avx2",
 * "avx512"): the best the CPU supports, chosen at the first call, or the
 * environment variable LOCKSTEP_ISA where the CPU has it. Every variant
 * gives the same results. vm_isa_available says whether the CPU has one. */
const char *vm_isa_name(void);
int vm_isa_available(const char *name);

/* ---- between pool.c and vm.c only ---- */

/* Runs job(arg, w) for w = 0 .. n-1 (n is clamped to the pool's threads;
 * worker 0 is the calling thread) and returns when all have returned. */
void vm_pool_run(vm_pool *pool, unsigned n, void (*job)(void *arg, unsigned w), void *arg);
/* Worker w's scratch memory: 64-byte aligned, at least bytes long, kept
 * between dispatches and grown on demand (contents then unspecified); NULL
 * when it cannot be allocated. Only worker w's job, or the caller while no
 * job runs, may ask for it. */
void *vm_pool_scratch(vm_pool *pool, unsigned w, size_t bytes);
/* Before a dispatch whose workers [0, n) each need `bytes`: frees what the
 * other workers keep, then shrinks what those n keep beyond bytes, as far
 * as needed for everything kept to stay within limit (0 = no limit) once
 * the n have their share. */
void vm_pool_trim(vm_pool *pool, unsigned n, size_t bytes, uint64_t limit);

#endif
