/*
 * unit_api.h — what the unit tests of the public API share: an adapter
 * and a device whose validation errors are recorded (the last message and
 * how many), and the checks that a call raised exactly one error naming
 * what went wrong, or none. Header-only: each test file is its own
 * executable.
 */
#ifndef LOCKSTEP_UNIT_API_H
#define LOCKSTEP_UNIT_API_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lockstep.h"

static char last_error[4096];
static int nerrors;

static inline void tu_on_error(void *user, ls_error_type type, const char *message) {
  (void)user;
  (void)type;
  snprintf(last_error, sizeof last_error, "%s", message);
  nerrors++;
}

typedef struct env {
  ls_adapter *adapter;
  ls_device *device;
} env;

/* A device on `threads` worker threads (0 = one per core) with the
 * features named (a NULL-terminated list, or NULL), its errors recorded. */
static inline env tu_make_env(unsigned threads, const char *const *features) {
  env e;
  ls_adapter_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.threads = threads;
  char err[256];
  e.adapter = ls_adapter_create(&o, err, sizeof err);
  assert_non_null(e.adapter);
  ls_device_desc d;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  size_t n = 0;
  while (features && features[n]) n++;
  d.required_features = features;
  d.required_feature_count = n;
  ls_status st;
  e.device = ls_adapter_create_device(e.adapter, &d, &st, err, sizeof err);
  if (!e.device) fprintf(stderr, "%s\n", err);
  assert_non_null(e.device);
  ls_device_set_error_callback(e.device, tu_on_error, NULL);
  nerrors = 0;
  last_error[0] = 0;
  return e;
}

static inline void tu_free_env(env *e) {
  ls_device_release(e->device);
  ls_adapter_release(e->adapter);
}

/* The call must have raised exactly one error containing want. */
static inline void expect_error(const char *want) {
  if (nerrors != 1 || !strstr(last_error, want))
    fprintf(stderr, "wanted one error with '%s', got %d: %s\n", want, nerrors, last_error);
  assert_int_equal(nerrors, 1);
  assert_non_null(strstr(last_error, want));
  nerrors = 0;
  last_error[0] = 0;
}

/* code compiled as `file` (the test fails unless it is valid WGSL) and its
 * compute pipeline created with layout pl (NULL: "auto"); NULL when
 * pipeline creation refuses it (the error is recorded). */
static inline ls_compute_pipeline *tu_pipeline(ls_device *d, const char *code, const char *file,
                                               ls_pipeline_layout *pl) {
  ls_shader_module_desc sd = {.code = code, .label = file};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  assert_non_null(m);
  if (!ls_shader_module_is_valid(m)) fprintf(stderr, "%s", ls_shader_module_format_messages(m));
  assert_true(ls_shader_module_is_valid(m));
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  pd.layout = pl;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  ls_shader_module_release(m);
  return p;
}

/* One compute pass: pipeline p with bind group g at group 0, x * y
 * workgroups; the submit's status. */
static inline ls_status tu_dispatch(ls_device *d, ls_compute_pipeline *p, ls_bind_group *g,
                                    uint32_t x, uint32_t y) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, x, y, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  const ls_status submitted = cb ? ls_queue_submit(d, &cb, 1) : LS_VALIDATION;
  ls_command_buffer_release(cb);
  return submitted;
}

static inline void expect_no_error(void) {
  if (nerrors) fprintf(stderr, "unexpected error: %s\n", last_error);
  assert_int_equal(nerrors, 0);
}

#endif
