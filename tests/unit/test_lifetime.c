/*
 * test_lifetime.c — errors, labels, descriptors and the end of a device
 * (include/lockstep.h: "Lifetimes", "Descriptors", the device section):
 * createComputePipelineAsync's no-raise rule, error scope edges, labels
 * changed after creation, struct_size longer and shorter than the
 * library's, device.lost's reasons, ls_device_destroy and release from
 * inside the device's own error, map and lost callbacks, destroy from
 * another thread stopping a long dispatch, and what destroy does to
 * queued work, pending maps and mapped buffers (WebGPU: everything is
 * unmapped first).
 */
#include "unit_queue.h"

/* -------------------------------------------------------- error handling */

/* createComputePipelineAsync's rule: an invalid descriptor rejects the
 * promise (GPUPipelineError) and generates no validation error. */
static void test_try_create_pipeline(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_shader_module_desc sd = {.code = sleepy_wgsl_text, .label = "sleepy.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  assert_non_null(m);
  ls_compute_pipeline_desc pd = {.module = m, .entry_point = "nope", .label = "missing"};
  char *msg = NULL;
  ls_device_push_error_scope(d, LS_FILTER_VALIDATION);
  assert_null(ls_device_try_create_compute_pipeline(d, &pd, &msg));
  char *scoped = NULL;
  assert_int_equal(ls_device_pop_error_scope(d, &scoped), LS_ERROR_NONE); /* nothing raised */
  assert_null(scoped);
  expect_no_error();
  assert_non_null(msg);
  assert_non_null(strstr(msg, "nope"));
  ls_free(msg);
  assert_null(ls_device_try_create_compute_pipeline(d, &pd, NULL)); /* message not wanted */
  expect_no_error();
  /* an invalid module: the reason comes back the same way */
  ls_shader_module_desc bd = {.code = "@compute @workgroup_size(1) fn main() { let x = ; }\n",
                              .label = "bad.wgsl"};
  ls_shader_module *bad = ls_device_create_shader_module(d, &bd);
  expect_error("bad.wgsl"); /* the module itself is an error, as createShaderModule */
  ls_compute_pipeline_desc pb = {.module = bad};
  msg = NULL;
  assert_null(ls_device_try_create_compute_pipeline(d, &pb, &msg));
  expect_no_error();
  assert_non_null(msg);
  ls_free(msg);
  /* a valid one works, and clears *message */
  ls_compute_pipeline_desc ok = {.module = m};
  msg = (char *)"stale";
  ls_compute_pipeline *p = ls_device_try_create_compute_pipeline(d, &ok, &msg);
  assert_non_null(p);
  assert_null(msg);
  /* the thread's capture ends with the call: a later error is raised */
  ls_device_create_compute_pipeline(d, &pd);
  expect_error("nope");
  ls_compute_pipeline_release(p);
  ls_shader_module_release(bad);
  ls_shader_module_release(m);
  tu_free_env(&e);
}

/* "pushErrorScope" with a filter outside GPUErrorFilter is a TypeError
 * (lockstep: a validation error, nothing pushed); "popErrorScope" on an
 * empty stack rejects (OperationError: LS_ERROR_VALIDATION with a message,
 * nothing raised); scopes catch the first error of their filter only. */
static void test_error_scope_edges(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  char *msg = (char *)"stale";
  assert_int_equal(ls_device_pop_error_scope(d, &msg), LS_ERROR_VALIDATION);
  assert_non_null(msg);
  assert_non_null(strstr(msg, "empty"));
  ls_free(msg);
  assert_int_equal(ls_device_pop_error_scope(d, NULL), LS_ERROR_VALIDATION);
  expect_no_error();

  ls_device_push_error_scope(d, (ls_error_filter)0);
  expect_error("0 is not a GPUErrorFilter");
  ls_device_push_error_scope(d, (ls_error_filter)99);
  expect_error("99 is not a GPUErrorFilter");
  assert_int_equal(ls_device_pop_error_scope(d, NULL), LS_ERROR_VALIDATION); /* none pushed */

  /* a bad filter inside a validation scope is caught by that scope */
  ls_device_push_error_scope(d, LS_FILTER_VALIDATION);
  ls_device_push_error_scope(d, (ls_error_filter)-1);
  ls_device_push_error_scope(d, LS_FILTER_OUT_OF_MEMORY);
  ls_buffer_desc bd = {.size = 4, .usage = 0, .label = "nousage"};
  assert_null(ls_device_create_buffer(d, &bd)); /* passes the OOM scope by */
  ls_buffer_desc bd2 = {.size = 4, .usage = 0x8000, .label = "badbits"};
  assert_null(ls_device_create_buffer(d, &bd2));
  assert_int_equal(ls_device_pop_error_scope(d, &msg), LS_ERROR_NONE);
  assert_null(msg);
  assert_int_equal(ls_device_pop_error_scope(d, &msg), LS_ERROR_VALIDATION);
  assert_non_null(strstr(msg, "is not a GPUErrorFilter")); /* the first one */
  ls_free(msg);
  expect_no_error();
  assert_int_equal(ls_device_pop_error_scope(d, NULL), LS_ERROR_VALIDATION); /* empty again */
  tu_free_env(&e);
}

/* "label": a program may change it at any time; later messages use the
 * new one (here in a queue operation, a submit and an encoder error). */
static void test_set_label(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_buffer *b = mkbuf(d, 16, RW, "first-name");
  uint32_t x = 0;
  ls_queue_write_buffer(d, b, 2, &x, 4);
  expect_error("'first-name'");
  ls_buffer_set_label(b, "second-name");
  ls_queue_write_buffer(d, b, 2, &x, 4);
  expect_error("'second-name'");
  assert_null(strstr(last_error, "first-name"));
  ls_buffer_set_label(b, NULL);
  ls_queue_write_buffer(d, b, 2, &x, 4);
  expect_error("(unlabelled)");

  ls_command_encoder_desc ed = {.label = "enc-a"};
  ls_command_encoder *enc = ls_device_create_command_encoder(d, &ed);
  ls_command_encoder_set_label(enc, "enc-b");
  ls_command_encoder_pop_debug_group(enc);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("command encoder 'enc-b'");

  ls_buffer_set_label(b, "third-name");
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, b, 0, b, 0, 4);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("'third-name'");

  ls_buffer *c = mkbuf(d, 16, RW, "c");
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, c, 0, b, 0, 4);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  ls_command_buffer_set_label(cb, "the-cb");
  ls_buffer_set_label(b, "fourth-name");
  ls_buffer_destroy(b);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_VALIDATION);
  ls_command_buffer_release(cb);
  expect_error("command buffer 0 ('the-cb') uses buffer 'fourth-name'");
  ls_device_set_label(d, "dev");
  ls_buffer_release(b);
  ls_buffer_release(c);
  tu_free_env(&e);
}

