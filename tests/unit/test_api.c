/*
 * test_api.c — the public API (include/lockstep.h): limits, profiles,
 * requestDevice, error scopes, buffers and transfers, layouts and bind
 * groups, encoders, copies. The tests at the end compile small WGSL shaders
 * (pipelines, dispatch validation, indirect dispatch, a runaway shader) and
 * so need the front end, lowering and VM.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lockstep.h"

/* ---------------------------------------------------------------- helpers */

static char last_error[4096];
static ls_error_type last_type;
static int nerrors;
static char last_log[1024];
static int nlogs;

static void on_error(void *user, ls_error_type type, const char *message) {
  snprintf(last_error, sizeof last_error, "%s", message);
  last_type = type;
  nerrors++;
}

static void on_log(void *user, ls_log_level level, const char *message) {
  snprintf(last_log, sizeof last_log, "%s", message);
  nlogs++;
}

static void reset_errors(void) {
  last_error[0] = 0;
  last_type = LS_ERROR_NONE;
  nerrors = 0;
  last_log[0] = 0;
  nlogs = 0;
}

static ls_adapter *adapter_for(const char *profile) {
  ls_adapter_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.profile = profile;
  o.threads = 2;
  char err[256];
  ls_adapter *a = ls_adapter_create(&o, err, sizeof err);
  assert_non_null(a);
  return a;
}

typedef struct env {
  ls_adapter *adapter;
  ls_device *device;
} env;

static env make_env(const ls_required_limit *limits, size_t n) {
  env e;
  e.adapter = adapter_for(NULL);
  ls_device_desc d;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.required_limits = limits;
  d.required_limit_count = n;
  ls_status st;
  char err[256];
  e.device = ls_adapter_create_device(e.adapter, &d, &st, err, sizeof err);
  assert_non_null(e.device);
  ls_device_set_error_callback(e.device, on_error, NULL);
  ls_device_set_log_callback(e.device, on_log, NULL);
  reset_errors();
  return e;
}

static void free_env(env *e) {
  ls_device_release(e->device);
  ls_adapter_release(e->adapter);
}

static ls_buffer *buffer(ls_device *d, uint64_t size, uint32_t usage, const char *label) {
  ls_buffer_desc bd = {.size = size, .usage = usage, .label = label};
  return ls_device_create_buffer(d, &bd);
}

#define RW (LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_COPY_DST)

/* ----------------------------------------------------------------- limits */

static void test_limits(void **state) {
  ls_limits l;
  ls_limits_default(&l);
  assert_int_equal(l.max_compute_invocations_per_workgroup, 256);
  assert_int_equal(l.max_compute_workgroup_storage_size, 16384);
  assert_int_equal(l.min_storage_buffer_offset_alignment, 256);
  assert_int_equal(ls_limits_set(&l, "maxComputeInvocationsPerWorkgroup", 512), LS_OK);
  uint64_t v = 0;
  assert_true(ls_limits_get(&l, "maxComputeInvocationsPerWorkgroup", &v));
  assert_int_equal(v, 512);
  assert_int_equal(l.max_compute_invocations_per_workgroup, 512);
  assert_int_equal(ls_limits_set(&l, "maxWarpDrive", 1), LS_OPERATION);
  assert_false(ls_limits_get(&l, "maxWarpDrive", &v));
  assert_string_equal(ls_status_name(LS_DEVICE_LOST), "DEVICE_LOST");
  assert_string_equal(ls_status_describe(LS_OK), "success");
  char ver[32];
  snprintf(ver, sizeof ver, "%d.%d.%d", LS_VERSION_MAJOR, LS_VERSION_MINOR, LS_VERSION_PATCH);
  assert_string_equal(ls_version(), ver);
}

static void test_profiles(void **state) {
  static const struct {
    const char *name;
    uint32_t w;
    uint64_t invocations;
    const char *architecture, *description;
  } want[] = {{"default", 32, 1024, "simt-32", "32-lane subgroups"},
              {"nvidia", 32, 1024, "lockstep-warp32", "32-lane warps"},
              {"amd", 64, 1024, "lockstep-wave64", "64-lane wavefronts"},
              {"apple", 32, 1024, "lockstep-simdgroup32", "32-lane SIMD groups"},
              {"intel", 16, 1024, "lockstep-simd16", "SIMD16"},
              {"mobile", 8, 256, "lockstep-mobile8", "8-lane subgroups"}};
  const char *const *names = ls_profile_names();
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    assert_non_null(names[i]);
    assert_string_equal(names[i], want[i].name);
    ls_adapter *a = adapter_for(want[i].name);
    ls_adapter_info info;
    ls_limits l;
    ls_adapter_get_info(a, &info);
    ls_adapter_get_limits(a, &l);
    assert_int_equal(info.subgroup_size, want[i].w);
    assert_int_equal(info.subgroup_min_size, want[i].w);
    assert_int_equal(info.subgroup_max_size, want[i].w);
    assert_int_equal(info.threads, 2);
    assert_string_equal(info.profile, want[i].name);
    assert_string_equal(info.architecture, want[i].architecture);
    assert_non_null(strstr(info.description, want[i].description));
    assert_int_equal(l.max_compute_invocations_per_workgroup, want[i].invocations);
    /* each workgroup size dimension <= invocations <= X*Y*Z */
    assert_true(l.max_compute_workgroup_size_x <= l.max_compute_invocations_per_workgroup);
    assert_true(l.max_compute_invocations_per_workgroup <=
                l.max_compute_workgroup_size_x * l.max_compute_workgroup_size_y *
                    l.max_compute_workgroup_size_z);
    ls_adapter_release(a);
  }
  assert_null(names[6]);

  ls_adapter_options o;
  memset(&o, 0, sizeof o);
  o.profile = "amd";
  o.subgroup_size = 16;
  ls_adapter *a = ls_adapter_create(&o, NULL, 0);
  ls_adapter_info info;
  ls_adapter_get_info(a, &info);
  assert_int_equal(info.subgroup_size, 16);
  assert_true(info.threads >= 1);
  /* the names say the width the adapter runs, not the profile's 64 */
  assert_string_equal(info.architecture, "lockstep-wave16");
  assert_non_null(strstr(info.description, "16-lane wavefronts"));
  assert_null(strstr(info.description, "64"));
  ls_adapter_release(a);
  o.profile = NULL;
  o.subgroup_size = 8;
  a = ls_adapter_create(&o, NULL, 0);
  ls_adapter_get_info(a, &info);
  assert_string_equal(info.architecture, "simt-8");
  assert_non_null(strstr(info.description, "8-lane subgroups"));
  ls_adapter_release(a);
  o.profile = "amd";

  char err[256] = "";
  o.subgroup_size = 12;
  assert_null(ls_adapter_create(&o, err, sizeof err));
  assert_non_null(strstr(err, "12"));
  o.subgroup_size = 0;
  o.profile = "cray";
  assert_null(ls_adapter_create(&o, err, sizeof err));
  assert_non_null(strstr(err, "cray"));
  ls_adapter_release(NULL);
}

