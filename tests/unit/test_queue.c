/*
 * test_queue.c — the queue timeline and the asynchronous half of the API
 * (include/lockstep.h: "Threads"; buffer mapping, query sets, encoding and
 * submission), each behaviour against the rule of the WebGPU
 * specification it comes from (gpuweb spec/index.bs; the section is named
 * at each test): submit returning before the work is done, queue order,
 * the map state machine and getMappedRange, mappedAtCreation, destroy
 * while work is queued, timestamps, clearBuffer, whole-size copies,
 * dynamic offsets and debug groups. Most tests keep the queue busy with the
 * sleepy dispatch of unit_queue.h so that what they issue behind it is
 * still queued when they look.
 */
#include "unit_queue.h"

/* -------------------------------------------------- submit, write order */

/* queue.submit() returns before the work is done; onSubmittedWorkDone
 * (spec: "GPUQueue.onSubmittedWorkDone") resolves once the work submitted
 * before it has completed, and callbacks come in queue order. */
static void test_submit_async_returns_at_once(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  sleepy s;
  sleepy_make(&s, e.device);
  uint32_t n = sleepy_steps(&s, 0.5);
  sleepy_set(&s, n);
  ls_command_buffer *cb = sleepy_cb(&s);
  waiter first, second;
  waiter_init(&first);
  waiter_init(&second);
  double t0 = now_s();
  assert_int_equal(ls_queue_submit_async(e.device, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  double t_call = now_s() - t0;
  ls_queue_on_submitted_work_done(e.device, on_done, &first);
  ls_queue_on_submitted_work_done(e.device, on_done, &second);
  assert_int_equal(waiter_calls(&first), 0); /* the dispatch is still running */
  waiter_wait(&second);
  assert_int_equal(waiter_wait(&first), 1);
  double t_done = first.at - t0;
  fprintf(stderr, "submit_async returned after %.4f s; the work was done after %.3f s\n", t_call,
          t_done);
  assert_true(t_call < t_done / 10);
  assert_true(t_done > 0.05);
  assert_int_equal(first.status, LS_OK);
  assert_int_equal(second.status, LS_OK);
  assert_true(first.at <= second.at);
  assert_false(pthread_equal(first.thread, pthread_self())); /* the queue thread */
  sleepy_check(&s, s.dst, n, NULL);
  waiter_fini(&first);
  waiter_fini(&second);
  sleepy_free(&s);
  expect_no_error();
  tu_free_env(&e);
}

/* writeBuffer is a queue operation ("GPUQueue.writeBuffer": the copy is
 * issued on the queue timeline): one made while a submit runs lands after
 * that submit's dispatch and before the next submit's. */
static void test_write_buffer_queue_order(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  sleepy s;
  sleepy_make(&s, d);
  ls_buffer *dst2 = mkbuf(d, 4 * SLEEPY_N, SRW, "dst2");
  ls_bind_group *g2 = sleepy_group(&s, s.src, dst2);
  static uint32_t v1[SLEEPY_N], v2[SLEEPY_N];
  for (uint32_t i = 0; i < SLEEPY_N; i++) v1[i] = 1000u + i, v2[i] = 7u * i + 5u;

  assert_int_equal(ls_queue_write_buffer(d, s.src, 0, v1, sizeof v1), LS_OK);
  uint32_t n = sleepy_submit(&s, 0.3); /* reads src (v1) at its end */
  assert_int_equal(ls_queue_write_buffer(d, s.src, 0, v2, sizeof v2), LS_OK);
  ls_command_buffer *cb = sleepy_cb_with(&s, g2, NULL); /* reads v2 */
  assert_int_equal(ls_queue_submit_async(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  /* the data was copied at the call: scribbling on it changes nothing */
  memset(v2, 0xff, sizeof v2);
  for (uint32_t i = 0; i < SLEEPY_N; i++) v2[i] = 7u * i + 5u;
  sleepy_check(&s, s.dst, n, v1);
  sleepy_check(&s, dst2, n, v2);
  ls_bind_group_release(g2);
  ls_buffer_release(dst2);
  sleepy_free(&s);
  expect_no_error();
  tu_free_env(&e);
}

/* writeTexture is a queue operation too: one made while a submit runs
 * lands after the copy that submit holds, not before it (it was copied
 * into the texture on the calling thread, overtaking queued work). */
static void test_write_texture_queue_order(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  sleepy s;
  sleepy_make(&s, d);
  const ls_texture_desc td = {.struct_size = sizeof td, .size = {4, 1, 1},
                              .format = LS_FORMAT_R32UINT,
                              .usage = LS_TEXTURE_USAGE_COPY_DST | LS_TEXTURE_USAGE_COPY_SRC,
                              .label = "t"};
  ls_texture *t = ls_device_create_texture(d, &td);
  assert_non_null(t);
  ls_buffer *out = mkbuf(d, 256, LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC, "out");
  const ls_texel_copy_texture_info at = {.texture = t};
  const ls_texel_copy_buffer_layout tight = {.bytes_per_row = 16, .rows_per_image = 1};
  const ls_texel_copy_buffer_layout rows = {.bytes_per_row = 256, .rows_per_image = 1};
  const ls_extent3d ext = {4, 1, 1};
  const uint32_t v1[4] = {11, 22, 33, 44}, v2[4] = {55, 66, 77, 88};
  assert_int_equal(ls_queue_write_texture(d, &at, v1, sizeof v1, &tight, &ext), LS_OK);
  uint32_t n = sleepy_submit(&s, 0.3);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_texture_to_buffer(enc, &at, out, &rows, &ext);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_int_equal(ls_queue_submit_async(d, &cb, 1), LS_OK); /* queued behind the dispatch */
  ls_command_buffer_release(cb);
  assert_int_equal(ls_queue_write_texture(d, &at, v2, sizeof v2, &tight, &ext), LS_OK);
  uint32_t got[4];
  assert_int_equal(ls_queue_read_buffer(d, out, 0, got, sizeof got), LS_OK);
  assert_memory_equal(got, v1, sizeof v1);
  /* and the write did land, after the copy */
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_texture_to_buffer(enc, &at, out, &rows, &ext);
  cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  assert_int_equal(ls_queue_read_buffer(d, out, 0, got, sizeof got), LS_OK);
  assert_memory_equal(got, v2, sizeof v2);
  sleepy_check(&s, s.dst, n, NULL);
  ls_buffer_release(out);
  ls_texture_release(t);
  sleepy_free(&s);
  expect_no_error();
  tu_free_env(&e);
}

/* --------------------------------------------------------------- mapping */

/* "GPUBuffer.mapAsync": unmapped -> pending -> mapped. A second mapAsync
 * while one is pending is rejected at once with an OperationError; the CTS
 * (webgpu:api,validation,buffer,mapping:mapAsync,state,mappingPending)
 * expects no validation error there, which is lockstep's LS_OPERATION
 * (the spec text since gpuweb#4786 also generates one; lockstep follows
 * the CTS the project measures itself with). mapAsync on a mapped buffer
 * is a validation error (mapAsync,state,mapped). */
static void test_map_state_machine(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  sleepy s;
  sleepy_make(&s, d);
  ls_buffer *b = mkbuf(d, 64, MAPR, "readback");
  uint32_t words[16];
  for (int i = 0; i < 16; i++) words[i] = 0xabc00000u + (uint32_t)i;
  assert_int_equal(ls_queue_write_buffer(d, b, 0, words, sizeof words), LS_OK);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_UNMAPPED);

  sleepy_submit(&s, 0.3);
  waiter m1, m2;
  waiter_init(&m1);
  waiter_init(&m2);
  ls_buffer_map_async(b, LS_MAP_READ, 0, LS_WHOLE_SIZE, on_map, &m1);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_PENDING);
  assert_int_equal(waiter_calls(&m1), 0);
  char err[256];
  assert_null(ls_buffer_get_mapped_range(b, 0, 64, err, sizeof err)); /* pending: not mapped */
  assert_non_null(strstr(err, "not mapped"));

  ls_buffer_map_async(b, LS_MAP_READ, 0, 16, on_map, &m2);
  assert_int_equal(waiter_calls(&m2), 1); /* rejected at once, on this thread */
  assert_int_equal(m2.status, LS_OPERATION);
  assert_non_null(strstr(m2.message, "pending"));
  expect_no_error();
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_PENDING);

  assert_int_equal(waiter_wait(&m1), 1);
  assert_int_equal(m1.status, LS_OK);
  assert_false(pthread_equal(m1.thread, pthread_self()));
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_MAPPED);
  const uint32_t *p = ls_buffer_get_mapped_range(b, 0, 64, err, sizeof err);
  assert_non_null(p);
  assert_memory_equal(p, words, sizeof words);

  waiter m3;
  waiter_init(&m3);
  ls_buffer_map_async(b, LS_MAP_READ, 0, 16, on_map, &m3);
  assert_int_equal(waiter_calls(&m3), 1);
  assert_int_equal(m3.status, LS_VALIDATION);
  expect_error("is mapped");
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_MAPPED); /* still mapped */

  ls_buffer_unmap(b);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_UNMAPPED);
  assert_null(ls_buffer_get_mapped_range(b, 0, 64, err, sizeof err));
  ls_buffer_unmap(b); /* unmapping an unmapped buffer does nothing */
  ls_queue_wait_idle(d);
  assert_int_equal(waiter_calls(&m1), 1);
  assert_int_equal(waiter_calls(&m2), 1);
  expect_no_error();
  waiter_fini(&m1);
  waiter_fini(&m2);
  waiter_fini(&m3);
  ls_buffer_release(b);
  sleepy_free(&s);
  tu_free_env(&e);
}

