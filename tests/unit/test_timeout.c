/*
 * test_timeout.c — the GPU timeout's equivalent: a dispatch that no single
 * workgroup makes runaway (65535^3 trivial workgroups; many workgroups each
 * under the per-workgroup budget) loses the device at the submit's time
 * limit or the dispatch's instruction budget, with a message naming the
 * dispatch, its WGSL line and a workgroup; a workgroup that loops for long
 * meets the time limit too; ls_device_destroy from another thread stops a
 * long dispatch promptly.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "unit_api.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A device with the given limits; errors recorded. */
static env limited_env(uint64_t dispatch_budget, uint32_t time_limit_ms, uint64_t wg_budget) {
  env e;
  ls_adapter_options o = {.struct_size = sizeof o, .threads = 2,
                          .instruction_budget = wg_budget,
                          .dispatch_instruction_budget = dispatch_budget,
                          .time_limit_ms = time_limit_ms};
  char err[256];
  e.adapter = ls_adapter_create(&o, err, sizeof err);
  assert_non_null(e.adapter);
  e.device = ls_adapter_create_device(e.adapter, NULL, NULL, err, sizeof err);
  assert_non_null(e.device);
  ls_device_set_error_callback(e.device, tu_on_error, NULL);
  nerrors = 0;
  return e;
}

static const char trivial[] =
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@compute @workgroup_size(1)\n"
    "fn main(@builtin(workgroup_id) g: vec3u) {\n"
    "  if (g.x == 0xffffffffu) { out[0] = 1u; }\n"
    "}\n";

static const char spin[] =
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@compute @workgroup_size(1)\n"
    "fn main() {\n"
    "  var i = 0u;\n"
    "  loop {\n"
    "    i = i + 1u;\n"
    "    if (i == 0xffffffffu) { break; }\n"
    "  }\n"
    "  out[0] = i;\n"
    "}\n";

/* A pipeline of code with a 16-byte storage buffer bound at group 0. */
typedef struct job {
  ls_compute_pipeline *p;
  ls_buffer *b;
  ls_bind_group *g;
} job;

static job make_job(ls_device *d, const char *code, const char *file) {
  job j;
  j.p = tu_pipeline(d, code, file, NULL);
  assert_non_null(j.p);
  j.b = ls_device_create_buffer(d, &(ls_buffer_desc){.size = 16, .usage = LS_BUFFER_USAGE_STORAGE});
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(j.p, 0);
  ls_bind_group_entry be = {.binding = 0, .buffer = j.b, .size = LS_WHOLE_SIZE};
  j.g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be,
                                                             .entry_count = 1});
  ls_bind_group_layout_release(l);
  assert_non_null(j.g);
  return j;
}

static void free_job(job *j) {
  ls_bind_group_release(j->g);
  ls_buffer_release(j->b);
  ls_compute_pipeline_release(j->p);
}

static ls_status dispatch3(ls_device *d, job *j, uint32_t x, uint32_t y, uint32_t z) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, j->p);
  ls_compute_pass_set_bind_group(pass, 0, j->g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, x, y, z);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  const ls_status submitted = ls_queue_submit(d, &cb, 1);
  ls_command_buffer_release(cb);
  return submitted;
}

/* 65535^3 workgroups would run for months: the 1 s time limit ends it. */
static void test_huge_dispatch_times_out(void **state) {
  env e = limited_env(UINT64_MAX, 1000, 0);
  job j = make_job(e.device, trivial, "trivial.wgsl");
  const double t0 = now_s();
  assert_int_equal(dispatch3(e.device, &j, 65535, 65535, 65535), LS_DEVICE_LOST);
  const double took = now_s() - t0;
  assert_true(took >= 0.9 && took < 10.0);
  const char *m = ls_device_get_lost_message(e.device);
  assert_non_null(m);
  assert_non_null(strstr(m, "(65535, 65535, 65535)"));
  assert_non_null(strstr(m, "time limit (1000 ms"));
  assert_non_null(strstr(m, "trivial.wgsl:"));
  assert_non_null(strstr(m, "in workgroup ("));
  /* the lost device raises nothing; other devices go on working */
  env other = limited_env(0, 0, 0);
  job k = make_job(other.device, trivial, "trivial.wgsl");
  assert_int_equal(dispatch3(other.device, &k, 4, 4, 4), LS_OK);
  free_job(&k);
  tu_free_env(&other);
  free_job(&j);
  tu_free_env(&e);
}

