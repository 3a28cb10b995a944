/*
 * test_handles.c — misuse of handles is a validation error, never a memory
 * error (include/lockstep.h, "Lifetimes"): destroying twice, using a
 * destroyed buffer, texture or query set (refused where WebGPU checks it:
 * writeBuffer, writeTexture and mapAsync at the call, recorded commands at
 * queue.submit), submitting a command buffer again, a finished encoder, an
 * ended pass, a pass whose encoder was finished, a second pass on a locked
 * encoder, handles released in any order, and a device destroyed from its
 * own work-done callback and from an error callback that the misuse
 * raised. Every test checks the error's type and text, then that the
 * device still computes the right result and that a second device saw
 * nothing. Run under ASan, UBSan and TSan too (scripts/test.sh).
 */
#include "unit_queue.h"

/* ------------------------------------------------------------ fixtures */

/* The errors one device raised: how many, and the first. */
typedef struct errs {
  pthread_mutex_t mu;
  int n;
  ls_error_type type;
  char msg[1024];
} errs;

static void on_err(void *user, ls_error_type type, const char *message) {
  errs *e = user;
  pthread_mutex_lock(&e->mu);
  if (e->n++ == 0) {
    e->type = type;
    snprintf(e->msg, sizeof e->msg, "%s", message);
  }
  pthread_mutex_unlock(&e->mu);
}

/* Exactly one error so far, of this type and containing want; then none. */
static void want(errs *e, ls_error_type type, const char *text) {
  pthread_mutex_lock(&e->mu);
  const int n = e->n;
  const ls_error_type t = e->type;
  char msg[sizeof e->msg];
  snprintf(msg, sizeof msg, "%s", e->msg);
  e->n = 0;
  e->msg[0] = 0;
  pthread_mutex_unlock(&e->mu);
  if (n != 1 || t != type || !strstr(msg, text))
    fprintf(stderr, "wanted one error (type %d) with '%s'; got %d, type %d: %s\n", (int)type,
            text, n, (int)t, msg);
  assert_int_equal(n, 1);
  assert_int_equal(t, type);
  assert_non_null(strstr(msg, text));
}

static void none(errs *e) {
  pthread_mutex_lock(&e->mu);
  const int n = e->n;
  pthread_mutex_unlock(&e->mu);
  if (n) fprintf(stderr, "unexpected error: %s\n", e->msg);
  assert_int_equal(n, 0);
}

#define VAL LS_ERROR_VALIDATION

/* a[i] += 1 for i < 4 workgroups of one invocation */
static const char inc_wgsl[] =
    "@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n"
    "@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  a[g.x] = a[g.x] + 1u;\n"
    "}\n";

typedef struct dev {
  ls_adapter *adapter;
  ls_device *d;
  errs e;
  ls_compute_pipeline *inc;
} dev;

static void dev_make(dev *x) {
  memset(x, 0, sizeof *x);
  pthread_mutex_init(&x->e.mu, NULL);
  ls_adapter_options o = {.threads = 2};
  x->adapter = ls_adapter_create(&o, NULL, 0);
  assert_non_null(x->adapter);
  ls_device_desc dd = {.required_features = (const char *[]){"timestamp-query"},
                       .required_feature_count = 1};
  x->d = ls_adapter_create_device(x->adapter, &dd, NULL, NULL, 0);
  assert_non_null(x->d);
  ls_device_set_error_callback(x->d, on_err, &x->e);
  x->inc = tu_pipeline(x->d, inc_wgsl, "inc.wgsl", NULL);
  assert_non_null(x->inc);
}

static void dev_free(dev *x) {
  ls_compute_pipeline_release(x->inc);
  ls_device_release(x->d);
  ls_adapter_release(x->adapter);
  pthread_mutex_destroy(&x->e.mu);
}

static ls_bind_group *group_of(dev *x, ls_buffer *b) {
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(x->inc, 0);
  ls_bind_group_entry be = {.binding = 0, .buffer = b, .size = LS_WHOLE_SIZE};
  ls_bind_group_desc gd = {.layout = l, .entries = &be, .entry_count = 1};
  ls_bind_group *g = ls_device_create_bind_group(x->d, &gd);
  ls_bind_group_layout_release(l);
  return g;
}

/* One pass of `inc` over g (4 workgroups, or the indirect counts in ind),
 * finished as command buffer `label`. */