/* "GPUBuffer.unmap": a pending map is rejected with an AbortError;
 * "GPUBuffer.destroy" unmaps first. Neither is a validation error
 * (mapAsync,state,destroyed: the first map gets AbortError without one),
 * and the map's own completion later must not call back again. */
static void test_map_abort(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  sleepy s;
  sleepy_make(&s, d);
  ls_buffer *b = mkbuf(d, 64, MAPR, "unmapped-early");
  ls_buffer *c = mkbuf(d, 64, MAPW, "destroyed-early");

  sleepy_submit(&s, 0.3);
  waiter mb, mc, again;
  waiter_init(&mb);
  waiter_init(&mc);
  waiter_init(&again);
  ls_buffer_map_async(b, LS_MAP_READ, 0, 64, on_map, &mb);
  ls_buffer_map_async(c, LS_MAP_WRITE, 8, 16, on_map, &mc);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_PENDING);
  assert_int_equal(ls_buffer_get_map_state(c), LS_MAP_STATE_PENDING);

  ls_buffer_unmap(b);
  assert_int_equal(waiter_calls(&mb), 1); /* at once */
  assert_int_equal(mb.status, LS_ABORTED);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_UNMAPPED);

  ls_buffer_destroy(c);
  assert_int_equal(waiter_calls(&mc), 1);
  assert_int_equal(mc.status, LS_ABORTED);
  assert_non_null(strstr(mc.message, "destroyed"));
  assert_int_equal(ls_buffer_get_map_state(c), LS_MAP_STATE_UNMAPPED);
  expect_no_error();

  /* after the abort the buffer maps again; the aborted op, still queued,
   * must not complete this new map */
  ls_buffer_map_async(b, LS_MAP_READ, 0, 64, on_map, &again);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_PENDING);
  waiter_wait(&again);
  assert_int_equal(again.status, LS_OK);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_MAPPED);

  /* a destroyed buffer refuses mapAsync (validation error) */
  waiter late;
  waiter_init(&late);
  ls_buffer_map_async(c, LS_MAP_WRITE, 0, 64, on_map, &late);
  assert_int_equal(waiter_calls(&late), 1);
  assert_int_equal(late.status, LS_VALIDATION);
  expect_error("destroyed");
  ls_buffer_destroy(c); /* twice: nothing more */
  ls_queue_wait_idle(d);
  assert_int_equal(waiter_calls(&mb), 1);
  assert_int_equal(waiter_calls(&mc), 1);
  assert_int_equal(waiter_calls(&again), 1);
  expect_no_error();
  waiter_fini(&mb);
  waiter_fini(&mc);
  waiter_fini(&again);
  waiter_fini(&late);
  ls_buffer_release(b);
  ls_buffer_release(c);
  sleepy_free(&s);
  tu_free_env(&e);
}