/* ---------------------------------------------------------- requestDevice */

static ls_device *request(ls_adapter *a, const ls_required_limit *l, size_t n,
                          const char *const *features, size_t nf, ls_status *st, char *err,
                          size_t errlen) {
  ls_device_desc d;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.required_limits = l;
  d.required_limit_count = n;
  d.required_features = features;
  d.required_feature_count = nf;
  return ls_adapter_create_device(a, &d, st, err, errlen);
}

static void test_request_device(void **state) {
  ls_adapter *a = adapter_for(NULL);
  ls_status st;
  char err[256];
  ls_limits l;

  ls_device *d = request(a, NULL, 0, NULL, 0, &st, err, sizeof err);
  assert_non_null(d);
  assert_int_equal(st, LS_OK);
  ls_device_get_limits(d, &l);
  assert_int_equal(l.max_compute_invocations_per_workgroup, 256); /* defaults, not the adapter's */
  ls_device_release(d);

  ls_required_limit ok[] = {{"maxComputeInvocationsPerWorkgroup", 1024},
                            {"maxBufferSize", 1000},                     /* worse: ignored */
                            {"minStorageBufferOffsetAlignment", 512}};  /* worse: ignored */
  d = request(a, ok, 3, NULL, 0, &st, err, sizeof err);
  assert_non_null(d);
  ls_device_get_limits(d, &l);
  assert_int_equal(l.max_compute_invocations_per_workgroup, 1024);
  assert_int_equal(l.max_buffer_size, 268435456);
  assert_int_equal(l.min_storage_buffer_offset_alignment, 256);
  ls_device_release(d);

  ls_required_limit better[] = {{"maxComputeInvocationsPerWorkgroup", 2048}};
  assert_null(request(a, better, 1, NULL, 0, &st, err, sizeof err));
  assert_int_equal(st, LS_OPERATION);
  assert_non_null(strstr(err, "maxComputeInvocationsPerWorkgroup"));
  assert_non_null(strstr(err, "2048"));
  assert_non_null(strstr(err, "1024"));

  ls_required_limit unknown[] = {{"maxWarpDrive", 1}};
  assert_null(request(a, unknown, 1, NULL, 0, &st, err, sizeof err));
  assert_int_equal(st, LS_OPERATION);
  assert_non_null(strstr(err, "maxWarpDrive"));

  ls_required_limit npot[] = {{"minUniformBufferOffsetAlignment", 384}};
  assert_null(request(a, npot, 1, NULL, 0, &st, err, sizeof err));
  assert_int_equal(st, LS_OPERATION);
  ls_required_limit align_better[] = {{"minUniformBufferOffsetAlignment", 64}};
  assert_null(request(a, align_better, 1, NULL, 0, &st, err, sizeof err));
  assert_int_equal(st, LS_OPERATION);

  const char *feat[] = {"subgroups"};
  d = request(a, NULL, 0, feat, 1, &st, err, sizeof err);
  assert_non_null(d);
  ls_device_release(d);
  const char *bad_feat[] = {"ray-tracing"};
  assert_null(request(a, NULL, 0, bad_feat, 1, &st, err, sizeof err));
  assert_int_equal(st, LS_TYPE);
  assert_non_null(strstr(err, "ray-tracing"));

  /* A descriptor from an older caller (smaller size) is read up to size. */
  ls_device_desc small;
  memset(&small, 0, sizeof small);
  small.struct_size = offsetof(ls_device_desc, required_limit_count);
  small.required_limits = better; /* count is not read: 0 */
  d = ls_adapter_create_device(a, &small, &st, err, sizeof err);
  assert_non_null(d);
  ls_device_release(d);
  ls_adapter_release(a);
}

/* ---------------------------------------------------------- error scopes */

static void test_error_scopes(void **state) {
  env e = make_env(NULL, 0);
  char *msg;
  /* an empty stack: an error for the caller (OperationError), none raised */
  assert_int_equal(ls_device_pop_error_scope(e.device, &msg), LS_ERROR_VALIDATION);
  assert_non_null(strstr(msg, "empty"));
  ls_free(msg);
  assert_int_equal(nerrors, 0);

  ls_device_push_error_scope(e.device, LS_FILTER_VALIDATION);
  ls_device_push_error_scope(e.device, LS_FILTER_OUT_OF_MEMORY);
  assert_null(buffer(e.device, 16, 0, "zero-usage"));            /* first validation error */
  assert_null(buffer(e.device, 16, LS_BUFFER_USAGE_MAP_READ | LS_BUFFER_USAGE_STORAGE, "x"));
  assert_int_equal(ls_device_pop_error_scope(e.device, &msg), LS_ERROR_NONE); /* OOM scope */
  assert_null(msg);
  assert_int_equal(ls_device_pop_error_scope(e.device, &msg), LS_ERROR_VALIDATION);
  assert_non_null(strstr(msg, "zero-usage")); /* the first one is kept */
  ls_free(msg);
  assert_int_equal(nerrors, 0);                /* nothing reached the callback */

  assert_null(buffer(e.device, 16, 0, "uncaptured"));
  assert_int_equal(nerrors, 1);
  assert_int_equal(last_type, LS_ERROR_VALIDATION);
  assert_non_null(strstr(last_error, "uncaptured"));
  assert_false(ls_device_is_lost(e.device));
  assert_null(ls_device_get_lost_message(e.device));
  free_env(&e);
}

/* ---------------------------------------------------------------- buffers */

