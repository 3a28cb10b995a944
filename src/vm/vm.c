/*
 * vm.c — runs one dispatch of an ir_program (bytecode from ir/lower.c); the
 * API (src/api) calls vm_dispatch for every dispatch a queue submit holds.
 *
 * This file checks the program once, lays out the per-worker execution
 * context and hands out workgroups to the pool's threads (an atomic counter,
 * chunks of several workgroups when they are small; the caller's thread is
 * worker 0). The interpreter and the barrier scheduling of a workgroup's
 * subgroups live in vm_exec.inc, included below once per subgroup width so
 * that every lane loop has a compile-time trip count.
 *
 * Context layout (one per worker, in the pool's scratch, kept between
 * dispatches; every part 64-byte aligned):
 *   regs   [nsub][nregs][W] u32   constant rows filled once per dispatch
 *   masks  [nsub][nmasks]   u64   zeroed per workgroup
 *   pc/exec/state [nsub]
 *   lid    [4][nsub*W]      u32   local index and x/y/z per lane, computed
 *                                 once per dispatch (no division per group)
 *   wgmem  wg_mem_size bytes      zeroed per workgroup
 *   priv   [nsub][words][W] u32   word k of lane l at [k][l], so a uniform
 *                                 private address is one contiguous row;
 *                                 zeroed when the subgroup starts
 *   code   [ncode + 1] vm_op      the program translated for this width
 *
 * Budget: every executed instruction is counted exactly (one increment per
 * dispatch step); the count is compared with a checkpoint only where control
 * jumps (taken JMP / JANY / JNONE), so a program without loops always
 * finishes. The checkpoint is the workgroup's budget or, every VM_SLICE
 * instructions before it, a look at the clock and the cancel flag
 * (vm_checkpoint), so that a long workgroup still meets the dispatch's
 * deadline and a device being destroyed. Between workgroups the workers
 * check the same and the dispatch's total budget. result->instructions is
 * the exact total of subgroup-instructions executed (running past the last
 * instruction counts nothing).
 */
#include "vm.h"
#include "subgroup.h"
#include "../util/bitfn.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__SSE__)
#include <xmmintrin.h>
#endif

#if defined(__GNUC__)
#define VM_LIKELY(x) __builtin_expect(!!(x), 1)
#define VM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define VM_LIKELY(x) (x)
#define VM_UNLIKELY(x) (x)
#endif

/* How a workgroup run ended. */
enum { VM_Y_END, VM_Y_BUDGET };
/* Why a run or a worker stopped early (vm_ctx.why): the status it gives. */
enum { VM_WHY_BUDGET = 1, VM_WHY_TIMEOUT, VM_WHY_CANCEL };
/* Instructions between two looks at the clock inside a workgroup: a few
 * milliseconds of work. */
#define VM_SLICE (UINT64_C(1) << 22)
enum { VM_S_RUN, VM_S_DONE };

/* One step of a subgroup's set-up (VM_START): a built-in row the code
 * reads. The plan lists only those, in a fixed order, so starting a
 * subgroup tests nothing the program does not use (at W = 8 a dispatch
 * starts four times as many subgroups as at W = 32). */
typedef enum vm_fill_op {
  VM_F_LID,     /* row k of cx->lid: local_invocation_index (k = 0), local_invocation_id.x..z */
  VM_F_GID,     /* global_invocation_id, component k */
  VM_F_WGID,    /* workgroup_id, component k */
  VM_F_NWG,     /* num_workgroups, component k */
  VM_F_WGINDEX, /* workgroup_index */
  VM_F_GINDEX,  /* global_invocation_index */
  VM_F_SGLANE,  /* subgroup_invocation_id */
  VM_F_SGSIZE,  /* subgroup_size */
  VM_F_SGID,    /* subgroup_id */
  VM_F_NSG      /* num_subgroups */
} vm_fill_op;

typedef struct vm_fill {
  uint8_t op, k;
  uint32_t reg; /* row index in the subgroup's register file */
} vm_fill;

#define VM_FILL_MAX 19 /* each (built-in, component) once: 1 + 3 * 4 + 2 + 4 */

typedef struct vm_ctx vm_ctx;
typedef int (*vm_run_fn)(vm_ctx *cx);

/* Handlers beyond op.def's opcodes that translation may pick (vm_exec.inc). */
enum { VM_X_FELL_OFF = IR_OPCODE_COUNT, VM_X_IDXS, VM_X_LDBK, VM_X_BRKIF, VM_X_COUNT };

/* One instruction as the interpreter runs it (see vm_exec.inc). */
typedef struct vm_op {
  const void *handler;
  uint32_t a, b, c, d;
  uint32_t op;
  uint32_t e; /* precomputed per instruction (IDX: largest index not to saturate) */
} vm_op;

struct vm_ctx {
  const ir_program *prog;
  const vm_binding *bind;
  vm_run_fn run;
  vm_op *tcode; /* ncode + 1 entries */
  int translated;
  uint32_t width, nsub, ninv;
  uint32_t *regs;
  uint64_t *masks;
  uint32_t *pc;
  uint64_t *exec;
  uint8_t *state;
  uint32_t *lid; /* 4 tables of nsub*W: index, x, y, z */
  uint32_t *wgmem;
  uint32_t wgmem_size; /* bytes as the program declares them */
  uint32_t *priv;
  uint32_t priv_size;  /* bytes per invocation */
  uint32_t priv_words; /* priv_size / 4 */
  uint64_t limit;      /* the next checkpoint: budget or the next clock look */
  uint64_t budget;     /* per workgroup, UINT64_MAX when unlimited */
  uint64_t deadline;   /* monotonic ns; UINT64_MAX = none */
  const _Atomic int *cancel;
  int why;             /* VM_WHY_*: why the run stopped */
  uint64_t count;      /* instructions the last workgroup run executed */
  uint32_t fail_pc;
  uint32_t gid[3];     /* current workgroup */
  uint32_t groups[3];
  vm_fill fill[VM_FILL_MAX];     /* the built-in rows a subgroup starts with */
  uint32_t nfill;
  const vm_observer *obs; /* NULL: the plain interpreter runs */
  unsigned thread;        /* worker index, passed to the observer */
  uint32_t *obs_pcs;      /* [nsub] barrier pcs for barrier_release */
  uint64_t *obs_issued, *obs_lanes; /* [ncode + 1] when the observer has none */
  uint64_t *obs_empty;              /* [ncode + 1] when the observer has no empty[] */
  int f16c;               /* the host converts f32 <-> f16 in hardware (F16R) */
  /* Observed runs count per straight-line run (observe.h): lead[pc] is the
   * first pc of pc's run, seg_issued / seg_lanes count at that pc, and
   * tcode_all counts at every pc (a workgroup seen in detail). */
  vm_op *tcode_all;
  uint32_t *lead;
  uint64_t *seg_issued, *seg_lanes, *seg_empty;
  uint64_t *obs_wrote; /* [nsub] lanes that stored, kept across barriers */
  int detail;          /* group_begin asked for this workgroup in detail */
  /* The dispatch runs on this worker alone: no other thread touches its
   * storage buffers while it runs (the queue runs one dispatch at a time),
   * so storage atomics need no locked instructions. */
  int solo;
};

/* --------------------------------------------------------------- helpers */

/* vm_lanemask[b][j]: all ones when bit j of b is set. MOVM blends eight
 * lanes at a time through it, which vectorises where a per-lane shift of
 * the 64-bit mask would not. */
#define VM_LM1(x)                                                              \
  {0u - ((x) & 1u),        0u - ((x) >> 1 & 1u), 0u - ((x) >> 2 & 1u),         \
   0u - ((x) >> 3 & 1u),   0u - ((x) >> 4 & 1u), 0u - ((x) >> 5 & 1u),         \
   0u - ((x) >> 6 & 1u),   0u - ((x) >> 7 & 1u)}
#define VM_LM4(x) VM_LM1(x), VM_LM1((x) + 1u), VM_LM1((x) + 2u), VM_LM1((x) + 3u)
#define VM_LM16(x) VM_LM4(x), VM_LM4((x) + 4u), VM_LM4((x) + 8u), VM_LM4((x) + 12u)
#define VM_LM64(x) VM_LM16(x), VM_LM16((x) + 16u), VM_LM16((x) + 32u), VM_LM16((x) + 48u)
static const uint32_t vm_lanemask[256][8] = {VM_LM64(0u), VM_LM64(64u), VM_LM64(128u),
                                             VM_LM64(192u)};

static inline unsigned vm_ctz64(uint64_t m) {
#if defined(__GNUC__)
  return (unsigned)__builtin_ctzll(m);
#else
  unsigned n = 0;
  while (!(m & 1)) {
    m >>= 1;
    n++;
  }
  return n;
#endif
}