static ls_command_buffer *inc_cb(dev *x, ls_bind_group *g, ls_buffer *ind, const char *label) {
  ls_command_encoder *enc = ls_device_create_command_encoder(x->d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, x->inc);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  if (ind) ls_compute_pass_dispatch_workgroups_indirect(pass, ind, 0);
  else ls_compute_pass_dispatch_workgroups(pass, 4, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb =
      ls_command_encoder_finish(enc, &(ls_command_buffer_desc){.label = label});
  ls_command_encoder_release(enc);
  return cb;
}

/* The first 4 words of b. */
static void read4(dev *x, ls_buffer *b, uint32_t out[4]) {
  assert_int_equal(ls_queue_read_buffer(x->d, b, 0, out, 16), LS_OK);
}

static ls_buffer *probe(dev *x, const char *label) {
  ls_buffer *b = mkbuf(x->d, 16, SRW, label);
  const uint32_t v[4] = {1, 2, 3, 4};
  assert_int_equal(ls_queue_write_buffer(x->d, b, 0, v, sizeof v), LS_OK);
  return b;
}

/* The device still does its work: a dispatch on a new buffer gives
 * 2, 3, 4, 5 from 1, 2, 3, 4, and raises nothing. */
static void works(dev *x) {
  ls_buffer *b = probe(x, "works");
  ls_bind_group *g = group_of(x, b);
  ls_command_buffer *cb = inc_cb(x, g, NULL, "works");
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(x->d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint32_t got[4];
  read4(x, b, got);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 2);
  none(&x->e);
  ls_bind_group_release(g);
  ls_buffer_release(b);
}

static void submit_refused(dev *x, ls_command_buffer *cb, const char *text) {
  assert_non_null(cb);
  none(&x->e); /* recording it was fine */
  assert_int_equal(ls_queue_submit(x->d, &cb, 1), LS_VALIDATION);
  want(&x->e, VAL, text);
  ls_command_buffer_release(cb);
}

static int lost_count;
static void count_lost(void *user, ls_lost_reason reason, const char *message) {
  lost_count += reason == LS_LOST_DESTROYED;
}

/* ---------------------------------------------------------------- destroy */

/* destroy() twice does nothing the second time, for every object that has
 * one; a device destroyed twice is lost once, and ignores what follows. */
static void test_destroy_twice(void **state) {
  (void)state;
  dev a, b;
  dev_make(&a);
  dev_make(&b);
  ls_buffer *buf = mkbuf(a.d, 16, RW, "buf");
  ls_buffer_destroy(buf);
  ls_buffer_destroy(buf);
  ls_buffer_release(buf);
  ls_texture_desc td = {.size = {4, 4, 1}, .format = LS_FORMAT_RGBA8UNORM,
                        .usage = LS_TEXTURE_USAGE_COPY_DST, .label = "tex"};
  ls_texture *t = ls_device_create_texture(a.d, &td);
  assert_non_null(t);
  ls_texture_destroy(t);
  ls_texture_destroy(t);
  ls_texture_release(t);
  ls_query_set_desc qd = {.type = LS_QUERY_OCCLUSION, .count = 2, .label = "qs"};
  ls_query_set *q = ls_device_create_query_set(a.d, &qd);
  assert_non_null(q);
  ls_query_set_destroy(q);
  ls_query_set_destroy(q);
  ls_query_set_release(q);
  none(&a.e);
  works(&a);

  lost_count = 0;
  ls_device_set_lost_callback(b.d, count_lost, NULL);
  ls_buffer *left = mkbuf(b.d, 16, RW, "left");
  ls_device_destroy(b.d);
  ls_device_destroy(b.d);
  assert_int_equal(lost_count, 1);
  assert_true(ls_device_is_lost(b.d));
  /* a destroyed device's calls do nothing and raise nothing */
  assert_null(ls_device_create_buffer(b.d, &(ls_buffer_desc){.size = 4, .usage = 0}));
  uint32_t v = 7;
  assert_int_equal(ls_queue_write_buffer(b.d, left, 0, &v, 4), LS_DEVICE_LOST);
  ls_buffer_destroy(left);
  ls_buffer_release(left);
  none(&b.e);
  works(&a); /* the other device is untouched */
  dev_free(&a);
  dev_free(&b);
}

/* A destroyed buffer: the queue's own operations refuse it at the call;
 * bind groups and commands that use it are recorded, and queue.submit
 * refuses them (spec/index.bs, GPUQueue.submit: every buffer used must be
 * "available"). */
static void test_destroyed_buffer(void **state) {
  (void)state;
  dev a, b;
  dev_make(&a);
  dev_make(&b);
  ls_buffer *gone = mkbuf(a.d, 16, SRW, "gone");
  ls_buffer_destroy(gone);
  uint32_t v[4] = {0};
  assert_int_equal(ls_queue_write_buffer(a.d, gone, 0, v, 16), LS_VALIDATION);
  want(&a.e, VAL, "writeBuffer: buffer 'gone' is destroyed");
  assert_int_equal(ls_queue_read_buffer(a.d, gone, 0, v, 16), LS_VALIDATION);
  want(&a.e, VAL, "readBuffer: buffer 'gone' is destroyed");
  ls_buffer *gm = mkbuf(a.d, 16, MAPR, "gone-map");
  ls_buffer_destroy(gm);
  waiter w;
  waiter_init(&w);
  ls_buffer_map_async(gm, LS_MAP_READ, 0, 16, on_map, &w);
  assert_int_equal(waiter_calls(&w), 1); /* refused on this thread, at once */
  assert_int_equal(w.status, LS_VALIDATION);
  assert_non_null(strstr(w.message, "destroyed"));
  want(&a.e, VAL, "mapAsync: buffer 'gone-map' is destroyed");
  waiter_fini(&w);

  /* a bind group made after the destroy, and one made before it */
  ls_bind_group *g = group_of(&a, gone);
  assert_non_null(g);
  submit_refused(&a, inc_cb(&a, g, NULL, "after"),
                 "submit: command buffer 0 ('after') uses buffer 'gone', which is destroyed");
  ls_buffer *later = probe(&a, "later");
  ls_bind_group *g2 = group_of(&a, later);
  ls_command_buffer *before = inc_cb(&a, g2, NULL, "before");
  ls_buffer_destroy(later);
  submit_refused(&a, before, "uses buffer 'later', which is destroyed");

  /* a bind group that is only set, never dispatched with, is used all the
   * same (WebGPU's [[used_bind_groups]]) */
  ls_command_encoder *setter = ls_device_create_command_encoder(a.d, NULL);
  ls_compute_pass *only = ls_command_encoder_begin_compute_pass(setter, NULL);
  ls_compute_pass_set_bind_group(only, 0, g, NULL, 0);
  ls_compute_pass_set_bind_group(only, 0, NULL, NULL, 0);
  ls_compute_pass_end(only);
  ls_compute_pass_release(only);
  ls_command_buffer *set_only =
      ls_command_encoder_finish(setter, &(ls_command_buffer_desc){.label = "set-only"});
  ls_command_encoder_release(setter);
  submit_refused(&a, set_only, "('set-only') uses buffer 'gone', which is destroyed");

  /* copies, clears and indirect arguments */
  ls_buffer *live = probe(&a, "live");
  ls_command_encoder *enc = ls_device_create_command_encoder(a.d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, gone, 0, live, 0, 16);
  ls_command_buffer *cb =
      ls_command_encoder_finish(enc, &(ls_command_buffer_desc){.label = "copy"});
  ls_command_encoder_release(enc);
  submit_refused(&a, cb, "command buffer 0 ('copy') uses buffer 'gone', which is destroyed");
  enc = ls_device_create_command_encoder(a.d, NULL);
  ls_command_encoder_clear_buffer(enc, gone, 0, LS_WHOLE_SIZE);
  cb = ls_command_encoder_finish(enc, &(ls_command_buffer_desc){.label = "clear"});
  ls_command_encoder_release(enc);
  submit_refused(&a, cb, "('clear') uses buffer 'gone', which is destroyed");
  ls_buffer *args = mkbuf(a.d, 12, LS_BUFFER_USAGE_INDIRECT | LS_BUFFER_USAGE_COPY_DST, "args");
  const uint32_t n[3] = {4, 1, 1};
  assert_int_equal(ls_queue_write_buffer(a.d, args, 0, n, sizeof n), LS_OK);
  ls_bind_group *g3 = group_of(&a, live);
  cb = inc_cb(&a, g3, args, "indirect");
  ls_buffer_destroy(args);
  submit_refused(&a, cb, "('indirect') uses buffer 'args', which is destroyed");
  uint32_t got[4];
  read4(&a, live, got); /* nothing of the refused submits ran */
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 1);

  ls_bind_group_release(g);
  ls_bind_group_release(g2);
  ls_bind_group_release(g3);
  ls_buffer_release(gone);
  ls_buffer_release(gm);
  ls_buffer_release(later);
  ls_buffer_release(live);
  ls_buffer_release(args);
  works(&a);
  none(&b.e);
  works(&b);
  dev_free(&a);
  dev_free(&b);
}