static void test_buffer_usage(void **state) {
  env e = make_env(NULL, 0);
  ls_buffer *b;
  assert_null(buffer(e.device, 16, 0, "a"));
  assert_non_null(strstr(last_error, "usage is 0"));
  assert_null(buffer(e.device, 16, LS_BUFFER_USAGE_MAP_READ | LS_BUFFER_USAGE_STORAGE, "a"));
  assert_non_null(strstr(last_error, "MAP_READ"));
  assert_null(buffer(e.device, 16, LS_BUFFER_USAGE_MAP_WRITE | LS_BUFFER_USAGE_COPY_DST, "a"));
  assert_null(buffer(e.device, 16, 0x10000, "a"));
  assert_null(buffer(e.device, 268435457, LS_BUFFER_USAGE_STORAGE, "huge"));
  assert_non_null(strstr(last_error, "maxBufferSize"));
  assert_int_equal(nerrors, 5);

  b = buffer(e.device, 10, LS_BUFFER_USAGE_MAP_READ | LS_BUFFER_USAGE_COPY_DST, "m");
  assert_non_null(b);
  assert_int_equal(ls_buffer_get_size(b), 10);
  assert_int_equal(ls_buffer_get_usage(b), LS_BUFFER_USAGE_MAP_READ | LS_BUFFER_USAGE_COPY_DST);
  uint8_t zero[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  assert_int_equal(ls_buffer_map_read(e.device, b, 0, zero, 8), LS_OK);
  for (int i = 0; i < 8; i++) assert_int_equal(zero[i], 0); /* created zeroed */
  assert_int_equal(ls_buffer_map_read(e.device, b, 4, zero, 4), LS_VALIDATION); /* offset % 8 */
  ls_buffer_release(b);
  ls_buffer_release(NULL);
  free_env(&e);
}

static void test_write_read(void **state) {
  env e = make_env(NULL, 0);
  ls_buffer *b = buffer(e.device, 64, RW, "b");
  uint32_t in[16], out[16];
  for (int i = 0; i < 16; i++) in[i] = 0x1000u + (uint32_t)i;
  assert_int_equal(ls_queue_write_buffer(e.device, b, 0, in, sizeof in), LS_OK);
  memset(out, 0, sizeof out);
  assert_int_equal(ls_queue_read_buffer(e.device, b, 0, out, sizeof out), LS_OK);
  assert_memory_equal(in, out, sizeof in);
  assert_int_equal(ls_queue_write_buffer(e.device, b, 8, in, 8), LS_OK);
  assert_int_equal(ls_queue_read_buffer(e.device, b, 8, out, 8), LS_OK);
  assert_int_equal(out[0], 0x1000);
  assert_int_equal(out[1], 0x1001);

  assert_int_equal(ls_queue_write_buffer(e.device, b, 2, in, 4), LS_VALIDATION);
  assert_non_null(strstr(last_error, "multiple of 4"));
  assert_int_equal(ls_queue_write_buffer(e.device, b, 0, in, 6), LS_VALIDATION);
  assert_int_equal(ls_queue_write_buffer(e.device, b, 60, in, 8), LS_VALIDATION);
  assert_non_null(strstr(last_error, "outside"));
  assert_int_equal(ls_queue_read_buffer(e.device, b, 64, out, 4), LS_VALIDATION);
  ls_buffer *nodst = buffer(e.device, 16, LS_BUFFER_USAGE_STORAGE, "nodst");
  assert_int_equal(ls_queue_write_buffer(e.device, nodst, 0, in, 4), LS_VALIDATION);
  assert_non_null(strstr(last_error, "COPY_DST"));
  assert_int_equal(ls_queue_read_buffer(e.device, nodst, 0, out, 4), LS_VALIDATION);
  assert_non_null(strstr(last_error, "COPY_SRC"));
  ls_buffer_release(nodst);
  ls_buffer_release(b);
  free_env(&e);
}

/* ------------------------------------------------- layouts and bind groups */

static void test_bind_groups(void **state) {
  env e = make_env(NULL, 0);
  ls_device *d = e.device;
  ls_bind_group_layout_entry dup[] = {{0, LS_BINDING_STORAGE, 0}, {0, LS_BINDING_UNIFORM, 0}};
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = dup, .entry_count = 2}));
  assert_non_null(strstr(last_error, "twice"));
  ls_bind_group_layout_entry far[] = {{1000, LS_BINDING_STORAGE, 0}};
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = far, .entry_count = 1}));
  assert_non_null(strstr(last_error, "maxBindingsPerBindGroup"));
  ls_bind_group_layout_entry many[9];
  for (uint32_t i = 0; i < 9; i++) many[i] = (ls_bind_group_layout_entry){i, LS_BINDING_STORAGE, 0};
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = many, .entry_count = 9}));
  assert_non_null(strstr(last_error, "maxStorageBuffersPerShaderStage"));

  ls_bind_group_layout_entry le[] = {{0, LS_BINDING_STORAGE, 16}, {3, LS_BINDING_UNIFORM, 0}};
  ls_bind_group_layout *l = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = le, .entry_count = 2});
  assert_non_null(l);
  ls_buffer *s = buffer(d, 1024, LS_BUFFER_USAGE_STORAGE, "s");
  ls_buffer *u = buffer(d, 1024, LS_BUFFER_USAGE_UNIFORM, "u");
  ls_bind_group_entry ok[] = {{3, u, 0, 64}, {0, s, 256, LS_WHOLE_SIZE}};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = ok, .entry_count = 2});
  assert_non_null(g);
  ls_bind_group_release(g);

  struct {
    ls_bind_group_entry e[2];
    size_t n;
    const char *msg;
  } bad[] = {
      {{{0, s, 0, 64}}, 1, "1 entries given, the layout has 2"},
      {{{0, s, 0, 64}, {4, u, 0, 64}}, 2, "binding 4 is not in the layout"},
      {{{0, u, 0, 64}, {3, u, 0, 64}}, 2, "lacks STORAGE usage"},
      {{{0, s, 0, 64}, {3, s, 0, 64}}, 2, "lacks UNIFORM usage"},
      {{{0, s, 100, 64}, {3, u, 0, 64}}, 2, "minStorageBufferOffsetAlignment (256)"},
      {{{0, s, 0, 64}, {3, u, 128, 64}}, 2, "minUniformBufferOffsetAlignment (256)"},
      {{{0, s, 0, 18}, {3, u, 0, 64}}, 2, "not a multiple of 4"},
      {{{0, s, 0, 8}, {3, u, 0, 64}}, 2, "minBindingSize (16)"},
      {{{0, s, 768, 512}, {3, u, 0, 64}}, 2, "outside buffer 's'"},
      {{{0, s, 2048, LS_WHOLE_SIZE}, {3, u, 0, 64}}, 2, "past the end"},
      {{{0, s, 0, 0}, {3, u, 0, 64}}, 2, "size 0"},
      {{{0, s, 0, 64}, {0, s, 0, 64}}, 2, "twice"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    last_error[0] = 0;
    assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = bad[i].e, .entry_count = bad[i].n}));
    if (!strstr(last_error, bad[i].msg))
      fprintf(stderr, "case %zu: want \"%s\" in \"%s\"\n", i, bad[i].msg, last_error);
    assert_non_null(strstr(last_error, bad[i].msg));
  }

  ls_bind_group_layout *five[5] = {l, l, l, l, l};
  assert_null(ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = five, .bind_group_layout_count = 5}));
  assert_non_null(strstr(last_error, "maxBindGroups"));
  ls_bind_group_layout *two[2] = {l, l}; /* 2 storage + 2 uniform: fine */
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = two, .bind_group_layout_count = 2});
  assert_non_null(pl);
  ls_pipeline_layout_release(pl);
  ls_bind_group_layout *lots[4] = {0};
  ls_bind_group_layout_entry five_s[5];
  for (uint32_t i = 0; i < 5; i++) five_s[i] = (ls_bind_group_layout_entry){i, LS_BINDING_STORAGE, 0};
  lots[0] = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = five_s, .entry_count = 5});
  lots[1] = lots[0];
  assert_null(ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = lots, .bind_group_layout_count = 2})); /* 10 storage buffers > 8 */
  assert_non_null(strstr(last_error, "maxStorageBuffersPerShaderStage"));
  ls_bind_group_layout_release(lots[0]);

  /* visibility: each stage's slots count the entries visible to it
   * (WebGPU's "exceeds the binding slot limits"); 8 storage buffers for
   * COMPUTE and 8 for FRAGMENT fit, a ninth visible to both does not */
  ls_bind_group_layout_entry staged[17];
  for (uint32_t i = 0; i < 16; i++)
    staged[i] = (ls_bind_group_layout_entry){i, LS_BINDING_READ_ONLY_STORAGE, 0,
                                             .visibility = i < 8 ? LS_SHADER_STAGE_COMPUTE
                                                                 : LS_SHADER_STAGE_FRAGMENT};
  ls_bind_group_layout *sl = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = staged, .entry_count = 16});
  assert_non_null(sl);
  ls_bind_group_layout_release(sl);
  staged[16] = (ls_bind_group_layout_entry){16, LS_BINDING_READ_ONLY_STORAGE, 0,
                                            .visibility = LS_SHADER_STAGE_FRAGMENT};
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = staged, .entry_count = 17}));
  assert_non_null(strstr(last_error, "9 storage buffers visible to the FRAGMENT stage exceed maxStorageBuffersInFragmentStage (8)"));
  /* an entry no stage sees counts nowhere */
  staged[16].visibility = LS_SHADER_STAGE_NONE;
  assert_non_null(sl = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = staged, .entry_count = 17}));
  ls_bind_group_layout_release(sl);
  ls_bind_group_layout_entry odd[] = {{0, LS_BINDING_UNIFORM, 0, .visibility = 8}};
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = odd, .entry_count = 1}));
  assert_non_null(strstr(last_error, "visibility 0x8 has bits outside GPUShaderStage"));
  ls_bind_group_layout_entry vtx[] = {{0, LS_BINDING_STORAGE, 0, .visibility = LS_SHADER_STAGE_VERTEX}};
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = vtx, .entry_count = 1}));
  assert_non_null(strstr(last_error, "may not be visible to the VERTEX stage"));
  /* dynamic buffers add up over the pipeline layout: 3 + 3 > 4 */
  ls_bind_group_layout_entry dyn[3];
  for (uint32_t i = 0; i < 3; i++)
    dyn[i] = (ls_bind_group_layout_entry){i, LS_BINDING_STORAGE, 0, .has_dynamic_offset = 1};
  ls_bind_group_layout *dl = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = dyn, .entry_count = 3});
  assert_non_null(dl);
  ls_bind_group_layout *dl2[2] = {dl, dl};
  assert_null(ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = dl2, .bind_group_layout_count = 2}));
  assert_non_null(strstr(last_error, "6 dynamic storage buffers exceed maxDynamicStorageBuffersPerPipelineLayout (4)"));
  ls_bind_group_layout_release(dl);

  ls_buffer_release(s);
  ls_buffer_release(u);
  /* The layout outlives nothing it needs; destroying handles in any order is fine. */
  ls_bind_group_layout_release(l);
  ls_bind_group_layout_release(NULL);
  ls_pipeline_layout_release(NULL);
  ls_bind_group_release(NULL);
  free_env(&e);
}