/* mapAsync's device-timeline validation: each failure is a validation
 * error and the callback gets LS_VALIDATION (OperationError), on the
 * calling thread, before the call returns. */
static void test_map_validation(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_buffer *r = mkbuf(d, 64, MAPR, "r");
  ls_buffer *w = mkbuf(d, 64, MAPW, "w");
  ls_buffer *plain = mkbuf(d, 64, SRW, "plain");
  static const struct {
    int which; /* 0 r, 1 w, 2 plain */
    uint32_t mode;
    uint64_t offset, size;
    const char *want;
  } bad[] = {
      {1, LS_MAP_READ, 0, 64, "lacks MAP_READ"},   /* usage */
      {0, LS_MAP_WRITE, 0, 64, "lacks MAP_WRITE"}, /* usage */
      {2, LS_MAP_READ, 0, 64, "lacks MAP_READ"},
      {0, 0, 0, 64, "not exactly one"},            /* mode */
      {0, LS_MAP_READ | LS_MAP_WRITE, 0, 64, "not exactly one"},
      {0, 0x4, 0, 64, "not exactly one"},          /* a bit GPUMapMode lacks */
      {0, LS_MAP_READ, 4, 16, "multiple of 8"},    /* offset alignment */
      {0, LS_MAP_READ, 8, 6, "multiple of 4"},     /* size alignment */
      {0, LS_MAP_READ, 8, 60, "outside"},          /* range */
      {0, LS_MAP_READ, 72, LS_WHOLE_SIZE, "outside"},
      {0, LS_MAP_READ, 64, 4, "outside"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ls_buffer *b = bad[i].which == 0 ? r : bad[i].which == 1 ? w : plain;
    waiter m;
    waiter_init(&m);
    ls_buffer_map_async(b, bad[i].mode, bad[i].offset, bad[i].size, on_map, &m);
    assert_int_equal(waiter_calls(&m), 1);
    assert_int_equal(m.status, LS_VALIDATION);
    assert_true(pthread_equal(m.thread, pthread_self()));
    assert_non_null(strstr(m.message, bad[i].want));
    expect_error(bad[i].want);
    assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_UNMAPPED);
    waiter_fini(&m);
  }
  /* the edges that are valid: an empty range at the end, the whole buffer */
  waiter ok1, ok2;
  waiter_init(&ok1);
  waiter_init(&ok2);
  ls_buffer_map_async(r, LS_MAP_READ, 64, LS_WHOLE_SIZE, on_map, &ok1);
  waiter_wait(&ok1);
  assert_int_equal(ok1.status, LS_OK);
  ls_buffer_unmap(r);
  ls_buffer_map_async(w, LS_MAP_WRITE, 0, 64, on_map, &ok2);
  waiter_wait(&ok2);
  assert_int_equal(ok2.status, LS_OK);
  ls_buffer_unmap(w);
  expect_no_error();
  waiter_fini(&ok1);
  waiter_fini(&ok2);
  ls_buffer_release(r);
  ls_buffer_release(w);
  ls_buffer_release(plain);
  tu_free_env(&e);
}


/* "GPUBuffer.getMappedRange": OperationError (NULL and a reason, no
 * validation error) unless mapped, offset a multiple of 8, size of 4, the
 * range inside the mapped range and disjoint from the ranges already
 * returned; a missing size is max(0, buffer size - offset), to the end of
 * the buffer, not of the mapped range (CTS getMappedRange,
 * sizeAndOffsetOOB,mapped). */
