/*
 * jit.c — the compiled tier: when to compile a program (vm_jit.h has the
 * policy), the host's C compiler run on jit_emit.c's source, the cache of
 * shared objects on disk and in the process, and the workgroup runner that
 * calls compiled subgroup functions where vm_dispatch would call the
 * interpreter (vm_ctx.run).
 *
 * Nothing here may stop the host process: a compiler that is missing,
 * fails, hangs (killed after two minutes) or writes a broken object only
 * means the interpreter goes on running that program.
 */
#include "observe.h"
#include "vm_interp.h"
#include "vm_jit.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The prelude's parts (generated from the source files at build time). */
extern const char vm_jit_text_abi[], vm_jit_text_bitfn[], vm_jit_text_lane[], vm_jit_text_lanes[],
    vm_jit_text_rt[];
/* The SHA-256 of the prelude's files and of the generator (jit_emit.c),
 * made at build time: with the program's key it names a compiled object,
 * so a new build of the library never takes an object an older one wrote. */
extern const char vm_jit_text_id[];

/* vm_jit_mem is vm_binding as compiled code reads it. */
_Static_assert(sizeof(vm_jit_mem) == sizeof(vm_binding), "vm_jit_mem");
_Static_assert(offsetof(vm_jit_mem, data) == offsetof(vm_binding, data), "vm_jit_mem.data");
_Static_assert(offsetof(vm_jit_mem, size) == offsetof(vm_binding, size), "vm_jit_mem.size");

/* Subgroup-instructions a program runs on the interpreter before "auto"
 * compiles it: about a tenth of a second to a second of interpreting, the
 * order of what the compiler takes. */
#define JIT_THRESHOLD (UINT64_C(1) << 26)
#define JIT_ENTRIES 1024
#define JIT_TIMEOUT_S 120

enum { JIT_OFF, JIT_AUTO, JIT_ON };
enum { JE_NEW, JE_BUSY, JE_READY, JE_FAILED };

_Static_assert(VM_JIT_LOAD == (int)VM_LOAD && VM_JIT_STORE == (int)VM_STORE &&
                   VM_JIT_ATOMIC == (int)VM_ATOMIC && VM_JIT_BUFFER == (int)VM_SPACE_BUFFER &&
                   VM_JIT_WORKGROUP == (int)VM_SPACE_WORKGROUP &&
                   VM_JIT_PRIVATE == (int)VM_SPACE_PRIVATE,
               "observed compiled code numbers accesses and spaces as observe.h does");

#define JIT_BASIS UINT64_C(0xcbf29ce484222325)
#define JIT_BASIS_CHECK UINT64_C(0x84222325cbf29ce4)

struct vm_jit_entry {
  uint64_t key; /* 0: free slot */
  uint64_t check;
  int state;
  int probed; /* the disk cache was looked at */
  uint64_t ran;
  vm_jit_sg_fn fn;
};

static pthread_mutex_t jit_mu = PTHREAD_MUTEX_INITIALIZER;
static vm_jit_entry jit_table[JIT_ENTRIES];
static char jit_error[4608];
static _Atomic uint64_t jit_runs;

uint64_t vm_jit_runs(void) { return atomic_load_explicit(&jit_runs, memory_order_relaxed); }

static _Atomic int jit_policy = -1; /* -1: not read yet */

static int jit_parse_mode(const char *v) {
  if (v && (!strcmp(v, "off") || !strcmp(v, "0"))) return JIT_OFF;
  if (v && (!strcmp(v, "on") || !strcmp(v, "1"))) return JIT_ON;
  return JIT_AUTO;
}

static int jit_mode(void) {
  int m = atomic_load_explicit(&jit_policy, memory_order_relaxed);
  if (m >= 0) return m;
  m = jit_parse_mode(getenv("LOCKSTEP_JIT"));
  atomic_store_explicit(&jit_policy, m, memory_order_relaxed);
  return m;
}

void vm_jit_set_mode(const char *mode) {
  atomic_store_explicit(&jit_policy, mode ? jit_parse_mode(mode) : -1, memory_order_relaxed);
}

