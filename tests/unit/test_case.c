/*
 * test_case.c — the command line program's case and result code
 * (src/cli/case.c, result.c): initial words against the peers' kit.mjs
 * (expected values computed by running kit.mjs buildInit under node), the
 * messages for malformed cases, and the comparison rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/case.h"
#include "cli/case2.h"

/* A case around one buffer definition (JSON text), parsed without reading
 * the shader. */
static int load_one(const char *buffer_json, case_file *c, char *err, size_t errlen) {
  char text[4096];
  snprintf(text, sizeof text,
           "{\"format\": \"wgsl-compute-case/1\", \"name\": \"t\", \"shader\": \"x.wgsl\","
           " \"pipelines\": {}, \"buffers\": [%s], \"dispatches\": [], \"readback\": []}",
           buffer_json);
  return case_parse(text, strlen(text), "t.json", 0, c, err, errlen);
}

static void expect_words(const char *buffer_json, const uint32_t *want, size_t n) {
  case_file c;
  char err[512] = "";
  int rc = load_one(buffer_json, &c, err, sizeof err);
  if (rc) fprintf(stderr, "unexpected error: %s\n", err);
  assert_int_equal(rc, 0);
  assert_int_equal(c.buffers[0].words, n);
  for (size_t i = 0; i < n; i++) {
    if (c.buffers[0].init[i] != want[i])
      fprintf(stderr, "%s: word %zu: got 0x%08x, want 0x%08x\n", buffer_json, i,
              c.buffers[0].init[i], want[i]);
    assert_int_equal(c.buffers[0].init[i], want[i]);
  }
  case_free(&c);
}

static void expect_error(const char *case_json, const char *want) {
  case_file c;
  char err[512] = "";
  int rc = case_parse(case_json, strlen(case_json), "t.json", 0, &c, err, sizeof err);
  if (rc == 0 || !strstr(err, want))
    fprintf(stderr, "want error containing \"%s\", got rc %d: \"%s\"\n", want, rc, err);
  assert_int_not_equal(rc, 0);
  assert_non_null(strstr(err, want));
  case_free(&c);
}

/* ------------------------------------------------------------ initial words */

static void test_lcg_raw(void **state) {
  static const uint32_t s1[] = {0x3c88596c, 0x5e8885db, 0x8116017e, 0xb4733ac5};
  static const uint32_t s0[] = {0x3c6ef35f, 0x47502932, 0xd1ccf6e9, 0xaaf95334};
  static const uint32_t smax[] = {0x3c558d52, 0x3017cc89, 0x2283ec54};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"u32\",\"count\":4,"
               "\"init\":{\"lcg\":{\"seed\":1}}}", s1, 4);
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"u32\",\"count\":4,"
               "\"init\":{\"lcg\":{\"seed\":0}}}", s0, 4);
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"u32\",\"count\":3,"
               "\"init\":{\"lcg\":{\"seed\":4294967295}}}", smax, 3);
  /* No seed: 1. */
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"u32\",\"count\":4,"
               "\"init\":{\"lcg\":{}}}", s1, 4);
}

static void test_lcg_ranges(void **state) {
  static const uint32_t ints[] = {0x00000003, 0xfffffffe, 0xfffffffd, 0x00000004};
  static const uint32_t f01[] = {0x3e813362, 0x3db47ae0, 0x3f13c8b3, 0x3e63e540};
  static const uint32_t fint[] = {0xc2540000, 0x42a40000, 0x41b00000, 0x42aa0000};
  static const uint32_t u59[] = {5, 8, 7};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"i32\",\"count\":4,"
               "\"init\":{\"lcg\":{\"seed\":42,\"min\":-10,\"max\":10}}}", ints, 4);
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"f32\",\"count\":4,"
               "\"init\":{\"lcg\":{\"seed\":42}}}", f01, 4);
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"f32\",\"count\":4,"
               "\"init\":{\"lcg\":{\"seed\":7,\"min\":-100,\"max\":100,\"integer\":true}}}",
               fint, 4);
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"u32\",\"count\":3,"
               "\"init\":{\"lcg\":{\"seed\":9,\"min\":5,\"max\":9}}}", u59, 3);
}

static void test_iota(void **state) {
  static const uint32_t f[] = {0x3dcccccd, 0x3e99999a, 0x3f000000, 0x3f333333};
  static const uint32_t i[] = {0xfffffffe, 0xffffffff, 0x00000001, 0x00000002};
  static const uint32_t wrap[] = {0xfffffffa, 0xfffffffd, 0x00000000};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"f32\",\"count\":4,"
               "\"init\":{\"iota\":{\"start\":0.1,\"step\":0.2}}}", f, 4);
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"i32\",\"count\":4,"
               "\"init\":{\"iota\":{\"start\":-2,\"step\":1.5}}}", i, 4);
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"u32\",\"count\":3,"
               "\"init\":{\"iota\":{\"start\":4294967290,\"step\":3}}}", wrap, 3);
}