/* The lane helpers below choose with bit masks rather than ?: because the
 * compiler sinks a float conversion into the arms of a ?:, and a
 * conditional conversion (it may trap) stops if-conversion and with it
 * vectorisation. */
static inline uint32_t vm_sel(int c, uint32_t a, uint32_t b) {
  const uint32_t m = 0u - (uint32_t)(c != 0);
  return (a & m) | (b & ~m);
}

static inline float vm_self(int c, float a, float b) {
  return vm_bits_f(vm_sel(c, vm_f2u_bits(a), vm_f2u_bits(b)));
}

/* trunc/floor/ceil without a library call. Values with |x| >= 2^23 (and
 * NaN, inf) are already integral; the others fit an int32, so the
 * conversion is defined. The sign is copied back so that trunc(-0.5) is
 * -0.0 as IEEE wants. */
static inline float vm_truncf(float x) {
  const uint32_t b = vm_f2u_bits(x);
  const int small = vm_bits_f(b & 0x7fffffffu) < 8388608.0f;
  const float t = (float)(int32_t)vm_self(small, x, 0.0f);
  const uint32_t tb = (vm_f2u_bits(t) & 0x7fffffffu) | (b & 0x80000000u);
  return vm_bits_f(vm_sel(small, tb, b));
}

static inline float vm_floorf(float x) {
  const float t = vm_truncf(x);
  return vm_self(t > x, t - 1.0f, t);
}

static inline float vm_ceilf(float x) {
  const float t = vm_truncf(x);
  return vm_self(t < x, t + 1.0f, t);
}

/* f32 -> i32/u32 as WGSL: truncate, clamp to the target range, NaN -> 0.
 * The float is clamped first so the C conversion is always in range. The
 * clamp bounds are the largest f32 values inside the range (2^31 - 128,
 * 2^32 - 256), which is what WGSL's conversion gives for anything larger:
 * the result must be exactly representable in the source type. */
static inline int32_t vm_f2s(float x) {
  float c = vm_self(x < -2147483648.0f, -2147483648.0f, x);
  c = vm_self(c > 2147483520.0f, 2147483520.0f, c); /* largest f32 below 2^31 */
  c = vm_self(x != x, 0.0f, c);
  return (int32_t)c;
}

static inline uint32_t vm_f2u(float x) {
  float c = vm_self(x > 0.0f, x, 0.0f); /* also NaN -> 0 */
  c = vm_self(c > 4294967040.0f, 4294967040.0f, c); /* largest f32 below 2^32 */
  /* Through int32, which SSE2 converts: the upper half is exact. */
  const int hi = c >= 2147483648.0f;
  const float h = vm_self(hi, c - 2147483648.0f, c);
  return (uint32_t)(int32_t)h + (vm_sel(hi, 0x80000000u, 0u));
}

/* Integer division through f64, which vectorises where integer division
 * does not (about 9x faster for a row). It is exact: for |n|, |d| < 2^32
 * the quotient q has |q| * 2^-53 < 1/|d|, so rounding can never carry q up
 * to the next integer, and integral q are representable. */
static inline double vm_u2d(uint32_t x) {
  return (double)(int32_t)(x ^ 0x80000000u) + 2147483648.0;
}

static inline int32_t vm_sdiv(int32_t n, int32_t d) {
  /* x/0 = x and MIN/-1 = MIN: both are division by 1 */
  const int one = (d == 0) | ((n == INT32_MIN) & (d == -1));
  d = (int32_t)vm_sel(one, 1u, (uint32_t)d);
  return (int32_t)((double)n / (double)d);
}

static inline uint32_t vm_udiv(uint32_t n, uint32_t d) {
  d = vm_sel(d == 0, 1u, d); /* x/0 = x */
  /* By 1 the quotient may not fit an int32: answer n directly, and divide
   * 0 instead so the conversion stays defined. */
  const int one = d == 1;
  const double q = vm_u2d(vm_sel(one, 0u, n)) / vm_u2d(d);
  return vm_sel(one, n, (uint32_t)(int32_t)q);
}

static inline int32_t vm_srem(int32_t n, int32_t d) {
  /* x%0 = 0 and MIN%-1 = 0: both are remainder by 1 */
  const int one = (d == 0) | ((n == INT32_MIN) & (d == -1));
  d = (int32_t)vm_sel(one, 1u, (uint32_t)d);
  const int32_t q = (int32_t)((double)n / (double)d);
  return (int32_t)((uint32_t)n - (uint32_t)q * (uint32_t)d);
}

static inline uint32_t vm_urem(uint32_t n, uint32_t d) {
  d = vm_sel(d == 0, 1u, d); /* x%0 = x%1 = 0 */
  return n - vm_udiv(n, d) * d;
}

/* sqrtf may set errno, which keeps the compiler from vectorising it; the
 * SSE instruction is the same correctly rounded IEEE square root. */
static inline void vm_sqrt_row(float *dst, const float *src, int n) {
#if defined(__SSE__)
  for (int k = 0; k < n; k += 4) _mm_storeu_ps(dst + k, _mm_sqrt_ps(_mm_loadu_ps(src + k)));
#else
  for (int k = 0; k < n; k++) dst[k] = sqrtf(src[k]);
#endif
}

/* fminf/fmaxf without a call: a NaN operand yields the other operand. */
static inline float vm_fmin(float x, float y) {
  float r = y < x ? y : x;
  return x != x ? y : r;
}

static inline float vm_fmax(float x, float y) {
  float r = x < y ? y : x;
  return x != x ? y : r;
}

/* Storage-buffer atomics: other workgroups run on other threads. cmp is
 * the expected value of IR_ATOM_CMPX. lockstep's compare-exchange never
 * fails spuriously (the "weak" in WGSL only permits it). */
