/*
 * fuzz_verify.c — libFuzzer target for the bytecode verifier (ir/verify.c):
 * bad bytecode. At start it lowers every compute entry point of the .wgsl
 * files under $FUZZ_VERIFY_SEEDS (fuzz/run.sh passes tests/); each input
 * picks one of those programs and changes up to eight fields of its
 * instructions (an operand, the opcode or the flags; raw values, values
 * near one of the program's sizes, small steps and flipped bits). Then:
 *   - a change that puts a field outside what op.def's FORM letter allows
 *     (register >= nregs, mask slot >= nmasks, jump >= ncode, binding slot
 *     >= nbindings, an unused field not 0, no such opcode) must be rejected,
 *     with a message naming one of the changed instructions' pc;
 *   - a program the verifier accepts is dispatched on the VM (one
 *     workgroup, W = 8, zeroed resources made to fit its bindings, a
 *     bounded budget), which must neither refuse it (VM_INVALID: the VM's
 *     own check would be stricter than the verifier) nor, under
 *     AddressSanitizer, touch memory it should not.
 * A violation aborts with the reason. Built and run by fuzz/run.sh
 * (FUZZ_TARGET=verify).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_file.h"
#include "ir/lower.h"
#include "vm/vm.h"
#include "wgsl/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seed {
  wgsl_module *m;
  ir_program *p;
} seed;

static seed *seeds;
static size_t nseeds;

/* With FUZZ_VERIFY_STATS set, what the inputs did, printed at exit (for
 * replaying a corpus: ./fuzz_verify FILE...). */
static struct {
  unsigned long inputs, out_of_form, rejected, ran;
} stats;

static void print_stats(void) {
  fprintf(stderr,
          "fuzz_verify: %lu inputs: %lu changed a field outside its form, %lu rejected by the "
          "verifier (all of those among them), %lu accepted and run on the VM\n",
          stats.inputs, stats.out_of_form, stats.rejected, stats.ran);
}

static void die(const char *why, const char *detail) {
  fprintf(stderr, "fuzz_verify: %s%s%s\n", why, detail ? ": " : "", detail ? detail : "");
  abort();
}

static void add_seed(wgsl_module *m, ir_program *p) {
  seed *n = realloc(seeds, (nseeds + 1) * sizeof *n);
  if (!n) die("out of memory", NULL);
  seeds = n;
  seeds[nseeds++] = (seed){m, p};
}

/* Lowers every compute entry point of one file; each program must verify
 * as lowered (otherwise lowering has a bug, which is a finding too). */
static void seed_file(const char *path) {
  size_t len;
  char *src = fz_read_file(path, &len);
  if (!src) return;
  wgsl_module *m = wgsl_module_compile(src, len, path);
  free(src);
  if (!m || !wgsl_module_ok(m) || !m->ast) {
    wgsl_module_free(m);
    return;
  }
  ls_limits lim;
  ls_limits_default(&lim);
  int kept = 0;
  for (int i = 0; i < m->ast->ndecls; i++) {
    const ast_decl *d = m->ast->decls[i];
    if (d->kind != DECL_FN || d->stage != 1) continue;
    diag_list dl;
    diag_init(&dl);
    ir_program *p = lower_pipeline(m, d->name, NULL, 0, &lim, &dl);
    diag_free(&dl);
    if (!p) continue;
    char err[256];
    if (!ir_verify(p, err, sizeof err)) die("a lowered seed program does not verify", err);
    add_seed(m, p);
    kept = 1;
  }
  if (!kept) wgsl_module_free(m); /* else freed never: seeds live as long as the process */
}

static void seed_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    size_t n = strlen(e->d_name);
    if (S_ISDIR(st.st_mode)) seed_dir(path);
    else if (n > 5 && !strcmp(e->d_name + n - 5, ".wgsl")) seed_file(path);
  }
  closedir(d);
}

static void load_seeds(void) {
  const char *dir = getenv("FUZZ_VERIFY_SEEDS");
  if (dir) seed_dir(dir);
  if (!nseeds) die("no seed program: set FUZZ_VERIFY_SEEDS to a directory of .wgsl files", dir);
  fprintf(stderr, "fuzz_verify: %zu seed programs\n", nseeds);
  if (getenv("FUZZ_VERIFY_STATS")) atexit(print_stats);
}

/* ------------------------------------------------------------ the oracle */

static int wg_op(unsigned op) {
  return op == IR_LDW || op == IR_STW || op == IR_LDWH || op == IR_STWH || op == IR_ATOMW;
}

/* Whether instruction in has a field outside what its form letters allow:
 * written from op.def's FORM column alone, independently of the verifier. */
static int out_of_form(const ir_program *p, const ir_insn *in) {
  if (in->op >= IR_OPCODE_COUNT) return 1;
  if (in->flags && (!wg_op(in->op) || in->flags > p->nwgvars)) return 1;
  const char *form = ir_op_form(in->op);
  const uint32_t v[4] = {in->a, in->b, in->c, in->d};
  for (int k = 0; k < 4; k++) {
    switch (form[k]) {
    case '-': if (v[k]) return 1; break;
    case 'r': if (v[k] >= p->nregs) return 1; break;
    case 'm': if (in->op == IR_KILL ? v[k] > p->nmasks : v[k] >= p->nmasks) return 1; break;
    case 'j': if (v[k] >= p->ncode) return 1; break;
    case 's': if (v[k] >= p->nbindings) return 1; break;
    default: break;
    }
  }
  return 0;
}

/* ------------------------------------------------------------- the VM */

/* Zeroed resources for every binding slot: buffers of their minimum size
 * and at least 256 bytes, 4x4 textures (16-byte texels, the widest format;
 * the slices their dimension needs, 4 planes when multisampled), samplers
 * clamping to the edge. */