static void test_parts_records_overlap(void **state) {
  /* Later parts overwrite earlier ones; positions count over the whole
   * buffer; each word is encoded by its type in the record. */
  static const uint32_t w[] = {0x11111111, 0x00000003, 0x00000002, 0x40200000, 0x00000000,
                               0x11111111};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":[\"f32\",\"u32\",\"pad\"],\"count\":2,"
               "\"init\":[{\"fill\":\"0x11111111\"},{\"at\":1,\"count\":4,\"iota\":{\"start\":3,"
               "\"step\":-1}},{\"at\":3,\"data\":[2.5]}]}",
               w, 6);
  /* T*N repeats; a fill without count runs to the end. */
  static const uint32_t r[] = {0, 0x3f800000, 0x3f800000, 7, 0, 0x3f800000, 0x3f800000, 7};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":[\"pad\",\"f32*2\",\"u32\"],"
               "\"count\":2,\"init\":[{\"at\":1,\"fill\":1},{\"at\":3,\"data\":[7]},"
               "{\"at\":7,\"data\":[7]},{\"at\":4,\"count\":1,\"fill\":0}]}",
               r, 8);
  case_file c;
  char err[256];
  assert_int_equal(load_one("{\"name\":\"a\",\"kind\":\"none\",\"type\":[\"f32*3\",\"u32\","
                            "\"pad\"],\"count\":5}", &c, err, sizeof err), 0);
  assert_int_equal(c.buffers[0].rec_len, 5);
  assert_int_equal(c.buffers[0].words, 25);
  assert_int_equal(c.buffers[0].rec[2], CASE_F32);
  assert_int_equal(c.buffers[0].rec[3], CASE_U32);
  assert_int_equal(c.buffers[0].rec[4], CASE_PAD);
  case_free(&c);
}

static void test_values(void **state) {
  static const uint32_t f[] = {0x7f800000, 0xff800000, 0x7fc00000, 0x80000000,
                               0x447a0000, 0x00000010, 0x00000000};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"f32\",\"count\":7,\"init\":"
               "{\"data\":[\"inf\",\"-inf\",\"nan\",\"-0\",\" 1E3 \",\"0x10\",\"\"]}}", f, 7);
  static const uint32_t u[] = {0xffffffff, 0xffffffff, 0xffffffff};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"u32\",\"count\":3,\"init\":"
               "{\"data\":[-1, 4294967295, \"0xFFFFFFFF\"]}}", u, 3);
  /* Doubles round to nearest f32; the midpoint above FLT_MAX goes to inf. */
  static const uint32_t r[] = {0x00000001, 0x7f800000, 0x7f800000, 0x80000000, 0x3dcccccd};
  expect_words("{\"name\":\"a\",\"kind\":\"none\",\"type\":\"f32\",\"count\":5,\"init\":"
               "{\"data\":[1e-45, 3.4028235677973366e38, 1e39, -0, 0.1]}}", r, 5);

  char err[200];
  uint32_t w;
  json_t *v = json_string("1.5");
  assert_int_not_equal(case_encode_value(v, CASE_U32, &w, err, sizeof err), 0);
  assert_int_equal(case_encode_value(v, CASE_F32, &w, err, sizeof err), 0);
  assert_int_equal(w, 0x3fc00000);
  json_decref(v);
  v = json_real(2.5);
  assert_int_not_equal(case_encode_value(v, CASE_I32, &w, err, sizeof err), 0);
  assert_non_null(strstr(err, "not an i32"));
  json_decref(v);
  v = json_real(4294967296.0);
  assert_int_not_equal(case_encode_value(v, CASE_U32, &w, err, sizeof err), 0);
  json_decref(v);
  v = json_string("0x123456789"); /* nine digits: not raw bits */
  assert_int_not_equal(case_encode_value(v, CASE_U32, &w, err, sizeof err), 0);
  json_decref(v);
  v = json_true();
  assert_int_not_equal(case_encode_value(v, CASE_F32, &w, err, sizeof err), 0);
  json_decref(v);
}

/* ------------------------------------------------------------ bad cases */

#define HEAD "{\"format\": \"wgsl-compute-case/1\", \"shader\": \"x.wgsl\", "
#define BUF0 "{\"name\": \"d\", \"binding\": 0, \"kind\": \"storage\", \"type\": \"u32\", \"count\": 4}"