/* "Descriptors" (lockstep.h): struct_size larger than the library's is
 * refused with a message; a smaller one is read as if the members it lacks
 * were 0. */
typedef struct longer_buffer_desc {
  ls_buffer_desc d;
  uint64_t from_the_future;
} longer_buffer_desc;

static void test_struct_size(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  longer_buffer_desc lb = {.d = {.struct_size = sizeof(longer_buffer_desc), .size = 16,
                                 .usage = RW, .label = "new"},
                           .from_the_future = 1};
  assert_null(ls_device_create_buffer(d, &lb.d));
  expect_error("struct_size");
  /* a caller compiled before mapped_at_creation existed: the member that
   * follows in memory here is not read */
  ls_buffer_desc old = {.struct_size = offsetof(ls_buffer_desc, mapped_at_creation),
                        .size = 16, .usage = RW, .label = "old", .mapped_at_creation = 1};
  ls_buffer *b = ls_device_create_buffer(d, &old);
  assert_non_null(b);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_UNMAPPED);
  ls_buffer_release(b);
  /* one that stops before label: unlabelled */
  ls_buffer_desc older = {.struct_size = offsetof(ls_buffer_desc, label), .size = 16,
                          .usage = RW, .label = "ignored"};
  b = ls_device_create_buffer(d, &older);
  assert_non_null(b);
  uint32_t x;
  ls_queue_write_buffer(d, b, 1, &x, 4);
  expect_error("(unlabelled)");
  ls_buffer_release(b);
  ls_buffer_desc exact = {.struct_size = sizeof(ls_buffer_desc), .size = 16, .usage = RW};
  b = ls_device_create_buffer(d, &exact);
  assert_non_null(b);
  ls_buffer_release(b);

  struct {
    ls_command_encoder_desc d;
    int extra;
  } le = {.d = {.struct_size = sizeof le, .label = "x"}};
  assert_null(ls_device_create_command_encoder(d, &le.d));
  expect_error("struct_size");
  struct {
    ls_query_set_desc d;
    int extra;
  } lq = {.d = {.struct_size = sizeof lq, .type = LS_QUERY_OCCLUSION, .count = 1}};
  assert_null(ls_device_create_query_set(d, &lq.d));
  expect_error("struct_size");
  struct {
    ls_compute_pass_desc d;
    int extra;
  } lp = {.d = {.struct_size = sizeof lp}};
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  assert_null(ls_command_encoder_begin_compute_pass(enc, &lp.d));
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("struct_size");
  struct {
    ls_shader_module_desc d;
    int extra;
  } ls = {.d = {.struct_size = sizeof ls, .code = "@compute @workgroup_size(1) fn main() {}"}};
  assert_null(ls_device_create_shader_module(d, &ls.d));
  expect_error("struct_size");

  /* requestDevice and the adapter take the same rule, with the message in err */
  struct {
    ls_device_desc d;
    int extra;
  } ld = {.d = {.struct_size = sizeof ld}};
  char err[256] = "";
  ls_status st = LS_OK;
  assert_null(ls_adapter_create_device(e.adapter, &ld.d, &st, err, sizeof err));
  assert_int_not_equal(st, LS_OK);
  assert_non_null(strstr(err, "struct_size"));
  struct {
    ls_adapter_options o;
    int extra;
  } lo = {.o = {.struct_size = sizeof lo}};
  err[0] = 0;
  assert_null(ls_adapter_create(&lo.o, err, sizeof err));
  assert_non_null(strstr(err, "struct_size"));
  ls_adapter_options oo = {.struct_size = offsetof(ls_adapter_options, instruction_budget),
                           .threads = 1, .instruction_budget = 5};
  ls_adapter *a = ls_adapter_create(&oo, err, sizeof err);
  assert_non_null(a); /* the budget was not read: the default, not 5 */
  ls_adapter_release(a);
  struct {
    ls_check_options o;
    int extra;
  } lc = {.o = {.struct_size = sizeof lc}};
  assert_int_not_equal(ls_device_enable_checks(d, 1, &lc.o), LS_OK);
  expect_error("struct_size");
  /* the profiler's and the planner's options too, with the message in err */
  struct {
    ls_profiler_options o;
    int extra;
  } lpo = {.o = {.struct_size = sizeof lpo}};
  err[0] = 0;
  assert_null(ls_profiler_attach(d, &lpo.o, err, sizeof err));
  assert_non_null(strstr(err, "struct_size"));
  ls_profiler *prof = ls_profiler_attach(
      d, &(ls_profiler_options){.struct_size = LS_STRUCT_SIZE(ls_profiler_options)}, err,
      sizeof err);
  assert_non_null(prof);
  ls_profiler_destroy(prof);
  struct {
    ls_plan_options o;
    int extra;
  } lpl = {.o = {.struct_size = sizeof lpl, .elements = 100, .workgroup_size = 64}};
  ls_dispatch_plan plan;
  err[0] = 0;
  assert_int_equal(ls_plan_dispatch(&lpl.o, &plan, err, sizeof err), LS_OPERATION);
  assert_non_null(strstr(err, "struct_size"));
  lpl.o.struct_size = sizeof lpl.o;
  assert_int_equal(ls_plan_dispatch(&lpl.o, &plan, err, sizeof err), LS_OK);
  expect_no_error();
  tu_free_env(&e);
}