static void test_mapped_range(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_buffer *b = mkbuf(d, 80, MAPR, "ranges");
  uint32_t words[20];
  for (int i = 0; i < 20; i++) words[i] = 100u + (uint32_t)i;
  assert_int_equal(ls_queue_write_buffer(d, b, 0, words, sizeof words), LS_OK);
  char err[256];
  assert_null(ls_buffer_get_mapped_range(b, 0, 16, err, sizeof err));
  assert_non_null(strstr(err, "not mapped"));

  map_now(b, LS_MAP_READ, 24, 40); /* [24, 64) */
  static const struct {
    uint64_t offset, size;
    const char *want; /* NULL: valid */
  } calls[] = {
      {28, 8, "multiple of 8"},
      {24, 6, "size 6 of 4"},
      {16, 8, "outside"},             /* starts before the mapped range */
      {56, 12, "outside"},            /* runs past its end */
      {24, LS_WHOLE_SIZE, "outside"}, /* 80 - 24 = 56 bytes: past 64 */
      {24, 8, NULL},                  /* [24, 32) */
      {24, 4, "overlaps"},
      {32, 8, NULL},                  /* [32, 40): touches [24, 32), no overlap */
      {40, 16, NULL},                 /* [40, 56) */
      {48, 8, "overlaps"},
      {32, 16, "overlaps"},
      {56, 8, NULL},                  /* [56, 64): the last bytes */
      {64, 0, NULL},                  /* empty, at the end */
      {64, LS_WHOLE_SIZE, "outside"},
  };
  const uint32_t *got[sizeof calls / sizeof calls[0]];
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    err[0] = 0;
    got[i] = ls_buffer_get_mapped_range(b, calls[i].offset, calls[i].size, err, sizeof err);
    if (!calls[i].want != !!got[i] || (calls[i].want && !strstr(err, calls[i].want)))
      fprintf(stderr, "getMappedRange(%llu, %llu): wanted '%s', got %p '%s'\n",
              (unsigned long long)calls[i].offset, (unsigned long long)calls[i].size,
              calls[i].want ? calls[i].want : "a range", (void *)got[i], err);
    if (!calls[i].want) {
      assert_non_null(got[i]);
      if (calls[i].size) assert_int_equal(got[i][0], words[calls[i].offset / 4]);
    } else {
      assert_null(got[i]);
      assert_non_null(strstr(err, calls[i].want));
      assert_non_null(strstr(err, "ranges")); /* names the buffer */
    }
  }
  const uint32_t *first = got[5];
  assert_non_null(first);
  assert_int_equal(first[0], words[6]);
  assert_int_equal(first[1], words[7]);
  expect_no_error(); /* getMappedRange throws; it raises nothing */

  /* a READ mapping's local changes are discarded at unmap (spec:
   * "GPUBuffer.unmap"): the next mapping sees the buffer's contents */
  ((uint32_t *)first)[0] = 0xdeadbeefu;
  ls_buffer_unmap(b);
  assert_null(ls_buffer_get_mapped_range(b, 24, 8, err, sizeof err));
  map_now(b, LS_MAP_READ, 0, LS_WHOLE_SIZE);
  const uint32_t *all = ls_buffer_get_mapped_range(b, 0, LS_WHOLE_SIZE, err, sizeof err);
  assert_non_null(all);
  assert_memory_equal(all, words, sizeof words);
  ls_buffer_unmap(b);

  /* a WRITE mapping's changes are the buffer's new contents */
  ls_buffer *w = mkbuf(d, 32, MAPW, "w");
  ls_buffer *back = mkbuf(d, 32, RW, "back");
  map_now(w, LS_MAP_WRITE, 8, 16);
  uint32_t *wp = ls_buffer_get_mapped_range(w, 8, 16, err, sizeof err);
  assert_non_null(wp);
  for (int i = 0; i < 4; i++) wp[i] = 0x51u + (uint32_t)i;
  ls_buffer_unmap(w);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, w, 0, back, 0, LS_WHOLE_SIZE);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint32_t back_words[8];
  assert_int_equal(ls_queue_read_buffer(d, back, 0, back_words, sizeof back_words), LS_OK);
  const uint32_t want[8] = {0, 0, 0x51, 0x52, 0x53, 0x54, 0, 0};
  assert_memory_equal(back_words, want, sizeof want);
  expect_no_error();
  ls_buffer_release(w);
  ls_buffer_release(back);
  ls_buffer_release(b);
  tu_free_env(&e);
}

/* "GPUBufferDescriptor.mappedAtCreation": mapped for writing at once, for
 * any usage; the writes are the buffer's contents after unmap. A size that
 * is not a multiple of 4 is refused (WebGPU throws a RangeError: no buffer). */
static void test_mapped_at_creation(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_buffer_desc bd = {.size = 32, .usage = SRW, .label = "born-mapped", .mapped_at_creation = 1};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  assert_non_null(b);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_MAPPED);
  char err[256];
  uint32_t *p = ls_buffer_get_mapped_range(b, 0, LS_WHOLE_SIZE, err, sizeof err);
  assert_non_null(p);
  for (int i = 0; i < 8; i++) assert_int_equal(p[i], 0); /* created zeroed */
  for (int i = 0; i < 8; i++) p[i] = 0x1000u * (uint32_t)(i + 1);

  /* while mapped the queue may not touch it */
  uint32_t x = 7;
  assert_int_equal(ls_queue_write_buffer(d, b, 0, &x, 4), LS_VALIDATION);
  expect_error("mapped");
  ls_buffer *other = mkbuf(d, 32, RW, "other");
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, b, 0, other, 0, 32);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb); /* encoding does not look at the map state ... */
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_VALIDATION); /* ... submit does */
  ls_command_buffer_release(cb);
  expect_error("is mapped");

  ls_buffer_unmap(b);
  assert_int_equal(ls_buffer_get_map_state(b), LS_MAP_STATE_UNMAPPED);
  uint32_t got[8];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, got, sizeof got), LS_OK);
  for (int i = 0; i < 8; i++) assert_int_equal(got[i], 0x1000u * (uint32_t)(i + 1));

  /* a MAP_READ buffer may be created mapped too (mapped for writing) */
  ls_buffer_desc rd = {.size = 8, .usage = MAPR, .label = "r", .mapped_at_creation = 1};
  ls_buffer *r = ls_device_create_buffer(d, &rd);
  assert_non_null(r);
  uint32_t *rp = ls_buffer_get_mapped_range(r, 0, 8, err, sizeof err);
  assert_non_null(rp);
  rp[0] = 11, rp[1] = 22;
  ls_buffer_unmap(r);
  map_now(r, LS_MAP_READ, 0, 8);
  const uint32_t *rq = ls_buffer_get_mapped_range(r, 0, 8, err, sizeof err);
  assert_non_null(rq);
  assert_int_equal(rq[0], 11);
  assert_int_equal(rq[1], 22);
  ls_buffer_unmap(r);

  ls_buffer_desc odd = {.size = 6, .usage = SRW, .label = "odd", .mapped_at_creation = 1};
  assert_null(ls_device_create_buffer(d, &odd));
  expect_error("multiple of 4");
  ls_buffer_desc zero = {.size = 0, .usage = SRW, .label = "zero", .mapped_at_creation = 1};
  ls_buffer *z = ls_device_create_buffer(d, &zero);
  assert_non_null(z);
  ls_buffer_unmap(z);
  expect_no_error();
  ls_buffer_release(z);
  ls_buffer_release(r);
  ls_buffer_release(other);
  ls_buffer_release(b);
  tu_free_env(&e);
}

/* "GPUQueue.submit": every buffer a command buffer uses must be unmapped
 * (neither mapped nor pending) at submit; writeBuffer likewise. */