static void test_malformed(void **state) {
  expect_error("{\"format\": ", "t.json:1:");
  expect_error("[]", "t.json: expected a JSON object at the top");
  expect_error("{\"format\": \"wgsl-compute-case/9\"}", "t.json: format: \"wgsl-compute-case/9\"");
  expect_error("{\"format\": \"wgsl-compute-case/2\"}", "t.json: missing required field \"modules\"");
  expect_error(HEAD "\"pipelines\": {}, \"dispatches\": [], \"readback\": []}",
               "t.json: missing required field \"buffers\"");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"kind\": \"storage\", "
                    "\"binding\": 0, \"type\": \"u32\"}], \"dispatches\": [], \"readback\": []}",
               "t.json: buffers[0]: missing required field \"count\"");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"kind\": \"storage\", "
                    "\"binding\": 0, \"type\": \"u32\", \"count\": \"4\"}], \"dispatches\": [], "
                    "\"readback\": []}",
               "t.json: buffers[0].count: expected a positive integer");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"kind\": \"storage\", "
                    "\"binding\": -1, \"type\": \"u32\", \"count\": 4}], \"dispatches\": [], "
                    "\"readback\": []}",
               "t.json: buffers[0].binding: expected a non-negative integer");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"kind\": \"storage\", "
                    "\"type\": \"u32\", \"count\": 4}], \"dispatches\": [], \"readback\": []}",
               "missing required field \"binding\"");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"kind\": \"texture\", "
                    "\"binding\": 0, \"type\": \"u32\", \"count\": 4}], \"dispatches\": [], "
                    "\"readback\": []}",
               "t.json: buffers[0].kind: bad kind \"texture\"");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], "
                    "\"readback\": [\"e\"]}",
               "t.json: readback[0]: no buffer named 'e'");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 ", " BUF0 "], \"dispatches\": [], "
                    "\"readback\": []}",
               "t.json: buffers[1].name: duplicate buffer name 'd'");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 ", {\"name\": \"e\", \"binding\": 0, "
                    "\"kind\": \"uniform\", \"type\": \"u32\", \"count\": 4}], \"dispatches\": [], "
                    "\"readback\": []}",
               "buffers 'd' and 'e' are both at @group(0) @binding(0)");
  expect_error(HEAD "\"pipelines\": {\"p\": {\"entryPoint\": \"main\", \"buffers\": [\"x\"]}}, "
                    "\"buffers\": [" BUF0 "], \"dispatches\": [], \"readback\": []}",
               "t.json: pipelines.p.buffers[0]: no buffer named 'x'");
  expect_error(HEAD "\"pipelines\": {\"p\": {\"entryPoint\": \"main\"}}, \"buffers\": [" BUF0 "], "
                    "\"dispatches\": [{\"pipeline\": \"q\", \"workgroups\": [1]}], "
                    "\"readback\": []}",
               "t.json: dispatches[0].pipeline: no pipeline named 'q'");
  expect_error(HEAD "\"pipelines\": {\"p\": {\"entryPoint\": \"main\"}}, \"buffers\": [" BUF0 "], "
                    "\"dispatches\": [{\"pipeline\": \"p\", \"indirect\": {\"buffer\": \"zz\"}}], "
                    "\"readback\": []}",
               "t.json: dispatches[0].indirect.buffer: no buffer named 'zz'");
  expect_error(HEAD "\"pipelines\": {\"p\": {\"entryPoint\": \"main\"}}, \"buffers\": [" BUF0 "], "
                    "\"dispatches\": [{\"pipeline\": \"p\", \"workgroups\": [1, 2, 3, 4]}], "
                    "\"readback\": []}",
               "t.json: dispatches[0].workgroups: expected a list of 1 to 3");
  expect_error(HEAD "\"pipelines\": {\"p\": {\"entryPoint\": \"main\"}}, \"buffers\": [" BUF0 "], "
                    "\"dispatches\": [{\"pipeline\": \"p\", \"indirect\": {\"buffer\": \"d\"}}], "
                    "\"readback\": []}",
               "holds the indirect arguments and pipeline 'p' binds it as writable storage");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"binding\": 0, \"kind\": "
                    "\"storage\", \"type\": \"u32\", \"count\": 2, \"init\": {\"data\": [1, 2, 3]}}],"
                    " \"dispatches\": [], \"readback\": []}",
               "t.json: buffers[0].init.data[2]: past the end of buffer 'd'");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], "
                    "\"readback\": [], \"compare\": {\"d\": {\"mode\": \"fuzzy\"}}}",
               "t.json: compare.d.mode: bad mode \"fuzzy\"");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], "
                    "\"readback\": [], \"compare\": {\"e\": \"exact\"}}",
               "t.json: compare.e: no buffer named 'e'");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], "
                    "\"readback\": [], \"device\": {\"requiredLimits\": {\"maxBufferSize\": "
                    "\"big\"}}}",
               "t.json: device.requiredLimits.maxBufferSize: expected a non-negative integer");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], "
                    "\"readback\": [], \"device\": {\"requiredFeatures\": \"subgroups\"}}",
               "t.json: device.requiredFeatures: expected an array of feature names, not a string");
  expect_error(HEAD "\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], "
                    "\"readback\": [], \"device\": {\"requiredFeatures\": [\"subgroups\", 3]}}",
               "t.json: device.requiredFeatures[1]: expected a string");
}

/* Issue 11: "at": 2^64 was accepted and wrote at word 0 (the double 2^64
 * has no uint64_t; the conversion was undefined). Every number of a case
 * file that is a position, count, size, offset, index or limit is now
 * checked against its field's range before it is converted, with the
 * field's JSON path in the message. */
#define B(extra) "{\"name\": \"d\", \"binding\": 0, \"kind\": \"storage\", \"type\": \"u32\", " \
                 "\"count\": 4" extra "}"
