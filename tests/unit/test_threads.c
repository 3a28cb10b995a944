/*
 * test_threads.c — lockstep.h's thread contract ("every function may be
 * called from any thread, and every object may be used from several
 * threads at once"), exercised the way a program with worker threads would
 * (and run under ThreadSanitizer by scripts/test.sh): threads sharing one
 * device that create objects, write, submit, map and read back; threads
 * with a device each; two threads compiling the process's first shader at
 * the same moment; several threads racing mapAsync on one buffer, recording
 * into one encoder, and submitting while another destroys the device. Every
 * thread checks its own results against values it computes itself.
 */
#include "unit_queue.h"

/* out[i] = in[i] * k.x + k.y, over 4 x 64 invocations. */
static const char scale_wgsl[] =
    "@group(0) @binding(0) var<storage, read> in: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> out: array<u32>;\n"
    "@group(0) @binding(2) var<uniform> k: vec4u;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  if (g.x < arrayLength(&in)) { out[g.x] = in[g.x] * k.x + k.y; }\n"
    "}\n";

enum { WORDS = 256, ROUNDS = 12 };

/* cmocka's assertions jump out of the test with longjmp, which only the
 * test's own thread may do: worker threads count what went wrong instead,
 * and the test asserts the count is 0 after joining them. */
static _Atomic int thread_failures;
#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
      thread_failures++;                                                        \
    }                                                                           \
  } while (0)

#define CHECK_EQ(a, b) CHECK((a) == (b))
#define CHECK_NN(p) CHECK((p) != NULL)

static ls_buffer *tbuf(ls_device *d, uint64_t size, uint32_t usage, const char *label) {
  ls_buffer_desc bd = {.size = size, .usage = usage, .label = label};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  CHECK(b != NULL);
  return b;
}

/* Waits for a waiter's call without asserting (60 s at most). */
static int twait(waiter *w) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 60;
  pthread_mutex_lock(&w->mu);
  while (!w->calls)
    if (pthread_cond_timedwait(&w->cv, &w->mu, &until) != 0) break;
  int n = w->calls;
  pthread_mutex_unlock(&w->mu);
  CHECK(n == 1);
  return n;
}

/* Errors every thread's device reports, counted without a data race. */
static _Atomic int thread_errors;
static void count_error(void *user, ls_error_type type, const char *message) {
  fprintf(stderr, "unexpected error: %s\n", message);
  thread_errors++;
}

static ls_device *threaded_device(ls_adapter **a, unsigned threads) {
  ls_adapter_options o = {.threads = threads};
  *a = ls_adapter_create(&o, NULL, 0);
  CHECK(*a != NULL);
  ls_status st;
  ls_device *d = ls_adapter_create_device(*a, NULL, &st, NULL, 0);
  CHECK(d != NULL);
  ls_device_set_error_callback(d, count_error, NULL);
  return d;
}

static ls_compute_pipeline *scale_pipeline(ls_device *d, ls_shader_module *m) {
  ls_compute_pipeline_desc pd = {.module = m, .label = "scale"};
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  CHECK(p != NULL);
  return p;
}

/* ------------------------------------------------------------- workload */

/* One thread's work on device d: ROUNDS times, new buffers and a bind
 * group, its own input, a dispatch and a copy into a MAP_READ buffer
 * submitted without waiting, a map of it, the check; every other round
 * also a waited submit read back through ls_queue_read_buffer. The
 * pipeline is the thread's own or, when shared is not NULL, one that all
 * threads share; the module likewise. */
typedef struct job {
  ls_device *d;
  ls_shader_module *module; /* shared; NULL: the thread compiles its own */
  ls_compute_pipeline *shared;
  unsigned id;
  int failures; /* results that were wrong */
  int ran;
} job;

static uint32_t input_word(unsigned id, int round, uint32_t i) {
  return (uint32_t)(id * 1000003u + (uint32_t)round * 7919u + i * 31u);
}