/* A finding's pointer (lockstep.h: "valid ... until
 * ls_device_clear_check_findings") outlives the findings that later
 * dispatches add, many more than the first allocation holds: under ASan a
 * moved array would be a use after free here. */
static const char *oob_wgsl =
    "@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n"
    "@compute @workgroup_size(1) fn main() { v[4] = 1u; }\n";

static void test_finding_stays(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  assert_int_equal(ls_device_enable_checks(d, 1, NULL), LS_OK);
  ls_compute_pipeline *p = tu_pipeline(d, oob_wgsl, "oob.wgsl", NULL);
  ls_buffer *b = mkbuf(d, 16, SRW, "four");
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group_entry be = {.binding = 0, .buffer = b, .size = LS_WHOLE_SIZE};
  ls_bind_group *g = ls_device_create_bind_group(
      d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  ls_bind_group_layout_release(l);
  assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_OK);
  assert_int_equal(ls_device_check_finding_count(d), 1);
  const ls_check_finding *first = ls_device_check_finding(d, 0);
  assert_non_null(first);
  char text[512];
  snprintf(text, sizeof text, "%s", first->text);
  assert_non_null(strstr(text, "oob.wgsl:2:"));
  for (int i = 0; i < 100; i++) assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_OK);
  assert_int_equal(ls_device_check_finding_count(d), 101);
  assert_ptr_equal(ls_device_check_finding(d, 0), first);
  assert_string_equal(first->text, text);
  assert_int_equal(first->dispatch, 0);
  assert_int_equal(ls_device_check_finding(d, 100)->dispatch, 100);
  expect_no_error();
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* ------------------------------------------------------ loss and destroy */