#define P1 "\"pipelines\": {\"p\": {\"entryPoint\": \"main\"}}, "
static void test_issue11_number_fields(void **state) {
  static const struct {
    const char *json; /* a buffer entry, or (starting with '"') the rest of a case */
    const char *want;
  } bad[] = {
      {B(", \"init\": {\"at\": 18446744073709551616, \"fill\": 1}"),
       "t.json: buffers[0].init.at: 18446744073709551616 is too large (at most 4)"},
      {B(", \"init\": {\"at\": 18446744073709551616, \"data\": [7]}"),
       "t.json: buffers[0].init.at: 18446744073709551616 is too large (at most 4)"},
      {B(", \"init\": {\"at\": 9007199254740993, \"data\": [7]}"),
       "t.json: buffers[0].init.at: 9007199254740992 is too large (at most 4)"},
      {B(", \"init\": [{\"fill\": 2}, {\"count\": 18446744073709551616, \"fill\": 1}]"),
       "t.json: buffers[0].init[1].count: 18446744073709551616 is too large (at most 4)"},
      {B(", \"init\": {\"at\": -1, \"fill\": 1}"),
       "t.json: buffers[0].init.at: expected a non-negative integer, not -1"},
      {B(", \"init\": {\"at\": 1.5, \"fill\": 1}"),
       "t.json: buffers[0].init.at: expected a non-negative integer, not 1.5"},
      {B(", \"init\": {\"at\": 2, \"count\": 3, \"fill\": 1}"),
       "t.json: buffers[0].init: words [2, 5) go past the end of buffer 'd'"},
      {"{\"name\": \"d\", \"binding\": 0, \"kind\": \"storage\", \"type\": \"u32\", "
       "\"count\": 18446744073709551616}",
       "t.json: buffers[0].count: buffer 'd' is too large (at most 268435456 words)"},
      {"{\"name\": \"d\", \"binding\": 0, \"kind\": \"storage\", \"type\": \"u32\", "
       "\"count\": 1e400}",
       "t.json:1:"},
      {B(", \"bindOffset\": 18446744073709551616"),
       "t.json: buffers[0].bindOffset: 18446744073709551616 is too large (at most 9007199254740992)"},
      {B(", \"bindSize\": -4"), "t.json: buffers[0].bindSize: expected a non-negative integer, not -4"},
      {B(", \"logicalCount\": 5"), "t.json: buffers[0].logicalCount: 5 is too large (at most 4)"},
      {"{\"name\": \"d\", \"group\": 4294967296, \"binding\": 0, \"kind\": \"storage\", "
       "\"type\": \"u32\", \"count\": 4}",
       "t.json: buffers[0].group: 4294967296 is too large (at most 4294967295)"},
      {"\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], \"readback\": [], "
       "\"compare\": {\"d\": [{\"range\": [3, 1], \"mode\": \"ignore\"}]}}",
       "t.json: compare.d[0].range: [3, 1) ends before it begins"},
      {"\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], \"readback\": [], "
       "\"compare\": {\"d\": [{\"range\": [0, 5], \"mode\": \"ignore\"}]}}",
       "t.json: compare.d[0].range[1]: 5 is too large (at most 4)"},
      {P1 "\"buffers\": [" BUF0 "], \"dispatches\": [{\"pipeline\": \"p\", "
       "\"workgroups\": [4294967296]}], \"readback\": []}",
       "t.json: dispatches[0].workgroups[0]: 4294967296 is too large (at most 4294967295)"},
      {P1 "\"buffers\": [" BUF0 "], \"dispatches\": [{\"pipeline\": \"p\", "
       "\"workgroups\": [1, 2.5]}], \"readback\": []}",
       "t.json: dispatches[0].workgroups[1]: expected a non-negative integer, not 2.5"},
      {P1 "\"buffers\": [" BUF0 ", {\"name\": \"i\", \"kind\": \"none\", \"type\": \"u32\", "
       "\"count\": 3}], \"dispatches\": [{\"pipeline\": \"p\", \"indirect\": {\"buffer\": "
       "\"i\", \"offset\": 18446744073709551616}}], \"readback\": []}",
       "t.json: dispatches[0].indirect.offset: 18446744073709551616 is too large"},
      {P1 "\"buffers\": [" BUF0 "], \"dispatches\": [{\"pipeline\": \"p\", "
       "\"workgroups\": [1], \"immediates\": [4294967296]}], \"readback\": []}",
       "t.json: dispatches[0].immediates[0]: 4294967296 is too large (at most 4294967295)"},
      {"\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], \"readback\": [], "
       "\"device\": {\"requiredLimits\": {\"maxBufferSize\": 18446744073709551616}}}",
       "t.json: device.requiredLimits.maxBufferSize: 18446744073709551616 is too large (at most "
       "9007199254740992)"},
      {"\"pipelines\": {}, \"buffers\": [" BUF0 "], \"dispatches\": [], \"readback\": [], "
       "\"adapter\": {\"subgroupSize\": 128}}",
       "t.json: adapter.subgroupSize: 128 is too large (at most 64)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[4096];
    if (bad[i].json[0] == '"')
      snprintf(text, sizeof text, HEAD "%s", bad[i].json);
    else
      snprintf(text, sizeof text,
               HEAD "\"pipelines\": {}, \"buffers\": [%s], \"dispatches\": [], \"readback\": []}",
               bad[i].json);
    expect_error(text, bad[i].want);
  }
  /* The generators' numbers are not positions: they are used as kit.mjs
   * uses them, and JavaScript's ToUint32 is defined for every double. A
   * seed of 2^64 is 2^64 >>> 0 = 0, so the first word is the LCG's
   * increment; 2^64 + 2^12 (the nearest double above 2^64) is 4096. */
  const uint32_t from0[1] = {1013904223u};
  const uint32_t from4096[1] = {4096u * 1664525u + 1013904223u};
  expect_words("{\"name\": \"d\", \"kind\": \"none\", \"type\": \"u32\", \"count\": 1, "
               "\"init\": {\"lcg\": {\"seed\": 18446744073709551616}}}",
               from0, 1);
  expect_words("{\"name\": \"d\", \"kind\": \"none\", \"type\": \"u32\", \"count\": 1, "
               "\"init\": {\"lcg\": {\"seed\": 18446744073709555712}}}",
               from4096, 1);
}
#undef B
#undef P1

/* device.requiredFeatures: the names, in order, for requestDevice */
static void test_required_features(void **state) {
  const char *text =
      "{\"format\": \"wgsl-compute-case/1\", \"name\": \"t\", \"shader\": \"x.wgsl\","
      " \"pipelines\": {}, \"buffers\": [], \"dispatches\": [], \"readback\": [],"
      " \"device\": {\"requiredFeatures\": [\"subgroups\", \"subgroup-size-control\"]}}";
  case_file c;
  char err[512] = "";
  int rc = case_parse(text, strlen(text), "t.json", 0, &c, err, sizeof err);
  if (rc) fprintf(stderr, "unexpected error: %s\n", err);
  assert_int_equal(rc, 0);
  assert_int_equal(c.nfeatures, 2);
  assert_string_equal(c.features[0], "subgroups");
  assert_string_equal(c.features[1], "subgroup-size-control");
  case_free(&c);
}

/* The texture extension: a kind-none entry with a texture object is bound,
 * with the defaults docs/case-format.md gives; its word count must be its
 * level 0 texels. */
static void test_texture_entry(void **state) {
  case_file c;
  char err[512] = "";
  int rc = load_one("{\"name\": \"t\", \"binding\": 3, \"kind\": \"none\", \"type\": \"u32\","
                    " \"count\": 24, \"texture\": {\"format\": \"rgba16uint\", \"size\": [2, 3, 2],"
                    " \"mipLevelCount\": 2, \"access\": \"sampled\"}}",
                    &c, err, sizeof err);
  if (rc) fprintf(stderr, "unexpected error: %s\n", err);
  assert_int_equal(rc, 0);
  const case_buffer *b = &c.buffers[0];
  assert_true(b->is_texture && case_bound(b));
  assert_int_equal(b->tex_format, LS_FORMAT_RGBA16UINT);
  assert_int_equal(b->tex_dim, LS_TEXTURE_DIMENSION_2D);
  assert_int_equal(b->tex_view_dim, LS_VIEW_DIMENSION_2D_ARRAY); /* 2 layers */
  assert_int_equal(b->tex_sample, LS_SAMPLE_UINT);
  assert_int_equal(b->tex_levels, 2);
  assert_int_equal(b->tex_binding, LS_BINDING_SAMPLED_TEXTURE);
  case_free(&c);

  struct {
    const char *json, *msg;
  } bad[] = {
      {"{\"name\": \"t\", \"binding\": 0, \"kind\": \"none\", \"type\": \"u32\", \"count\": 4,"
       " \"texture\": {\"format\": \"rgba8unorm\", \"size\": [2, 2], \"access\": \"write\"}}",
       "buffers[0].texture.access: bad access \"write\""},
      {"{\"name\": \"t\", \"binding\": 0, \"kind\": \"none\", \"type\": \"u32\", \"count\": 4,"
       " \"texture\": {\"format\": \"bc1-rgba-unorm\", \"size\": [4, 4], \"access\": \"sampled\"}}",
       "buffers[0].texture.format: texture format \"bc1-rgba-unorm\" is not one lockstep holds"},
      {"{\"name\": \"t\", \"binding\": 0, \"kind\": \"none\", \"type\": \"u32\", \"count\": 1,"
       " \"texture\": {\"format\": \"r8uint\", \"size\": [3, 1], \"access\": \"sampled\"}}",
       "is 3 bytes, not a whole number of 4-byte words"},
      {"{\"name\": \"t\", \"binding\": 0, \"kind\": \"storage\", \"type\": \"u32\", \"count\": 4,"
       " \"texture\": {\"format\": \"rgba8unorm\", \"size\": [2, 2], \"access\": \"sampled\"}}",
       "buffers[0].kind: a texture has kind \"none\""},
      {"{\"name\": \"t\", \"kind\": \"none\", \"type\": \"u32\", \"count\": 4,"
       " \"texture\": {\"format\": \"rgba8unorm\", \"size\": [2, 2], \"access\": \"sampled\"}}",
       "missing required field \"binding\""},
      {"{\"name\": \"t\", \"binding\": 0, \"kind\": \"none\", \"type\": \"u32\", \"count\": 5,"
       " \"texture\": {\"format\": \"r32uint\", \"size\": [2, 2], \"access\": \"read-only\"}}",
       "holds 4 words, not 5"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = 0;
    assert_int_equal(load_one(bad[i].json, &c, err, sizeof err), -1);
    if (!strstr(err, bad[i].msg)) fprintf(stderr, "got: %s\n", err);
    assert_non_null(strstr(err, bad[i].msg));
    case_free(&c);
  }
}

/* ------------------------------------------------------------ comparison */

static case_rule rule_float(double ulp) {
  case_rule r;
  memset(&r, 0, sizeof r);
  r.mode = CASE_RULE_FLOAT;
  r.ftz = 1;
  if (ulp >= 0) r.has_ulp = 1, r.ulp = ulp;
  return r;
}

static void test_ulp_and_float_rules(void **state) {
  assert_int_equal(result_ulp_distance(0x3f800000, 0x3f800001), 1);
  assert_int_equal(result_ulp_distance(0x00000000, 0x80000000), 0);    /* +0, -0 */
  assert_int_equal(result_ulp_distance(0x00000001, 0x80000001), 2);    /* across zero */
  assert_int_equal(result_ulp_distance(0x7f7fffff, 0x7f800000), 1);

  case_rule exact;
  memset(&exact, 0, sizeof exact);
  exact.mode = CASE_RULE_EXACT;
  case_rule u1 = rule_float(1), u0 = rule_float(0), none = rule_float(-1);
  /* exact: bits */
  assert_false(result_word_matches(0x00000000, 0x80000000, CASE_F32, &exact));
  assert_true(result_word_matches(0x7fc00000, 0x7fc00000, CASE_F32, &exact));
  /* float: +0 == -0, NaN == NaN (any NaN), NaN != number */
  assert_true(result_word_matches(0x00000000, 0x80000000, CASE_F32, &u0));
  assert_true(result_word_matches(0x7fc00000, 0xffc00001, CASE_F32, &none));
  assert_false(result_word_matches(0x7fc00000, 0x3f800000, CASE_F32, &u1));
  assert_false(result_word_matches(0x7f800000, 0x7f7fffff, CASE_F32, &u1)); /* inf: exact */
  assert_true(result_word_matches(0xff800000, 0xff800000, CASE_F32, &u1));
  /* ulp bound */
  assert_true(result_word_matches(0x3f800000, 0x3f800001, CASE_F32, &u1));
  assert_false(result_word_matches(0x3f800000, 0x3f800002, CASE_F32, &u1));
  assert_false(result_word_matches(0x3f800000, 0x3f800001, CASE_F32, &u0));
  /* subnormals flush to zero unless ftz is off */
  assert_true(result_word_matches(0x00000000, 0x00000005, CASE_F32, &u0));
  u0.ftz = 0;
  assert_false(result_word_matches(0x00000000, 0x00000005, CASE_F32, &u0));
  /* abs and rel bounds */
  case_rule ab = none;
  ab.has_abs = 1, ab.abs = 0.01;
  assert_true(result_word_matches(0x3f800000 /* 1 */, 0x3f8147ae /* 1.01 */, CASE_F32, &ab));
  assert_false(result_word_matches(0x3f800000, 0x3f828f5c /* 1.02 */, CASE_F32, &ab));
  case_rule rl = none;
  rl.has_rel = 1, rl.rel = 0.1;
  assert_true(result_word_matches(0x42c80000 /* 100 */, 0x42d20000 /* 105 */, CASE_F32, &rl));
  assert_false(result_word_matches(0x42c80000, 0x42dc0000 /* 110.0 */ + 1, CASE_F32, &rl));
  /* float rules compare integer words exactly; pad words never */
  assert_false(result_word_matches(1, 2, CASE_U32, &u1));
  assert_true(result_word_matches(1, 2, CASE_PAD, &exact));
}

static void test_ranges_and_ignore(void **state) {
  case_file c;
  char err[512] = "";
  const char *text =
      HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"binding\": 0, \"kind\": "
           "\"storage\", \"type\": [\"f32\", \"pad\"], \"count\": 4}], \"dispatches\": [], "
           "\"readback\": [\"d\"], \"compare\": {\"d\": [{\"range\": [0, 6], \"mode\": "
           "\"float\", \"ulp\": 4}, {\"range\": [2, 3], \"mode\": \"ignore\", \"why\": \"x\"}]}}";
  assert_int_equal(case_parse(text, strlen(text), "t.json", 0, &c, err, sizeof err), 0);
  const case_buffer *b = &c.buffers[0];
  assert_int_equal(case_rule_at(&b->compare, 0)->mode, CASE_RULE_FLOAT);
  assert_int_equal(case_rule_at(&b->compare, 2)->mode, CASE_RULE_IGNORE); /* later wins */
  assert_int_equal(case_rule_at(&b->compare, 6)->mode, CASE_RULE_EXACT);  /* outside */

  uint32_t ref[8] = {0x3f800000, 1, 0x3f800000, 2, 0x3f800000, 3, 0x3f800000, 4};
  uint32_t got[8] = {0x3f800003, 9, 0x12345678, 9, 0x3f800000, 9, 0x3f800000, 9};
  result_buffer rb;
  memset(&rb, 0, sizeof rb);
  rb.hex = ref;
  rb.words = 8;
  FILE *null = fopen("/dev/null", "w");
  assert_int_equal(result_compare(b, got, &rb, null, 5), 0);
  got[6] = 0x3f800001; /* exact outside the ranges */
  assert_int_equal(result_compare(b, got, &rb, null, 5), 1);
  got[6] = 0x3f800000;
  got[4] = 0x3f800005; /* 5 ulp > 4 */
  assert_int_equal(result_compare(b, got, &rb, null, 5), 1);
  rb.words = 7; /* length mismatch */
  assert_true(result_compare(b, got, &rb, null, 5) >= 1);
  fclose(null);
  case_free(&c);
}

/* Relative bounds per range, as 006_subgroup_reduce states them: each
 * range keeps its own rel, and a word just inside passes where the same
 * distance fails under the tighter range. */
static void test_rel_ranges(void **state) {
  case_file c;
  char err[512] = "";
  const char *text =
      HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"s\", \"binding\": 0, \"kind\": "
           "\"storage\", \"type\": \"f32\", \"count\": 4}], \"dispatches\": [], "
           "\"readback\": [\"s\"], \"compare\": {\"s\": [{\"range\": [0, 2], \"mode\": "
           "\"float\", \"rel\": 2.37e-5, \"why\": \"n = 100\"}, {\"range\": [2, 4], \"mode\": "
           "\"float\", \"rel\": 7.87e-6}]}}";
  assert_int_equal(case_parse(text, strlen(text), "t.json", 0, &c, err, sizeof err), 0);
  const case_buffer *b = &c.buffers[0];
  assert_true(case_rule_at(&b->compare, 1)->has_rel);
  assert_false(case_rule_at(&b->compare, 1)->has_ulp);
  /* 32 -> 32 * (1 + 1.5e-5): inside 2.37e-5, outside 7.87e-6 */
  const uint32_t x = 0x42000000 /* 32 */, y = 0x4200007e /* 32.00048 */;
  uint32_t ref[4] = {x, x, x, x};
  uint32_t got[4] = {y, x, x, x};
  result_buffer rb;
  memset(&rb, 0, sizeof rb);
  rb.hex = ref;
  rb.words = 4;
  FILE *null = fopen("/dev/null", "w");
  assert_int_equal(result_compare(b, got, &rb, null, 5), 0);
  got[0] = x, got[3] = y;
  assert_int_equal(result_compare(b, got, &rb, null, 5), 1);
  fclose(null);
  case_free(&c);
}

static void test_compact_reference(void **state) {
  case_file c;
  char err[512] = "";
  const char *text = HEAD "\"pipelines\": {}, \"buffers\": [{\"name\": \"d\", \"binding\": 0, "
                          "\"kind\": \"storage\", \"type\": \"u32\", \"count\": 3}], "
                          "\"dispatches\": [], \"readback\": [\"d\"]}";
  assert_int_equal(case_parse(text, strlen(text), "t.json", 0, &c, err, sizeof err), 0);
  uint32_t got[3] = {1, 2, 0xdeadbeef};
  uint8_t h[32];
  result_sha256_words(got, 3, h);
  static const uint8_t want[32] = {0x90, 0x18, 0x63, 0x40, 0x63, 0x94, 0xc0, 0x79,
                                   0x13, 0x03, 0xfd, 0xa1, 0xba, 0xe0, 0xe7, 0x87,
                                   0x33, 0x37, 0x5a, 0x7c, 0x7d, 0xbe, 0x7d, 0xb1,
                                   0xea, 0x45, 0x0c, 0x61, 0x45, 0xa0, 0xf8, 0xd7};
  assert_memory_equal(h, want, 32);

  const char *ref = "{\"format\": \"wgsl-compute-result/1\", \"case\": \"t\", \"buffers\": {\"d\": "
                    "{\"type\": \"u32\", \"count\": 3, \"words\": 3, \"sha256\": "
                    "\"901863406394c0791303fda1bae0e78733375a7c7dbe7db1ea450c6145a0f8d7\", "
                    "\"samples\": {\"0\": \"0x1\", \"2\": \"0xdeadbeef\"}}}}";
  result_file r;
  assert_int_equal(result_parse(ref, strlen(ref), "r.json", &r, err, sizeof err), 0);
  const result_buffer *rb = result_find(&r, "d");
  assert_non_null(rb);
  assert_true(rb->compact);
  assert_int_equal(rb->nsamples, 2);
  FILE *null = fopen("/dev/null", "w");
  assert_int_equal(result_compare(&c.buffers[0], got, rb, null, 5), 0);
  got[1] = 3; /* not sampled: only the hash sees it */
  assert_int_equal(result_compare(&c.buffers[0], got, rb, null, 5), 1);
  got[1] = 2;
  got[0] = 7; /* sampled */
  assert_true(result_compare(&c.buffers[0], got, rb, null, 5) >= 1);
  fclose(null);
  result_free(&r);

  const char *bad = "{\"format\": \"wgsl-compute-result/1\", \"buffers\": {\"d\": {\"hex\": "
                    "[\"0x1\", \"12\"]}}}";
  assert_int_not_equal(result_parse(bad, strlen(bad), "r.json", &r, err, sizeof err), 0);
  assert_non_null(strstr(err, "r.json: buffers.d.hex[1]"));
  result_free(&r);
  case_free(&c);
}

static void test_word_text(void **state) {
  struct {
    uint32_t w;
    const char *s;
  } f[] = {{0x3dcccccd, "0.1"},       {0x00000001, "1e-45"},         {0x7f7fffff, "3.4028235e+38"},
           {0x42c80000, "100"},       {0x80000000, "-0"},            {0x7fc00000, "NaN"},
           {0xff800000, "-Infinity"}, {0x358637bd, "0.000001"},      {0x34210fb0, "1.5e-7"},
           {0x4ceb79a3, "123456790"}, {0x60ad78ec, "100000000000000000000"}, {0x6258d727, "1e+21"}, {0xbf800000, "-1"}};
  char buf[64];
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    result_word_text(f[i].w, CASE_F32, buf, sizeof buf);
    if (strcmp(buf, f[i].s)) fprintf(stderr, "0x%08x: got %s want %s\n", f[i].w, buf, f[i].s);
    assert_string_equal(buf, f[i].s);
  }
  result_word_text(0xffffffff, CASE_I32, buf, sizeof buf);
  assert_string_equal(buf, "-1");
  result_word_text(0xffffffff, CASE_U32, buf, sizeof buf);
  assert_string_equal(buf, "4294967295");
}

/* ---------------------------------------------------------------- version 2 */

#define V2HEAD                                                                             \
  "{\"format\": \"wgsl-compute-case/2\", \"modules\": {\"m\": {\"code\": \"x\"}}, "        \
  "\"buffers\": {\"b\": {\"size\": 32, \"usage\": [\"storage\", \"copy-src\"], "          \
  "\"type\": [\"f32\", \"u32\"]}}, "

static void test_v2_plan(void **state) {
  /* a write at word 3 types its words from record position 1: u32, f32, ... */
  const char *text = V2HEAD
      "\"commands\": [{\"op\": \"writeBuffer\", \"buffer\": \"b\", \"offset\": 12, \"data\": "
      "{\"data\": [7, 1.5]}}, {\"op\": \"submit\"}, {\"op\": \"readback\", \"name\": \"r\", "
      "\"buffer\": \"b\", \"offset\": 8, \"size\": 16}, {\"op\": \"readback\", \"name\": \"s\", "
      "\"buffer\": \"b\", \"offset\": 24, \"type\": \"i32\"}], \"compare\": {\"s\": \"exact\"}}";
  case_file c;
  char err[512] = "";
  int rc = case_parse(text, strlen(text), "t.json", 0, &c, err, sizeof err);
  if (rc) fprintf(stderr, "%s\n", err);
  assert_int_equal(rc, 0);
  assert_non_null(c.plan);
  assert_int_equal(c.plan->ncmds, 4);
  const case2_cmd *w = &c.plan->cmds[0];
  assert_int_equal(w->size, 8); /* the words the data part writes */
  assert_int_equal(w->data[0], 7u);
  assert_int_equal(w->data[1], 0x3fc00000u); /* 1.5 as f32 */
  /* readbacks are the case's buffer entries: "r" keeps the buffer's type,
   * two records of two words; "s" (the rest, 8 bytes) is i32 */
  assert_int_equal(c.nreadback, 2);
  assert_string_equal(c.buffers[0].name, "r");
  assert_int_equal(c.buffers[0].words, 4);
  assert_int_equal(c.buffers[0].count, 2);
  assert_int_equal(c.buffers[1].words, 2);
  assert_int_equal(c.buffers[1].rec[0], CASE_I32);
  assert_int_equal(c.buffers[1].compare.count, 1);
  case_free(&c);
}

static void test_v2_malformed(void **state) {
  expect_error(V2HEAD "\"commands\": [{\"op\": \"clearBuffer\", \"buffer\": \"x\"}]}",
               "t.json: commands[0].buffer: no buffer named \"x\"");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"clearBuffer\", \"buffer\": \"b\", \"offset\": 8, "
               "\"size\": 28}]}",
               "t.json: commands[0]: bytes [8, 36) go past the end of buffer \"b\" (32 bytes)");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"copyBufferToBuffer\", \"src\": \"b\", \"dst\": "
               "\"b\"}]}",
               "copies buffer \"b\" into itself");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"readback\", \"name\": \"r\", \"buffer\": \"b\", "
               "\"size\": 4}]}",
               "t.json: commands[0]: 1 words are not a whole number of records of 2 words");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"dispatchIndirect\", \"pipeline\": \"p\"}]}",
               "t.json: commands[0].pipeline: no pipeline named \"p\"");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"writeBuffer\", \"buffer\": \"b\", \"data\": "
               "{\"file\": \"f.bin\", \"bytes\": 6, \"sha256\": \"00\"}}]}",
               "t.json: commands[0].data.bytes: 6 is not a multiple of 4");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"writeBuffer\", \"buffer\": \"b\", \"data\": "
               "{\"file\": \"f.bin\", \"bytes\": 4, \"sha256\": \"0g\"}}]}",
               "t.json: commands[0].data.sha256: expected 64 hex digits");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"writeBuffer\", \"buffer\": \"b\", \"data\": "
               "{\"data\": [1]}, \"size\": 40}]}",
               "go past the end of buffer \"b\"");
  expect_error(V2HEAD "\"pipelines\": {\"p\": {\"module\": \"m\", \"layout\": \"pl\"}}, "
               "\"commands\": []}",
               "t.json: pipelines.p.layout: no pipeline layout named \"pl\"");
  expect_error(V2HEAD "\"bindGroupLayouts\": {\"l\": {\"entries\": [{\"binding\": 0, "
               "\"buffer\": {}, \"sampler\": {}}]}}, \"commands\": []}",
               "t.json: bindGroupLayouts.l.entries[0]: both \"buffer\" and \"sampler\"");
  expect_error(V2HEAD "\"commands\": {}}", "t.json: commands: expected a list, not an object");
  expect_error(V2HEAD "\"commands\": [{\"op\": \"submit\"}], \"compare\": {\"q\": \"exact\"}}",
               "t.json: compare.q: no readback named 'q'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lcg_raw),
      cmocka_unit_test(test_lcg_ranges),
      cmocka_unit_test(test_iota),
      cmocka_unit_test(test_parts_records_overlap),
      cmocka_unit_test(test_values),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_issue11_number_fields),
      cmocka_unit_test(test_required_features),
      cmocka_unit_test(test_ulp_and_float_rules),
      cmocka_unit_test(test_ranges_and_ignore),
      cmocka_unit_test(test_rel_ranges),
      cmocka_unit_test(test_compact_reference),
      cmocka_unit_test(test_word_text),
      cmocka_unit_test(test_texture_entry),
      cmocka_unit_test(test_v2_plan),
      cmocka_unit_test(test_v2_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