const char *vm_jit_last_error(void) {
  pthread_mutex_lock(&jit_mu);
  static char copy[sizeof jit_error];
  memcpy(copy, jit_error, sizeof copy);
  pthread_mutex_unlock(&jit_mu);
  return copy;
}

static void jit_fail(const char *fmt, const char *arg) {
  pthread_mutex_lock(&jit_mu);
  snprintf(jit_error, sizeof jit_error, fmt, arg);
  pthread_mutex_unlock(&jit_mu);
}

static uint64_t jit_fnv(uint64_t h, const void *data, size_t n) {
  const uint8_t *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
  return h;
}

/* Everything of the program the generated code depends on, hashed in one
 * pass from two bases: key[0] names the entry, key[1] is the check a
 * compiled object carries (vm_jit_check) and its loader compares, so that
 * a key shared by two programs cannot run one's code for the other. */
static void jit_keys(const ir_program *p, uint32_t w, const char *isa, int obs, uint64_t key[2]) {
  const uint32_t sizes[] = {w, p->ncode, p->nregs, p->nmasks, p->nconsts, p->nbindings,
                            (uint32_t)obs, p->wg_size[0], p->wg_size[1], p->wg_size[2]};
  const struct {
    const void *data;
    size_t n;
  } parts[] = {{sizes, sizeof sizes},
               {isa, strlen(isa)},
               {p->code, (size_t)p->ncode * sizeof *p->code},
               {p->consts, (size_t)p->nconsts * sizeof *p->consts},
               /* the code computes the built-ins itself (jit_emit.c) */
               {p->builtin_reg, sizeof p->builtin_reg}};
  uint64_t h0 = JIT_BASIS, h1 = JIT_BASIS_CHECK;
  for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
    const uint8_t *d = parts[k].data;
    for (size_t i = 0; i < parts[k].n; i++) {
      h0 = (h0 ^ d[i]) * UINT64_C(0x100000001b3);
      h1 = (h1 ^ d[i]) * UINT64_C(0x100000001b3);
    }
  }
  key[0] = h0 ? h0 : 1;
  key[1] = h1;
}

/* The C compiler: LOCKSTEP_CC, or cc. */
static const char *jit_cc_name(void) {
  const char *cc = getenv("LOCKSTEP_CC");
  return cc && *cc ? cc : "cc";
}

/* LOCKSTEP_JIT_CFLAGS: more options for the compiler, split at blanks
 * (the fuzzers build the compiled code with their sanitizers). */
static const char *jit_cflags(void) {
  const char *f = getenv("LOCKSTEP_JIT_CFLAGS");
  return f ? f : "";
}

/* ------------------------------------------------------------ the build */

static char *jit_prelude_text;

static void jit_prelude_init(void) {
  static const char wn[] = "#define VM_CAT2(a, b) a##b\n#define VM_CAT(a, b) VM_CAT2(a, b)\n"
                           "#define VM_ISA _jit\n"
                           "#define VM_WN(base) VM_CAT(VM_CAT(base, VM_W), VM_ISA)\n";
  const char *parts[] = {vm_jit_text_abi, vm_jit_text_bitfn, vm_jit_text_lane, wn,
                         vm_jit_text_lanes, vm_jit_text_rt};
  size_t n = 1;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) n += strlen(parts[i]) + 1;
  char *t = malloc(n);
  if (!t) return;
  size_t at = 0;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    const size_t k = strlen(parts[i]);
    memcpy(t + at, parts[i], k);
    at += k;
    t[at++] = '\n';
  }
  t[at] = 0;
  jit_prelude_text = t;
}

static const char *jit_prelude(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, jit_prelude_init);
  return jit_prelude_text;
}

/* The compiler's target options for the interpreter's instruction set, so
 * that the code runs where the interpreter's variant runs. */
static const char *const jit_isa_flags[][12] = {
    {NULL},
    {"-mavx2", "-mbmi", "-mbmi2", "-mlzcnt", "-mpopcnt", NULL},
    {"-mavx2", "-mbmi", "-mbmi2", "-mlzcnt", "-mpopcnt", "-mavx512f", "-mavx512vl", "-mavx512bw",
     "-mavx512dq", "-mavx512cd", NULL},
};