/* A destroyed texture and query set, the same way: writeTexture refuses at
 * once; a view of the texture can still be made (CTS createView:
 * texture_state) and a copy or resolve recorded; submit refuses those. */
static void test_destroyed_texture_and_query_set(void **state) {
  (void)state;
  dev a, b;
  dev_make(&a);
  dev_make(&b);
  ls_texture_desc td = {.size = {4, 4, 1}, .format = LS_FORMAT_RGBA8UNORM,
                        .usage = LS_TEXTURE_USAGE_COPY_DST | LS_TEXTURE_USAGE_COPY_SRC |
                                 LS_TEXTURE_USAGE_TEXTURE_BINDING,
                        .label = "tex"};
  ls_texture *t = ls_device_create_texture(a.d, &td);
  assert_non_null(t);
  ls_texture_destroy(t);
  ls_texel_copy_texture_info ti = {.texture = t};
  ls_texel_copy_buffer_layout lay = {.bytes_per_row = 256, .rows_per_image = 4};
  const ls_extent3d ex = {4, 4, 1};
  static uint8_t texels[1024];
  assert_int_equal(ls_queue_write_texture(a.d, &ti, texels, sizeof texels, &lay, &ex),
                   LS_VALIDATION);
  want(&a.e, VAL, "writeTexture: texture 'tex' is destroyed");
  ls_texture_view *view = ls_texture_create_view(t, NULL);
  assert_non_null(view);
  none(&a.e);
  /* bound, set, never dispatched with: submit refuses it */
  ls_bind_group_layout_entry le = {.binding = 0, .type = LS_BINDING_SAMPLED_TEXTURE,
                                   .sample_type = LS_SAMPLE_FLOAT};
  ls_bind_group_layout *bgl = ls_device_create_bind_group_layout(
      a.d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_bind_group_entry be = {.binding = 0, .texture_view = view};
  ls_bind_group *tg = ls_device_create_bind_group(
      a.d, &(ls_bind_group_desc){.layout = bgl, .entries = &be, .entry_count = 1});
  assert_non_null(tg);
  ls_command_encoder *setter = ls_device_create_command_encoder(a.d, NULL);
  ls_compute_pass *only = ls_command_encoder_begin_compute_pass(setter, NULL);
  ls_compute_pass_set_bind_group(only, 0, tg, NULL, 0);
  ls_compute_pass_end(only);
  ls_compute_pass_release(only);
  ls_command_buffer *set_only = ls_command_encoder_finish(setter, NULL);
  ls_command_encoder_release(setter);
  submit_refused(&a, set_only, "uses texture 'tex', which is destroyed");
  ls_bind_group_release(tg);
  ls_bind_group_layout_release(bgl);
  ls_buffer *stage = mkbuf(a.d, 1024, RW, "stage");
  for (int to_texture = 0; to_texture < 2; to_texture++) {
    ls_command_encoder *enc = ls_device_create_command_encoder(a.d, NULL);
    if (to_texture) ls_command_encoder_copy_buffer_to_texture(enc, stage, &lay, &ti, &ex);
    else ls_command_encoder_copy_texture_to_buffer(enc, &ti, stage, &lay, &ex);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    submit_refused(&a, cb, "uses texture 'tex', which is destroyed");
  }
  ls_query_set_desc qd = {.type = LS_QUERY_TIMESTAMP, .count = 2, .label = "qs"};
  ls_query_set *q = ls_device_create_query_set(a.d, &qd);
  assert_non_null(q);
  ls_query_set_destroy(q);
  ls_buffer *res = mkbuf(a.d, 256, LS_BUFFER_USAGE_QUERY_RESOLVE | RW, "resolved");
  ls_command_encoder *enc = ls_device_create_command_encoder(a.d, NULL);
  ls_command_encoder_resolve_query_set(enc, q, 0, 2, res, 0);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  submit_refused(&a, cb, "uses query set 'qs', which is destroyed");
  /* a pass that writes timestamps into it */
  enc = ls_device_create_command_encoder(a.d, NULL);
  ls_compute_pass_desc pd = {.timestamp_query_set = q, .beginning_of_pass_write_index = 0,
                             .end_of_pass_write_index = 1};
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, &pd);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  submit_refused(&a, cb, "uses query set 'qs', which is destroyed");
  ls_texture_view_release(view);
  ls_texture_release(t);
  ls_query_set_release(q);
  ls_buffer_release(stage);
  ls_buffer_release(res);
  works(&a);
  none(&b.e);
  works(&b);
  dev_free(&a);
  dev_free(&b);
}

