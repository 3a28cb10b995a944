/*
 * unit_queue.h — what the tests of the queue timeline share (test_queue.c,
 * test_lifetime.c, test_threads.c): a clock, waiters that hand a callback's
 * result from the queue thread to the test (a mutex and a condition
 * variable, which also order them for ThreadSanitizer), and the "sleepy"
 * dispatch: a kernel whose length is calibrated at run time, so that work
 * issued behind it is still queued when a test looks, and whose results
 * (an LCG from each invocation's index) the test recomputes.
 * Header-only: each test file is its own executable.
 */
#ifndef LOCKSTEP_UNIT_QUEUE_H
#define LOCKSTEP_UNIT_QUEUE_H

#include <pthread.h>
#include <time.h>

#include "unit_api.h"

static inline double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline ls_buffer *mkbuf(ls_device *d, uint64_t size, uint32_t usage, const char *label) {
  ls_buffer_desc bd = {.size = size, .usage = usage, .label = label};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  assert_non_null(b);
  return b;
}

#define RW (LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_COPY_DST)
#define SRW (LS_BUFFER_USAGE_STORAGE | RW)
#define MAPR (LS_BUFFER_USAGE_MAP_READ | LS_BUFFER_USAGE_COPY_DST)
#define MAPW (LS_BUFFER_USAGE_MAP_WRITE | LS_BUFFER_USAGE_COPY_SRC)

/* ------------------------------------------------------------- waiters */

/* What a callback reported, handed from the queue thread to the test. */
typedef struct waiter {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int calls;
  ls_status status;
  double at; /* now_s() when the first call came */
  pthread_t thread;
  char message[512];
  ls_device *destroy; /* a device to destroy from inside the callback */
} waiter;

static inline void waiter_init(waiter *w) {
  memset(w, 0, sizeof *w);
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
}

static inline void waiter_fini(waiter *w) {
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
}

static inline void waiter_note(waiter *w, ls_status st, const char *message) {
  ls_device *victim;
  pthread_mutex_lock(&w->mu);
  victim = w->destroy;
  pthread_mutex_unlock(&w->mu);
  if (victim) ls_device_destroy(victim); /* before the test can see the call */
  pthread_mutex_lock(&w->mu);
  if (w->calls++ == 0) {
    w->status = st;
    w->at = now_s();
    w->thread = pthread_self();
    snprintf(w->message, sizeof w->message, "%s", message ? message : "");
  }
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

static inline void on_done(void *user, ls_status st) { waiter_note(user, st, NULL); }
static inline void on_map(void *user, ls_status st, const char *message) { waiter_note(user, st, message); }

/* Waits (at most 60 s) for the first call; returns the call count. */
static inline int waiter_wait(waiter *w) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 60;
  pthread_mutex_lock(&w->mu);
  while (!w->calls)
    if (pthread_cond_timedwait(&w->cv, &w->mu, &until) != 0) break;
  int n = w->calls;
  pthread_mutex_unlock(&w->mu);
  assert_true(n > 0);
  return n;
}

static inline int waiter_calls(waiter *w) {
  pthread_mutex_lock(&w->mu);
  int n = w->calls;
  pthread_mutex_unlock(&w->mu);
  return n;
}

/* ------------------------------------------------------ sleepy dispatch */

/* Each invocation runs p.n steps of an LCG from its index, then adds
 * src[i]: the read of src comes after the long part, so a write that
 * overtook the dispatch would show in dst. */
static const char sleepy_wgsl_text[] =
    "struct P { n: u32, pad: u32 }\n"
    "@group(0) @binding(0) var<storage, read> src: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> dst: array<u32>;\n"
    "@group(0) @binding(2) var<uniform> p: P;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  var x = g.x;\n"
    "  for (var i = 0u; i < p.n; i++) { x = x * 1664525u + 1013904223u; }\n"
    "  dst[g.x] = x + src[g.x];\n"
    "}\n";

enum { SLEEPY_GROUPS = 64, SLEEPY_N = SLEEPY_GROUPS * 64 };

typedef struct sleepy {
  ls_device *d;
  ls_compute_pipeline *p;
  ls_buffer *src, *dst, *params;
  ls_bind_group *g;
  double per_step; /* seconds per LCG step of the whole dispatch */
} sleepy;

/* n steps of x -> x * 1664525 + 1013904223 (mod 2^32), what the sleepy
 * kernel does per invocation. The step is affine, so n of them are one
 * affine map a * x + c, built by squaring in log2(n) steps: a check of
 * SLEEPY_N words stays cheap however long the dispatch ran. */
static inline uint32_t lcg(uint32_t x, uint32_t n) {
  uint32_t a = 1, c = 0;                       /* the map so far */
  uint32_t sa = 1664525u, sc = 1013904223u;    /* the step, squared each bit */
  for (; n; n >>= 1) {
    if (n & 1) {
      a *= sa;
      c = c * sa + sc;
    }
    sc = sc * sa + sc;
    sa *= sa;
  }
  return a * x + c;
}