static int jit_isa_index(const char *isa) {
  return !strcmp(isa, "avx512") ? 2 : !strcmp(isa, "avx2") ? 1 : 0;
}

/* mkdir -p with mode 0700 for what it creates */
static int jit_mkdirs(char *path) {
  for (char *c = path + 1; *c; c++) {
    if (*c != '/') continue;
    *c = 0;
    const int r = mkdir(path, 0700);
    *c = '/';
    if (r && errno != EEXIST) return 0;
  }
  return !mkdir(path, 0700) || errno == EEXIST;
}

static int jit_dir(char *out, size_t cap) {
  const char *d = getenv("LOCKSTEP_JIT_CACHE");
  int n;
  if (d && *d) {
    n = snprintf(out, cap, "%s", d);
  } else if ((d = getenv("XDG_CACHE_HOME")) && *d) {
    n = snprintf(out, cap, "%s/lockstep/jit", d);
  } else if ((d = getenv("HOME")) && *d) {
    n = snprintf(out, cap, "%s/.cache/lockstep/jit", d);
  } else {
    n = snprintf(out, cap, "/tmp/lockstep-jit-%u", (unsigned)getuid());
  }
  return n > 0 && (size_t)n < cap;
}

static vm_jit_sg_fn jit_open(const char *so, uint64_t check) {
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!h) return NULL;
  vm_jit_sg_fn fn;
  void *sym = dlsym(h, "vm_jit_sg");
  const uint64_t *ck = dlsym(h, "vm_jit_check");
  memcpy(&fn, &sym, sizeof fn);
  if (!fn || !ck || *ck != check) {
    dlclose(h);
    return NULL;
  }
  return fn;
}

/* Compilers running for auto's threads: a process that exits stops them
 * and removes their files, rather than leave half-written objects. */
#define JIT_INFLIGHT 16
static struct {
  pid_t pid;
  char src[4200], out[4200];
} jit_inflight[JIT_INFLIGHT];

static void jit_atexit(void) {
  pthread_mutex_lock(&jit_mu);
  for (int i = 0; i < JIT_INFLIGHT; i++) {
    if (!jit_inflight[i].pid) continue;
    kill(jit_inflight[i].pid, SIGKILL);
    waitpid(jit_inflight[i].pid, NULL, 0);
    unlink(jit_inflight[i].src);
    unlink(jit_inflight[i].out);
    jit_inflight[i].pid = 0;
  }
  pthread_mutex_unlock(&jit_mu);
}

static int jit_track(pid_t pid, const char *src, const char *out) {
  static int registered;
  pthread_mutex_lock(&jit_mu);
  if (!registered) registered = !atexit(jit_atexit);
  int slot = -1;
  for (int i = 0; i < JIT_INFLIGHT && slot < 0; i++)
    if (!jit_inflight[i].pid) slot = i;
  if (slot >= 0) {
    jit_inflight[slot].pid = pid;
    snprintf(jit_inflight[slot].src, sizeof jit_inflight[slot].src, "%s", src);
    snprintf(jit_inflight[slot].out, sizeof jit_inflight[slot].out, "%s", out);
  }
  pthread_mutex_unlock(&jit_mu);
  return slot;
}

static void jit_untrack(int slot) {
  if (slot < 0) return;
  pthread_mutex_lock(&jit_mu);
  jit_inflight[slot].pid = 0;
  pthread_mutex_unlock(&jit_mu);
}