/* ---------------------------------------------------------------- submit */

/* A command buffer runs once: submitting it again is a validation error
 * that refuses the whole submit, and a refused submit spends every command
 * buffer in it (spec/index.bs GPUQueue.submit: "invalidate each
 * GPUCommandBuffer"). The handle is released separately, at any time. */
static void test_submit_twice(void **state) {
  (void)state;
  dev a, b;
  dev_make(&a);
  dev_make(&b);
  ls_buffer *p = probe(&a, "p");
  ls_bind_group *g = group_of(&a, p);
  ls_command_buffer *once = inc_cb(&a, g, NULL, "once");
  assert_int_equal(ls_queue_submit(a.d, &once, 1), LS_OK);
  assert_int_equal(ls_queue_submit(a.d, &once, 1), LS_VALIDATION);
  want(&a.e, VAL, "submit: command buffer 0 ('once') was already submitted");
  assert_int_equal(ls_queue_submit_async(a.d, &once, 1), LS_VALIDATION);
  want(&a.e, VAL, "('once') was already submitted");
  uint32_t got[4];
  read4(&a, p, got);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 2); /* it ran once */

  /* a fresh one beside the spent one: nothing runs, and the fresh one is
   * spent too */
  ls_command_buffer *both[2] = {inc_cb(&a, g, NULL, "fresh"), once};
  assert_non_null(both[0]);
  assert_int_equal(ls_queue_submit(a.d, both, 2), LS_VALIDATION);
  want(&a.e, VAL, "command buffer 1 ('once') was already submitted");
  assert_int_equal(ls_queue_submit(a.d, both, 1), LS_VALIDATION);
  want(&a.e, VAL, "command buffer 0 ('fresh') was already submitted");
  ls_command_buffer *dup = inc_cb(&a, g, NULL, "dup");
  ls_command_buffer *twice[2] = {dup, dup};
  assert_int_equal(ls_queue_submit(a.d, twice, 2), LS_VALIDATION);
  want(&a.e, VAL, "command buffer 1 ('dup') is submitted twice");
  read4(&a, p, got);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 2); /* none of them ran */

  /* released as soon as it is queued: the queue holds what it runs */
  ls_command_buffer *early = inc_cb(&a, g, NULL, "early");
  assert_int_equal(ls_queue_submit_async(a.d, &early, 1), LS_OK);
  ls_command_buffer_release(early);
  ls_queue_wait_idle(a.d);
  read4(&a, p, got);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 3);
  /* one never submitted frees its commands (and their references) itself */
  ls_command_buffer_release(inc_cb(&a, g, NULL, "unused"));

  ls_command_buffer_release(once);
  ls_command_buffer_release(both[0]);
  ls_command_buffer_release(dup);
  ls_bind_group_release(g);
  ls_buffer_release(p);
  works(&a);
  none(&b.e);
  works(&b);
  dev_free(&a);
  dev_free(&b);
}

