/*
 * test_immediate.c — immediate data (the immediate_address_space language
 * feature): `var<immediate>` read by a compute shader from the bytes
 * setImmediates put in the pass, pipeline layouts with immediateSize
 * (layout "auto" sizes it from the variable), and WebGPU's rules: a
 * dispatch needs every slot of the variable's AccessibleSlots set (not its
 * padding), setImmediates takes 4-byte aligned ranges within
 * maxImmediateSize, the layout's immediateSize holds the variable.
 */
#include "unit_api.h"

static const char *kernel =
    "requires immediate_address_space;\n"
    "struct P { a: u32, b: vec2f }\n" /* a at 0, padding 4..7, b at 8..15 */
    "var<immediate> p: P;\n"
    "@group(0) @binding(0) var<storage, read_write> o: array<f32, 4>;\n"
    "fn twice(x: f32) -> f32 { return 2.0 * x; }\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  o[0] = f32(p.a);\n"
    "  o[1] = p.b.x;\n"
    "  o[2] = twice(p.b.y);\n"
    "}\n";

static ls_compute_pipeline *pipeline(ls_device *d, ls_pipeline_layout *pl) {
  return tu_pipeline(d, kernel, "imm.wgsl", pl);
}

typedef struct imm {
  uint32_t a, pad;
  float b[2];
} imm;

/* One dispatch with the immediate ranges given (offset, bytes) from v;
 * returns the submit's status (LS_VALIDATION when the encoder failed). */
static ls_status run(ls_device *d, ls_compute_pipeline *p, ls_bind_group *g, const imm *v,
                     const uint32_t (*ranges)[2], int n) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  for (int i = 0; i < n; i++)
    ls_compute_pass_set_immediates(pass, ranges[i][0], (const uint8_t *)v + ranges[i][0],
                                   ranges[i][1]);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  const ls_status submitted = cb ? ls_queue_submit(d, &cb, 1) : LS_VALIDATION;
  ls_command_buffer_release(cb);
  return submitted;
}

static void test_read(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, NULL);
  assert_non_null(p);
  expect_no_error();
  ls_buffer_desc bd = {.size = 16, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC, .label = "o"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group_entry be;
  memset(&be, 0, sizeof be);
  be.buffer = b;
  be.size = LS_WHOLE_SIZE;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  const imm v = {7, 0xdeadbeef, {1.5f, -4.0f}};
  /* the whole struct at once */
  const uint32_t all[1][2] = {{0, 16}};
  assert_int_equal(run(d, p, g, &v, all, 1), LS_OK);
  float out[4];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, 16), LS_OK);
  assert_true(out[0] == 7.0f && out[1] == 1.5f && out[2] == -8.0f);
  /* a and b alone: the padding slot (bytes 4..7) need not be set */
  const imm w = {9, 0, {0.25f, 3.0f}};
  const uint32_t parts[2][2] = {{8, 8}, {0, 4}};
  assert_int_equal(run(d, p, g, &w, parts, 2), LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, 16), LS_OK);
  assert_true(out[0] == 9.0f && out[1] == 0.25f && out[2] == 6.0f);
  expect_no_error();
  /* b.y (bytes 12..15) never set */
  const uint32_t most[1][2] = {{0, 12}};
  assert_int_equal(run(d, p, g, &v, most, 1), LS_VALIDATION);
  expect_error("reads immediate data bytes 12 to 15, which no setImmediates has set");
  /* setImmediates' own rules */
  const uint32_t odd[1][2] = {{2, 4}};
  assert_int_equal(run(d, p, g, &v, odd, 1), LS_VALIDATION);
  expect_error("setImmediates(2, 4 bytes): the offset and size must be multiples of 4 and the "
               "range within maxImmediateSize (64)");
  const uint32_t past[1][2] = {{60, 8}};
  imm big[5];
  memset(big, 0, sizeof big);
  assert_int_equal(run(d, p, g, big, past, 1), LS_VALIDATION);
  expect_error("setImmediates(60, 8 bytes)");
  ls_bind_group_release(g);
  ls_bind_group_layout_release(l);
  ls_buffer_release(b);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

static void test_layouts(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_bind_group_layout_entry le;
  memset(&le, 0, sizeof le);
  le.type = LS_BINDING_STORAGE;
  ls_bind_group_layout *g = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  assert_null(ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &g, .bind_group_layout_count = 1, .immediate_size = 6}));
  expect_error("immediateSize 6 is not a multiple of 4 at most maxImmediateSize (64)");
  assert_null(ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &g, .bind_group_layout_count = 1, .immediate_size = 68}));
  expect_error("immediateSize 68");
  ls_pipeline_layout *small = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &g, .bind_group_layout_count = 1, .immediate_size = 8});
  assert_non_null(small);
  assert_null(pipeline(d, small));
  expect_error("var<immediate> 'p' is 16 bytes, more than the layout's immediateSize (8)");
  ls_pipeline_layout *fits = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &g, .bind_group_layout_count = 1, .immediate_size = 16});
  ls_compute_pipeline *p = pipeline(d, fits);
  assert_non_null(p);
  expect_no_error();
  ls_compute_pipeline_release(p);
  /* without immediate data in the layout: the plain createPipelineLayout */
  ls_pipeline_layout *none = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &g, .bind_group_layout_count = 1});
  assert_null(pipeline(d, none));
  expect_error("more than the layout's immediateSize (0)");
  ls_pipeline_layout_release(none);
  ls_pipeline_layout_release(fits);
  ls_pipeline_layout_release(small);
  ls_bind_group_layout_release(g);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read),
      cmocka_unit_test(test_layouts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