static void test_submit_refuses_mapped(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  sleepy s;
  sleepy_make(&s, d);
  ls_buffer *r = mkbuf(d, 64, MAPR, "staging");
  ls_buffer *src = mkbuf(d, 64, RW, "source");

  sleepy_submit(&s, 0.2);
  waiter m;
  waiter_init(&m);
  ls_buffer_map_async(r, LS_MAP_READ, 0, 64, on_map, &m);
  for (int phase = 0; phase < 2; phase++) { /* 0: pending, 1: mapped */
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_command_encoder_copy_buffer_to_buffer(enc, src, 0, r, 0, 64);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    assert_non_null(cb);
    assert_int_equal(ls_queue_submit(d, &cb, 1), LS_VALIDATION);
    ls_command_buffer_release(cb);
    expect_error(phase == 0 ? "pending mapAsync" : "is mapped");
    uint32_t x = 1;
    assert_int_equal(ls_queue_write_buffer(d, r, 0, &x, 4), LS_VALIDATION);
    expect_error(phase == 0 ? "pending mapAsync" : "is mapped");
    if (phase == 0) {
      assert_int_equal(ls_buffer_get_map_state(r), LS_MAP_STATE_PENDING);
      waiter_wait(&m);
      assert_int_equal(m.status, LS_OK);
    }
  }
  ls_buffer_unmap(r);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, src, 0, r, 0, 64);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK); /* unmapped again: fine */
  ls_command_buffer_release(cb);
  expect_no_error();
  waiter_fini(&m);
  ls_buffer_release(r);
  ls_buffer_release(src);
  sleepy_free(&s);
  tu_free_env(&e);
}

/* Read-backs from inside a callback that runs on the queue thread: the
 * queue cannot wait for itself, so the read happens at once, and it sees
 * the work done before the callback (the submit the callback follows). */
typedef struct in_callback {
  waiter w;
  sleepy *s;
  uint32_t n;
  ls_status read_status, map_status;
  int right;
} in_callback;

static void read_in_callback(void *user, ls_status st) {
  in_callback *c = user;
  uint32_t *out = malloc(4 * SLEEPY_N);
  c->read_status = out ? ls_queue_read_buffer(c->s->d, c->s->dst, 0, out, 4 * SLEEPY_N) : LS_INTERNAL;
  c->right = out != NULL;
  for (uint32_t i = 0; out && i < SLEEPY_N; i++) c->right &= out[i] == lcg(i, c->n);
  free(out);
  waiter_note(&c->w, st, NULL);
}

static void test_read_in_callback(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  sleepy s;
  sleepy_make(&s, e.device);
  in_callback c = {.s = &s};
  waiter_init(&c.w);
  c.n = sleepy_submit(&s, 0.1);
  ls_queue_on_submitted_work_done(e.device, read_in_callback, &c);
  waiter_wait(&c.w);
  assert_int_equal(c.w.status, LS_OK);
  assert_int_equal(c.read_status, LS_OK);
  assert_true(c.right);
  waiter_fini(&c.w);
  sleepy_free(&s);
  expect_no_error();
  tu_free_env(&e);
}

/* "GPUBuffer.destroy": the memory goes once the work submitted before it
 * is done, so that work still reads and writes the buffer's data (under
 * ASan: no use after free); a submit after destroy is refused. */
static void test_destroy_while_queued(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  sleepy s;
  sleepy_make(&s, d);
  ls_buffer *src = mkbuf(d, 4 * SLEEPY_N, SRW, "doomed-src");
  ls_buffer *dst = mkbuf(d, 4 * SLEEPY_N, SRW, "doomed-dst");
  ls_buffer *keep = mkbuf(d, 4 * SLEEPY_N, SRW, "keep");
  ls_bind_group *g = sleepy_group(&s, src, dst);
  static uint32_t v[SLEEPY_N];
  for (uint32_t i = 0; i < SLEEPY_N; i++) v[i] = 3u * i + 1u;
  assert_int_equal(ls_queue_write_buffer(d, src, 0, v, sizeof v), LS_OK);
  uint32_t n = sleepy_steps(&s, 0.3);
  sleepy_set(&s, n);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, s.p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, SLEEPY_GROUPS, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_encoder_copy_buffer_to_buffer(enc, dst, 0, keep, 0, LS_WHOLE_SIZE);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit_async(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  ls_buffer_destroy(src);
  ls_buffer_destroy(dst);
  ls_bind_group_release(g);
  ls_buffer_release(src);

  ls_command_buffer *again = sleepy_cb_with(&s, s.g, NULL);
  ls_command_encoder *enc2 = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc2, dst, 0, keep, 0, 16);
  ls_command_buffer *late = ls_command_encoder_finish(enc2, NULL);
  ls_command_encoder_release(enc2);
  assert_non_null(late); /* WebGPU checks the buffer's state at submit */
  expect_no_error();
  assert_int_equal(ls_queue_submit(d, &late, 1), LS_VALIDATION);
  expect_error("uses buffer 'doomed-dst', which is destroyed");
  ls_command_buffer_release(late);
  assert_int_equal(ls_queue_submit(d, &again, 1), LS_OK);
  ls_command_buffer_release(again);
  uint32_t x = 0;
  assert_int_equal(ls_queue_write_buffer(d, dst, 0, &x, 4), LS_VALIDATION);
  expect_error("destroyed");
  ls_buffer_release(dst);
  sleepy_check(&s, keep, n, v); /* what the destroyed buffers held */
  expect_no_error();
  ls_buffer_release(keep);
  sleepy_free(&s);
  tu_free_env(&e);
}

/* ------------------------------------------------------------ timestamps */

/* "timestamp-query": a compute pass's timestampWrites record the time its
 * work begins and ends on the queue; resolveQuerySet writes them as u64
 * into a QUERY_RESOLVE buffer at a multiple of 256. lockstep's values are
 * the host's monotonic clock in nanoseconds, so the elapsed time must
 * match the wall time of the pass. */