/* ------------------------------------------------------- copies, encoders */

/* finish() and the encoder's release */
static ls_command_buffer *finish(ls_command_encoder *enc) {
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  return cb;
}

static void test_copy(void **state) {
  env e = make_env(NULL, 0);
  ls_device *d = e.device;
  ls_buffer *a = buffer(d, 64, RW, "a");
  ls_buffer *b = buffer(d, 64, RW, "b");
  ls_buffer *nosrc = buffer(d, 64, LS_BUFFER_USAGE_COPY_DST, "nosrc");
  uint32_t in[16];
  for (int i = 0; i < 16; i++) in[i] = (uint32_t)i * 3u;
  ls_queue_write_buffer(d, a, 0, in, sizeof in);

  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, a, 16, b, 32, 32);
  ls_command_buffer *cb = finish(enc);
  assert_non_null(cb);
  uint32_t out[16];
  ls_queue_read_buffer(d, b, 0, out, sizeof out);
  assert_int_equal(out[8], 0); /* nothing runs before submit */
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  ls_queue_read_buffer(d, b, 0, out, sizeof out);
  for (int i = 0; i < 8; i++) assert_int_equal(out[8 + i], in[4 + i]);
  assert_int_equal(out[7], 0);

  struct {
    ls_buffer *src, *dst;
    uint64_t so, doff, size;
    const char *msg;
  } bad[] = {
      {a, a, 0, 32, 16, "same buffer"},
      {nosrc, b, 0, 0, 16, "COPY_SRC"},
      {a, b, 2, 0, 16, "multiples of 4"},
      {a, b, 0, 0, 6, "multiples of 4"},
      {a, b, 48, 0, 32, "source range [48, 80)"},
      {a, b, 0, 40, 32, "destination range [40, 72)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    enc = ls_device_create_command_encoder(d, NULL);
    ls_command_encoder_copy_buffer_to_buffer(enc, bad[i].src, bad[i].so, bad[i].dst, bad[i].doff,
                                             bad[i].size);
    /* later commands do not replace the first error */
    ls_command_encoder_copy_buffer_to_buffer(enc, a, 0, a, 0, 4);
    last_error[0] = 0;
    assert_null(finish(enc));
    if (!strstr(last_error, bad[i].msg))
      fprintf(stderr, "case %zu: want \"%s\" in \"%s\"\n", i, bad[i].msg, last_error);
    assert_non_null(strstr(last_error, bad[i].msg));
  }

  /* Encoder state: no copy while a pass is open; no finish with a pass open. */
  enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, a, 0, b, 0, 4);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  assert_null(finish(enc));
  assert_non_null(strstr(last_error, "pass is open"));
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  assert_null(finish(enc));
  assert_non_null(strstr(last_error, "still open"));
  ls_compute_pass_end(pass); /* its encoder is no longer locked by it */
  assert_non_null(strstr(last_error, "was finished while the pass was open"));
  ls_compute_pass_release(pass);

  /* A dispatch without a pipeline surfaces at finish. */
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  assert_null(finish(enc));
  assert_non_null(strstr(last_error, "no pipeline"));
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_bind_group(pass, 7, NULL, NULL, 0);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  assert_null(finish(enc));
  assert_non_null(strstr(last_error, "maxBindGroups"));

  /* A buffer destroyed after encoding fails the submit, which runs nothing. */
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, a, 0, nosrc, 0, 16);
  ls_command_encoder_copy_buffer_to_buffer(enc, a, 0, b, 0, 16);
  cb = finish(enc);
  assert_non_null(cb);
  ls_buffer_destroy(nosrc);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_VALIDATION);
  ls_command_buffer_release(cb);
  assert_non_null(strstr(last_error, "destroyed"));
  ls_buffer_release(nosrc);

  /* Empty submits and destroy(NULL) are fine. */
  assert_int_equal(ls_queue_submit(d, NULL, 0), LS_OK);
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_release(enc);
  ls_command_encoder_release(NULL);
  ls_command_buffer_release(NULL);
  ls_compute_pass_end(NULL);
  ls_compute_pass_release(NULL);
  ls_buffer_release(a);
  ls_buffer_release(b);
  free_env(&e);
}