/* Runs the compiler; 1 when it exited with 0 within the time allowed. */
static int jit_cc(const char *cc, const char *isa, const char *src, const char *out,
                  const char *log) {
  enum { JIT_MAX_EXTRA = 24 };
  const char *argv[40 + JIT_MAX_EXTRA];
  char extra[1024];
  int n = 0;
  static const char *const common[] = {"-O2", "-std=gnu11", "-fPIC", "-shared",
                                       "-ffp-contract=off", "-fno-strict-aliasing",
                                       "-fno-math-errno", "-w"};
  argv[n++] = cc;
  for (size_t i = 0; i < sizeof common / sizeof common[0]; i++) argv[n++] = common[i];
  for (const char *const *f = jit_isa_flags[jit_isa_index(isa)]; *f; f++) argv[n++] = *f;
  if (snprintf(extra, sizeof extra, "%s", jit_cflags()) >= (int)sizeof extra) {
    jit_fail("LOCKSTEP_JIT_CFLAGS is longer than %s characters", "1023");
    return 0;
  }
  char *save = NULL;
  int nx = 0;
  for (char *t = strtok_r(extra, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (nx++ == JIT_MAX_EXTRA) {
      jit_fail("LOCKSTEP_JIT_CFLAGS has more than %s options", "24");
      return 0;
    }
    argv[n++] = t;
  }
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n++] = src;
  argv[n++] = "-lm";
  argv[n] = NULL;
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa)) return 0;
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  /* the compiler without what the host process preloads (a sanitizer's
   * runtime, say), which is not meant for it */
  size_t ne = 0;
  while (environ[ne]) ne++;
  char **env = malloc((ne + 1) * sizeof *env);
  if (!env) {
    posix_spawn_file_actions_destroy(&fa);
    return 0;
  }
  size_t k = 0;
  for (size_t i = 0; i < ne; i++)
    if (strncmp(environ[i], "LD_PRELOAD=", 11)) env[k++] = environ[i];
  env[k] = NULL;
  pid_t pid;
  const int r = posix_spawnp(&pid, cc, &fa, NULL, (char *const *)argv, env);
  posix_spawn_file_actions_destroy(&fa);
  free(env);
  if (r) {
    jit_fail("the C compiler \"%s\" could not be started (set LOCKSTEP_CC)", cc);
    return 0;
  }
  const int slot = jit_track(pid, src, out);
  int status = 0;
  for (int waited = 0;; waited++) {
    const pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid) break;
    if (got < 0 && errno != EINTR) {
      jit_untrack(slot);
      return 0;
    }
    if (waited >= JIT_TIMEOUT_S * 100) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      jit_untrack(slot);
      jit_fail("the C compiler \"%s\" ran past its time limit", cc);
      return 0;
    }
    const struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  jit_untrack(slot);
  if (!WIFEXITED(status) || WEXITSTATUS(status)) {
    jit_fail("the C compiler failed; its messages are in %s", log);
    return 0;
  }
  return 1;
}

/* The compiled object named fkey from the disk cache, or, given its
 * source, compiled now. */
static vm_jit_sg_fn jit_load(uint64_t fkey, uint64_t check, const char *src, const char *isa) {
  const char *cc = jit_cc_name();
  const unsigned long long h = (unsigned long long)fkey;
  char dir[4096], so[4200], tmp_c[4200], tmp_so[4200], log[4200];
  if (!jit_dir(dir, sizeof dir)) {
    jit_fail("no cache folder for compiled code (%s)", "set LOCKSTEP_JIT_CACHE");
    return NULL;
  }
  snprintf(so, sizeof so, "%s/%016llx.so", dir, h);
  vm_jit_sg_fn fn = NULL;
  if (access(so, R_OK) == 0 && (fn = jit_open(so, check))) return fn;
  if (!src) return NULL;
  if (!jit_mkdirs(dir)) {
    jit_fail("cannot make the cache folder %s (set LOCKSTEP_JIT_CACHE)", dir);
    return NULL;
  }
  const unsigned pid = (unsigned)getpid();
  static _Atomic unsigned seq;
  const unsigned n = atomic_fetch_add(&seq, 1);
  snprintf(tmp_c, sizeof tmp_c, "%s/%016llx.%u.%u.c", dir, h, pid, n);
  snprintf(tmp_so, sizeof tmp_so, "%s/%016llx.%u.%u.so", dir, h, pid, n);
  snprintf(log, sizeof log, "%s/%016llx.log", dir, h);
  FILE *f = fopen(tmp_c, "w");
  if (!f) {
    jit_fail("cannot write the compiled tier's source in %s", dir);
    return NULL;
  }
  const int wrote = fputs(src, f) >= 0;
  if (fclose(f) || !wrote) {
    unlink(tmp_c);
    jit_fail("cannot write the compiled tier's source in %s", dir);
    return NULL;
  }
  if (jit_cc(cc, isa, tmp_c, tmp_so, log) && rename(tmp_so, so) == 0) {
    fn = jit_open(so, check);
    if (!fn) jit_fail("the compiled object %s does not load", so);
    unlink(log);
  }
  unlink(tmp_so);
  if (!getenv("LOCKSTEP_JIT_KEEP")) unlink(tmp_c);
  return fn;
}