static void test_timestamps(void **state) {
  (void)state;
  const char *const features[] = {"timestamp-query", NULL};
  env e = tu_make_env(2, features);
  ls_device *d = e.device;
  sleepy s;
  sleepy_make(&s, d);
  ls_query_set_desc qd = {.type = LS_QUERY_TIMESTAMP, .count = 4, .label = "times"};
  ls_query_set *q = ls_device_create_query_set(d, &qd);
  assert_non_null(q);
  assert_int_equal(ls_query_set_get_type(q), LS_QUERY_TIMESTAMP);
  assert_int_equal(ls_query_set_get_count(q), 4);
  ls_buffer *res = mkbuf(d, 512, LS_BUFFER_USAGE_QUERY_RESOLVE | LS_BUFFER_USAGE_COPY_SRC,
                         "resolved");
  uint32_t n = sleepy_steps(&s, 0.3);
  sleepy_set(&s, n);
  ls_compute_pass_desc pd = {.label = "timed",
                             .timestamp_query_set = q,
                             .beginning_of_pass_write_index = 1,
                             .end_of_pass_write_index = 3};
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, &pd);
  ls_compute_pass_set_pipeline(pass, s.p);
  ls_compute_pass_set_bind_group(pass, 0, s.g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, SLEEPY_GROUPS, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_encoder_resolve_query_set(enc, q, 0, 4, res, 256);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  double t0 = now_s();
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  double wall = now_s() - t0;
  uint64_t v[4], before[32];
  assert_int_equal(ls_queue_read_buffer(d, res, 256, v, sizeof v), LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, res, 0, before, sizeof before), LS_OK);
  for (int i = 0; i < 32; i++) assert_int_equal(before[i], 0); /* below the offset: untouched */
  assert_int_equal(v[0], 0); /* never written */
  assert_int_equal(v[2], 0);
  assert_true(v[3] > v[1]);
  double elapsed = (double)(v[3] - v[1]) * 1e-9;
  fprintf(stderr, "pass: %.3f s by its timestamps, submit took %.3f s\n", elapsed, wall);
  assert_true(elapsed <= wall + 1e-3);
  assert_true(elapsed >= wall * 0.5);
  sleepy_check(&s, s.dst, n, NULL);

  /* only the end index given: the start stays as it was */
  ls_compute_pass_desc pe = {.timestamp_query_set = q,
                             .beginning_of_pass_write_index = LS_QUERY_INDEX_UNDEFINED,
                             .end_of_pass_write_index = 0};
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, &pe);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_encoder_resolve_query_set(enc, q, 0, 1, res, 0);
  cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint64_t w0;
  assert_int_equal(ls_queue_read_buffer(d, res, 0, &w0, 8), LS_OK);
  assert_true(w0 > v[3]);
  expect_no_error();
  ls_query_set_release(q);
  ls_buffer_release(res);
  sleepy_free(&s);
  tu_free_env(&e);
}

/* The rules around timestamps: the feature (createQuerySet "timestamp";
 * timestampWrites), the write indices, resolveQuerySet's usage, range and
 * 256-byte offset, and a destroyed query set at submit. */
static void test_timestamp_rules(void **state) {
  (void)state;
  env plain = tu_make_env(1, NULL);
  ls_query_set_desc qd = {.type = LS_QUERY_TIMESTAMP, .count = 2, .label = "t"};
  assert_null(ls_device_create_query_set(plain.device, &qd));
  expect_error("timestamp-query");
  ls_query_set_desc od = {.type = LS_QUERY_OCCLUSION, .count = 2, .label = "occ"};
  ls_query_set *occ = ls_device_create_query_set(plain.device, &od);
  assert_non_null(occ);
  ls_compute_pass_desc pd = {.timestamp_query_set = occ,
                             .beginning_of_pass_write_index = 0,
                             .end_of_pass_write_index = 1};
  ls_command_encoder *enc = ls_device_create_command_encoder(plain.device, NULL);
  ls_compute_pass *tp = ls_command_encoder_begin_compute_pass(enc, &pd);
  ls_compute_pass_end(tp);
  ls_compute_pass_release(tp);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("timestamp-query");
  ls_query_set_release(occ);
  tu_free_env(&plain);

  const char *const features[] = {"timestamp-query", NULL};
  env e = tu_make_env(1, features);
  ls_device *d = e.device;
  ls_query_set *q = ls_device_create_query_set(d, &qd);
  ls_query_set *o = ls_device_create_query_set(d, &od);
  assert_non_null(q);
  assert_non_null(o);
  ls_buffer *res = mkbuf(d, 512, LS_BUFFER_USAGE_QUERY_RESOLVE, "res");
  ls_buffer *nores = mkbuf(d, 512, RW, "nores");
  static const struct {
    int occlusion;
    uint32_t begin, end;
    const char *want;
  } writes[] = {
      {1, 0, 1, "not a timestamp set"},
      {0, 0, 2, "not below the query set's count"},
      {0, 1, 1, "same query"},
      {0, LS_QUERY_INDEX_UNDEFINED, LS_QUERY_INDEX_UNDEFINED, "neither"},
  };
  for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
    ls_compute_pass_desc w = {.timestamp_query_set = writes[i].occlusion ? o : q,
                              .beginning_of_pass_write_index = writes[i].begin,
                              .end_of_pass_write_index = writes[i].end};
    enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *tp = ls_command_encoder_begin_compute_pass(enc, &w);
    ls_compute_pass_end(tp);
    ls_compute_pass_release(tp);
    assert_null(ls_command_encoder_finish(enc, NULL));
    ls_command_encoder_release(enc);
    expect_error(writes[i].want);
  }
  static const struct {
    int nores;
    uint32_t first, count;
    uint64_t offset;
    const char *want;
  } resolves[] = {
      {1, 0, 2, 0, "QUERY_RESOLVE"},
      {0, 0, 2, 128, "multiple of 256"},
      {0, 0, 2, 8, "multiple of 256"},
      {0, 2, 0, 0, "exceeds"},
      {0, 1, 2, 0, "exceeds"},
      {0, 0, 2, 512, "do not fit"},
  };
  for (size_t i = 0; i < sizeof resolves / sizeof resolves[0]; i++) {
    enc = ls_device_create_command_encoder(d, NULL);
    ls_command_encoder_resolve_query_set(enc, q, resolves[i].first, resolves[i].count,
                                         resolves[i].nores ? nores : res, resolves[i].offset);
    assert_null(ls_command_encoder_finish(enc, NULL));
    ls_command_encoder_release(enc);
    expect_error(resolves[i].want);
  }
  /* an occlusion set resolves to zeros */
  uint64_t ones[2] = {~0ull, ~0ull};
  ls_buffer *back = mkbuf(d, 16, LS_BUFFER_USAGE_QUERY_RESOLVE | RW, "back");
  assert_int_equal(ls_queue_write_buffer(d, back, 0, ones, 16), LS_OK);
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_resolve_query_set(enc, o, 0, 2, back, 0);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint64_t got[2];
  assert_int_equal(ls_queue_read_buffer(d, back, 0, got, 16), LS_OK);
  assert_int_equal(got[0], 0);
  assert_int_equal(got[1], 0);
  /* destroyed after encoding: the submit is refused */
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_resolve_query_set(enc, q, 0, 2, res, 0);
  cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  ls_query_set_destroy(q);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_VALIDATION);
  ls_command_buffer_release(cb);
  expect_error("destroyed");
  expect_no_error();
  ls_buffer_release(back);
  ls_buffer_release(res);
  ls_buffer_release(nores);
  ls_query_set_release(q);
  ls_query_set_release(o);
  tu_free_env(&e);
}