static int run_round(job *j, ls_compute_pipeline *p, int round) {
  ls_device *d = j->d;
  char label[64];
  snprintf(label, sizeof label, "in-%u-%d", j->id, round);
  ls_buffer *in = tbuf(d, 4 * WORDS, SRW, label);
  ls_buffer *out = tbuf(d, 4 * WORDS, SRW, "out");
  ls_buffer *k = tbuf(d, 16, LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST, "k");
  ls_buffer *stage = tbuf(d, 4 * WORDS, MAPR, "stage");
  ls_buffer_set_label(out, "out (renamed)");
  uint32_t words[WORDS], kk[4] = {3u + j->id, (uint32_t)round * 100u + j->id, 0, 0};
  for (uint32_t i = 0; i < WORDS; i++) words[i] = input_word(j->id, round, i);
  CHECK_EQ(ls_queue_write_buffer(d, in, 0, words, sizeof words), LS_OK);
  CHECK_EQ(ls_queue_write_buffer(d, k, 0, kk, sizeof kk), LS_OK);

  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  CHECK_NN(l);
  ls_bind_group_entry be[3] = {
      {.binding = 0, .buffer = in, .size = LS_WHOLE_SIZE},
      {.binding = 1, .buffer = out, .size = LS_WHOLE_SIZE},
      {.binding = 2, .buffer = k, .size = LS_WHOLE_SIZE},
  };
  ls_bind_group_desc gd = {.layout = l, .entries = be, .entry_count = 3};
  ls_bind_group *g = ls_device_create_bind_group(d, &gd);
  ls_bind_group_layout_release(l);
  CHECK_NN(g);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, WORDS / 64, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_encoder_copy_buffer_to_buffer(enc, out, 0, stage, 0, LS_WHOLE_SIZE);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  CHECK_NN(cb);
  ls_bind_group_release(g); /* the command buffer keeps what it needs */
  ls_buffer_release(in);
  ls_buffer_release(k);

  int bad = 0;
  if (round % 2) {
    CHECK_EQ(ls_queue_submit(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    uint32_t back[WORDS];
    CHECK_EQ(ls_queue_read_buffer(d, out, 0, back, sizeof back), LS_OK);
    for (uint32_t i = 0; i < WORDS; i++) bad += back[i] != words[i] * kk[0] + kk[1];
  } else {
    CHECK_EQ(ls_queue_submit_async(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
  }
  waiter m;
  waiter_init(&m);
  ls_buffer_map_async(stage, LS_MAP_READ, 0, LS_WHOLE_SIZE, on_map, &m);
  twait(&m);
  CHECK_EQ(m.status, LS_OK);
  char err[128];
  const uint32_t *mapped = ls_buffer_get_mapped_range(stage, 0, LS_WHOLE_SIZE, err, sizeof err);
  CHECK_NN(mapped);
  for (uint32_t i = 0; i < WORDS; i++) bad += mapped[i] != words[i] * kk[0] + kk[1];
  ls_buffer_unmap(stage);
  waiter_fini(&m);
  ls_buffer_destroy(out);
  ls_buffer_release(out);
  ls_buffer_release(stage);
  return bad;
}

static void *run_job(void *arg) {
  job *j = arg;
  ls_shader_module *m = j->module;
  if (!m) {
    ls_shader_module_desc sd = {.code = scale_wgsl, .label = "scale.wgsl"};
    m = ls_device_create_shader_module(j->d, &sd);
  }
  for (int r = 0; r < ROUNDS; r++) {
    /* a pipeline of the thread's own every third round, else the shared one */
    ls_compute_pipeline *own = !j->shared || r % 3 == 0 ? scale_pipeline(j->d, m) : NULL;
    j->failures += run_round(j, own ? own : j->shared, r);
    ls_compute_pipeline_release(own);
    j->ran++;
  }
  if (!j->module) ls_shader_module_release(m);
  return NULL;
}

enum { NJOBS = 4 };

/* Several threads on one device: every object creation, queue operation
 * and map interleaves with the others'. */
static void test_one_device_many_threads(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 2);
  ls_shader_module_desc sd = {.code = scale_wgsl, .label = "scale.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  ls_compute_pipeline *shared = scale_pipeline(d, m);
  job jobs[NJOBS];
  pthread_t t[NJOBS];
  for (unsigned i = 0; i < NJOBS; i++) {
    jobs[i] = (job){.d = d, .module = i % 2 ? m : NULL, .shared = shared, .id = i};
    assert_int_equal(pthread_create(&t[i], NULL, run_job, &jobs[i]), 0);
  }
  for (unsigned i = 0; i < NJOBS; i++) pthread_join(t[i], NULL);
  for (unsigned i = 0; i < NJOBS; i++) {
    assert_int_equal(jobs[i].ran, ROUNDS);
    assert_int_equal(jobs[i].failures, 0);
  }
  assert_int_equal(thread_errors, 0);
  ls_compute_pipeline_release(shared);
  ls_shader_module_release(m);
  ls_device_release(d);
  ls_adapter_release(a);
  assert_int_equal(thread_failures, 0);
}

/* Several threads, each with its own adapter and device. */
static void *own_device_job(void *arg) {
  job *j = arg;
  ls_adapter *a;
  j->d = threaded_device(&a, 2);
  run_job(j);
  ls_device_release(j->d);
  ls_adapter_release(a);
  return NULL;
}

static void test_device_per_thread(void **state) {
  (void)state;
  job jobs[NJOBS];
  pthread_t t[NJOBS];
  for (unsigned i = 0; i < NJOBS; i++) {
    jobs[i] = (job){.id = 10 + i};
    assert_int_equal(pthread_create(&t[i], NULL, own_device_job, &jobs[i]), 0);
  }
  for (unsigned i = 0; i < NJOBS; i++) pthread_join(t[i], NULL);
  for (unsigned i = 0; i < NJOBS; i++) {
    assert_int_equal(jobs[i].ran, ROUNDS);
    assert_int_equal(jobs[i].failures, 0);
  }
  assert_int_equal(thread_errors, 0);
  assert_int_equal(thread_failures, 0);
}

/* --------------------------------------------------- the first compile */

/* Global state the front end builds on first use (the built-in name hash)
 * must be built once even when two threads compile the process's first
 * shaders at the same moment: this test runs first, and both threads
 * start together at a barrier. Each compiles a shader full of built-in
 * calls and checks what it computes. */
static const char builtins_wgsl[] =
    "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  let f = f32(i);\n"
    "  o[i] = min(i, 40u) + max(i, 10u) + countOneBits(i) + u32(floor(sqrt(f))) +\n"
    "         clamp(i, 5u, 50u) + u32(abs(f - 32.0)) + select(0u, 1u, all(vec2(i > 3u, i < 60u)));\n"
    "}\n";

static uint32_t builtins_expected(uint32_t i) {
  uint32_t s = 0;
  while (s * s <= i) s++;
  s--; /* floor(sqrt(i)) */
  uint32_t bits = 0;
  for (uint32_t x = i; x; x >>= 1) bits += x & 1u;
  uint32_t absd = i >= 32 ? i - 32 : 32 - i;
  return (i < 40 ? i : 40) + (i > 10 ? i : 10) + bits + s + (i < 5 ? 5 : i > 50 ? 50 : i) + absd +
         (i > 3 && i < 60);
}

typedef struct first_compile {
  pthread_barrier_t *go;
} first_compile;

static void *compile_first(void *arg) {
  first_compile *f = arg;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 1);
  ls_buffer *o = tbuf(d, 256, SRW, "o");
  pthread_barrier_wait(f->go);
  ls_shader_module_desc sd = {.code = builtins_wgsl, .label = "builtins.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  if (!ls_shader_module_is_valid(m)) thread_failures++;
  ls_compute_pipeline_desc pd = {.module = m};
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  ls_shader_module_release(m);
  CHECK_NN(p);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group_entry be = {.binding = 0, .buffer = o, .size = LS_WHOLE_SIZE};
  ls_bind_group_desc gd = {.layout = l, .entries = &be, .entry_count = 1};
  ls_bind_group *g = ls_device_create_bind_group(d, &gd);
  ls_bind_group_layout_release(l);
  CHECK_EQ(tu_dispatch(d, p, g, 1, 1), LS_OK);
  uint32_t got[64];
  CHECK_EQ(ls_queue_read_buffer(d, o, 0, got, sizeof got), LS_OK);
  for (uint32_t i = 0; i < 64; i++) thread_failures += got[i] != builtins_expected(i);
  ls_bind_group_release(g);
  ls_compute_pipeline_release(p);
  ls_buffer_release(o);
  ls_device_release(d);
  ls_adapter_release(a);
  return NULL;
}

static void test_first_compile_race(void **state) {
  (void)state;
  pthread_barrier_t go;
  pthread_barrier_init(&go, NULL, 2);
  first_compile f[2] = {{.go = &go}, {.go = &go}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, compile_first, &f[i]), 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&go);
  assert_int_equal(thread_failures, 0);
  assert_int_equal(thread_errors, 0);
}

/* ------------------------------------------------------------- races */

/* NJOBS threads call mapAsync on one buffer at once: exactly one map
 * succeeds; each other one finds it pending (LS_OPERATION, nothing
 * raised) or already mapped (LS_VALIDATION, one validation error each). */
typedef struct map_race {
  ls_buffer *b;
  pthread_barrier_t *go;
  waiter w;
} map_race;

static _Atomic int race_errors;
static void count_race_error(void *user, ls_error_type type, const char *message) {
  race_errors++;
}

static void *map_racer(void *arg) {
  map_race *r = arg;
  pthread_barrier_wait(r->go);
  ls_buffer_map_async(r->b, LS_MAP_READ, 0, 64, on_map, &r->w);
  twait(&r->w);
  return NULL;
}

static void test_map_race(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 1);
  ls_device_set_error_callback(d, count_race_error, NULL);
  ls_buffer *b = mkbuf(d, 64, MAPR, "contested");
  for (int round = 0; round < 20; round++) {
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, NJOBS);
    map_race r[NJOBS];
    pthread_t t[NJOBS];
    race_errors = 0;
    for (int i = 0; i < NJOBS; i++) {
      r[i].b = b;
      r[i].go = &go;
      waiter_init(&r[i].w);
      assert_int_equal(pthread_create(&t[i], NULL, map_racer, &r[i]), 0);
    }
    for (int i = 0; i < NJOBS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    int ok = 0, pending = 0, mapped = 0;
    for (int i = 0; i < NJOBS; i++) {
      assert_int_equal(waiter_calls(&r[i].w), 1);
      ok += r[i].w.status == LS_OK;
      pending += r[i].w.status == LS_OPERATION;
      mapped += r[i].w.status == LS_VALIDATION;
      waiter_fini(&r[i].w);
    }
    assert_int_equal(ok, 1);
    assert_int_equal(ok + pending + mapped, NJOBS);
    assert_int_equal(race_errors, mapped);
    assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_MAPPED);
    ls_buffer_unmap(b);
  }
  ls_buffer_release(b);
  ls_device_release(d);
  ls_adapter_release(a);
  assert_int_equal(thread_failures, 0);
}

/* Two threads recording into one encoder (and its pass) at once: every
 * command lands, in one of the orders (lockstep.h: "Two threads racing on
 * one object get one of the orders, never a crash"). */
typedef struct recorder {
  ls_command_encoder *enc;
  ls_buffer *src, *dst;
  unsigned id;
} recorder;

enum { COPIES = 200 };

static void *record_copies(void *arg) {
  recorder *r = arg;
  for (unsigned i = 0; i < COPIES; i++) {
    /* thread 0 copies word i to word i, thread 1 word i to word 256 + i */
    uint64_t at = 4 * (i + 256 * r->id);
    ls_command_encoder_copy_buffer_to_buffer(r->enc, r->src, at, r->dst, at, 4);
    ls_command_encoder_push_debug_group(r->enc, "g");
    ls_command_encoder_pop_debug_group(r->enc);
  }
  return NULL;
}

static void test_shared_encoder(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 1);
  ls_buffer *src = mkbuf(d, 4 * 512, RW, "src");
  ls_buffer *dst = mkbuf(d, 4 * 512, RW, "dst");
  uint32_t words[512];
  for (uint32_t i = 0; i < 512; i++) words[i] = 0x5000u + i;
  assert_int_equal(ls_queue_write_buffer(d, src, 0, words, sizeof words), LS_OK);
  for (int round = 0; round < 10; round++) {
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    recorder r[2] = {{enc, src, dst, 0}, {enc, src, dst, 1}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, record_copies, &r[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    assert_non_null(cb);
    assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    uint32_t got[512];
    assert_int_equal(ls_queue_read_buffer(d, dst, 0, got, sizeof got), LS_OK);
    for (uint32_t i = 0; i < 512; i++) {
      const int copied = (i < COPIES) || (i >= 256 && i < 256 + COPIES);
      assert_int_equal(got[i], copied ? words[i] : 0);
    }
  }
  assert_int_equal(thread_errors, 0);
  ls_buffer_release(src);
  ls_buffer_release(dst);
  ls_device_release(d);
  ls_adapter_release(a);
  assert_int_equal(thread_failures, 0);
}

/* Threads submitting and writing while another destroys the device: each
 * call returns OK or DEVICE_LOST, every work-done callback comes exactly
 * once, and nothing crashes. */
typedef struct submitter {
  sleepy *s;
  ls_device *d;
  int ok, lost, other;
  waiter done[40];
  int ndone;
} submitter;

static void *submit_loop(void *arg) {
  submitter *x = arg;
  for (int i = 0; i < 40; i++) {
    ls_command_buffer *cb = NULL;
    ls_command_encoder *enc = ls_device_create_command_encoder(x->d, NULL);
    if (enc) {
      ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
      ls_compute_pass_set_pipeline(pass, x->s->p);
      ls_compute_pass_set_bind_group(pass, 0, x->s->g, NULL, 0);
      ls_compute_pass_dispatch_workgroups(pass, 4, 1, 1);
      ls_compute_pass_end(pass);
      ls_compute_pass_release(pass);
      cb = ls_command_encoder_finish(enc, NULL);
      ls_command_encoder_release(enc);
    }
    ls_status st = cb ? ls_queue_submit_async(x->d, &cb, 1) : LS_DEVICE_LOST;
    ls_command_buffer_release(cb);
    x->ok += st == LS_OK;
    x->lost += st == LS_DEVICE_LOST;
    x->other += st != LS_OK && st != LS_DEVICE_LOST;
    uint32_t v = (uint32_t)i;
    st = ls_queue_write_buffer(x->d, x->s->src, 0, &v, 4);
    x->other += st != LS_OK && st != LS_DEVICE_LOST;
    waiter_init(&x->done[i]);
    ls_queue_on_submitted_work_done(x->d, on_done, &x->done[i]);
    x->ndone++;
  }
  return NULL;
}

static void test_destroy_while_submitting(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 2);
  sleepy s;
  sleepy_make(&s, d);
  sleepy_set(&s, sleepy_steps(&s, 0.02)); /* about 1 ms a dispatch of 4 groups */
  submitter x[2];
  pthread_t t[2];
  for (int i = 0; i < 2; i++) {
    memset(&x[i], 0, sizeof x[i]);
    x[i].s = &s;
    x[i].d = d;
    assert_int_equal(pthread_create(&t[i], NULL, submit_loop, &x[i]), 0);
  }
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  ls_device_destroy(d);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(x[i].other, 0);
    assert_int_equal(x[i].ok + x[i].lost, 40);
    for (int k = 0; k < x[i].ndone; k++) {
      assert_int_equal(waiter_wait(&x[i].done[k]), 1);
      ls_status st = x[i].done[k].status;
      assert_true(st == LS_OK || st == LS_DEVICE_LOST);
      waiter_fini(&x[i].done[k]);
    }
  }
  assert_true(ls_device_is_lost(d));
  assert_int_equal(thread_errors, 0);
  sleepy_free(&s);
  ls_device_release(d);
  ls_adapter_release(a);
  assert_int_equal(thread_failures, 0);
}