static inline ls_bind_group *sleepy_group(sleepy *s, ls_buffer *src, ls_buffer *dst) {
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(s->p, 0);
  assert_non_null(l);
  ls_bind_group_entry be[3] = {
      {.binding = 0, .buffer = src, .size = LS_WHOLE_SIZE},
      {.binding = 1, .buffer = dst, .size = LS_WHOLE_SIZE},
      {.binding = 2, .buffer = s->params, .size = LS_WHOLE_SIZE},
  };
  ls_bind_group_desc gd = {.layout = l, .entries = be, .entry_count = 3, .label = "sleepy"};
  ls_bind_group *g = ls_device_create_bind_group(s->d, &gd);
  ls_bind_group_layout_release(l);
  assert_non_null(g);
  return g;
}

/* One pass of the sleepy kernel over group g (desc: timestamp writes). */
static inline ls_command_buffer *sleepy_cb_with(sleepy *s, ls_bind_group *g,
                                         const ls_compute_pass_desc *desc) {
  ls_command_encoder *enc = ls_device_create_command_encoder(s->d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, desc);
  ls_compute_pass_set_pipeline(pass, s->p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, SLEEPY_GROUPS, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  return cb;
}

static inline ls_command_buffer *sleepy_cb(sleepy *s) { return sleepy_cb_with(s, s->g, NULL); }

/* The step count is a queue operation too (writeBuffer), so it lands
 * before the next submit and after the previous one. */
static inline void sleepy_set(sleepy *s, uint32_t n) {
  uint32_t pn[2] = {n, 0};
  assert_int_equal(ls_queue_write_buffer(s->d, s->params, 0, pn, sizeof pn), LS_OK);
}

static inline uint32_t sleepy_steps(const sleepy *s, double seconds) {
  double n = seconds / s->per_step;
  return n < 1 ? 1 : n > 4e9 ? 4000000000u : (uint32_t)n;
}

/* Submits a dispatch of about `seconds` and returns at once. */
static inline uint32_t sleepy_submit(sleepy *s, double seconds) {
  uint32_t n = sleepy_steps(s, seconds);
  sleepy_set(s, n);
  ls_command_buffer *cb = sleepy_cb(s);
  assert_int_equal(ls_queue_submit_async(s->d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  return n;
}

/* dst must be lcg(i, n) + src_words[i] (src_words NULL: zeros). */
static inline void sleepy_check(sleepy *s, ls_buffer *dst, uint32_t n, const uint32_t *src_words) {
  uint32_t *out = malloc(4 * SLEEPY_N);
  assert_non_null(out);
  assert_int_equal(ls_queue_read_buffer(s->d, dst, 0, out, 4 * SLEEPY_N), LS_OK);
  int bad = 0;
  for (uint32_t i = 0; i < SLEEPY_N && !bad; i++) {
    uint32_t want = lcg(i, n) + (src_words ? src_words[i] : 0);
    if (out[i] != want) {
      fprintf(stderr, "dst[%u] = %u, want %u (n = %u)\n", i, out[i], want, n);
      bad = 1;
    }
  }
  free(out);
  assert_false(bad);
}

/* The wall time of one waited dispatch of n steps. */
static inline double sleepy_time(sleepy *s, uint32_t n) {
  sleepy_set(s, n);
  ls_command_buffer *cb = sleepy_cb(s);
  const double t0 = now_s();
  assert_int_equal(ls_queue_submit(s->d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  return now_s() - t0;
}

static inline void sleepy_make(sleepy *s, ls_device *d) {
  memset(s, 0, sizeof *s);
  s->d = d;
  s->p = tu_pipeline(d, sleepy_wgsl_text, "sleepy.wgsl", NULL);
  assert_non_null(s->p);
  s->src = mkbuf(d, 4 * SLEEPY_N, SRW, "src");
  s->dst = mkbuf(d, 4 * SLEEPY_N, SRW, "dst");
  s->params = mkbuf(d, 8, LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST, "params");
  s->g = sleepy_group(s, s->src, s->dst);
  /* Calibrate: double the steps until a dispatch takes 30 ms. A stall of
   * the machine only ever adds time, so a candidate is timed twice more and
   * kept only if the fastest of the three still takes 15 ms (one stalled
   * run of a short dispatch would otherwise make every step look slow). */
  for (uint32_t n = 64;; n *= 2) {
    double t = sleepy_time(s, n);
    if (t <= 0.03 && n < (1u << 30)) continue;
    const double t2 = sleepy_time(s, n), t3 = sleepy_time(s, n);
    if (t2 < t) t = t2;
    if (t3 < t) t = t3;
    if (t > 0.015 || n >= (1u << 30)) {
      s->per_step = t / n;
      break;
    }
  }
}

static inline void sleepy_free(sleepy *s) {
  ls_bind_group_release(s->g);
  ls_buffer_release(s->src);
  ls_buffer_release(s->dst);
  ls_buffer_release(s->params);
  ls_compute_pipeline_release(s->p);
}

static inline void map_now(ls_buffer *b, uint32_t mode, uint64_t offset, uint64_t size) {
  waiter m;
  waiter_init(&m);
  ls_buffer_map_async(b, mode, offset, size, on_map, &m);
  waiter_wait(&m);
  if (m.status != LS_OK) fprintf(stderr, "map: %s\n", m.message);
  assert_int_equal(m.status, LS_OK);
  waiter_fini(&m);
}

#endif