/* 65,535 workgroups each far under the per-workgroup budget: the dispatch's
 * own budget loses the device. The trivial kernel runs a handful of
 * instructions per workgroup, so 10,000 of them are spent after about
 * 2,000 workgroups. */
static void test_many_small_workgroups_exhaust_the_dispatch_budget(void **state) {
  env e = limited_env(10000, UINT32_MAX, 0);
  job j = make_job(e.device, trivial, "trivial.wgsl");
  assert_int_equal(dispatch3(e.device, &j, 65535, 1, 1), LS_DEVICE_LOST);
  const char *m = ls_device_get_lost_message(e.device);
  assert_non_null(strstr(m, "dispatch's instruction budget (10000"));
  free_job(&j);
  tu_free_env(&e);

  /* the same dispatch within a budget that fits runs to the end */
  e = limited_env(UINT64_MAX, UINT32_MAX, 0);
  j = make_job(e.device, trivial, "trivial.wgsl");
  assert_int_equal(dispatch3(e.device, &j, 65535, 1, 1), LS_OK);
  assert_false(ls_device_is_lost(e.device));
  free_job(&j);
  tu_free_env(&e);
}

/* One workgroup looping 2^32 times under an unlimited per-workgroup budget:
 * the time limit is checked inside the workgroup as well, and names the
 * loop's line. */
static void test_long_workgroup_meets_the_time_limit(void **state) {
  env e = limited_env(UINT64_MAX, 500, UINT64_MAX);
  job j = make_job(e.device, spin, "spin.wgsl");
  const double t0 = now_s();
  assert_int_equal(dispatch3(e.device, &j, 1, 1, 1), LS_DEVICE_LOST);
  assert_true(now_s() - t0 < 5.0);
  const char *m = ls_device_get_lost_message(e.device);
  assert_non_null(strstr(m, "time limit (500 ms"));
  assert_non_null(strstr(m, "spin.wgsl:"));
  free_job(&j);
  tu_free_env(&e);
}

typedef struct destroyer {
  ls_device *device;
  double at;
} destroyer;

static void *destroy_later(void *arg) {
  destroyer *k = arg;
  usleep(300 * 1000);
  k->at = now_s();
  ls_device_destroy(k->device);
  return NULL;
}

static ls_lost_reason lost_reason = (ls_lost_reason)-1;
static void on_lost(void *user, ls_lost_reason reason, const char *message) {
  (void)user;
  (void)message;
  lost_reason = reason;
}

/* A destroy from another thread stops the running dispatch (inside its one
 * long workgroup) within a slice, not at the end of the loop. */
static void test_destroy_from_another_thread_stops_work(void **state) {
  env e = limited_env(UINT64_MAX, UINT32_MAX, UINT64_MAX);
  ls_device_set_lost_callback(e.device, on_lost, NULL);
  job j = make_job(e.device, spin, "spin.wgsl");
  destroyer k = {e.device, 0};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, destroy_later, &k), 0);
  assert_int_equal(dispatch3(e.device, &j, 1, 1, 1), LS_DEVICE_LOST);
  const double stopped = now_s();
  pthread_join(t, NULL);
  assert_true(stopped - k.at < 5.0); /* the loop alone would run for minutes */
  assert_int_equal(lost_reason, LS_LOST_DESTROYED);
  free_job(&j);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_huge_dispatch_times_out),
      cmocka_unit_test(test_many_small_workgroups_exhaust_the_dispatch_budget),
      cmocka_unit_test(test_long_workgroup_meets_the_time_limit),
      cmocka_unit_test(test_destroy_from_another_thread_stops_work),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