/* One thread renames a buffer while another makes errors that name it:
 * each message names the buffer by one of its labels, whole. */
typedef struct renamer {
  ls_buffer *b;
  _Atomic int stop;
} renamer;

static void *rename_loop(void *arg) {
  renamer *r = arg;
  char name[32];
  /* bounded: the library keeps every replaced label until the device goes */
  for (unsigned i = 0; !r->stop && i < 20000; i++) {
    snprintf(name, sizeof name, "name-%u", i % 1000);
    ls_buffer_set_label(r->b, name);
  }
  return NULL;
}

static _Atomic int named_errors, misnamed_errors;
static void check_name(void *user, ls_error_type type, const char *message) {
  named_errors++;
  const char *n = strstr(message, "'name-");
  if (!n) {
    misnamed_errors++;
    return;
  }
  n += 6;
  if (!strncmp(n, "start", 5)) n += 5;
  while (*n >= '0' && *n <= '9') n++;
  if (*n != '\'') misnamed_errors++;
}

static void test_label_race(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 1);
  ls_device_set_error_callback(d, check_name, NULL);
  ls_buffer *b = mkbuf(d, 16, RW, "name-start");
  renamer r = {.b = b};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, rename_loop, &r), 0);
  uint32_t x = 0;
  for (int i = 0; i < 1000; i++) {
    /* one message made under the device's lock, one under the encoder's */
    ls_queue_write_buffer(d, b, 2, &x, 4);
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_command_encoder_clear_buffer(enc, b, 2, 4);
    assert_null(ls_command_encoder_finish(enc, NULL));
    ls_command_encoder_release(enc);
  }
  r.stop = 1;
  pthread_join(t, NULL);
  assert_int_equal(named_errors, 2000);
  assert_int_equal(misnamed_errors, 0);
  ls_buffer_release(b);
  ls_device_release(d);
  ls_adapter_release(a);
  assert_int_equal(thread_failures, 0);
}