static uint32_t vm_atomic_storage(uint32_t *w, unsigned op, uint32_t v, uint32_t cmp) {
#if defined(__GNUC__)
  uint32_t old;
  switch (op) {
  case IR_ATOM_CMPX:
    __atomic_compare_exchange_n(w, &cmp, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp; /* the old value whether or not it was replaced */
  case IR_ATOM_LOAD: return __atomic_load_n(w, __ATOMIC_RELAXED);
  case IR_ATOM_STORE: __atomic_store_n(w, v, __ATOMIC_RELAXED); return 0;
  case IR_ATOM_ADD: return __atomic_fetch_add(w, v, __ATOMIC_RELAXED);
  case IR_ATOM_SUB: return __atomic_fetch_sub(w, v, __ATOMIC_RELAXED);
  case IR_ATOM_AND: return __atomic_fetch_and(w, v, __ATOMIC_RELAXED);
  case IR_ATOM_OR: return __atomic_fetch_or(w, v, __ATOMIC_RELAXED);
  case IR_ATOM_XOR: return __atomic_fetch_xor(w, v, __ATOMIC_RELAXED);
  case IR_ATOM_XCHG: return __atomic_exchange_n(w, v, __ATOMIC_RELAXED);
  default: break;
  }
  old = __atomic_load_n(w, __ATOMIC_RELAXED);
  for (;;) {
    uint32_t nv;
    switch (op) {
    case IR_ATOM_MAX_S: nv = (int32_t)old > (int32_t)v ? old : v; break;
    case IR_ATOM_MAX_U: nv = old > v ? old : v; break;
    case IR_ATOM_MIN_S: nv = (int32_t)old < (int32_t)v ? old : v; break;
    case IR_ATOM_MIN_U: nv = old < v ? old : v; break;
    default: return 0; /* rejected by vm_check; kept total */
    }
    if (nv == old) return old;
    if (__atomic_compare_exchange_n(w, &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return old;
  }
#else
  _Atomic uint32_t *a = (_Atomic uint32_t *)w;
  uint32_t old;
  switch (op) {
  case IR_ATOM_CMPX:
    atomic_compare_exchange_strong_explicit(a, &cmp, v, memory_order_relaxed, memory_order_relaxed);
    return cmp;
  case IR_ATOM_LOAD: return atomic_load_explicit(a, memory_order_relaxed);
  case IR_ATOM_STORE: atomic_store_explicit(a, v, memory_order_relaxed); return 0;
  case IR_ATOM_ADD: return atomic_fetch_add_explicit(a, v, memory_order_relaxed);
  case IR_ATOM_SUB: return atomic_fetch_sub_explicit(a, v, memory_order_relaxed);
  case IR_ATOM_AND: return atomic_fetch_and_explicit(a, v, memory_order_relaxed);
  case IR_ATOM_OR: return atomic_fetch_or_explicit(a, v, memory_order_relaxed);
  case IR_ATOM_XOR: return atomic_fetch_xor_explicit(a, v, memory_order_relaxed);
  case IR_ATOM_XCHG: return atomic_exchange_explicit(a, v, memory_order_relaxed);
  default: break;
  }
  old = atomic_load_explicit(a, memory_order_relaxed);
  for (;;) {
    uint32_t nv;
    switch (op) {
    case IR_ATOM_MAX_S: nv = (int32_t)old > (int32_t)v ? old : v; break;
    case IR_ATOM_MAX_U: nv = old > v ? old : v; break;
    case IR_ATOM_MIN_S: nv = (int32_t)old < (int32_t)v ? old : v; break;
    case IR_ATOM_MIN_U: nv = old < v ? old : v; break;
    default: return 0;
    }
    if (nv == old) return old;
    if (atomic_compare_exchange_weak_explicit(a, &old, nv, memory_order_relaxed,
                                              memory_order_relaxed))
      return old;
  }
#endif
}

/* Workgroup memory belongs to one workgroup, which runs on one thread. */
static uint32_t vm_atomic_plain(uint32_t *w, unsigned op, uint32_t v, uint32_t cmp) {
  uint32_t old = *w, nv;
  switch (op) {
  case IR_ATOM_CMPX: nv = old == cmp ? v : old; break;
  case IR_ATOM_LOAD: return old;
  case IR_ATOM_STORE: *w = v; return 0;
  case IR_ATOM_ADD: nv = old + v; break;
  case IR_ATOM_SUB: nv = old - v; break;
  case IR_ATOM_MAX_S: nv = (int32_t)old > (int32_t)v ? old : v; break;
  case IR_ATOM_MAX_U: nv = old > v ? old : v; break;
  case IR_ATOM_MIN_S: nv = (int32_t)old < (int32_t)v ? old : v; break;
  case IR_ATOM_MIN_U: nv = old < v ? old : v; break;
  case IR_ATOM_AND: nv = old & v; break;
  case IR_ATOM_OR: nv = old | v; break;
  case IR_ATOM_XOR: nv = old ^ v; break;
  case IR_ATOM_XCHG: nv = v; break;
  default: return 0;
  }
  *w = nv;
  return old;
}

/* ---------------------------------------------- built-in function rows
 * The lane loops of the built-in families (FUN1, FUN2, IBIT, PACKC,
 * UNPACKC) live out of line: they are rarer than arithmetic, some call
 * libm, and keeping them out of the interpreter function keeps its hot
 * handlers' code and register allocation as they were. n is the width. */

#if defined(__GNUC__)
#define VM_COLD __attribute__((noinline))
#else
#define VM_COLD
#endif

/* ------------------------------------------------------------------ f16
 * An f16 value lives in a register as the f32 that equals it (every f16 is
 * exactly an f32). vm_r16_bits rounds an f32 to the nearest f16 value, ties to
 * even, overflow to infinity, f16 subnormals kept; it is branch-free so the
 * F16R lane loop vectorises.
 *
 * Why one rounding of the f32 result is the correctly rounded f16 result of
 * +, -, *, / (and sqrt) on f16 operands: rounding the exact value first to
 * a format of q significand bits and then to p bits equals rounding it once
 * to p bits whenever q >= 2p + 2 (Figueroa, "When is double rounding
 * innocuous?", 1995). f32 has q = 24 = 2*11 + 2 for f16's p = 11, and for
 * f16 operands the exact f32 results neither overflow (65504^2 < 2^32)
 * nor leave f32's normal range (2^-24 * 2^-24 = 2^-48), so the theorem
 * applies to every operation. */
static inline uint32_t vm_r16_bits(uint32_t b) {
  const uint32_t sign = b & 0x80000000u;
  /* |b| as a signed int (it is below 2^31): SSE2 compares signed words */
  const int32_t a = (int32_t)(b & 0x7fffffffu);
  /* Adding M = 1.5 * 2^(E + 13) rounds |x| in [2^E, 2^(E+1)) to a multiple
   * of M's ulp, 2^(E - 10), which is f16's spacing there; below 2^-14
   * (f16 subnormals) E stays at -14, spacing 2^-24. The rounding is f32's,
   * to nearest even, and subtracting M again is exact. ISO C mode keeps
   * the compiler from folding the pair away. */
  const int32_t e = a & 0x7f800000;
  const uint32_t E = vm_sel(e < 0x38800000, 0x38800000u, (uint32_t)e);
  const float M = vm_bits_f((E + (13u << 23)) | 0x00400000u);
  uint32_t r = vm_f2u_bits((vm_bits_f((uint32_t)a) + M) - M);
  r = vm_sel(a >= 0x477ff000, 0x7f800000u, r); /* 65520 and up round past 65504 */
  /* NaN: one that is an f16 NaN already (no payload below f16's 10 bits)
   * stays as it is, so a bitcast of an f16 NaN gives its bits back; any
   * other becomes the quiet NaN of its sign */
  r = vm_sel(a > 0x7f800000, vm_sel((a & 0x1fff) == 0, (uint32_t)a, 0x7fc00000u), r);
  return sign | r;
}

/* The 16-bit encoding of an f16 value held as f32 (exact: no rounding).
 * Branch-free (selects, signed compares) so that row loops vectorise. */
static inline uint32_t vm_h_bits(uint32_t b) {
  const uint32_t sign = (b >> 16) & 0x8000u;
  const int32_t a = (int32_t)(b & 0x7fffffffu);
  const uint32_t m = ((uint32_t)a >> 13) & 0x3ffu;
  /* a NaN whose payload f16 cannot hold stays a NaN */
  const uint32_t special = 0x7c00u | vm_sel(a > 0x7f800000 && m == 0, 0x200u, m);
  /* exact for f16 subnormals; other values are replaced by 0 first, since
   * converting an out-of-range float to an integer is undefined in C */
  const uint32_t small = vm_sel(a < 0x38800000, (uint32_t)a, 0u);
  const uint32_t sub = (uint32_t)(int32_t)(vm_bits_f(small) * 16777216.0f);
  const uint32_t nrm = (((uint32_t)a >> 13) - (112u << 10)) & 0x7fffu;
  const uint32_t r = vm_sel(a < 0x38800000, sub, nrm);
  return sign | vm_sel(a >= 0x7f800000, special, r);
}

/* frexp: x = f * 2^e with |f| in [0.5, 1). Subnormals, which WGSL leaves
 * indeterminate, get their exact decomposition too (the double they widen
 * to is normal); zero gives (x, 0) keeping the sign; infinities and NaN
 * give (x, 0). */
static float vm_frexp(float x, int32_t *e) {
  int k = 0;
  const double f = isfinite(x) ? frexp((double)x, &k) : (double)x;
  if (e) *e = k;
  return (float)f;
}

/* The f32 equal to the f16 with encoding h (low 16 bits), branch-free. */
static inline uint32_t vm_h_value(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const int32_t e = (int32_t)((h >> 10) & 0x1fu), m = (int32_t)(h & 0x3ffu);
  const uint32_t sub = vm_f2u_bits((float)m * (1.0f / 16777216.0f));
  const uint32_t nrm = ((h & 0x7fffu) << 13) + (112u << 23);
  const uint32_t r = vm_sel(e == 0, sub, vm_sel(e == 31, 0x7f800000u | ((uint32_t)m << 13), nrm));
  return sign | r;
}

uint32_t vm_f16_round_bits(uint32_t f32_bits) { return vm_r16_bits(f32_bits); }
uint32_t vm_f16_encode(uint32_t f32_bits) { return vm_h_bits(vm_r16_bits(f32_bits)); }
uint32_t vm_f16_decode(uint32_t h) { return vm_h_value(h & 0xffffu); }

/* F16R on x86 hosts with F16C: a round trip through the hardware's
 * f32 -> f16 conversion (round to nearest even, overflow to infinity,
 * subnormals kept unless the thread has set flush-to-zero, which lockstep
 * never does) is the same rounding, eight lanes in two instructions. It
 * differs from vm_r16_bits only in which NaN a NaN becomes (quieted, the
 * payload's top bits kept), which WGSL leaves open. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(VM_NO_F16C)
#include <cpuid.h>
#include <immintrin.h>
__attribute__((target("avx,f16c"))) static void vm_r16_row_f16c(uint32_t *d, const uint32_t *x,
                                                                   int n) {
  for (int k = 0; k + 8 <= n; k += 8) {
    const __m256 v = _mm256_loadu_ps((const float *)(const void *)(x + k));
    const __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_storeu_ps((float *)(void *)(d + k), _mm256_cvtph_ps(h));
  }
}
/* CPUID leaf 1, ECX: OSXSAVE (27), AVX (28), F16C (29); and the OS must
 * save the YMM state (XCR0 bits 1 and 2). Read directly, because not every
 * compiler's __builtin_cpu_supports knows "f16c". */
static int vm_host_f16c(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const unsigned need = 1u << 27 | 1u << 28 | 1u << 29;
  if ((c & need) != need) return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  (void)hi;
  return (lo & 6u) == 6u;
}
#else
static void vm_r16_row_f16c(uint32_t *d, const uint32_t *x, int n) {
  for (int k = 0; k < n; k++) d[k] = vm_r16_bits(x[k]);
}
static int vm_host_f16c(void) { return 0; }
#endif

int vm_f16_round_hw(uint32_t *dst, const uint32_t *src, int n) {
  if (!vm_host_f16c() || n % 8) return 0;
  vm_r16_row_f16c(dst, src, n);
  return 1;
}

/* f32 <-> f16 bits for quantizeToF16 and pack2x16float */
static uint32_t vm_f32_to_f16(float f) { return vm_h_bits(vm_r16_bits(vm_f2u_bits(f))); }
static float vm_f16_to_f32(uint32_t h) { return vm_bits_f(vm_h_value(h & 0xffffu)); }

/* The double r rounded once to the nearest f16 (ties to even, infinity from
 * 65520 on, subnormals kept), as an f32: FUN1/FUN2 with IR_FUN_F16, so an
 * f16 transcendental is rounded once from double, not through f32. The
 * scalings by powers of two are exact and rint rounds to nearest even. */
static double vm_d_to_h(double r) {
  if (r != r) return r;
  const double a = fabs(r);
  if (a >= 65520.0) return r < 0 ? -(double)INFINITY : (double)INFINITY;
  if (a == 0) return r;
  int e;
  frexp(a, &e); /* a = f * 2^e, 0.5 <= f < 1: its f16 spacing is 2^(e - 11) */
  if (e < -13) e = -13; /* f16 subnormals: spacing 2^-24 */
  const double q = ldexp(rint(ldexp(a, 11 - e)), e - 11);
  return r < 0 ? -q : q;
}

static VM_COLD void vm_fun1_row(float *d, const float *x, unsigned fn, int n) {
  const int h16 = (fn & IR_FUN_F16) != 0;
  fn &= ~IR_FUN_F16;
#define VM_F1(expr)                                                            \
  for (int l = 0; l < n; l++) {                                                \
    const double v = (double)x[l];                                             \
    (void)v;                                                                   \
    const double r_ = (double)(expr);                                          \
    d[l] = (float)(h16 ? vm_d_to_h(r_) : r_);                                  \
  }                                                                            \
  break;
  switch (fn) {
  case IR_F1_ROUND: VM_F1(rintf(x[l])) /* ties to even in the default mode */
  case IR_F1_TRUNC: VM_F1(vm_truncf(x[l]))
  case IR_F1_INVSQRT: VM_F1(1.0 / sqrt(v))
  case IR_F1_EXP: VM_F1(exp(v))
  case IR_F1_EXP2: VM_F1(exp2(v))
  case IR_F1_LOG: VM_F1(log(v))
  case IR_F1_LOG2: VM_F1(log2(v))
  case IR_F1_SIN: VM_F1(sin(v))
  case IR_F1_COS: VM_F1(cos(v))
  case IR_F1_TAN: VM_F1(tan(v))
  case IR_F1_ASIN: VM_F1(asin(v))
  case IR_F1_ACOS: VM_F1(acos(v))
  case IR_F1_ATAN: VM_F1(atan(v))
  case IR_F1_SINH: VM_F1(sinh(v))
  case IR_F1_COSH: VM_F1(cosh(v))
  case IR_F1_TANH: VM_F1(tanh(v))
  case IR_F1_ASINH: VM_F1(asinh(v))
  case IR_F1_ACOSH: VM_F1(acosh(v))
  case IR_F1_ATANH: VM_F1(atanh(v))
  case IR_F1_QUANT16: VM_F1(vm_f16_to_f32(vm_f32_to_f16(x[l])))
  case IR_F1_FREXPF: VM_F1(vm_frexp(x[l], NULL))
  case IR_F1_FREXPE:
    for (int l = 0; l < n; l++) {
      int32_t e;
      (void)vm_frexp(x[l], &e);
      memcpy(&d[l], &e, sizeof e);
    }
    break;
  default: VM_F1(0.0f) /* rejected by vm_check; kept total */
  }
#undef VM_F1
}

static VM_COLD void vm_fun2_row(float *d, const float *x, const float *y, unsigned fn, int n) {
  const int h16 = (fn & IR_FUN_F16) != 0;
  fn &= ~IR_FUN_F16;
  for (int l = 0; l < n; l++) {
    double r;
    switch (fn) {
    case IR_F2_ATAN2: r = atan2((double)x[l], (double)y[l]); break;
    case IR_F2_POW: r = pow((double)x[l], (double)y[l]); break;
    case IR_F2_LDEXP: {
      /* the exponent is an i32 in the row's bits; ldexp clamps it safely */
      int32_t k;
      memcpy(&k, &y[l], sizeof k);
      r = ldexp((double)x[l], k < -1000 ? -1000 : k > 1000 ? 1000 : k);
      break;
    }
    default: r = 0.0; break;
    }
    d[l] = (float)(h16 ? vm_d_to_h(r) : r);
  }
}

static inline uint32_t vm_popc(uint32_t x) {
#if defined(__GNUC__)
  return (uint32_t)__builtin_popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
#endif
}

/* leading / trailing zeros of a non-zero word */
static inline uint32_t vm_clz(uint32_t x) {
#if defined(__GNUC__)
  return (uint32_t)__builtin_clz(x);
#else
  uint32_t n = 0;
  while (!(x & 0x80000000u)) x <<= 1, n++;
  return n;
#endif
}

static inline uint32_t vm_ctz(uint32_t x) {
#if defined(__GNUC__)
  return (uint32_t)__builtin_ctz(x);
#else
  uint32_t n = 0;
  while (!(x & 1u)) x >>= 1, n++;
  return n;
#endif
}

static VM_COLD void vm_ibit_row(uint32_t *d, const uint32_t *x, unsigned fn, int n) {
  for (int l = 0; l < n; l++) {
    const uint32_t v = x[l];
    uint32_t r;
    switch (fn) {
    case IR_IB_POPCNT: r = vm_popc(v); break;
    case IR_IB_CLZ: r = v ? vm_clz(v) : 32u; break;
    case IR_IB_CTZ: r = v ? vm_ctz(v) : 32u; break;
    case IR_IB_FLBU: r = v ? 31u - vm_clz(v) : UINT32_MAX; break;
    case IR_IB_FLBS: {
      /* the highest bit that differs from the sign bit */
      const uint32_t t = (v & 0x80000000u) ? ~v : v;
      r = t ? 31u - vm_clz(t) : UINT32_MAX;
      break;
    }
    case IR_IB_FTB: r = v ? vm_ctz(v) : UINT32_MAX; break;
    case IR_IB_REV:
      r = v;
      r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
      r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
      r = ((r >> 4) & 0x0f0f0f0fu) | ((r & 0x0f0f0f0fu) << 4);
      r = ((r >> 8) & 0x00ff00ffu) | ((r & 0x00ff00ffu) << 8);
      r = (r >> 16) | (r << 16);
      break;
    default: r = 0; break;
    }
    d[l] = r;
  }
}

static float vm_row_f(uint32_t u) { return vm_bits_f(u); }

/* Pack: the bits component c contributes, already in place
 * (util/bitfn.h has the normalised forms). */
static VM_COLD void vm_packc_row(uint32_t *d, const uint32_t *x, unsigned c, unsigned fn, int n) {
  for (int l = 0; l < n; l++) {
    const float f = vm_row_f(x[l]);
    const int32_t s = (int32_t)x[l];
    uint32_t r;
    switch (fn) {
    case IR_PK_4X8SNORM: r = (bitfn_pack_norm(f, 127.0, 1) & 0xffu) << (8u * c); break;
    case IR_PK_4X8UNORM: r = (bitfn_pack_norm(f, 255.0, 0) & 0xffu) << (8u * c); break;
    case IR_PK_2X16SNORM: r = (bitfn_pack_norm(f, 32767.0, 1) & 0xffffu) << (16u * c); break;
    case IR_PK_2X16UNORM: r = (bitfn_pack_norm(f, 65535.0, 0) & 0xffffu) << (16u * c); break;
    case IR_PK_2X16FLOAT: r = vm_f32_to_f16(f) << (16u * c); break;
    case IR_PK_4XI8: case IR_PK_4XU8: r = (x[l] & 0xffu) << (8u * c); break;
    case IR_PK_4XI8C:
      r = ((uint32_t)(s < -128 ? -128 : s > 127 ? 127 : s) & 0xffu) << (8u * c);
      break;
    case IR_PK_4XU8C: r = (x[l] > 255u ? 255u : x[l]) << (8u * c); break;
    default: r = 0; break;
    }
    d[l] = r;
  }
}

static VM_COLD void vm_unpackc_row(uint32_t *d, const uint32_t *x, unsigned c, unsigned fn, int n) {
  for (int l = 0; l < n; l++) {
    const uint32_t b8 = (x[l] >> (8u * (c & 3u))) & 0xffu;
    const uint32_t b16 = (x[l] >> (16u * (c & 1u))) & 0xffffu;
    float f = 0.0f;
    uint32_t r;
    switch (fn) {
    case IR_PK_4X8SNORM: f = bitfn_unpack_norm(b8, 127.0f, 8, 1); break;
    case IR_PK_4X8UNORM: f = bitfn_unpack_norm(b8, 255.0f, 8, 0); break;
    case IR_PK_2X16SNORM: f = bitfn_unpack_norm(b16, 32767.0f, 16, 1); break;
    case IR_PK_2X16UNORM: f = bitfn_unpack_norm(b16, 65535.0f, 16, 0); break;
    case IR_PK_2X16FLOAT: f = vm_f16_to_f32(b16); break;
    case IR_PK_4XI8: case IR_PK_4XI8C: d[l] = (uint32_t)(int32_t)(int8_t)b8; continue;
    default: d[l] = b8; continue; /* 4xU8 */
    }
    memcpy(&r, &f, sizeof r);
    d[l] = r;
  }
}

/* Bits set in each byte value: a narrow subgroup's mask is one or two
 * lookups, cheaper than the bit arithmetic of bitfn_popcount64
 * (util/bitfn.h), which the observed interpreter runs at every change of
 * the mask of a wider one. */
#define VM_PC2(n) n, n + 1, n + 1, n + 2
#define VM_PC4(n) VM_PC2(n), VM_PC2(n + 1), VM_PC2(n + 1), VM_PC2(n + 2)
#define VM_PC6(n) VM_PC4(n), VM_PC4(n + 1), VM_PC4(n + 1), VM_PC4(n + 2)
static const uint8_t vm_popcount8[256] = {VM_PC6(0), VM_PC6(1), VM_PC6(1), VM_PC6(2)};
#undef VM_PC6
#undef VM_PC4
#undef VM_PC2

/* ----------------------------------------------------------- interpreter */

static uint64_t vm_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A run reached its checkpoint after cnt instructions: 1 to go on (with the
 * next checkpoint in *limit), 0 to stop (cx->why says why). */
static int vm_checkpoint(vm_ctx *cx, uint64_t cnt, uint64_t *limit) {
  if (cnt > cx->budget) {
    cx->why = VM_WHY_BUDGET;
    return 0;
  }
  if (cx->cancel && atomic_load_explicit(cx->cancel, memory_order_relaxed)) {
    cx->why = VM_WHY_CANCEL;
    return 0;
  }
  if (cx->deadline != UINT64_MAX && vm_now_ns() > cx->deadline) {
    cx->why = VM_WHY_TIMEOUT;
    return 0;
  }
  *limit = cx->budget - cnt > VM_SLICE ? cnt + VM_SLICE : cx->budget;
  return 1;
}

#define VM_CAT2(a, b) a##b
#define VM_CAT(a, b) VM_CAT2(a, b)

/* VM_WN(name) names one width's (and one instruction set's) copy of a
 * function: name ## VM_W ## VM_ISA. */
#define VM_WN(base) VM_CAT(VM_CAT(base, VM_W), VM_ISA)

/* The interpreter for every width, compiled for the library's baseline
 * (SSE2 on x86-64: no -march, so one binary runs on any host). */
#define VM_ISA
#include "vm_widths.inc"
#undef VM_ISA

/* The same interpreter again for wider vector units, chosen once at run
 * time from what the CPU (and the OS, which must save the wider
 * registers) supports. Only the instruction selection differs: the C is
 * the same, FMA stays off (it is not in these target lists, and
 * -ffp-contract=off holds), so every variant gives the same bits. Helpers
 * defined above are inlined into these copies and compiled for their
 * target; the out-of-line ones (built-in function rows, subgroup
 * operations, sampling) stay baseline code. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(VM_NO_ISA_VARIANTS)
#define VM_HAVE_ISA_VARIANTS 1
#include <cpuid.h>
/* GCC takes a target pragma; clang (the fuzzers' compiler) the same
 * targets as an attribute on every function defined in between. */
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi,bmi2,lzcnt,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,lzcnt,popcnt")
#endif
#define VM_ISA _avx2
#include "vm_widths.inc"
#undef VM_ISA
#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx2,bmi,bmi2,lzcnt,popcnt"))), apply_to = function)
#else
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx2,bmi,bmi2,lzcnt,popcnt,prefer-vector-width=512")
#endif
#define VM_ISA _avx512
#include "vm_widths.inc"
#undef VM_ISA
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
#define VM_HAVE_ISA_VARIANTS 0
#endif

/* The instruction sets the interpreter is built for, in order. */
enum { VM_ISA_BASE, VM_ISA_AVX2, VM_ISA_AVX512, VM_ISA_COUNT };
static const char *const vm_isa_names[VM_ISA_COUNT] = {"sse2", "avx2", "avx512"};

/* What the host runs, best first. */
static int vm_isa_supported(int isa) {
  if (isa == VM_ISA_BASE) return 1;
#if VM_HAVE_ISA_VARIANTS
  __builtin_cpu_init();
  /* LZCNT (CPUID 0x80000001, ECX bit 5) is read directly: not every
   * compiler's __builtin_cpu_supports knows it, and without it the
   * instruction would run as BSR and give other results */
  unsigned a, b, c, d;
  const int lzcnt = __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c >> 5 & 1u);
  const int avx2 = lzcnt && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                   __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  if (isa == VM_ISA_AVX2) return avx2;
  if (isa == VM_ISA_AVX512)
    return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512cd");
#endif
  return 0;
}

/* The variant every dispatch uses, chosen at the first one: the best the
 * host supports, or LOCKSTEP_ISA (sse2, avx2, avx512) to force one; a
 * variant the host lacks, or an unknown name, falls back to the best one
 * the host has below it (vm_isa_name says which was taken). */
static _Atomic int vm_isa_chosen = -1;

static int vm_isa(void) {
  int isa = atomic_load_explicit(&vm_isa_chosen, memory_order_relaxed);
  if (isa >= 0) return isa;
  isa = VM_ISA_COUNT - 1;
  const char *want = getenv("LOCKSTEP_ISA");
  if (want && *want)
    for (int k = 0; k < VM_ISA_COUNT; k++)
      if (!strcmp(want, vm_isa_names[k])) isa = k;
  while (isa > 0 && !vm_isa_supported(isa)) isa--;
  atomic_store_explicit(&vm_isa_chosen, isa, memory_order_relaxed);
  return isa;
}

const char *vm_isa_name(void) { return vm_isa_names[vm_isa()]; }

int vm_isa_available(const char *name) {
  for (int k = 0; k < VM_ISA_COUNT; k++)
    if (!strcmp(name, vm_isa_names[k])) return vm_isa_supported(k);
  return 0;
}

/* [isa][width index][observed] */
#if VM_HAVE_ISA_VARIANTS
#define VM_RUNS(sfx)                                                           \
  {{vm_run_w8##sfx, vm_run_obs_w8##sfx}, {vm_run_w16##sfx, vm_run_obs_w16##sfx}, \
   {vm_run_w32##sfx, vm_run_obs_w32##sfx}, {vm_run_w64##sfx, vm_run_obs_w64##sfx}}
static const vm_run_fn vm_runs[VM_ISA_COUNT][4][2] = {VM_RUNS(), VM_RUNS(_avx2), VM_RUNS(_avx512)};
#else
#define VM_RUNS(sfx)                                                           \
  {{vm_run_w8, vm_run_obs_w8}, {vm_run_w16, vm_run_obs_w16},                   \
   {vm_run_w32, vm_run_obs_w32}, {vm_run_w64, vm_run_obs_w64}}
static const vm_run_fn vm_runs[VM_ISA_COUNT][4][2] = {VM_RUNS(), VM_RUNS(), VM_RUNS()};
#endif
#undef VM_RUNS

static vm_run_fn vm_run_for(uint32_t w, int observed) {
  const int wi = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : w == 64 ? 3 : -1;
  if (wi < 0) return NULL;
  return vm_runs[vm_isa()][wi][observed != 0];
}

/* ------------------------------------------------------------ validation */

/* Whether an instruction writes register a (constants must stay constant). */
static int vm_writes_a(unsigned op) {
  switch (op) {
  case IR_STB:
  case IR_STW:
  case IR_STP:
  case IR_STBH:
  case IR_STWH:
  case IR_STPH:
  case IR_TST:
  case IR_MAND: return 0;
  default: return ir_op_form(op)[0] == 'r';
  }
}

/* Every operand in range, once per dispatch, so the interpreter need not
 * check: a malformed program must not make the VM touch foreign memory. */
static int vm_check(const ir_program *p) {
  if (p->nconsts > p->nregs || (p->nconsts && !p->consts)) return 0;
  if (p->nregs > (1u << 24)) return 0; /* register byte offsets stay 32-bit */
  if (p->ncode && !p->code) return 0;
  static const unsigned vec[IR_BI_COUNT] = {
      [IR_BI_LOCAL_INVOCATION_INDEX] = 1, [IR_BI_LOCAL_INVOCATION_ID] = 3,
      [IR_BI_GLOBAL_INVOCATION_ID] = 3, [IR_BI_WORKGROUP_ID] = 3, [IR_BI_NUM_WORKGROUPS] = 3,
      [IR_BI_SUBGROUP_INVOCATION_ID] = 1, [IR_BI_SUBGROUP_SIZE] = 1, [IR_BI_SUBGROUP_ID] = 1,
      [IR_BI_NUM_SUBGROUPS] = 1, [IR_BI_GLOBAL_INVOCATION_INDEX] = 1, [IR_BI_WORKGROUP_INDEX] = 1};
  for (unsigned i = 0; i < IR_BI_COUNT; i++) {
    uint32_t r = p->builtin_reg[i];
    if (r == IR_NO_REG) continue;
    if (r < p->nconsts || r >= p->nregs || p->nregs - r < vec[i]) return 0;
  }
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    const ir_insn *in = &p->code[pc];
    if (in->op >= IR_OPCODE_COUNT) return 0;
    const char *form = ir_op_form(in->op);
    const uint32_t v[4] = {in->a, in->b, in->c, in->d};
    for (int k = 0; k < 4; k++) {
      switch (form[k]) {
      case 'r':
        if (v[k] >= p->nregs) return 0;
        break;
      case 'm':
        /* KILL names a range [a, b): b may be nmasks, and so may an
         * empty range's a */
        if (in->op == IR_KILL ? v[k] > p->nmasks : v[k] >= p->nmasks) return 0;
        break;
      case 'j':
        if (v[k] > p->ncode) return 0;
        break;
      case 's':
        if (v[k] >= p->nbindings) return 0;
        break;
      default: break;
      }
    }
    if (vm_writes_a(in->op) && in->a < p->nconsts) return 0;
    /* the texture opcodes read and write runs of 4 (TQRY 3) registers,
     * and their slot must be a texture binding */
    if (in->op == IR_TLD || in->op == IR_TST || in->op == IR_TQRY) {
      const uint32_t na = in->op == IR_TST ? 3 : in->op == IR_TQRY ? 3 : 4;
      const uint32_t nb = in->op == IR_TQRY ? 1 : 4;
      if (p->nregs - in->a < na || p->nregs - in->b < nb) return 0;
      if (in->op != IR_TST && in->a < p->nconsts) return 0;
      if (!IR_BIND_IS_TEXTURE(p->bindings[in->c].kind)) return 0;
      if (in->op == IR_TQRY && in->d > 4) return 0;
    }
    /* sampling reads a block of IR_SMPIN_COUNT; its descriptor names this
     * texture and a sampler */
    if (in->op == IR_TSMP) {
      if (p->nregs - in->a < 4 || in->a < p->nconsts || p->nregs - in->b < IR_SMPIN_COUNT) return 0;
      if (in->d >= p->nsamples || !p->samples) return 0;
      const ir_sample *sm = &p->samples[in->d];
      if (sm->texture != in->c || sm->sampler >= p->nbindings ||
          p->bindings[in->c].kind != IR_BIND_SAMPLED_TEXTURE ||
          !IR_BIND_IS_SAMPLER(p->bindings[sm->sampler].kind) || sm->kind > IR_SMP_CMP_LEVEL ||
          sm->component > 3)
        return 0;
    }
    if (in->op == IR_ATOMB && ((in->d >> 8) >= p->nbindings || (in->d & 0xff) >= IR_ATOM_COUNT))
      return 0;
    if (in->op == IR_ATOMW && in->d >= IR_ATOM_COUNT) return 0;
    if (in->op == IR_PZERO &&
        ((in->c | in->d) % 4 || (uint64_t)in->c + in->d > p->priv_mem_size))
      return 0;
    if ((in->op == IR_FUN1 && (in->d & ~IR_FUN_F16) >= IR_F1_COUNT) ||
        (in->op == IR_FUN2 && (in->d & ~IR_FUN_F16) >= IR_F2_COUNT) ||
        (in->op == IR_IBIT && in->d >= IR_IB_COUNT) ||
        ((in->op == IR_PACKC || in->op == IR_UNPACKC) && (in->d >= IR_PK_COUNT || in->c > 3)))
      return 0;
    if ((in->op == IR_SRED && in->d >= IR_SG_COUNT) ||
        ((in->op == IR_SCANI || in->op == IR_SCANX) && in->d > IR_SG_MUL_H) ||
        (in->op == IR_SHUF && in->d >= IR_SH_COUNT) || (in->op == IR_VOTE && in->d >= IR_VT_COUNT) ||
        (in->op == IR_BALLOT && in->d > 3))
      return 0;
  }
  return 1;
}

/* Which components of each built-in the program reads: a kernel that uses
 * only gid.x should not pay for writing y and z into every subgroup. */
static void vm_builtins_read(const ir_program *p, uint8_t used[IR_BI_COUNT]) {
  memset(used, 0, IR_BI_COUNT);
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    const ir_insn *in = &p->code[pc];
    const char *form = ir_op_form(in->op);
    const uint32_t v[4] = {in->a, in->b, in->c, in->d};
    for (int k = 0; k < 4; k++) {
      if (form[k] != 'r') continue;
      /* a pure destination is not a read; MOVM keeps dead lanes' old value */
      if (k == 0 && vm_writes_a(in->op) && in->op != IR_MOVM && in->op != IR_BFINS &&
          !((in->op == IR_ATOMB || in->op == IR_ATOMW) && (in->d & 0xffu) == IR_ATOM_CMPX))
        continue;
      for (unsigned b = 0; b < IR_BI_COUNT; b++) {
        const uint32_t r = p->builtin_reg[b];
        if (r != IR_NO_REG && v[k] >= r && v[k] - r < 3) used[b] |= (uint8_t)(1u << (v[k] - r));
      }
    }
  }
}

/* -------------------------------------------------------------- dispatch */

typedef struct vm_layout {
  size_t regs, masks, pc, exec, state, lid, wgmem, priv, code, total;
} vm_layout;

static int vm_add(size_t *off, size_t bytes, size_t *at) {
  size_t b = (bytes + 63) & ~(size_t)63;
  if (b < bytes || *off > SIZE_MAX - b) return 0;
  *at = *off;
  *off += b;
  return 1;
}

static int vm_mul(size_t a, size_t b, size_t *r) {
  if (a && b > SIZE_MAX / a) return 0;
  *r = a * b;
  return 1;
}

static int vm_plan(const ir_program *p, uint32_t w, uint32_t nsub, vm_layout *l) {
  size_t off = 0, lanes = (size_t)nsub * w, n;
  if (!vm_mul(lanes, p->nregs, &n) || !vm_mul(n, 4, &n) || !vm_add(&off, n, &l->regs)) return 0;
  if (!vm_mul(nsub, p->nmasks, &n) || !vm_mul(n, 8, &n) || !vm_add(&off, n, &l->masks)) return 0;
  if (!vm_add(&off, (size_t)nsub * 4, &l->pc) || !vm_add(&off, (size_t)nsub * 8, &l->exec) ||
      !vm_add(&off, nsub, &l->state))
    return 0;
  if (!vm_mul(lanes, 16, &n) || !vm_add(&off, n, &l->lid)) return 0;
  if (!vm_add(&off, ((size_t)p->wg_mem_size + 3) & ~(size_t)3, &l->wgmem)) return 0;
  if (!vm_mul(lanes, p->priv_mem_size / 4, &n) || !vm_mul(n, 4, &n) || !vm_add(&off, n, &l->priv))
    return 0;
  if (!vm_mul((size_t)p->ncode + 1, sizeof(vm_op), &n) || !vm_add(&off, n, &l->code)) return 0;
  l->total = off;
  return 1;
}

/* State shared by the workers of one dispatch. */
typedef struct vm_shared {
  const vm_dispatch_desc *desc;
  vm_layout layout;
  uint32_t nsub, ninv;
  uint64_t total; /* workgroups */
  uint64_t chunk;
  void **scratch; /* per worker */
  _Atomic uint64_t next;
  _Atomic int stop;
  _Atomic int failed; /* the first failure (VM_WHY_*) claims the report */
  _Atomic int nomem;  /* a worker could not allocate its observer state */
  _Atomic uint64_t spent; /* instructions of finished chunks, for dispatch_budget */
  int total_over;         /* the failure was dispatch_budget's */
  _Atomic uint64_t instructions;
  uint32_t fail_pc, fail_group[3];
  uint8_t bi_used[IR_BI_COUNT];
  unsigned workers; /* threads running the dispatch's workgroups */
} vm_shared;

/* cx->fill from the built-in components the code reads (vm_builtins_read). */
static void vm_fill_plan(vm_ctx *cx, const ir_program *p, const uint8_t used[IR_BI_COUNT]) {
  static const struct {
    uint8_t bi, op, comps, k0;
  } steps[] = {
      {IR_BI_LOCAL_INVOCATION_INDEX, VM_F_LID, 1, 0},
      {IR_BI_LOCAL_INVOCATION_ID, VM_F_LID, 3, 1},
      {IR_BI_GLOBAL_INVOCATION_ID, VM_F_GID, 3, 0},
      {IR_BI_WORKGROUP_ID, VM_F_WGID, 3, 0},
      {IR_BI_NUM_WORKGROUPS, VM_F_NWG, 3, 0},
      {IR_BI_WORKGROUP_INDEX, VM_F_WGINDEX, 1, 0},
      {IR_BI_GLOBAL_INVOCATION_INDEX, VM_F_GINDEX, 1, 0},
      {IR_BI_SUBGROUP_INVOCATION_ID, VM_F_SGLANE, 1, 0},
      {IR_BI_SUBGROUP_SIZE, VM_F_SGSIZE, 1, 0},
      {IR_BI_SUBGROUP_ID, VM_F_SGID, 1, 0},
      {IR_BI_NUM_SUBGROUPS, VM_F_NSG, 1, 0},
  };
  cx->nfill = 0;
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    const uint32_t r = p->builtin_reg[steps[i].bi];
    for (unsigned c = 0; c < steps[i].comps; c++) {
      if (r == IR_NO_REG || !(used[steps[i].bi] >> c & 1)) continue;
      cx->fill[cx->nfill++] = (vm_fill){.op = steps[i].op, .k = (uint8_t)(steps[i].k0 + c),
                                        .reg = r + c};
    }
  }
}

static void vm_ctx_init(vm_ctx *cx, const vm_shared *sh, void *mem) {
  const vm_dispatch_desc *d = sh->desc;
  const ir_program *p = d->prog;
  uint8_t *base = mem;
  const uint32_t w = d->width, nsub = sh->nsub;
  memset(cx, 0, sizeof *cx);
  cx->prog = p;
  cx->bind = d->bindings;
  cx->obs = d->observer;
  cx->run = vm_run_for(w, d->observer != NULL);
  cx->solo = sh->workers == 1;
  cx->width = w;
  cx->nsub = nsub;
  cx->ninv = sh->ninv;
  cx->regs = (uint32_t *)(base + sh->layout.regs);
  cx->masks = (uint64_t *)(base + sh->layout.masks);
  cx->pc = (uint32_t *)(base + sh->layout.pc);
  cx->exec = (uint64_t *)(base + sh->layout.exec);
  cx->state = base + sh->layout.state;
  cx->lid = (uint32_t *)(base + sh->layout.lid);
  cx->tcode = (vm_op *)(base + sh->layout.code);
  cx->wgmem = (uint32_t *)(base + sh->layout.wgmem);
  cx->wgmem_size = p->wg_mem_size;
  cx->priv = (uint32_t *)(base + sh->layout.priv);
  cx->priv_size = p->priv_mem_size;
  cx->priv_words = p->priv_mem_size / 4;
  cx->budget = d->budget ? d->budget : UINT64_MAX;
  cx->limit = cx->budget > VM_SLICE ? VM_SLICE : cx->budget;
  cx->deadline = d->deadline ? d->deadline : UINT64_MAX;
  cx->cancel = d->cancel;
  cx->f16c = vm_host_f16c();
  memcpy(cx->groups, d->groups, sizeof cx->groups);
  vm_fill_plan(cx, p, sh->bi_used);

  /* Constants never change: one fill per dispatch. The rest of the
   * register file is zeroed once so no lane ever reads stale bits from an
   * earlier dispatch (lowering writes before it reads, so this is only
   * hygiene and costs nothing per workgroup). */
  const size_t row = w;
  for (uint32_t s = 0; s < nsub; s++) {
    uint32_t *r = cx->regs + (size_t)s * p->nregs * row;
    for (uint32_t k = 0; k < p->nconsts; k++)
      for (uint32_t l = 0; l < w; l++) r[k * row + l] = p->consts[k];
    memset(r + (size_t)p->nconsts * row, 0, (size_t)(p->nregs - p->nconsts) * row * 4);
  }
  const size_t lanes = (size_t)nsub * w;
  const uint32_t sx = p->wg_size[0], sy = p->wg_size[1];
  for (size_t i = 0; i < lanes; i++) {
    uint32_t idx = (uint32_t)i;
    cx->lid[i] = idx;
    cx->lid[lanes + i] = idx % sx;
    cx->lid[2 * lanes + i] = (idx / sx) % sy;
    cx->lid[3 * lanes + i] = idx / sx / sy;
  }
}

/* The straight-line runs of the program, for the observed interpreter's
 * counts: lead[pc] = the first pc of the run that holds pc. A run ends at
 * a jump, at an instruction that changes the execution mask (its own count
 * takes the mask before) and where a subgroup stops (barrier, end); a jump
 * target starts one. Every instruction of a run is issued as often as its
 * first, with the same live lanes, so counting the first is enough. The
 * handlers that assign exec (vm_loop.inc, VM_OBS_POP) are the list here. */
static void vm_segments(const ir_program *p, uint32_t *lead) {
  const uint32_t n = p->ncode;
  for (uint32_t pc = 0; pc <= n; pc++) lead[pc] = 0;
  lead[0] = lead[n] = 1; /* marks first */
  for (uint32_t pc = 0; pc < n; pc++) {
    const ir_insn *in = &p->code[pc];
    const int jump = ir_op_form(in->op)[0] == 'j';
    if (jump && in->a <= n) lead[in->a] = 1;
    if (jump || in->op == IR_MLOAD || in->op == IR_MAND || in->op == IR_MANDN ||
        in->op == IR_KILL || in->op == IR_BARRIER || in->op == IR_END)
      lead[pc + 1] = 1;
  }
  uint32_t first = 0;
  for (uint32_t pc = 0; pc <= n; pc++) {
    if (lead[pc]) first = pc;
    lead[pc] = first;
  }
}

/* Observer state of one worker; 0 when memory ran out. */
static int vm_obs_alloc(vm_ctx *cx, uint32_t nsub) {
  const vm_observer *obs = cx->obs;
  const size_t n = (size_t)cx->prog->ncode + 1;
  cx->obs_pcs = malloc(sizeof *cx->obs_pcs * nsub);
  cx->obs_wrote = calloc(nsub, sizeof *cx->obs_wrote);
  cx->lead = malloc(n * sizeof *cx->lead);
  cx->seg_issued = calloc(n, sizeof *cx->seg_issued);
  cx->seg_lanes = calloc(n, sizeof *cx->seg_lanes);
  cx->seg_empty = calloc(n, sizeof *cx->seg_empty);
  cx->tcode_all = malloc(n * sizeof *cx->tcode_all);
  int ok = cx->obs_pcs && cx->obs_wrote && cx->lead && cx->seg_issued && cx->seg_lanes &&
           cx->seg_empty && cx->tcode_all;
  if (!(obs->issued && obs->lanes)) {
    cx->obs_issued = calloc(n, sizeof *cx->obs_issued);
    cx->obs_lanes = calloc(n, sizeof *cx->obs_lanes);
    ok = ok && cx->obs_issued && cx->obs_lanes;
  }
  if (!(obs->issued && obs->lanes && obs->empty)) {
    cx->obs_empty = calloc(n, sizeof *cx->obs_empty);
    ok = ok && cx->obs_empty;
  }
  if (ok) vm_segments(cx->prog, cx->lead);
  return ok;
}

/* Adds the per-run counts into the observer's per-pc ones and frees the
 * worker's observer state. */
static void vm_obs_finish(vm_ctx *cx, int counted) {
  const vm_observer *obs = cx->obs;
  if (counted && obs->issued && obs->lanes) {
    uint64_t *is = obs->issued[cx->thread], *ln = obs->lanes[cx->thread];
    for (uint32_t pc = 0; pc <= cx->prog->ncode; pc++) {
      is[pc] += cx->seg_issued[cx->lead[pc]];
      ln[pc] += cx->seg_lanes[cx->lead[pc]];
    }
    if (obs->empty) {
      uint64_t *em = obs->empty[cx->thread];
      for (uint32_t pc = 0; pc <= cx->prog->ncode; pc++) em[pc] += cx->seg_empty[cx->lead[pc]];
    }
  }
  free(cx->obs_pcs);
  free(cx->obs_wrote);
  free(cx->lead);
  free(cx->seg_issued);
  free(cx->seg_lanes);
  free(cx->seg_empty);
  free(cx->obs_empty);
  free(cx->tcode_all);
  free(cx->obs_issued);
  free(cx->obs_lanes);
}

static void vm_worker(void *arg, unsigned w) {
  vm_shared *sh = arg;
  vm_ctx cx;
  vm_ctx_init(&cx, sh, sh->scratch[w]);
  cx.thread = w;
  const vm_observer *obs = cx.obs;
  if (obs && !vm_obs_alloc(&cx, sh->nsub)) {
    vm_obs_finish(&cx, 0);
    atomic_store_explicit(&sh->nomem, 1, memory_order_relaxed);
    atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
    return;
  }
  cx.run(&cx); /* the first call translates the code */
  const uint64_t gx = sh->desc->groups[0], gy = sh->desc->groups[1];
  uint64_t executed = 0;
  uint64_t chunk_start = 0;
  while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
    /* between chunks: the dispatch's deadline and total budget */
    const vm_dispatch_desc *dd = sh->desc;
    int why = 0;
    if (dd->deadline && vm_now_ns() > dd->deadline) why = VM_WHY_TIMEOUT;
    if (dd->dispatch_budget &&
        atomic_fetch_add_explicit(&sh->spent, executed - chunk_start, memory_order_relaxed) +
                executed - chunk_start > dd->dispatch_budget)
      why = VM_WHY_BUDGET;
    chunk_start = executed;
    if (why) {
      int expect = 0;
      if (atomic_compare_exchange_strong(&sh->failed, &expect, why)) {
        sh->fail_pc = cx.fail_pc;
        sh->total_over = why == VM_WHY_BUDGET;
        memcpy(sh->fail_group, cx.gid, sizeof sh->fail_group);
      }
      atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
      break;
    }
    uint64_t first = atomic_fetch_add_explicit(&sh->next, sh->chunk, memory_order_relaxed);
    if (first >= sh->total) break;
    uint64_t end = sh->total - first < sh->chunk ? sh->total : first + sh->chunk;
    uint64_t x = first % gx, y = (first / gx) % gy, z = first / gx / gy;
    for (uint64_t g = first; g < end; g++) {
      cx.gid[0] = (uint32_t)x;
      cx.gid[1] = (uint32_t)y;
      cx.gid[2] = (uint32_t)z;
      if (obs) cx.detail = obs->group_begin ? obs->group_begin(obs->user, w, cx.gid) : 0;
      int r = cx.run(&cx);
      if (obs && obs->group_end) obs->group_end(obs->user, w, cx.gid);
      executed += cx.count;
      if (r == VM_Y_BUDGET) {
        int expect = 0;
        if (atomic_compare_exchange_strong(&sh->failed, &expect, cx.why)) {
          sh->fail_pc = cx.fail_pc;
          memcpy(sh->fail_group, cx.gid, sizeof sh->fail_group);
        }
        atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
        break;
      }
      if (++x == gx) {
        x = 0;
        if (++y == gy) {
          y = 0;
          z++;
        }
      }
      /* Workgroups may be long: stop soon after another worker failed. */
      if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) break;
      if (sh->desc->cancel && atomic_load_explicit(sh->desc->cancel, memory_order_relaxed)) {
        int expect = 0;
        atomic_compare_exchange_strong(&sh->failed, &expect, VM_WHY_CANCEL);
        atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
        break;
      }
    }
  }
  atomic_fetch_add_explicit(&sh->instructions, executed, memory_order_relaxed);
  if (obs) vm_obs_finish(&cx, 1);
}