/* Objects may outlive the device handle: they keep what they need. */
static void test_lifetimes(void **state) {
  env e = make_env(NULL, 0);
  ls_buffer *b = buffer(e.device, 16, RW, "b");
  ls_device_release(e.device);
  uint32_t x = 1;
  assert_int_equal(ls_queue_write_buffer(e.device, b, 0, &x, 4), LS_DEVICE_LOST);
  ls_buffer_release(b); /* frees the device too */
  ls_adapter_release(e.adapter);
}

/* ---------------------------------------------------- tests with shaders */

static const char *double_wgsl =
    "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  d[g.x] = g.x * 2u;\n"
    "}\n";

static ls_shader_module *module(ls_device *d, const char *code) {
  ls_shader_module_desc sd = {.code = code, .label = "test.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  assert_non_null(m);
  if (!ls_shader_module_is_valid(m)) fprintf(stderr, "%s", ls_shader_module_format_messages(m));
  return m;
}

static ls_compute_pipeline *auto_pipeline(ls_device *d, ls_shader_module *m, const char *entry) {
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  pd.entry_point = entry;
  pd.label = entry;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  if (!p) fprintf(stderr, "pipeline: %s\n", last_error);
  assert_non_null(p);
  return p;
}

static ls_bind_group *group_for(ls_device *d, ls_compute_pipeline *p, ls_buffer *b, uint64_t size) {
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  assert_non_null(l);
  ls_bind_group_entry be = {0, b, 0, size};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  ls_bind_group_layout_release(l);
  return g;
}

static void test_shader_messages(void **state) {
  env e = make_env(NULL, 0);
  ls_shader_module_desc sd = {
      .code = "@compute @workgroup_size(1) fn main() {\n  let x: u32 = ;\n}\n", .label = "bad.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(e.device, &sd);
  assert_non_null(m);
  assert_false(ls_shader_module_is_valid(m));
  assert_true(ls_shader_module_message_count(m) >= 1);
  const ls_compilation_message *cm = ls_shader_module_message(m, 0);
  assert_int_equal(cm->type, LS_MESSAGE_ERROR);
  assert_int_equal(cm->line, 2);
  assert_non_null(strstr(ls_shader_module_format_messages(m), "bad.wgsl:2:"));
  assert_int_equal(nerrors, 1); /* an invalid module is a validation error */
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  assert_null(ls_device_create_compute_pipeline(e.device, &pd));
  assert_non_null(strstr(last_error, "invalid"));
  ls_shader_module_release(m);
  ls_shader_module_release(NULL);
  free_env(&e);
}

/* code_size: the source is that many bytes, so a NUL inside it is a WGSL
 * error at its place (line 1, column 22) rather than the end of the source,
 * which would leave a valid module; without a size the NUL ends it. */
static void test_shader_code_size(void **state) {
  env e = make_env(NULL, 0);
  static const char src[] = "const name : i32 = 0;\0// after\n";
  ls_shader_module_desc sd = {.code = src, .label = "nul.wgsl", .code_size = sizeof src - 1};
  ls_shader_module *m = ls_device_create_shader_module(e.device, &sd);
  assert_non_null(m);
  assert_false(ls_shader_module_is_valid(m));
  const ls_compilation_message *cm = ls_shader_module_message(m, 0);
  assert_non_null(cm);
  assert_int_equal(cm->line, 1);
  assert_int_equal(cm->column, 22);
  assert_non_null(strstr(cm->message, "null character"));
  ls_shader_module_release(m);
  sd.code_size = 0;
  m = ls_device_create_shader_module(e.device, &sd);
  assert_non_null(m);
  assert_true(ls_shader_module_is_valid(m));
  ls_shader_module_release(m);
  free_env(&e);
}

static void test_dispatch_runs(void **state) {
  env e = make_env(NULL, 0);
  ls_device *d = e.device;
  ls_shader_module *m = module(d, double_wgsl);
  ls_compute_pipeline *p = auto_pipeline(d, m, "main");
  uint32_t wg[3];
  ls_compute_pipeline_get_workgroup_size(p, wg);
  assert_int_equal(wg[0], 64);
  assert_int_equal(wg[1], 1);
  ls_buffer *b = buffer(d, 4 * 200, RW | LS_BUFFER_USAGE_STORAGE, "d");
  ls_bind_group *g = group_for(d, p, b, LS_WHOLE_SIZE);
  assert_non_null(g);
  ls_shader_module_release(m); /* the pipeline keeps it alive */

  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 2, 1, 1);
  ls_compute_pass_dispatch_workgroups(pass, 0, 1, 1); /* does nothing */
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = finish(enc);
  assert_non_null(cb);
  ls_bind_group_release(g); /* the command buffer keeps it alive */
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint32_t out[200];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, sizeof out), LS_OK);
  for (uint32_t i = 0; i < 128; i++) assert_int_equal(out[i], 2 * i);
  for (uint32_t i = 128; i < 200; i++) assert_int_equal(out[i], 0);
  ls_buffer_release(b);
  ls_compute_pipeline_release(p);
  free_env(&e);
}

/* Every language feature ls_wgsl_language_features lists is accepted by
 * `requires` and runs; one that lockstep only validates is accepted but not
 * listed; an unknown one is refused. */