/* The sanitizer switched on and off, and its findings read, while another
 * thread's dispatches run: each dispatch is watched or not, never half. */
typedef struct toggler {
  ls_device *d;
  _Atomic int stop;
} toggler;

static void *toggle_checks(void *arg) {
  toggler *x = arg;
  for (int i = 0; !x->stop; i++) {
    CHECK_EQ(ls_device_enable_checks(x->d, i % 2 == 0, NULL), LS_OK);
    (void)ls_device_check_finding_count(x->d);
    if (i % 7 == 0) ls_device_clear_check_findings(x->d);
  }
  return NULL;
}

static void test_checks_while_running(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 2);
  sleepy s;
  sleepy_make(&s, d);
  toggler x = {.d = d};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, toggle_checks, &x), 0);
  for (int i = 0; i < 20; i++) {
    uint32_t n = sleepy_steps(&s, 0.005) + 1;
    sleepy_set(&s, n);
    ls_command_buffer *cb = sleepy_cb(&s);
    assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    sleepy_check(&s, s.dst, n, NULL); /* checked or not, the same results */
  }
  x.stop = 1;
  pthread_join(t, NULL);
  ls_device_enable_checks(d, 1, NULL);
  ls_queue_wait_idle(d);
  assert_int_equal(ls_device_check_finding_count(d), 0); /* the kernel is race-free */
  assert_int_equal(thread_errors, 0);
  sleepy_free(&s);
  ls_device_release(d);
  ls_adapter_release(a);
  assert_int_equal(thread_failures, 0);
}