/* --------------------------------------------------------------- encoders */

/* finish() ends the encoder: a second finish and every later command on
 * it are validation errors at once (WebGPU's "validate the encoder state":
 * "ended" generates a validation error), and the command buffer it made is
 * unaffected. */
static void test_finished_encoder(void **state) {
  (void)state;
  dev a, b;
  dev_make(&a);
  dev_make(&b);
  ls_buffer *p = probe(&a, "p");
  ls_buffer *q = mkbuf(a.d, 256, SRW | LS_BUFFER_USAGE_QUERY_RESOLVE, "q");
  ls_bind_group *g = group_of(&a, p);
  ls_command_encoder *enc =
      ls_device_create_command_encoder(a.d, &(ls_command_encoder_desc){.label = "enc"});
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, a.inc);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 4, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  assert_non_null(cb);
  assert_null(ls_command_encoder_finish(enc, NULL));
  want(&a.e, VAL, "finish() of command encoder 'enc': the encoder is already finished");

  ls_texture *t = ls_device_create_texture(
      a.d, &(ls_texture_desc){.size = {4, 4, 1}, .format = LS_FORMAT_RGBA8UNORM,
                              .usage = LS_TEXTURE_USAGE_COPY_DST | LS_TEXTURE_USAGE_COPY_SRC});
  ls_query_set *qs = ls_device_create_query_set(
      a.d, &(ls_query_set_desc){.type = LS_QUERY_OCCLUSION, .count = 1});
  ls_texel_copy_texture_info ti = {.texture = t};
  ls_texel_copy_buffer_layout lay = {.bytes_per_row = 256, .rows_per_image = 1};
  const ls_extent3d ex = {1, 1, 1};
  static const char *const ops[] = {
      "copyBufferToBuffer", "clearBuffer",    "resolveQuerySet",   "copyBufferToTexture",
      "copyTextureToBuffer", "pushDebugGroup", "popDebugGroup",     "insertDebugMarker",
      "beginComputePass"};
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    switch (k) {
    case 0: ls_command_encoder_copy_buffer_to_buffer(enc, p, 0, q, 0, 16); break;
    case 1: ls_command_encoder_clear_buffer(enc, p, 0, 16); break;
    case 2: ls_command_encoder_resolve_query_set(enc, qs, 0, 1, q, 0); break;
    case 3: ls_command_encoder_copy_buffer_to_texture(enc, q, &lay, &ti, &ex); break;
    case 4: ls_command_encoder_copy_texture_to_buffer(enc, &ti, q, &lay, &ex); break;
    case 5: ls_command_encoder_push_debug_group(enc, "g"); break;
    case 6: ls_command_encoder_pop_debug_group(enc); break;
    case 7: ls_command_encoder_insert_debug_marker(enc, "m"); break;
    case 8: assert_null(ls_command_encoder_begin_compute_pass(enc, NULL)); break;
    }
    char text[160];
    snprintf(text, sizeof text, "%s on command encoder 'enc': the encoder is finished", ops[k]);
    want(&a.e, VAL, text);
  }
  ls_command_encoder_release(enc);
  assert_int_equal(ls_queue_submit(a.d, &cb, 1), LS_OK); /* what finish() made still runs */
  ls_command_buffer_release(cb);
  uint32_t got[4];
  read4(&a, p, got);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 2);

  /* a finish that fails ends the encoder all the same */
  enc = ls_device_create_command_encoder(a.d, &(ls_command_encoder_desc){.label = "bad"});
  ls_command_encoder_pop_debug_group(enc);
  none(&a.e); /* recorded, raised by finish() */
  assert_null(ls_command_encoder_finish(enc, NULL));
  want(&a.e, VAL, "finish() of command encoder 'bad': popDebugGroup: no debug group is pushed");
  assert_null(ls_command_encoder_finish(enc, NULL));
  want(&a.e, VAL, "command encoder 'bad': the encoder is already finished");
  ls_command_encoder_release(enc);

  ls_texture_release(t);
  ls_query_set_release(qs);
  ls_bind_group_release(g);
  ls_buffer_release(p);
  ls_buffer_release(q);
  works(&a);
  none(&b.e);
  works(&b);
  dev_free(&a);
  dev_free(&b);
}