static void test_language_features(void **state) {
  env e = make_env(NULL, 0);
  ls_device *d = e.device;
  const char *const *names = ls_wgsl_language_features();
  size_t n = 0;
  for (; names[n]; n++) {
    for (size_t j = 0; j < n; j++) assert_string_not_equal(names[j], names[n]);
    assert_string_not_equal(names[n], "texel_buffers");
    char src[512];
    snprintf(src, sizeof src,
             "requires %s;\n"
             "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
             "@compute @workgroup_size(1) fn main() { o[0] = %zuu; }\n",
             names[n], n + 100);
    ls_shader_module *m = module(d, src);
    assert_true(ls_shader_module_is_valid(m));
    ls_compute_pipeline *p = auto_pipeline(d, m, "main");
    ls_buffer *b = buffer(d, 4, RW | LS_BUFFER_USAGE_STORAGE, names[n]);
    ls_bind_group *g = group_for(d, p, b, LS_WHOLE_SIZE);
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
    ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = finish(enc);
    assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    uint32_t out = 0;
    assert_int_equal(ls_queue_read_buffer(d, b, 0, &out, 4), LS_OK);
    assert_int_equal(out, n + 100);
    ls_bind_group_release(g);
    ls_buffer_release(b);
    ls_compute_pipeline_release(p);
    ls_shader_module_release(m);
  }
  assert_true(n >= 10);
  ls_shader_module *v = module(d, "requires texel_buffers;\n");
  assert_true(ls_shader_module_is_valid(v));
  ls_shader_module_release(v);
  reset_errors();
  ls_shader_module_desc sd = {.code = "requires no_such_feature;\n", .label = "unknown.wgsl"};
  ls_shader_module *u = ls_device_create_shader_module(d, &sd);
  assert_false(ls_shader_module_is_valid(u));
  assert_non_null(strstr(ls_shader_module_format_messages(u),
                         "unknown.wgsl:1:10 error: unknown language extension 'no_such_feature'"));
  ls_shader_module_release(u);
  free_env(&e);
}

/* Issue 11 asked whether a pipeline layout may hold NULL group slots:
 * WebGPU's GPUPipelineLayoutDescriptor.bindGroupLayouts is a
 * sequence<GPUBindGroupLayout?>, and createPipelineLayout keeps null for a
 * null entry and for a layout with no entries alike; "validate encoder bind
 * groups" skips a null slot. So a shader using only @group(1) runs with a
 * layout {NULL, L} and no bind group at 0, and the same with an empty
 * layout at 0; a shader using @group(0) cannot be made with {NULL, L}. */
static void test_pipeline_layout_null_slot(void **state) {
  env e = make_env(NULL, 0);
  ls_device *d = e.device;
  ls_shader_module *m1 = module(d, "@group(1) @binding(0) var<storage, read_write> v: array<u32>;\n"
                                   "@compute @workgroup_size(4)\n"
                                   "fn main(@builtin(local_invocation_index) i: u32) { v[i] = i + 10u; }\n");
  ls_bind_group_layout_entry le = {0, LS_BINDING_STORAGE, 0};
  ls_bind_group_layout *l = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_bind_group_layout *none = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = NULL, .entry_count = 0});
  assert_non_null(none);
  ls_buffer *b = buffer(d, 16, RW | LS_BUFFER_USAGE_STORAGE, "v");
  ls_bind_group_entry be = {0, b, 0, LS_WHOLE_SIZE};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  assert_non_null(g);
  for (int empty = 0; empty < 2; empty++) {
    ls_bind_group_layout *slots[2] = {empty ? none : NULL, l};
    ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = slots, .bind_group_layout_count = 2});
    assert_non_null(pl);
    ls_compute_pipeline_desc pd = {.module = m1, .layout = pl};
    ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
    assert_non_null(p);
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    ls_compute_pass_set_bind_group(pass, 1, g, NULL, 0); /* nothing at 0 */
    ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = finish(enc);
    if (!cb) fprintf(stderr, "%s\n", last_error);
    assert_non_null(cb);
    assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    uint32_t out[4];
    assert_int_equal(ls_queue_read_buffer(d, b, 0, out, sizeof out), LS_OK);
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(out[i], i + 10);
    assert_int_equal(ls_queue_write_buffer(d, b, 0, (uint32_t[4]){0, 0, 0, 0}, 16), LS_OK);
    ls_compute_pipeline_release(p);
    ls_pipeline_layout_release(pl);
  }
  assert_int_equal(nerrors, 0);
  /* group 0 of the shader has no layout to meet in {NULL, L} */
  ls_shader_module *m0 = module(d, double_wgsl);
  ls_bind_group_layout *slots[2] = {NULL, l};
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = slots, .bind_group_layout_count = 2});
  ls_compute_pipeline_desc pd = {.module = m0, .layout = pl};
  assert_null(ls_device_create_compute_pipeline(d, &pd));
  assert_non_null(strstr(last_error, "not in the pipeline layout"));
  ls_pipeline_layout_release(pl);
  ls_shader_module_release(m0);
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_bind_group_layout_release(none);
  ls_bind_group_layout_release(l);
  ls_shader_module_release(m1);
  free_env(&e);
}