/* ---------------------------------------------------- clear, copy, size */

/* "GPUCommandEncoder.clearBuffer": zeroes [offset, offset + size); size
 * omitted = to the end; COPY_DST, offset and size multiples of 4, the range
 * inside the buffer. copyBufferToBuffer without a size copies from the
 * offset to the end of the source. */
static void test_clear_and_copy_whole(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_buffer *b = mkbuf(d, 64, RW, "cleared");
  ls_buffer *c = mkbuf(d, 64, RW, "copied");
  ls_buffer *ro = mkbuf(d, 64, LS_BUFFER_USAGE_COPY_SRC, "ro");
  uint32_t ones[16];
  for (int i = 0; i < 16; i++) ones[i] = 0x01010101u * (uint32_t)(i + 1);
  assert_int_equal(ls_queue_write_buffer(d, b, 0, ones, sizeof ones), LS_OK);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_clear_buffer(enc, b, 8, 8);              /* words 2, 3 */
  ls_command_encoder_clear_buffer(enc, b, 48, LS_WHOLE_SIZE); /* words 12..15 */
  ls_command_encoder_clear_buffer(enc, b, 64, LS_WHOLE_SIZE); /* empty, at the end */
  ls_command_encoder_copy_buffer_to_buffer(enc, b, 16, c, 0, LS_WHOLE_SIZE); /* 48 bytes */
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint32_t got[16], want[16];
  memcpy(want, ones, sizeof want);
  want[2] = want[3] = 0;
  for (int i = 12; i < 16; i++) want[i] = 0;
  assert_int_equal(ls_queue_read_buffer(d, b, 0, got, sizeof got), LS_OK);
  assert_memory_equal(got, want, sizeof want);
  uint32_t got_c[16], want_c[16];
  memset(want_c, 0, sizeof want_c);
  memcpy(want_c, want + 4, 48);
  assert_int_equal(ls_queue_read_buffer(d, c, 0, got_c, sizeof got_c), LS_OK);
  assert_memory_equal(got_c, want_c, sizeof want_c);

  static const struct {
    int ro;
    uint64_t offset, size;
    const char *want;
  } bad[] = {
      {1, 0, 16, "lacks COPY_DST"},
      {0, 2, 16, "multiples of 4"},
      {0, 0, 6, "multiples of 4"},
      {0, 32, 64, "outside"},
      {0, 68, LS_WHOLE_SIZE, "outside"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    enc = ls_device_create_command_encoder(d, NULL);
    ls_command_encoder_clear_buffer(enc, bad[i].ro ? ro : b, bad[i].offset, bad[i].size);
    assert_null(ls_command_encoder_finish(enc, NULL));
    ls_command_encoder_release(enc);
    expect_error(bad[i].want);
  }
  /* a whole-size copy whose source offset is past the end */
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_buffer_to_buffer(enc, b, 68, c, 0, LS_WHOLE_SIZE);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("outside");
  ls_buffer_release(b);
  ls_buffer_release(c);
  ls_buffer_release(ro);
  tu_free_env(&e);
}

/* -------------------------------------------------------- dynamic offsets */

/* "setBindGroup" with dynamicOffsets: one per hasDynamicOffset entry in
 * binding order, each a multiple of min{Uniform,Storage}BufferOffsetAlignment
 * (256), the bound range plus the offset inside the buffer; errors surface
 * at finish(). Two dispatches with different offsets read different data. */
static const char *dyn_wgsl =
    "@group(0) @binding(0) var<uniform> k: vec4u;\n"
    "@group(0) @binding(1) var<storage, read> src: array<u32, 4>;\n"
    "@group(0) @binding(2) var<storage, read_write> dst: array<u32, 4>;\n"
    "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  dst[i] = src[i] * k.x + k.y;\n"
    "}\n";

static void test_dynamic_offsets(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_bind_group_layout_entry le[3] = {
      {.binding = 0, .type = LS_BINDING_UNIFORM, .has_dynamic_offset = 1},
      {.binding = 1, .type = LS_BINDING_READ_ONLY_STORAGE},
      {.binding = 2, .type = LS_BINDING_STORAGE, .has_dynamic_offset = 1},
  };
  ls_bind_group_layout_desc ld = {.entries = le, .entry_count = 3, .label = "dyn"};
  ls_bind_group_layout *bgl = ls_device_create_bind_group_layout(d, &ld);
  assert_non_null(bgl);
  ls_pipeline_layout_desc pld = {.bind_group_layouts = &bgl, .bind_group_layout_count = 1};
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &pld);
  assert_non_null(pl);
  ls_compute_pipeline *p = tu_pipeline(d, dyn_wgsl, "dyn.wgsl", pl);
  assert_non_null(p);

  ls_buffer *u = mkbuf(d, 1024, LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST, "k");
  ls_buffer *src = mkbuf(d, 16, SRW, "src");
  ls_buffer *dst = mkbuf(d, 1024, SRW, "dst");
  uint32_t k0[4] = {2, 1, 0, 0}, k1[4] = {10, 7, 0, 0}, s[4] = {1, 2, 3, 4};
  assert_int_equal(ls_queue_write_buffer(d, u, 0, k0, 16), LS_OK);
  assert_int_equal(ls_queue_write_buffer(d, u, 512, k1, 16), LS_OK);
  assert_int_equal(ls_queue_write_buffer(d, src, 0, s, 16), LS_OK);
  ls_bind_group_entry be[3] = {
      {.binding = 0, .buffer = u, .offset = 0, .size = 16},
      {.binding = 1, .buffer = src, .offset = 0, .size = 16},
      {.binding = 2, .buffer = dst, .offset = 256, .size = 16},
  };
  ls_bind_group_desc gd = {.layout = bgl, .entries = be, .entry_count = 3, .label = "g"};
  ls_bind_group *g = ls_device_create_bind_group(d, &gd);
  assert_non_null(g);

  /* offsets: {uniform, storage}; dst is bound at 256 + its offset */
  const uint32_t o_a[2] = {0, 0}, o_b[2] = {512, 512};
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, o_a, 2);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_set_bind_group(pass, 0, g, o_b, 2);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  uint32_t got[256];
  assert_int_equal(ls_queue_read_buffer(d, dst, 0, got, sizeof got), LS_OK);
  for (int i = 0; i < 4; i++) {
    assert_int_equal(got[64 + i], s[i] * 2 + 1);    /* byte 256: offsets 0 */
    assert_int_equal(got[192 + i], s[i] * 10 + 7);  /* byte 768: offsets 512 */
  }
  assert_int_equal(got[0], 0);
  assert_int_equal(got[128], 0);

  static const struct {
    uint32_t offs[3];
    size_t n;
    const char *want;
  } bad[] = {
      {{0}, 1, "1 dynamic offsets given; its layout has 2"},
      {{0, 0, 0}, 3, "3 dynamic offsets given"},
      {{0}, 0, "0 dynamic offsets given"},
      {{128, 0}, 2, "minUniformBufferOffsetAlignment"},
      {{0, 4}, 2, "minStorageBufferOffsetAlignment"},
      {{1024, 0}, 2, "runs past the end of buffer 'k'"},
      {{0, 768}, 2, "runs past the end of buffer 'dst'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    enc = ls_device_create_command_encoder(d, NULL);
    pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    ls_compute_pass_set_bind_group(pass, 0, g, bad[i].offs, bad[i].n);
    expect_no_error(); /* nothing yet: the encoder is invalid ... */
    ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    assert_null(ls_command_encoder_finish(enc, NULL)); /* ... and says so here */
    ls_command_encoder_release(enc);
    expect_error(bad[i].want);
  }
  /* 512 + 16 <= 1024 and 256 + 496 + 16 <= 1024 ... the last fitting ones */
  const uint32_t edge[2] = {768, 512};
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, edge, 2);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  expect_no_error();
  ls_bind_group_release(g);
  ls_buffer_release(u);
  ls_buffer_release(src);
  ls_buffer_release(dst);
  ls_compute_pipeline_release(p);
  ls_pipeline_layout_release(pl);
  ls_bind_group_layout_release(bgl);
  tu_free_env(&e);
}