/* ------------------------------------------------------------------ passes */

/* end() ends the pass: a second end and every later command on it are
 * validation errors at once, which leave the encoder valid (what was
 * recorded before end runs, what came after is not recorded), and the
 * encoder takes a new pass. */
static void test_ended_pass(void **state) {
  (void)state;
  dev a, b;
  dev_make(&a);
  dev_make(&b);
  ls_buffer *p = probe(&a, "p");
  ls_buffer *args = mkbuf(a.d, 12, LS_BUFFER_USAGE_INDIRECT | LS_BUFFER_USAGE_COPY_DST, "args");
  ls_bind_group *g = group_of(&a, p);
  ls_command_encoder *enc = ls_device_create_command_encoder(a.d, NULL);
  ls_compute_pass *pass =
      ls_command_encoder_begin_compute_pass(enc, &(ls_compute_pass_desc){.label = "pass"});
  ls_compute_pass_set_pipeline(pass, a.inc);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 4, 1, 1);
  ls_compute_pass_end(pass);
  none(&a.e);
  static const char *const ops[] = {"setPipeline",      "setBindGroup",  "setImmediates",
                                    "dispatchWorkgroups", "dispatchWorkgroupsIndirect",
                                    "pushDebugGroup",   "popDebugGroup", "insertDebugMarker"};
  const uint32_t imm = 0;
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    switch (k) {
    case 0: ls_compute_pass_set_pipeline(pass, a.inc); break;
    case 1: ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0); break;
    case 2: ls_compute_pass_set_immediates(pass, 0, &imm, 4); break;
    case 3: ls_compute_pass_dispatch_workgroups(pass, 4, 1, 1); break;
    case 4: ls_compute_pass_dispatch_workgroups_indirect(pass, args, 0); break;
    case 5: ls_compute_pass_push_debug_group(pass, "g"); break;
    case 6: ls_compute_pass_pop_debug_group(pass); break;
    case 7: ls_compute_pass_insert_debug_marker(pass, "m"); break;
    }
    char text[160];
    snprintf(text, sizeof text, "%s on compute pass 'pass': the pass has ended", ops[k]);
    want(&a.e, VAL, text);
  }
  ls_compute_pass_end(pass);
  want(&a.e, VAL, "end() of compute pass 'pass': the pass has already ended");
  ls_compute_pass_release(pass);
  /* the encoder is open again: a second pass on it is fine */
  ls_compute_pass *next = ls_command_encoder_begin_compute_pass(enc, NULL);
  assert_non_null(next);
  ls_compute_pass_end(next);
  ls_compute_pass_release(next);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  none(&a.e);
  assert_int_equal(ls_queue_submit(a.d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint32_t got[4];
  read4(&a, p, got);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 2); /* one dispatch, not two */
  ls_bind_group_release(g);
  ls_buffer_release(p);
  ls_buffer_release(args);
  works(&a);
  none(&b.e);
  works(&b);
  dev_free(&a);
  dev_free(&b);
}