static void test_dispatch_validation(void **state) {
  env e = make_env(NULL, 0);
  ls_device *d = e.device;
  ls_shader_module *m = module(d, double_wgsl);
  ls_compute_pipeline *p = auto_pipeline(d, m, "main");
  ls_compute_pipeline *q = auto_pipeline(d, m, "main");
  ls_buffer *b = buffer(d, 1024, RW | LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_INDIRECT, "d");
  ls_buffer *args = buffer(d, 16, RW | LS_BUFFER_USAGE_INDIRECT, "args");
  ls_buffer *noind = buffer(d, 16, RW, "noind");
  ls_bind_group *g = group_for(d, p, b, LS_WHOLE_SIZE);
  ls_bind_group *gq = group_for(d, q, b, LS_WHOLE_SIZE);

  struct {
    int kind; /* 0 direct, 1 indirect, 2 no bind group, 3 other pipeline's group */
    uint32_t x;
    ls_buffer *ind;
    uint64_t off;
    const char *msg;
  } bad[] = {
      {0, 70000, NULL, 0,
       "dispatchWorkgroups(70000, 1, 1): count 70000 in x exceeds "
       "maxComputeWorkgroupsPerDimension (65535)"},
      {1, 0, noind, 0, "lacks INDIRECT usage"},
      {1, 0, args, 2, "offset 2 is not a multiple of 4"},
      {1, 0, args, 8, "do not fit in buffer 'args'"},
      {1, 0, b, 0, "also bound as writable storage"},
      {2, 1, NULL, 0, "needs a bind group at index 0"},
      {3, 1, NULL, 0, "layout \"auto\""},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    if (bad[i].kind != 2) ls_compute_pass_set_bind_group(pass, 0, bad[i].kind == 3 ? gq : g, NULL, 0);
    if (bad[i].kind == 1)
      ls_compute_pass_dispatch_workgroups_indirect(pass, bad[i].ind, bad[i].off);
    else
      ls_compute_pass_dispatch_workgroups(pass, bad[i].x, 1, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    last_error[0] = 0;
    assert_null(finish(enc));
    if (!strstr(last_error, bad[i].msg))
      fprintf(stderr, "case %zu: want \"%s\" in \"%s\"\n", i, bad[i].msg, last_error);
    assert_non_null(strstr(last_error, bad[i].msg));
  }

  /* Bound smaller than the shader needs (one u32 for array<u32>: 4 bytes is
   * enough, so use a fixed-size array). */
  ls_shader_module *m16 = module(d,
                                 "@group(0) @binding(0) var<storage, read_write> v: array<u32, 8>;\n"
                                 "@compute @workgroup_size(1) fn main() { v[0] = 1u; }\n");
  ls_compute_pipeline *p16 = auto_pipeline(d, m16, "main");
  ls_bind_group_layout_entry le = {0, LS_BINDING_STORAGE, 0};
  ls_bind_group_layout *l = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &l, .bind_group_layout_count = 1});
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m16;
  pd.layout = pl;
  ls_compute_pipeline *pe = ls_device_create_compute_pipeline(d, &pd);
  assert_non_null(pe);
  ls_bind_group_entry be = {0, b, 0, 16};
  ls_bind_group *small = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, pe);
  ls_compute_pass_set_bind_group(pass, 0, small, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  assert_null(finish(enc));
  assert_non_null(strstr(last_error, "'v'"));
  assert_non_null(strstr(last_error, "16 bytes"));
  assert_non_null(strstr(last_error, "32 bytes"));

  /* Explicit layout whose type differs from the shader's. */
  ls_bind_group_layout_entry ro = {0, LS_BINDING_READ_ONLY_STORAGE, 0};
  ls_bind_group_layout *lro = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &ro, .entry_count = 1});
  ls_pipeline_layout *plro = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &lro, .bind_group_layout_count = 1});
  pd.layout = plro;
  assert_null(ls_device_create_compute_pipeline(d, &pd));
  assert_non_null(strstr(last_error, "read-only-storage"));
  /* ... and one without the binding. */
  ls_pipeline_layout *empty = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = NULL, .bind_group_layout_count = 0});
  pd.layout = empty;
  assert_null(ls_device_create_compute_pipeline(d, &pd));
  assert_non_null(strstr(last_error, "not in the pipeline layout"));
  /* Auto layouts cannot go into an explicit pipeline layout. */
  ls_bind_group_layout *al = ls_compute_pipeline_get_bind_group_layout(p, 0);
  assert_null(ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &al, .bind_group_layout_count = 1}));
  ls_bind_group_layout_release(al);

  ls_pipeline_layout_release(empty);
  ls_pipeline_layout_release(plro);
  ls_bind_group_layout_release(lro);
  ls_bind_group_release(small);
  ls_compute_pipeline_release(pe);
  ls_compute_pipeline_release(p16);
  ls_pipeline_layout_release(pl);
  ls_bind_group_layout_release(l);
  ls_shader_module_release(m16);
  ls_bind_group_release(g);
  ls_bind_group_release(gq);
  ls_buffer_release(b);
  ls_buffer_release(args);
  ls_buffer_release(noind);
  ls_compute_pipeline_release(p);
  ls_compute_pipeline_release(q);
  ls_shader_module_release(m);
  free_env(&e);
}

static void test_indirect(void **state) {
  env e = make_env(NULL, 0);
  ls_device *d = e.device;
  ls_shader_module *m = module(d, double_wgsl);
  ls_compute_pipeline *p = auto_pipeline(d, m, "main");
  ls_buffer *b = buffer(d, 4 * 256, RW | LS_BUFFER_USAGE_STORAGE, "d");
  ls_buffer *args = buffer(d, 32, RW | LS_BUFFER_USAGE_INDIRECT, "args");
  uint32_t a[8] = {0, 70000, 1, 1, 3, 1, 1, 0};
  ls_queue_write_buffer(d, args, 0, a, sizeof a);
  ls_bind_group *g = group_for(d, p, b, LS_WHOLE_SIZE);

  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups_indirect(pass, args, 4); /* 70000: skipped */
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = finish(enc);
  assert_non_null(cb); /* over the limit is not an encoding error when indirect */
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  assert_int_equal(nlogs, 1);
  assert_non_null(strstr(last_log, "70000"));
  assert_non_null(strstr(last_log, "skipped"));
  uint32_t out[256];
  ls_queue_read_buffer(d, b, 0, out, sizeof out);
  assert_int_equal(out[1], 0);

  /* The counts are read when the dispatch runs, not when it is encoded. */
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups_indirect(pass, args, 16);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  cb = finish(enc);
  a[4] = 2;
  ls_queue_write_buffer(d, args, 0, a, sizeof a);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  ls_queue_read_buffer(d, b, 0, out, sizeof out);
  assert_int_equal(out[127], 254);
  assert_int_equal(out[128], 0);

  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_buffer_release(args);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
  free_env(&e);
}

static void test_runaway_loses_device(void **state) {
  ls_adapter_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.threads = 1;
  o.instruction_budget = 100000;
  ls_adapter *a = ls_adapter_create(&o, NULL, 0);
  ls_status st;
  ls_device *d = ls_adapter_create_device(a, NULL, &st, NULL, 0);
  assert_non_null(d);
  ls_device_set_error_callback(d, on_error, NULL);
  ls_shader_module *m = module(d,
                               "@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n"
                               "@compute @workgroup_size(1) fn spin() {\n"
                               "  loop {\n"
                               "    if (v[0] == 12345u) { break; }\n"
                               "    v[1] = v[1] + 1u;\n"
                               "  }\n"
                               "}\n");
  ls_compute_pipeline *p = auto_pipeline(d, m, "spin");
  ls_buffer *b = buffer(d, 16, RW | LS_BUFFER_USAGE_STORAGE, "v");
  ls_bind_group *g = group_for(d, p, b, LS_WHOLE_SIZE);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 2, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = finish(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_DEVICE_LOST);
  ls_command_buffer_release(cb);
  assert_true(ls_device_is_lost(d));
  const char *why = ls_device_get_lost_message(d);
  assert_non_null(why);
  assert_non_null(strstr(why, "spin"));
  assert_non_null(strstr(why, "test.wgsl:"));
  assert_non_null(strstr(why, "workgroup"));
  /* A lost device fails cleanly and reports nothing more. */
  nerrors = 0;
  assert_null(buffer(d, 16, RW, "after"));
  assert_int_equal(nerrors, 0);
  assert_null(ls_device_create_command_encoder(d, NULL));
  assert_int_equal(ls_queue_submit(d, NULL, 0), LS_DEVICE_LOST);
  uint32_t x = 0;
  assert_int_equal(ls_queue_write_buffer(d, b, 0, &x, 4), LS_DEVICE_LOST);
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
  ls_device_release(d);
  ls_adapter_release(a);
}