/* One thread destroys buffers while another records copies from them, then
 * submits what it recorded: recording succeeds whenever the destroy came
 * (WebGPU checks a buffer's state at submit), and each submit is refused
 * with one validation error naming the destroyed buffer; nothing else
 * happens. */
enum { DOOMED = 256 };

typedef struct destroyer_job {
  ls_buffer **b;
  pthread_barrier_t *go;
} destroyer_job;

static void *destroy_buffers(void *arg) {
  destroyer_job *x = arg;
  pthread_barrier_wait(x->go);
  /* from the other end, so that the two threads meet in the middle */
  for (int i = DOOMED - 1; i >= 0; i--) ls_buffer_destroy(x->b[i]);
  return NULL;
}

static _Atomic int destroyed_errors, other_errors;
static void count_destroyed(void *user, ls_error_type type, const char *message) {
  if (strstr(message, "destroyed")) destroyed_errors++;
  else other_errors++;
}

static void test_destroy_while_encoding(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = threaded_device(&a, 1);
  ls_device_set_error_callback(d, count_destroyed, NULL);
  static ls_buffer *b[DOOMED];
  static ls_command_buffer *cb[DOOMED];
  for (int i = 0; i < DOOMED; i++) b[i] = mkbuf(d, 16, RW, "doomed");
  ls_buffer *dst = mkbuf(d, 16, RW, "dst");
  pthread_barrier_t go;
  pthread_barrier_init(&go, NULL, 2);
  destroyer_job x = {.b = b, .go = &go};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, destroy_buffers, &x), 0);
  pthread_barrier_wait(&go);
  for (int i = 0; i < DOOMED; i++) {
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_command_encoder_copy_buffer_to_buffer(enc, b[i], 0, dst, 0, 16);
    cb[i] = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
  }
  pthread_join(t, NULL);
  pthread_barrier_destroy(&go);
  int at_submit = 0;
  for (int i = 0; i < DOOMED; i++) {
    assert_non_null(cb[i]);
    at_submit += ls_queue_submit(d, &cb[i], 1) == LS_VALIDATION;
    ls_command_buffer_release(cb[i]);
  }
  assert_int_equal(at_submit, DOOMED);
  assert_int_equal(destroyed_errors, DOOMED);
  assert_int_equal(other_errors, 0);
  for (int i = 0; i < DOOMED; i++) ls_buffer_release(b[i]);
  ls_buffer_release(dst);
  ls_device_release(d);
  ls_adapter_release(a);
  assert_int_equal(thread_failures, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_compile_race), /* first: no shader compiled before it */
      cmocka_unit_test(test_one_device_many_threads),
      cmocka_unit_test(test_device_per_thread),
      cmocka_unit_test(test_map_race),
      cmocka_unit_test(test_shared_encoder),
      cmocka_unit_test(test_destroy_while_submitting),
      cmocka_unit_test(test_label_race),
      cmocka_unit_test(test_checks_while_running),
      cmocka_unit_test(test_destroy_while_encoding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