/* The encoder's "locked" state: a second pass while one is open makes the
 * encoder invalid (finish reports it); finish() with a pass open fails,
 * and that pass's end() then is a validation error (its encoder is no
 * longer locked, spec/index.bs GPUComputePassEncoder.end). Encoder and
 * pass may be released in either order, ended or not. */
static void test_locked_encoder(void **state) {
  (void)state;
  dev a, b;
  dev_make(&a);
  dev_make(&b);
  ls_buffer *p = probe(&a, "p");
  ls_bind_group *g = group_of(&a, p);
  ls_command_encoder *enc =
      ls_device_create_command_encoder(a.d, &(ls_command_encoder_desc){.label = "locked"});
  ls_compute_pass *first = ls_command_encoder_begin_compute_pass(enc, NULL);
  assert_non_null(first);
  assert_null(ls_command_encoder_begin_compute_pass(enc, NULL));
  none(&a.e); /* the encoder is invalid now; finish() says so */
  ls_compute_pass_end(first);
  ls_compute_pass_release(first);
  assert_null(ls_command_encoder_finish(enc, NULL));
  want(&a.e, VAL, "finish() of command encoder 'locked': beginComputePass: a compute pass is "
                  "already open on the encoder");
  ls_command_encoder_release(enc);

  enc = ls_device_create_command_encoder(a.d, &(ls_command_encoder_desc){.label = "early"});
  ls_compute_pass *open =
      ls_command_encoder_begin_compute_pass(enc, &(ls_compute_pass_desc){.label = "open"});
  assert_null(ls_command_encoder_finish(enc, NULL));
  want(&a.e, VAL, "finish() of command encoder 'early': a compute pass is still open");
  ls_compute_pass_set_pipeline(open, a.inc); /* the pass itself is still open: no error */
  ls_compute_pass_set_bind_group(open, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(open, 4, 1, 1);
  none(&a.e);
  ls_compute_pass_end(open);
  want(&a.e, VAL, "end() of compute pass 'open': its command encoder 'early' was finished "
                  "while the pass was open");
  ls_command_encoder_release(enc); /* the encoder first: the pass keeps it */
  ls_compute_pass_end(open);
  want(&a.e, VAL, "end() of compute pass 'open'");
  ls_compute_pass_release(open);

  /* the encoder released while its pass records: the pass goes on */
  enc = ls_device_create_command_encoder(a.d, NULL);
  ls_compute_pass *orphan = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_command_encoder_release(enc);
  ls_compute_pass_set_pipeline(orphan, a.inc);
  ls_compute_pass_set_bind_group(orphan, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(orphan, 4, 1, 1);
  ls_compute_pass_end(orphan);
  ls_compute_pass_release(orphan);
  /* a pass released while open leaves its encoder locked */
  enc = ls_device_create_command_encoder(a.d, &(ls_command_encoder_desc){.label = "abandoned"});
  ls_compute_pass_release(ls_command_encoder_begin_compute_pass(enc, NULL));
  ls_command_encoder_clear_buffer(enc, p, 0, 16);
  assert_null(ls_command_encoder_finish(enc, NULL));
  want(&a.e, VAL, "finish() of command encoder 'abandoned': a compute pass is still open");
  ls_command_encoder_release(enc);
  none(&a.e);
  uint32_t got[4];
  read4(&a, p, got); /* nothing ran */
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(got[i], i + 1);
  ls_bind_group_release(g);
  ls_buffer_release(p);
  works(&a);
  none(&b.e);
  works(&b);
  dev_free(&a);
  dev_free(&b);
}

/* ----------------------------------------------- destroy inside callbacks */

/* ls_device_destroy and the device's last release from inside its own
 * work-done callback (on the queue thread) and from inside the error
 * callback that a misuse raised (on the calling thread, in the middle of
 * the call that misused): the calls return without touching freed memory
 * (ASan), the handles that remain are still released safely, and another
 * device is unaffected. test_lifetime.c does the error, map and lost
 * callbacks and another thread. */
typedef struct doom {
  ls_device *d;
  waiter *w;
} doom;

static void destroy_on_done(void *user, ls_status st) {
  doom *x = user;
  ls_device_destroy(x->d);
  ls_device_release(x->d);
  waiter_note(x->w, st, NULL);
}

static void destroy_on_error(void *user, ls_error_type type, const char *message) {
  doom *x = user;
  ls_device_destroy(x->d);
  ls_device_release(x->d);
  waiter_note(x->w, LS_OK, message);
}

/* A device of its own for each case (it is destroyed), with a pass that
 * has ended, a buffer and a spent command buffer left to misuse. */
typedef struct victim {
  ls_adapter *adapter;
  ls_device *d;
  ls_buffer *b;
  ls_command_encoder *enc;
  ls_compute_pass *pass;
  ls_command_buffer *cb;
} victim;

static void victim_make(victim *v) {
  ls_adapter_options o = {.threads = 2};
  v->adapter = ls_adapter_create(&o, NULL, 0);
  v->d = ls_adapter_create_device(v->adapter, NULL, NULL, NULL, 0);
  assert_non_null(v->d);
  v->b = mkbuf(v->d, 16, SRW, "b");
  v->enc = ls_device_create_command_encoder(v->d, NULL);
  v->pass = ls_command_encoder_begin_compute_pass(v->enc, NULL);
  ls_compute_pass_end(v->pass);
  v->cb = ls_command_encoder_finish(v->enc, NULL);
  assert_non_null(v->cb);
  assert_int_equal(ls_queue_submit(v->d, &v->cb, 1), LS_OK);
}

/* The handles left: each holds the device, so the last of them frees it. */
static void victim_free(victim *v) {
  ls_compute_pass_release(v->pass);
  ls_command_encoder_release(v->enc);
  ls_command_buffer_release(v->cb);
  ls_buffer_release(v->b);
  ls_adapter_release(v->adapter);
}

static void test_destroy_in_callbacks(void **state) {
  (void)state;
  dev other;
  dev_make(&other);
  for (int k = 0; k < 5; k++) {
    victim v;
    victim_make(&v);
    waiter w;
    waiter_init(&w);
    doom x = {.d = v.d, .w = &w};
    if (k == 0) {
      ls_queue_on_submitted_work_done(v.d, destroy_on_done, &x);
      waiter_wait(&w);
      assert_int_equal(w.status, LS_OK);
    } else {
      ls_device_set_error_callback(v.d, destroy_on_error, &x);
      switch (k) {
      case 1: ls_compute_pass_dispatch_workgroups(v.pass, 1, 1, 1); break;
      case 2: ls_compute_pass_end(v.pass); break;
      case 3: assert_null(ls_command_encoder_finish(v.enc, NULL)); break;
      case 4: assert_int_equal(ls_queue_submit(v.d, &v.cb, 1), LS_VALIDATION); break;
      }
      assert_int_equal(waiter_calls(&w), 1);
      static const char *const said[] = {NULL, "the pass has ended", "already ended",
                                         "already finished", "already submitted"};
      assert_non_null(strstr(w.message, said[k]));
    }
    /* the device is destroyed and its handle released: what is left is
     * inert and still released safely */
    ls_compute_pass_dispatch_workgroups(v.pass, 1, 1, 1);
    ls_buffer_destroy(v.b);
    victim_free(&v);
    waiter_fini(&w);
    works(&other);
  }
  dev_free(&other);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_destroy_twice),
      cmocka_unit_test(test_destroyed_buffer),
      cmocka_unit_test(test_destroyed_texture_and_query_set),
      cmocka_unit_test(test_submit_twice),
      cmocka_unit_test(test_finished_encoder),
      cmocka_unit_test(test_ended_pass),
      cmocka_unit_test(test_locked_encoder),
      cmocka_unit_test(test_destroy_in_callbacks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