static void run_vm(const ir_program *p) {
  static uint8_t mem[64][16384];
  static vm_texture tex[64];
  static vm_sampler smp[64];
  vm_binding b[64];
  if (p->nbindings > 64) return;
  for (uint32_t i = 0; i < p->nbindings; i++) {
    const ir_binding *bd = &p->bindings[i];
    memset(mem[i], 0, sizeof mem[i]);
    b[i] = (vm_binding){.data = mem[i], .size = bd->min_size > 256 ? bd->min_size : 256};
    if (b[i].size > sizeof mem[i]) b[i].size = sizeof mem[i];
    if (IR_BIND_IS_TEXTURE(bd->kind)) {
      const uint32_t slices = bd->tex_dim == IR_TEXDIM_3D           ? 4
                              : bd->tex_dim == IR_TEXDIM_CUBE       ? 6
                              : bd->tex_dim == IR_TEXDIM_CUBE_ARRAY ? 12
                              : bd->tex_dim == IR_TEXDIM_2D_ARRAY   ? 2
                                                                    : 1;
      vm_texture *t = &tex[i];
      memset(t, 0, sizeof *t);
      t->data = mem[i];
      t->format = bd->kind == IR_BIND_SAMPLED_TEXTURE ? LS_FORMAT_RGBA32FLOAT : bd->tex_format;
      t->texel_bytes = 16;
      t->levels = 1;
      t->layers = bd->tex_dim == IR_TEXDIM_3D ? 1 : slices;
      t->samples = bd->tex_ms ? 4 : 1;
      t->level[0].w = t->level[0].h = 4;
      t->level[0].d = slices;
      t->level[0].row = 4 * 16;
      t->level[0].slice = 4 * 4 * 16;
      b[i].tex = t;
      b[i].size = (uint64_t)t->level[0].slice * slices * t->samples;
    } else if (IR_BIND_IS_SAMPLER(bd->kind)) {
      smp[i] = (vm_sampler){.lod_max = 32.0f,
                            .compare = bd->kind == IR_BIND_COMPARISON_SAMPLER ? LS_COMPARE_LESS : 0};
      b[i] = (vm_binding){.smp = &smp[i]};
    }
  }
  vm_dispatch_desc d = {.prog = p, .bindings = b, .groups = {1, 1, 1}, .width = 8,
                        .budget = 1u << 16};
  vm_result r;
  const vm_status st = vm_dispatch(NULL, &d, &r);
  if (st == VM_INVALID) die("the VM refuses a program the verifier accepted", NULL);
}

/* ------------------------------------------------------------ mutations */

/* The new value of a field whose value is old: mode 0 raw, 1 a size of
 * the program plus a small step, 2 old plus a step, 3 old with a bit
 * flipped. */
static uint32_t new_value(const ir_program *p, uint32_t old, unsigned mode, uint32_t x) {
  const uint32_t sizes[8] = {p->nregs,    p->nmasks,      p->ncode,         p->nbindings,
                             p->nconsts,  p->nsamples,    p->wg_mem_size,   p->priv_mem_size};
  switch (mode) {
  case 1: return sizes[x & 7] + (uint32_t)(int32_t)(int8_t)(x >> 8);
  case 2: return old + (uint32_t)(int32_t)(int16_t)(x >> 8);
  case 3: return old ^ (1u << (x & 31));
  default: return x;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!seeds) load_seeds();
  if (size < 2) return 0;
  const seed *s = &seeds[((size_t)data[0] << 8 | data[1]) % nseeds];
  const ir_program *orig = s->p;
  /* a private copy of the code; the tables are shared and never changed */
  ir_program p = *orig;
  p.code = malloc(orig->ncode * sizeof *p.code);
  if (!p.code) die("out of memory", NULL);
  memcpy(p.code, orig->code, orig->ncode * sizeof *p.code);
  uint32_t changed[8];
  int nchanged = 0, bad = 0;
  for (size_t at = 2; at + 8 <= size && nchanged < 8; at += 8) {
    const uint8_t *r = data + at;
    const uint32_t pc = ((uint32_t)r[0] << 16 | (uint32_t)r[1] << 8 | r[2]) % p.ncode;
    const unsigned field = (r[3] & 7u) % 6u, mode = (r[3] >> 3) & 3u;
    const uint32_t x = (uint32_t)r[4] | (uint32_t)r[5] << 8 | (uint32_t)r[6] << 16 |
                       (uint32_t)r[7] << 24;
    ir_insn *in = &p.code[pc];
    uint32_t *fields[4] = {&in->a, &in->b, &in->c, &in->d};
    if (field < 4) *fields[field] = new_value(&p, *fields[field], mode, x);
    else if (field == 4) in->op = (uint16_t)new_value(&p, in->op, mode, x);
    else in->flags = (uint16_t)new_value(&p, in->flags, mode, x);
    changed[nchanged++] = pc;
  }
  for (int i = 0; i < nchanged; i++) bad |= out_of_form(&p, &p.code[changed[i]]);
  char err[256];
  const int ok = ir_verify(&p, err, sizeof err);
  stats.inputs++;
  stats.out_of_form += bad != 0;
  stats.rejected += !ok;
  stats.ran += ok;
  if (bad && ok) die("the verifier accepts an operand outside its form", NULL);
  if (!ok) {
    /* the first problem is at one of the changed instructions: the others
     * are as lowering made them */
    unsigned epc;
    int named = sscanf(err, "pc %u", &epc) == 1;
    int mine = 0;
    for (int i = 0; named && i < nchanged; i++) mine |= changed[i] == epc;
    if (!mine) die("the verifier's message does not name a changed instruction", err);
  } else {
    run_vm(&p);
  }
  free(p.code);
  return 0;
}