/* ------------------------------------------------------------ debug groups */

/* "Debug markers": popDebugGroup with none pushed is a validation error,
 * as are groups still pushed at end() (pass) or finish() (encoder); the
 * pass's and the encoder's stacks are separate. */
static void test_debug_groups(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  /* balanced, nested, with markers: valid */
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_push_debug_group(enc, "outer");
  ls_command_encoder_insert_debug_marker(enc, "m");
  ls_command_encoder_push_debug_group(enc, "inner");
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_push_debug_group(pass, "p");
  ls_compute_pass_insert_debug_marker(pass, "pm");
  ls_compute_pass_pop_debug_group(pass);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_encoder_pop_debug_group(enc);
  ls_command_encoder_pop_debug_group(enc);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  expect_no_error();

  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_pop_debug_group(enc);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("no debug group is pushed on the encoder");

  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_push_debug_group(enc, "left open");
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("1 debug group(s) pushed and not popped");

  ls_compute_pass_desc pd = {.label = "leaky"};
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, &pd);
  ls_compute_pass_push_debug_group(pass, "a");
  ls_compute_pass_push_debug_group(pass, "b");
  ls_compute_pass_pop_debug_group(pass);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("end() of compute pass 'leaky': 1 debug group(s)");

  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, &pd);
  ls_compute_pass_pop_debug_group(pass);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("no debug group is pushed on compute pass 'leaky'");

  /* a group pushed on the encoder cannot be popped inside a pass */
  enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_push_debug_group(enc, "e");
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_pop_debug_group(pass);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_encoder_pop_debug_group(enc);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("no debug group is pushed on compute pass");

  /* the encoder's debug calls while a pass is open: the encoder is locked */
  enc = ls_device_create_command_encoder(d, NULL);
  pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_command_encoder_insert_debug_marker(enc, "x");
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("a compute pass is open");
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_submit_async_returns_at_once),
      cmocka_unit_test(test_write_buffer_queue_order),
      cmocka_unit_test(test_write_texture_queue_order),
      cmocka_unit_test(test_map_state_machine),
      cmocka_unit_test(test_map_abort),
      cmocka_unit_test(test_map_validation),
      cmocka_unit_test(test_mapped_range),
      cmocka_unit_test(test_mapped_at_creation),
      cmocka_unit_test(test_submit_refuses_mapped),
      cmocka_unit_test(test_read_in_callback),
      cmocka_unit_test(test_destroy_while_queued),
      cmocka_unit_test(test_timestamps),
      cmocka_unit_test(test_timestamp_rules),
      cmocka_unit_test(test_clear_and_copy_whole),
      cmocka_unit_test(test_dynamic_offsets),
      cmocka_unit_test(test_debug_groups),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