typedef struct lost_note {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int calls;
  ls_lost_reason reason;
  char message[512];
  pthread_t thread;
  ls_device *destroy; /* destroyed (and released, if release) from inside */
  int release;
} lost_note;

static void on_lost(void *user, ls_lost_reason reason, const char *message) {
  lost_note *n = user;
  pthread_mutex_lock(&n->mu);
  n->reason = reason;
  n->thread = pthread_self();
  snprintf(n->message, sizeof n->message, "%s", message ? message : "(null)");
  ls_device *victim = n->destroy;
  int release = n->release;
  pthread_mutex_unlock(&n->mu);
  if (victim) {
    ls_device_destroy(victim);
    if (release) ls_device_release(victim);
  }
  pthread_mutex_lock(&n->mu);
  n->calls++;
  pthread_cond_broadcast(&n->cv);
  pthread_mutex_unlock(&n->mu);
}

static void lost_init(lost_note *n) {
  memset(n, 0, sizeof *n);
  pthread_mutex_init(&n->mu, NULL);
  pthread_cond_init(&n->cv, NULL);
}

/* The calls so far; with wait, after waiting (60 s at most) for one. */
static int lost_calls(lost_note *n, int wait) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 60;
  pthread_mutex_lock(&n->mu);
  while (wait && !n->calls)
    if (pthread_cond_timedwait(&n->cv, &n->mu, &until) != 0) break;
  int c = n->calls;
  pthread_mutex_unlock(&n->mu);
  return c;
}

static ls_device *device_with(ls_adapter **a, unsigned threads, uint64_t budget) {
  ls_adapter_options o = {.threads = threads, .instruction_budget = budget};
  *a = ls_adapter_create(&o, NULL, 0);
  assert_non_null(*a);
  ls_status st;
  ls_device *d = ls_adapter_create_device(*a, NULL, &st, NULL, 0);
  assert_non_null(d);
  ls_device_set_error_callback(d, tu_on_error, NULL);
  nerrors = 0;
  return d;
}