/* enable subgroups / subgroup_size_control need the device features
 * "subgroups" / "subgroup-size-control" (WebGPU: createShaderModule is a
 * validation error without them); @subgroup_size(N) creates a pipeline
 * only when N is the adapter's width (subgroupMinSize = MaxSize = W). */
static const char *sg_wgsl =
    "enable subgroups;\n"
    "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32,\n"
    "    @builtin(subgroup_size) n: u32) {\n"
    "  d[i] = subgroupAdd(1u) + n * 1000u;\n"
    "}\n";

static const char *sg_size_wgsl =
    "enable subgroup_size_control;\n"
    "override N: u32 = 16u;\n"
    "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
    "@compute @workgroup_size(64) @subgroup_size(N)\n"
    "fn main(@builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) i: u32,\n"
    "        @builtin(subgroup_size) n: u32) { d[li] = i + 100u * n; }\n";

static ls_device *feature_device(ls_adapter *a, const char *feature) {
  const char *f[1] = {feature};
  ls_status st;
  char err[256];
  ls_device *d = request(a, NULL, 0, f, feature ? 1 : 0, &st, err, sizeof err);
  assert_non_null(d);
  ls_device_set_error_callback(d, on_error, NULL);
  reset_errors();
  return d;
}

static void test_subgroup_features(void **state) {
  ls_adapter_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.subgroup_size = 16;
  o.threads = 1;
  char err[256];
  ls_adapter *a = ls_adapter_create(&o, err, sizeof err);
  assert_non_null(a);
  ls_shader_module_desc sd = {.code = sg_wgsl, .label = "sg.wgsl"}, sz = {.code = sg_size_wgsl, .label = "sz.wgsl"};

  assert_true(ls_adapter_has_feature(a, "subgroups"));
  assert_true(ls_adapter_has_feature(a, "subgroup-size-control"));
  assert_true(ls_adapter_has_feature(a, "shader-f16"));
  ls_device *plain = feature_device(a, NULL);
  assert_false(ls_device_has_feature(plain, "subgroups"));
  ls_shader_module *m = ls_device_create_shader_module(plain, &sd);
  assert_non_null(m);
  assert_false(ls_shader_module_is_valid(m));
  assert_int_equal(nerrors, 1);
  assert_non_null(strstr(last_error, "needs the device feature \"subgroups\""));
  ls_shader_module_release(m);
  ls_device_release(plain);

  ls_device *sg = feature_device(a, "subgroups");
  assert_true(ls_device_has_feature(sg, "subgroups"));
  assert_false(ls_device_has_feature(sg, "subgroup-size-control"));
  m = module(sg, sd.code);
  assert_true(ls_shader_module_is_valid(m));
  ls_compute_pipeline *p = auto_pipeline(sg, m, "main");
  ls_buffer *b = buffer(sg, 4 * 64, RW | LS_BUFFER_USAGE_STORAGE, "d");
  ls_bind_group *g = group_for(sg, p, b, LS_WHOLE_SIZE);
  ls_command_encoder *enc = ls_device_create_command_encoder(sg, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = finish(enc);
  assert_int_equal(ls_queue_submit(sg, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint32_t out[64];
  assert_int_equal(ls_queue_read_buffer(sg, b, 0, out, sizeof out), LS_OK);
  /* 16 lanes a subgroup, all active: 16 + 16 * 1000 */
  for (int i = 0; i < 64; i++) assert_int_equal(out[i], 16016);
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
  /* subgroups alone does not allow subgroup_size_control */
  m = ls_device_create_shader_module(sg, &sz);
  assert_false(ls_shader_module_is_valid(m));
  assert_non_null(strstr(last_error, "\"subgroup-size-control\""));
  ls_shader_module_release(m);
  ls_device_release(sg);

  ls_device *ssc = feature_device(a, "subgroup-size-control");
  assert_true(ls_device_has_feature(ssc, "subgroups"));
  assert_true(ls_device_has_feature(ssc, "subgroup-size-control"));
  m = module(ssc, sz.code); /* the feature enables subgroups too */
  assert_true(ls_shader_module_is_valid(m));
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  p = ls_device_create_compute_pipeline(ssc, &pd); /* N = 16 = W */
  assert_non_null(p);
  b = buffer(ssc, 4 * 64, RW | LS_BUFFER_USAGE_STORAGE, "d");
  g = group_for(ssc, p, b, LS_WHOLE_SIZE);
  enc = ls_device_create_command_encoder(ssc, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  cb = finish(enc);
  assert_int_equal(ls_queue_submit(ssc, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  assert_int_equal(ls_queue_read_buffer(ssc, b, 0, out, sizeof out), LS_OK);
  /* subgroup_size is the attribute's 16; invocation i is lane i % 16 */
  for (uint32_t i = 0; i < 64; i++) assert_int_equal(out[i], i % 16 + 1600);
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_compute_pipeline_release(p);
  ls_constant_entry c32 = {"N", 32};
  pd.constants = &c32;
  pd.constant_count = 1;
  reset_errors();
  assert_null(ls_device_create_compute_pipeline(ssc, &pd));
  assert_int_equal(last_type, LS_ERROR_VALIDATION);
  assert_non_null(strstr(last_error, "test.wgsl:4:45"));
  assert_non_null(strstr(last_error, "@subgroup_size(32) is outside the adapter's subgroup sizes"));
  /* workgroup size x must be a multiple of the subgroup size */
  ls_constant_entry c128 = {"N", 128};
  pd.constants = &c128;
  assert_null(ls_device_create_compute_pipeline(ssc, &pd));
  assert_non_null(strstr(last_error, "workgroup size x = 64 is not a multiple of @subgroup_size(128)"));
  ls_shader_module_release(m);
  ls_device_release(ssc);
  ls_adapter_release(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_limits),
      cmocka_unit_test(test_profiles),
      cmocka_unit_test(test_language_features),
      cmocka_unit_test(test_request_device),
      cmocka_unit_test(test_error_scopes),
      cmocka_unit_test(test_buffer_usage),
      cmocka_unit_test(test_write_read),
      cmocka_unit_test(test_bind_groups),
      cmocka_unit_test(test_copy),
      cmocka_unit_test(test_lifetimes),
      cmocka_unit_test(test_shader_messages),
      cmocka_unit_test(test_shader_code_size),
      cmocka_unit_test(test_dispatch_runs),
      cmocka_unit_test(test_dispatch_validation),
      cmocka_unit_test(test_pipeline_layout_null_slot),
      cmocka_unit_test(test_indirect),
      cmocka_unit_test(test_runaway_loses_device),
      cmocka_unit_test(test_subgroup_features),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
