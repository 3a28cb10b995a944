/*
 * vm.c — runs one dispatch of an ir_program (bytecode from ir/lower.c); the
 * API (src/api) calls vm_dispatch for every dispatch a queue submit holds.
 *
 * This file checks the program once, lays out the per-worker execution
 * context and hands out workgroups to the pool's threads (an atomic counter,
 * chunks of several workgroups when they are small; the caller's thread is
 * worker 0). The interpreter and the barrier scheduling of a workgroup's
 * subgroups live in vm_exec.inc, compiled once per subgroup width so that
 * every lane loop has a compile-time trip count, and once per instruction
 * set in vm_isa_sse2.c, vm_isa_avx2.c and vm_isa_avx512.c; vm_interp.h is
 * what they share with this file.
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
#include "vm_interp.h"
#include "vm_jit.h"

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
__attribute__((target("avx,f16c"))) void vm_r16_row_f16c(uint32_t *d, const uint32_t *x, int n) {
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
void vm_r16_row_f16c(uint32_t *d, const uint32_t *x, int n) {
  for (int k = 0; k < n; k++) d[k] = vm_r16_bits(x[k]);
}
static int vm_host_f16c(void) { return 0; }
#endif

int vm_f16_round_hw(uint32_t *dst, const uint32_t *src, int n) {
  if (!vm_host_f16c() || n % 8) return 0;
  vm_r16_row_f16c(dst, src, n);
  return 1;
}

/* ------------------------------------------------------------ checkpoint */

static uint64_t vm_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int vm_checkpoint(vm_ctx *cx, uint64_t cnt, uint64_t *limit) {
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
  const int avx2 = lzcnt && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                   __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                   __builtin_cpu_supports("popcnt");
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

/* [isa][width index]: a workgroup's set-up for compiled code */
typedef void (*vm_begin_fn)(vm_ctx *cx);
#if VM_HAVE_ISA_VARIANTS
#define VM_BEGINS(sfx) {vm_begin_w8##sfx, vm_begin_w16##sfx, vm_begin_w32##sfx, vm_begin_w64##sfx}
static const vm_begin_fn vm_begins[VM_ISA_COUNT][4] = {VM_BEGINS(), VM_BEGINS(_avx2),
                                                       VM_BEGINS(_avx512)};
#else
#define VM_BEGINS(sfx) {vm_begin_w8, vm_begin_w16, vm_begin_w32, vm_begin_w64}
static const vm_begin_fn vm_begins[VM_ISA_COUNT][4] = {VM_BEGINS(), VM_BEGINS(), VM_BEGINS()};
#endif
#undef VM_BEGINS

/* [isa][width index]: texture operations for compiled code */
#if VM_HAVE_ISA_VARIANTS
#define VM_TEXS(sfx) {vm_tex_rows_w8##sfx, vm_tex_rows_w16##sfx, vm_tex_rows_w32##sfx, vm_tex_rows_w64##sfx}
static const vm_tex_rows_fn vm_texs[VM_ISA_COUNT][4] = {VM_TEXS(), VM_TEXS(_avx2), VM_TEXS(_avx512)};
#else
#define VM_TEXS(sfx) {vm_tex_rows_w8, vm_tex_rows_w16, vm_tex_rows_w32, vm_tex_rows_w64}
static const vm_tex_rows_fn vm_texs[VM_ISA_COUNT][4] = {VM_TEXS(), VM_TEXS(), VM_TEXS()};
#endif
#undef VM_TEXS

/* The tables' index of a subgroup width; -1 for one the VM does not run. */
static int vm_width_index(uint32_t w) {
  return w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : w == 64 ? 3 : -1;
}

static vm_run_fn vm_run_for(uint32_t w, int observed) {
  const int wi = vm_width_index(w);
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
  vm_jit_sg_fn jit; /* the compiled tier's code, or NULL: the interpreter */
} vm_shared;

const vm_fill_step vm_fill_steps[] = {
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
const unsigned vm_fill_nsteps = sizeof vm_fill_steps / sizeof vm_fill_steps[0];

/* cx->fill from the built-in components the code reads (vm_builtins_read). */
static void vm_fill_plan(vm_ctx *cx, const ir_program *p, const uint8_t used[IR_BI_COUNT]) {
  cx->nfill = 0;
  for (unsigned i = 0; i < vm_fill_nsteps; i++) {
    const vm_fill_step *st = &vm_fill_steps[i];
    const uint32_t r = p->builtin_reg[st->bi];
    for (unsigned c = 0; c < st->comps; c++) {
      if (r == IR_NO_REG || !(used[st->bi] >> c & 1)) continue;
      cx->fill[cx->nfill++] = (vm_fill){.op = st->op, .k = (uint8_t)(st->k0 + c), .reg = r + c};
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
  if (sh->jit) {
    cx->interp = cx->run;
    cx->run = vm_jit_run;
    cx->jit = sh->jit;
    cx->jit_begin = vm_begins[vm_isa()][vm_width_index(w)];
    cx->jit_tex = vm_texs[vm_isa()][vm_width_index(w)];
  }
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
void vm_segments(const ir_program *p, uint32_t *lead) {
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
  /* The compiled tier, when it has (or now builds) code for the program,
   * plain or observed. A build is not the shader's time: the deadline
   * moves by what it took. */
  vm_jit_entry *jit_entry = NULL;
  vm_dispatch_desc moved;
  if (st == VM_OK) {
    const uint64_t t0 = desc->deadline ? vm_now_ns() : 0;
    sh.jit = vm_jit_find(p, w, vm_isa_name(), obs != NULL, &jit_entry);
    if (desc->deadline) {
      moved = *desc;
      moved.deadline += vm_now_ns() - t0;
      sh.desc = &moved;
    }
  }
  if (st == VM_OK) {
    sh.scratch = scratch;
    sh.workers = workers;
    if (obs && obs->dispatch_begin) obs->dispatch_begin(obs->user, p, desc->groups, w);
    vm_pool_run(pool, workers, vm_worker, &sh);
    if (obs && obs->dispatch_end) obs->dispatch_end(obs->user);
    result->instructions = atomic_load(&sh.instructions);
    if (!sh.jit) vm_jit_ran(jit_entry, result->instructions);
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
