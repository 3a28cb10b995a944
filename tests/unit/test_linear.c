/*
 * test_linear.c — the linear_indexing language feature: the built-in
 * values global_invocation_index and workgroup_index, computed by the
 * formulas of WGSL §Built-in Values for every invocation of a 3D dispatch
 * at each subgroup width, and WebGPU's rule that a dispatch whose index
 * would not fit in a u32 is refused (direct) or skipped (indirect).
 */
#include "unit_api.h"

static const char *kernel =
    "requires linear_indexing;\n"
    "@group(0) @binding(0) var<storage, read_write> o: array<vec4u>;\n"
    "@compute @workgroup_size(4, 2, 3)\n"
    "fn main(@builtin(global_invocation_index) gi: u32, @builtin(workgroup_index) wi: u32,\n"
    "        @builtin(global_invocation_id) g: vec3u, @builtin(workgroup_id) w: vec3u) {\n"
    "  o[gi] = vec4u(wi, g.x, g.y * 100u + g.z, w.x + w.y * 10u + w.z * 100u);\n"
    "}\n";

static ls_compute_pipeline *pipeline(ls_device *d, const char *code) {
  return tu_pipeline(d, code, "linear.wgsl", NULL);
}

/* 3 x 2 x 2 workgroups of 4 x 2 x 3: the grid is 12 x 4 x 6 invocations.
 * Invocation (x, y, z) has index x + 12 y + 48 z and writes (its
 * workgroup's index wx + 3 wy + 6 wz, x, 100 y + z, wx + 10 wy + 100 wz). */
static void test_indices(void **state) {
  (void)state;
  for (unsigned w = 8; w <= 64; w *= 2) {
    ls_adapter_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.subgroup_size = w;
    o.threads = 2;
    char err[256];
    ls_adapter *a = ls_adapter_create(&o, err, sizeof err);
    ls_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.struct_size = sizeof dd;
    ls_status st;
    ls_device *d = ls_adapter_create_device(a, &dd, &st, err, sizeof err);
    ls_device_set_error_callback(d, tu_on_error, NULL);
    nerrors = 0;
    ls_compute_pipeline *p = pipeline(d, kernel);
    assert_non_null(p);
    const size_t n = 12 * 4 * 6;
    ls_buffer_desc bd = {.size = n * 16, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC, .label = "o"};
    ls_buffer *b = ls_device_create_buffer(d, &bd);
    ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
    ls_bind_group_entry be;
    memset(&be, 0, sizeof be);
    be.buffer = b;
    be.size = LS_WHOLE_SIZE;
    ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
    ls_compute_pass_dispatch_workgroups(pass, 3, 2, 2);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    uint32_t *out = malloc(n * 16);
    assert_int_equal(ls_queue_read_buffer(d, b, 0, out, n * 16), LS_OK);
    expect_no_error();
    for (uint32_t z = 0; z < 6; z++)
      for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 12; x++) {
          const uint32_t i = x + 12 * y + 48 * z, wx = x / 4, wy = y / 2, wz = z / 3;
          assert_int_equal(out[4 * i], wx + 3 * wy + 6 * wz);
          assert_int_equal(out[4 * i + 1], x);
          assert_int_equal(out[4 * i + 2], 100 * y + z);
          assert_int_equal(out[4 * i + 3], wx + 10 * wy + 100 * wz);
        }
    free(out);
    ls_bind_group_release(g);
    ls_bind_group_layout_release(l);
    ls_buffer_release(b);
    ls_compute_pipeline_release(p);
    ls_device_release(d);
    ls_adapter_release(a);
  }
}

static const char *wg_index =
    "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(workgroup_index) wi: u32) { o[0] = wi; }\n";
static const char *gi_index =
    "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_index) i: u32) { o[0] = i; }\n";

/* Encodes one dispatch of (x, y, z); returns the finished command buffer
 * (NULL when the encoder was invalidated). */
static ls_command_buffer *encode(ls_device *d, ls_compute_pipeline *p, ls_bind_group *g,
                                 uint32_t x, uint32_t y, uint32_t z) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, x, y, z);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  return cb;
}

/* 65535 x 65535 x 2 workgroups is 8,589,672,450 > 2^32 - 1: refused with
 * workgroup_index; 65535 x 1025 x 1 workgroups of 64 is 4,299,198,400
 * invocations: refused with global_invocation_index; 65535 x 1024 x 1 of
 * 64 is 4,294,901,760, which fits (encoded, not run). Read by an indirect
 * dispatch, the bad counts make it skipped, as WebGPU says. */
static void test_overflow(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_buffer_desc bd = {.size = 16, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST |
                               LS_BUFFER_USAGE_COPY_SRC, .label = "o"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  const char *codes[2] = {wg_index, gi_index};
  const uint32_t bad[2][3] = {{65535, 65535, 2}, {65535, 1025, 1}};
  const char *msg[2] = {"uses @builtin(workgroup_index), whose value on (65535, 65535, 2) "
                        "workgroups would not fit in a u32",
                        "uses @builtin(global_invocation_index), whose value on (65535, 1025, 1) "
                        "workgroups would not fit in a u32"};
  for (int k = 0; k < 2; k++) {
    ls_compute_pipeline *p = pipeline(d, codes[k]);
    assert_non_null(p);
    ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
    ls_bind_group_entry be;
    memset(&be, 0, sizeof be);
    be.buffer = b;
    be.size = LS_WHOLE_SIZE;
    ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
    assert_null(encode(d, p, g, bad[k][0], bad[k][1], bad[k][2]));
    expect_error(msg[k]);
    ls_command_buffer *cb = encode(d, p, g, 65535, 1024, 1);
    assert_non_null(cb);
    expect_no_error();
    ls_command_buffer_release(cb);
    /* the same counts read by an indirect dispatch: skipped, o[0] stays 7 */
    const uint32_t init[4] = {7, 0, 0, 0};
    assert_int_equal(ls_queue_write_buffer(d, b, 0, init, 16), LS_OK);
    ls_buffer_desc ibd = {.size = 12, .usage = LS_BUFFER_USAGE_INDIRECT | LS_BUFFER_USAGE_COPY_DST, .label = "args"};
    ls_buffer *args = ls_device_create_buffer(d, &ibd);
    assert_int_equal(ls_queue_write_buffer(d, args, 0, bad[k], 12), LS_OK);
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
    ls_compute_pass_dispatch_workgroups_indirect(pass, args, 0);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    uint32_t back[4];
    assert_int_equal(ls_queue_read_buffer(d, b, 0, back, 16), LS_OK);
    assert_int_equal(back[0], 7);
    expect_no_error();
    ls_buffer_release(args);
    ls_bind_group_release(g);
    ls_bind_group_layout_release(l);
    ls_compute_pipeline_release(p);
  }
  ls_buffer_release(b);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_indices),
      cmocka_unit_test(test_overflow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