vm_status vm_dispatch(vm_pool *pool, const vm_dispatch_desc *desc, vm_result *result) {
  vm_result dummy;
  if (!result) result = &dummy;
  memset(result, 0, sizeof *result);
  result->status = VM_INVALID;
  if (!desc || !desc->prog) return VM_INVALID;
  const ir_program *p = desc->prog;
  const uint32_t w = desc->width;
  if (!vm_run_for(w, 0)) return VM_INVALID;
  if (p->nbindings && !desc->bindings) return VM_INVALID;
  for (uint32_t i = 0; i < p->nbindings; i++)
    if (IR_BIND_IS_TEXTURE(p->bindings[i].kind) && !desc->bindings[i].tex) return VM_INVALID;
  if (!vm_check(p)) return VM_INVALID;

  result->status = VM_OK;
  /* Up to 2^96 workgroups' worth of u32 products: keep the total below
   * 2^64 by construction (groups are 16 bits in practice) and refuse
   * workgroups too large to index in 32 bits, which could not be allocated
   * anyway. */
  const uint64_t nxy = (uint64_t)p->wg_size[0] * p->wg_size[1];
  const uint64_t gxy = (uint64_t)desc->groups[0] * desc->groups[1];
  if (nxy == 0 || p->wg_size[2] == 0 || gxy == 0 || desc->groups[2] == 0) return VM_OK;
  if (nxy > UINT32_MAX || nxy * p->wg_size[2] > UINT32_MAX - 64 ||
      gxy > UINT64_MAX / desc->groups[2]) {
    result->status = VM_NO_MEMORY;
    return VM_NO_MEMORY;
  }
  const uint64_t ninv = nxy * p->wg_size[2];
  const uint64_t total = gxy * desc->groups[2];

  vm_shared sh;
  memset(&sh, 0, sizeof sh);
  sh.desc = desc;
  sh.ninv = (uint32_t)ninv;
  sh.nsub = (uint32_t)((ninv + w - 1) / w);
  sh.total = total;
  vm_builtins_read(p, sh.bi_used);
  if (!vm_plan(p, w, sh.nsub, &sh.layout)) {
    result->memory_needed = UINT64_MAX;
    result->status = VM_NO_MEMORY;
    return VM_NO_MEMORY;
  }
  result->memory_needed = sh.layout.total;
  const uint64_t mlimit = desc->memory_limit;
  if (mlimit && sh.layout.total > mlimit) {
    result->status = VM_NO_MEMORY;
    return VM_NO_MEMORY;
  }

  /* Chunks amortise the shared counter for small workgroups while leaving
   * enough pieces to balance the load (16 a thread). Small workgroups get
   * up to 16,384 invocations a chunk: a thread then walks 64 KiB of a
   * buffer indexed by the global id in one run, which the hardware
   * prefetcher follows; with 1,024 (16 workgroups of 64), the seed kernel
   * at 67M elements stopped at 24-27 ms on 16 threads, with 16,384 it ran
   * in 11-17 ms (docs/performance.md, "Thread scaling"). Large workgroups
   * keep 4 a chunk: the deadline is checked between chunks. */
  unsigned threads = vm_pool_threads(pool);
  uint64_t chunk = total / ((uint64_t)threads * 16);
  uint64_t cap = ninv >= 256 ? 4 : 16384 / ninv;
  if (chunk > cap) chunk = cap;
  if (chunk < 1) chunk = 1;
  sh.chunk = chunk;
  uint64_t pieces = (total + chunk - 1) / chunk;
  unsigned workers = pieces < threads ? (unsigned)pieces : threads;
  const vm_observer *obs = desc->observer;
  if (obs && obs->serial) workers = 1;
  /* as many workers as the memory limit holds (at least one: checked above) */
  if (mlimit && workers > mlimit / sh.layout.total) workers = (unsigned)(mlimit / sh.layout.total);
  if (pool) vm_pool_trim(pool, workers, sh.layout.total, mlimit);

  void *own = NULL;
  void *slots[64];
  void **scratch = workers <= 64 ? slots : malloc(workers * sizeof *scratch);
  vm_status st = VM_OK;
  if (!scratch) {
    st = VM_NO_MEMORY;
  } else if (!pool) {
    own = aligned_alloc(64, (sh.layout.total + 63) & ~(size_t)63);
    scratch[0] = own;
    if (!own) st = VM_NO_MEMORY;
  } else {
    for (unsigned i = 0; i < workers; i++) {
      scratch[i] = vm_pool_scratch(pool, i, sh.layout.total);
      if (!scratch[i]) st = VM_NO_MEMORY;
    }
  }
  if (st == VM_OK) {
    sh.scratch = scratch;
    sh.workers = workers;
    if (obs && obs->dispatch_begin) obs->dispatch_begin(obs->user, p, desc->groups, w);
    vm_pool_run(pool, workers, vm_worker, &sh);
    if (obs && obs->dispatch_end) obs->dispatch_end(obs->user);
    result->instructions = atomic_load(&sh.instructions);
    if (atomic_load(&sh.nomem)) st = VM_NO_MEMORY;
    const int why = atomic_load(&sh.failed);
    if (why) {
      st = why == VM_WHY_CANCEL ? VM_CANCELLED : why == VM_WHY_TIMEOUT ? VM_TIMEOUT
                                                                       : VM_BUDGET_EXCEEDED;
      result->pc = sh.fail_pc;
      result->whole_dispatch = sh.total_over;
      memcpy(result->group, sh.fail_group, sizeof result->group);
    }
  }
  free(own);
  if (scratch != slots) free(scratch);
  result->status = st;
  return st;
}