/* ---------------------------------------------------------- the policy */

/* The entry of a key, made if new; NULL when the table is full or the key
 * is another program's (then that program keeps the entry). */
static vm_jit_entry *jit_slot(uint64_t key, uint64_t check) {
  for (uint32_t i = 0; i < JIT_ENTRIES; i++) {
    vm_jit_entry *e = &jit_table[(key + i) % JIT_ENTRIES];
    if (e->key == key) return e->check == check ? e : NULL;
    if (!e->key) {
      e->key = key;
      e->check = check;
      return e;
    }
  }
  return NULL;
}

static void jit_settle(vm_jit_entry *e, vm_jit_sg_fn fn, int built) {
  pthread_mutex_lock(&jit_mu);
  e->probed = 1;
  e->fn = fn;
  e->state = fn ? JE_READY : built ? JE_FAILED : JE_NEW;
  pthread_mutex_unlock(&jit_mu);
}

/* "auto" compiles on a thread of its own: the dispatches go on on the
 * interpreter meanwhile, and take the code once it is there. The thread
 * owns the source, so the program may be freed while it runs. */
typedef struct jit_job {
  vm_jit_entry *e;
  uint64_t fkey, check;
  char *src;
  char isa[16];
} jit_job;

static void *jit_build_thread(void *arg) {
  jit_job *j = arg;
  jit_settle(j->e, jit_load(j->fkey, j->check, j->src, j->isa), 1);
  free(j->src);
  free(j);
  return NULL;
}

static int jit_build_async(vm_jit_entry *e, uint64_t fkey, char *src, const char *isa) {
  jit_job *j = malloc(sizeof *j);
  if (!j) return 0;
  j->e = e;
  j->fkey = fkey;
  j->check = e->check;
  j->src = src;
  snprintf(j->isa, sizeof j->isa, "%s", isa);
  pthread_attr_t at;
  pthread_t t;
  int ok = !pthread_attr_init(&at);
  ok = ok && !pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) &&
       !pthread_create(&t, &at, jit_build_thread, j);
  pthread_attr_destroy(&at);
  if (!ok) free(j);
  return ok;
}

vm_jit_sg_fn vm_jit_find(const ir_program *p, uint32_t w, const char *isa, int obs,
                         vm_jit_entry **entry) {
  *entry = NULL;
  const int mode = jit_mode();
  if (mode == JIT_OFF || !vm_jit_compilable(p)) return NULL;
  uint64_t keys[2];
  jit_keys(p, w, isa, obs, keys);
  const uint64_t key = keys[0], check = keys[1];
  pthread_mutex_lock(&jit_mu);
  vm_jit_entry *e = jit_slot(key, check);
  if (!e) {
    pthread_mutex_unlock(&jit_mu);
    return NULL;
  }
  *entry = e;
  if (e->state == JE_READY) {
    vm_jit_sg_fn fn = e->fn;
    pthread_mutex_unlock(&jit_mu);
    return fn;
  }
  const int build = e->state == JE_NEW && (mode == JIT_ON || e->ran >= JIT_THRESHOLD);
  const int probe = e->state == JE_NEW && !e->probed;
  if (!build && !probe) {
    pthread_mutex_unlock(&jit_mu);
    return NULL;
  }
  e->state = JE_BUSY;
  pthread_mutex_unlock(&jit_mu);
  const char *cc = jit_cc_name(), *cflags = jit_cflags();
  const uint64_t fkey = jit_fnv(
      jit_fnv(jit_fnv(key, vm_jit_text_id, strlen(vm_jit_text_id)), cc, strlen(cc) + 1), cflags,
      strlen(cflags));
  vm_jit_sg_fn fn = jit_load(fkey, check, NULL, isa);
  const char *prelude = fn || !build ? NULL : jit_prelude();
  if (prelude) {
    char *src = vm_jit_source(p, w, jit_isa_index(isa) ? 8u : 4u, check, prelude, obs);
    if (src && mode == JIT_AUTO && jit_build_async(e, fkey, src, isa))
      return NULL; /* the thread settles the entry */
    if (src && mode == JIT_ON) fn = jit_load(fkey, check, src, isa);
    free(src);
  }
  jit_settle(e, fn, build);
  return fn;
}