static const char *spin_wgsl =
    "@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n"
    "@compute @workgroup_size(1) fn spin() {\n"
    "  loop {\n"
    "    if (v[0] == 12345u) { break; }\n"
    "    v[1] = v[1] + 1u;\n"
    "  }\n"
    "}\n";

/* A runaway dispatch on device d (budget small): queued, not waited for. */
static void submit_spin(ls_device *d, ls_buffer **out) {
  ls_compute_pipeline *p = tu_pipeline(d, spin_wgsl, "spin.wgsl", NULL);
  assert_non_null(p);
  ls_buffer *b = mkbuf(d, 16, SRW, "v");
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group_entry be = {.binding = 0, .buffer = b, .size = LS_WHOLE_SIZE};
  ls_bind_group_desc gd = {.layout = l, .entries = &be, .entry_count = 1};
  ls_bind_group *g = ls_device_create_bind_group(d, &gd);
  ls_bind_group_layout_release(l);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  ls_bind_group_release(g);
  ls_compute_pipeline_release(p);
  assert_int_equal(ls_queue_submit_async(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  *out = b;
}

/* "GPUDevice.lost": resolves once, with "destroyed" for destroy() and
 * "unknown" otherwise (a runaway shader stands for a GPU timeout), on the
 * thread that lost it; set after the loss, it is called at once. */
static void test_lost_reasons(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  lost_note n;
  lost_init(&n);
  ls_device_set_lost_callback(e.device, on_lost, &n);
  assert_int_equal(lost_calls(&n, 0), 0);
  ls_device_destroy(e.device);
  assert_int_equal(lost_calls(&n, 0), 1);
  assert_int_equal(n.reason, LS_LOST_DESTROYED);
  assert_true(pthread_equal(n.thread, pthread_self()));
  assert_true(ls_device_is_lost(e.device));
  assert_non_null(strstr(ls_device_get_lost_message(e.device), "destroyed"));
  ls_device_destroy(e.device); /* again: nothing */
  assert_int_equal(lost_calls(&n, 0), 1);
  lost_note late;
  lost_init(&late);
  ls_device_set_lost_callback(e.device, on_lost, &late);
  assert_int_equal(lost_calls(&late, 0), 1);
  assert_int_equal(late.reason, LS_LOST_DESTROYED);
  tu_free_env(&e);
  assert_int_equal(lost_calls(&n, 0), 1); /* release after destroy: no second call */

  ls_adapter *a;
  ls_device *d = device_with(&a, 1, 20000);
  lost_note r;
  lost_init(&r);
  ls_device_set_lost_callback(d, on_lost, &r);
  ls_buffer *b;
  submit_spin(d, &b);
  waiter w;
  waiter_init(&w);
  ls_queue_on_submitted_work_done(d, on_done, &w);
  waiter_wait(&w);
  assert_int_equal(w.status, LS_DEVICE_LOST);
  assert_int_equal(lost_calls(&r, 1), 1);
  pthread_mutex_lock(&r.mu);
  assert_int_equal(r.reason, LS_LOST_UNKNOWN);
  assert_non_null(strstr(r.message, "'spin'"));
  assert_non_null(strstr(r.message, "spin.wgsl:4:"));
  assert_non_null(strstr(r.message, "instruction budget"));
  assert_false(pthread_equal(r.thread, pthread_self())); /* the queue thread lost it */
  pthread_mutex_unlock(&r.mu);
  ls_device_destroy(d); /* destroying a lost device does not call back again */
  assert_int_equal(lost_calls(&r, 1), 1);
  expect_no_error();
  waiter_fini(&w);
  ls_buffer_release(b);
  ls_device_release(d);
  ls_adapter_release(a);
}

/* ls_device_destroy and ls_device_release from inside the device's own
 * callbacks (lockstep.h: "Safe from inside any callback of the device"):
 * no crash, and under ASan no use after free. */
typedef struct destroyer {
  ls_device *d;
  int release; /* release the handle too */
  int calls;
} destroyer;

static void destroy_on_error(void *user, ls_error_type type, const char *message) {
  destroyer *x = user;
  x->calls++;
  ls_device_destroy(x->d);
  if (x->release) ls_device_release(x->d);
}

static void test_destroy_in_error_callback(void **state) {
  (void)state;
  for (int release = 0; release < 2; release++) {
    ls_adapter *a;
    ls_device *d = device_with(&a, 2, 0);
    lost_note n;
    lost_init(&n);
    ls_device_set_lost_callback(d, on_lost, &n);
    destroyer x = {.d = d, .release = release};
    ls_device_set_error_callback(d, destroy_on_error, &x);
    ls_buffer *keep = mkbuf(d, 16, RW, "keep");
    /* the error comes from finish(), which goes on using the encoder and
     * the device after the callback */
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_command_encoder_pop_debug_group(enc);
    assert_null(ls_command_encoder_finish(enc, NULL));
    ls_command_encoder_release(enc);
    assert_int_equal(x.calls, 1);
    assert_int_equal(lost_calls(&n, 0), 1);
    assert_int_equal(n.reason, LS_LOST_DESTROYED);
    if (!release) {
      assert_true(ls_device_is_lost(d));
      ls_buffer_desc bd = {.size = 4, .usage = 0};
      assert_null(ls_device_create_buffer(d, &bd)); /* errors of a lost device: dropped */
      assert_int_equal(x.calls, 1);
      ls_device_release(d);
    }
    ls_buffer_set_label(keep, "still a handle");
    ls_buffer_destroy(keep);
    ls_buffer_release(keep); /* the last reference: frees the device */
    ls_adapter_release(a);
  }
}

static void test_destroy_in_map_callback(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = device_with(&a, 2, 0);
  sleepy s;
  sleepy_make(&s, d);
  ls_buffer *b = mkbuf(d, 16, MAPR, "m");
  sleepy_submit(&s, 0.1);
  waiter m, after;
  waiter_init(&m);
  waiter_init(&after);
  m.destroy = d;
  ls_buffer_map_async(b, LS_MAP_READ, 0, 16, on_map, &m);
  sleepy_submit(&s, 0.1); /* queued behind the map: dropped by the destroy */
  ls_queue_on_submitted_work_done(d, on_done, &after);
  waiter_wait(&m);
  assert_int_equal(m.status, LS_OK); /* the map was done when its callback destroyed */
  waiter_wait(&after);
  assert_int_equal(after.status, LS_DEVICE_LOST);
  assert_true(ls_device_is_lost(d));
  /* a validation failure calls back on this thread: destroying there too */
  ls_adapter *a2;
  ls_device *d2 = device_with(&a2, 1, 0);
  ls_buffer *b2 = mkbuf(d2, 16, MAPR, "m2");
  waiter v;
  waiter_init(&v);
  v.destroy = d2;
  ls_buffer_map_async(b2, LS_MAP_WRITE, 0, 16, on_map, &v);
  assert_int_equal(waiter_calls(&v), 1);
  assert_int_equal(v.status, LS_VALIDATION);
  expect_error("MAP_WRITE");
  assert_true(ls_device_is_lost(d2));
  ls_buffer_release(b2);
  ls_device_release(d2);
  ls_adapter_release(a2);
  waiter_fini(&m);
  waiter_fini(&after);
  waiter_fini(&v);
  ls_buffer_release(b);
  sleepy_free(&s);
  ls_device_release(d);
  ls_adapter_release(a);
}

static void test_destroy_in_lost_callback(void **state) {
  (void)state;
  for (int release = 0; release < 2; release++) {
    /* lost by a runaway shader, on the queue thread */
    ls_adapter *a;
    ls_device *d = device_with(&a, 1, 20000);
    lost_note n;
    lost_init(&n);
    n.destroy = d;
    n.release = release;
    ls_device_set_lost_callback(d, on_lost, &n);
    ls_buffer *b;
    submit_spin(d, &b); /* d may be gone (released) from here on */
    assert_int_equal(lost_calls(&n, 1), 1);
    pthread_mutex_lock(&n.mu);
    assert_int_equal(n.reason, LS_LOST_UNKNOWN);
    pthread_mutex_unlock(&n.mu);
    ls_buffer_release(b); /* a valid handle still */
    if (!release) {
      assert_true(ls_device_is_lost(d));
      ls_device_release(d);
    }
    ls_adapter_release(a);
  }
  /* lost by destroy(): the callback's own destroy is a no-op */
  ls_adapter *a;
  ls_device *d = device_with(&a, 1, 0);
  lost_note n;
  lost_init(&n);
  n.destroy = d;
  ls_device_set_lost_callback(d, on_lost, &n);
  ls_device_destroy(d);
  assert_int_equal(lost_calls(&n, 0), 1);
  ls_device_release(d);
  ls_adapter_release(a);
}

/* "GPUDevice.destroy" from another thread while a long dispatch runs:
 * the dispatch stops at its next workgroup, so destroy returns in a small
 * part of the dispatch's time; queued work and pending maps fail. */
typedef struct delayed {
  ls_device *d;
  double delay, took;
} delayed;

static void *destroy_later(void *arg) {
  delayed *x = arg;
  struct timespec ts = {0, (long)(x->delay * 1e9)};
  nanosleep(&ts, NULL);
  double t0 = now_s();
  ls_device_destroy(x->d);
  x->took = now_s() - t0;
  return NULL;
}

static void test_destroy_stops_dispatch(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = device_with(&a, 2, 0);
  sleepy s;
  sleepy_make(&s, d);
  ls_buffer *m = mkbuf(d, 16, MAPR, "pending");
  const double full = 4.0;
  uint32_t n = sleepy_submit(&s, full);
  waiter done, map, after;
  waiter_init(&done);
  waiter_init(&map);
  waiter_init(&after);
  ls_queue_on_submitted_work_done(d, on_done, &done);
  ls_buffer_map_async(m, LS_MAP_READ, 0, 16, on_map, &map);
  assert_int_equal(ls_buffer_get_map_state(m), LS_MAP_STATE_PENDING);
  delayed x = {.d = d, .delay = 0.2};
  pthread_t t;
  double t0 = now_s();
  assert_int_equal(pthread_create(&t, NULL, destroy_later, &x), 0);
  pthread_join(t, NULL);
  double total = now_s() - t0;
  fprintf(stderr, "a %.1f s dispatch (%u steps): destroy took %.3f s, %.3f s from submit\n", full,
          n, x.took, total);
  assert_true(x.took < full / 8);
  assert_true(total < full / 4);
  waiter_wait(&done);
  assert_int_equal(done.status, LS_DEVICE_LOST);
  waiter_wait(&map);
  /* destroy() unmaps every buffer of the device: the pending map is
   * rejected with an AbortError */
  assert_int_equal(map.status, LS_ABORTED);
  assert_int_equal(ls_buffer_get_map_state(m), LS_MAP_STATE_UNMAPPED);

  /* work issued after the destroy fails the same way, at once */
  ls_queue_on_submitted_work_done(d, on_done, &after);
  assert_int_equal(waiter_calls(&after), 1);
  assert_int_equal(after.status, LS_DEVICE_LOST);
  waiter late;
  waiter_init(&late);
  ls_buffer_map_async(m, LS_MAP_READ, 0, 16, on_map, &late);
  assert_int_equal(waiter_calls(&late), 1);
  assert_int_equal(late.status, LS_DEVICE_LOST);
  ls_command_buffer *cb = NULL;
  assert_null(ls_device_create_command_encoder(d, NULL));
  assert_int_equal(ls_queue_submit_async(d, &cb, 0), LS_DEVICE_LOST);
  uint32_t v = 0;
  assert_int_equal(ls_queue_write_buffer(d, s.src, 0, &v, 4), LS_DEVICE_LOST);
  assert_int_equal(ls_queue_read_buffer(d, s.dst, 0, &v, 4), LS_DEVICE_LOST);
  ls_queue_wait_idle(d); /* returns at once */
  expect_no_error();
  waiter_fini(&done);
  waiter_fini(&map);
  waiter_fini(&after);
  waiter_fini(&late);
  ls_buffer_release(m);
  sleepy_free(&s);
  ls_device_release(d);
  ls_adapter_release(a);
}

/* A submit of many dispatches: after a destroy from another thread, none of
 * the ones left starts (the profiler, which records every dispatch that
 * starts, counts them). */
static void test_destroy_stops_submit(void **state) {
  (void)state;
  ls_adapter *a;
  ls_device *d = device_with(&a, 2, 0);
  char err[128];
  ls_profiler *prof = ls_profiler_attach(d, NULL, err, sizeof err);
  assert_non_null(prof);
  sleepy s;
  sleepy_make(&s, d); /* calibrated with the profiler watching */
  enum { MANY = 400 };
  sleepy_set(&s, sleepy_steps(&s, 0.01));
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, s.p);
  ls_compute_pass_set_bind_group(pass, 0, s.g, NULL, 0);
  for (int i = 0; i < MANY; i++) ls_compute_pass_dispatch_workgroups(pass, SLEEPY_GROUPS, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  ls_queue_wait_idle(d);
  const size_t before = ls_profiler_dispatch_count(prof);
  assert_int_equal(ls_queue_submit_async(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  delayed x = {.d = d, .delay = 0.2};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, destroy_later, &x), 0);
  pthread_join(t, NULL);
  const size_t ran = ls_profiler_dispatch_count(prof) - before;
  fprintf(stderr, "%d dispatches of 10 ms: %zu started before the destroy stopped them\n", MANY,
          ran);
  assert_true(ran < MANY / 4);
  ls_profiler_destroy(prof);
  sleepy_free(&s);
  ls_device_release(d);
  ls_adapter_release(a);
}

/* destroy() unmaps a mapped buffer too: its map state is unmapped and
 * getMappedRange refuses. */
static void test_destroy_unmaps(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_buffer *b = mkbuf(e.device, 16, MAPR, "mapped");
  map_now(b, LS_MAP_READ, 0, 16);
  ls_buffer_desc bd = {.size = 16, .usage = SRW, .mapped_at_creation = 1};
  ls_buffer *c = ls_device_create_buffer(e.device, &bd);
  assert_non_null(c);
  ls_device_destroy(e.device);
  char err[128];
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_UNMAPPED);
  assert_int_equal(ls_buffer_get_map_state(c), LS_MAP_STATE_UNMAPPED);
  assert_null(ls_buffer_get_mapped_range(b, 0, 16, err, sizeof err));
  ls_buffer_unmap(b);
  ls_buffer_release(b);
  ls_buffer_release(c);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_try_create_pipeline),
      cmocka_unit_test(test_error_scope_edges),
      cmocka_unit_test(test_set_label),
      cmocka_unit_test(test_struct_size),
      cmocka_unit_test(test_finding_stays),
      cmocka_unit_test(test_lost_reasons),
      cmocka_unit_test(test_destroy_in_error_callback),
      cmocka_unit_test(test_destroy_in_map_callback),
      cmocka_unit_test(test_destroy_in_lost_callback),
      cmocka_unit_test(test_destroy_stops_dispatch),
      cmocka_unit_test(test_destroy_stops_submit),
      cmocka_unit_test(test_destroy_unmaps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