void vm_jit_ran(vm_jit_entry *e, uint64_t n) {
  if (!e) return;
  pthread_mutex_lock(&jit_mu);
  e->ran += n;
  pthread_mutex_unlock(&jit_mu);
}

/* ---------------------------------------------------------- the runner */

/* cx->jit_args for the dispatch: nothing in it changes from one workgroup
 * to the next but the count and the checkpoint. */
static void jit_args_init(vm_ctx *cx) {
  const vm_observer *const O = cx->obs;
  vm_jit_args *const a = &cx->jit_args;
  *a = (vm_jit_args){.cx = cx,
                     .fn = &vm_jit_helpers,
                     .bind = (const vm_jit_mem *)(const void *)cx->bind,
                     .wg = (uint8_t *)cx->wgmem,
                     .wg_size = cx->wgmem_size,
                     .regs = cx->regs,
                     .masks = cx->masks,
                     .exec = cx->exec,
                     .pc = cx->pc,
                     .priv = cx->priv,
                     .priv_words = cx->priv_words,
                     .priv_size = cx->priv_size,
                     .nsub = cx->nsub,
                     .lid = cx->lid,
                     .gid = cx->gid,
                     .groups = cx->groups,
                     .solo = cx->solo};
  if (!O) return;
  /* what vm_loop.inc's observed variant reads */
  const unsigned t = cx->thread;
  /* the per-run counts, which only an observer with per-pc counts reads
   * (vm.c: vm_obs_finish) */
  a->si = O->issued && O->lanes ? cx->seg_issued : NULL;
  a->sl = cx->seg_lanes;
  a->se = cx->seg_empty;
  a->sum = O->summarise;
  a->co = a->sum && O->coalesced && O->uniform ? O->coalesced[t] : NULL;
  a->un = a->co ? O->uniform[t] : NULL;
  a->od = O->divergent ? O->divergent[t] : NULL;
  a->ql = O->quiet_loads;
  a->wrote = cx->obs_wrote;
  a->ck = O->coalesce_log2;
  a->mem = O->mem != NULL;
  a->mem_seq = O->mem_seq != NULL;
  a->branch = !a->sum && O->branch;
  a->barrier = !a->sum && O->barrier;
  a->end = O->subgroup_end != NULL;
  a->ninv = cx->ninv;
}

/* cx->run for compiled code: the interpreter's workgroup loop (vm_loop.inc),
 * the whole workgroup in one call. */
int vm_jit_run(vm_ctx *cx) {
  const vm_observer *const O = cx->obs;
  if (VM_UNLIKELY(!cx->translated)) {
    /* an observed run's workgroups seen in detail run on the observed
     * interpreter: its code is translated now */
    if (O) cx->interp(cx);
    cx->translated = 1;
    jit_args_init(cx);
    atomic_fetch_add_explicit(&jit_runs, 1, memory_order_relaxed);
    return VM_Y_END;
  }
  if (O && cx->detail) return cx->interp(cx);
  const uint32_t nsub = cx->nsub;
  if (cx->wgmem_size) memset(cx->wgmem, 0, ((uint64_t)cx->wgmem_size + 3) & ~(uint64_t)3);
  cx->jit_begin(cx);
  vm_jit_args *const a = &cx->jit_args;
  a->cnt = 0;
  a->limit = cx->limit;
  if (O) memset(cx->obs_wrote, 0, (size_t)nsub * sizeof *cx->obs_wrote);
  /* every pass over the subgroups, each to its next barrier or its end,
   * in this one call */
  if (cx->jit(a, 0) == VM_JIT_BUDGET) {
    cx->fail_pc = a->fail_pc;
    cx->count = a->cnt;
    return VM_Y_BUDGET;
  }
  for (uint32_t t = 0; t < nsub; t++)
    if (cx->state[t] == VM_S_RUN) cx->state[t] = VM_S_DONE;
  cx->count = a->cnt;
  return VM_Y_END;
}
