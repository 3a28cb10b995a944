/*
 * case.h — the command line program's view of a case file
 * (wgsl-compute-case/1, shared/peers/FORMAT.md) and of result files
 * (wgsl-compute-result/1): case.c loads and checks a case and computes the
 * initial contents of its buffers exactly as the peers' kit.mjs does;
 * result.c writes results, reads reference results and compares words with
 * the case's rules. The case runner (runner.c) drives the API with them.
 */
#ifndef LS_CLI_CASE_H
#define LS_CLI_CASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "lockstep.h"

typedef enum case_word { CASE_U32, CASE_I32, CASE_F32, CASE_PAD } case_word;

typedef enum case_kind {
  CASE_KIND_UNIFORM,
  CASE_KIND_STORAGE,
  CASE_KIND_READ_ONLY_STORAGE,
  CASE_KIND_NONE
} case_kind;

typedef enum case_mode { CASE_RULE_EXACT, CASE_RULE_FLOAT, CASE_RULE_IGNORE } case_mode;

/* One comparison rule; float bounds that are absent do not apply. */
typedef struct case_rule {
  case_mode mode;
  int has_ulp, has_abs, has_rel;
  double ulp, abs, rel;
  int ftz; /* flush subnormals before comparing (default on) */
} case_rule;

typedef struct case_range {
  uint64_t from, to; /* words, half-open */
  case_rule rule;
} case_range;

/* The rules of one buffer in order; a later range overrides an earlier one,
 * words in no range are compared exactly. */
typedef struct case_compare {
  case_range *ranges;
  size_t count;
} case_compare;

typedef struct case_buffer {
  char *name;
  uint32_t group, binding;
  case_kind kind;
  json_t *type; /* as written (a string or a list), for result files */
  case_word *rec;
  size_t rec_len;
  uint64_t count; /* records */
  uint64_t words; /* count * rec_len */
  uint32_t *init; /* the initial words */
  int has_init;   /* the entry has an "init" (else every word is 0) */
  int has_bind_offset, has_bind_size;
  uint64_t bind_offset, bind_size;
  int has_logical_count; /* "logicalCount": live records, for the sanitizer */
  uint64_t logical_count;
  int indirect; /* some dispatch reads its arguments from it */
  case_compare compare;
  /* lockstep's texture extension ("texture": {...}): the words are the
   * texels of mip level 0, every layer, rows tightly packed */
  int is_texture;
  ls_binding_type tex_binding; /* LS_BINDING_*_TEXTURE */
  ls_texture_format tex_format;
  ls_texture_dimension tex_dim;
  uint32_t tex_size[3];
  uint32_t tex_levels;
  ls_view_dimension tex_view_dim;
  ls_texture_sample_type tex_sample;
  uint32_t tex_samples; /* "sampleCount": 1 or 4 (multisampled: no contents) */
  int tex_all_levels; /* "initLevels": "all": the words are every mip level's
                         texels, level after level */
  /* ... and its sampler extension ("sampler": {...}): a GPUSampler */
  int is_sampler;
  ls_sampler_desc smp_desc;
  ls_binding_type smp_binding; /* LS_BINDING_*_SAMPLER */
} case_buffer;

/* Bound at a group and binding: a buffer of a kind other than none, a
 * texture or a sampler. */
int case_bound(const case_buffer *b);
/* Bytes of mip level `level` of a texture entry, tightly packed. */
uint64_t case_texture_level_bytes(const case_buffer *b, uint32_t level);

typedef struct case_pipeline {
  char *name;
  char *entry; /* NULL: the shader's only entry point */
  ls_constant_entry *constants;
  size_t nconstants;
  size_t *buffers; /* indices into case_file.buffers */
  size_t nbuffers;
} case_pipeline;

typedef struct case_dispatch {
  size_t pipeline;
  int indirect;
  uint32_t workgroups[3];
  size_t buffer; /* indirect */
  uint64_t offset;
  /* lockstep's "immediates": u32 words set with setImmediates(0, ...)
   * before the dispatch (var<immediate>) */
  uint32_t immediates[64];
  uint32_t nimmediates;
} case_dispatch;

struct case2_plan;

typedef struct case_file {
  char *path;
  char *name;
  char *title; /* optional one-line description; NULL when absent */
  char *text; /* the case JSON as read */
  size_t text_len;
  char *shader_path; /* as the user would open it (relative to the cwd) */
  char *shader_code;
  size_t shader_len;
  case_buffer *buffers;
  size_t nbuffers;
  case_pipeline *pipelines;
  size_t npipelines;
  case_dispatch *dispatches;
  size_t ndispatches;
  size_t *readback;
  size_t nreadback;
  /* extensions: "device": {"requiredLimits": {...}, "requiredFeatures":
   * [...]}, "adapter": {...} */
  ls_required_limit *limits;
  size_t nlimits;
  char **features;
  size_t nfeatures;
  char *profile;
  uint32_t subgroup_size;
  /* Version 2 (case2.h): the objects and commands; NULL for version 1.
   * Its readbacks are then the entries of buffers (name, type, words and
   * compare rules; readback[k] = k), ndispatches counts its dispatch
   * commands, and pipelines and the shader fields stay empty. */
  struct case2_plan *plan;
} case_file;

/* What case_load, case_parse and result_load return when memory ran out
 * (the run failed, exit 3) rather than the file being wrong (-1, exit 2). */
#define CASE_NO_MEMORY (-2)

/* Reads and checks a case file and its shader (both through cli_io.h's
 * bounded reader). On failure returns -1 with a message naming the file
 * and the JSON path of the bad field in err, or CASE_NO_MEMORY. */
int case_load(const char *path, case_file *c, char *err, size_t errlen);
/* The same from text already in memory; the shader is read only when
 * read_shader is set. */
int case_parse(const char *text, size_t len, const char *path, int read_shader, case_file *c,
               char *err, size_t errlen);
void case_free(case_file *c);
void case2_free(struct case2_plan *p);

/* The word encoding of FORMAT.md (kit.mjs encodeValue): a JSON number or
 * string as a word of type t. Returns -1 with a message on a bad value. */
int case_encode_value(const json_t *v, case_word t, uint32_t *out, char *err, size_t errlen);
/* The LCG of FORMAT.md: the next state (which is also the word). */
uint32_t case_lcg_next(uint32_t *state);
/* Rule applying to word i of a buffer. */
const case_rule *case_rule_at(const case_compare *c, uint64_t i);
const char *case_word_name(case_word t);
double case_f32_value(uint32_t bits);
uint32_t case_f32_bits(double v);

/* ---------------------------------------------------------------- results */

/* What a result file says about the implementation. */
typedef struct result_impl {
  const char *version;
  uint32_t subgroup_size, threads;
  const char *profile;
} result_impl;

typedef struct result_message {
  const char *type; /* "error", "warning", "info" */
  uint32_t line, column;
  const char *message;
} result_message;

/* Writes a wgsl-compute-result/1 file to f (an output of cli_io.h, whose
 * close reports a write error); words[i] are the read-back words of
 * c->buffers[c->readback[i]]. */
void result_write(FILE *f, const case_file *c, uint32_t *const *words, const result_impl *impl,
                  const result_message *msgs, size_t nmsgs);

/* One buffer of a reference result: all words (hex), or the compact form
 * (word count, SHA-256 of the words and some sampled words). */
typedef struct result_buffer {
  char *name;
  int compact;
  uint32_t *hex;
  uint64_t words;
  int has_sha;
  uint8_t sha[32];
  uint64_t *sample_index;
  uint32_t *sample_word;
  size_t nsamples;
} result_buffer;

typedef struct result_file {
  char *case_name;
  result_buffer *buffers;
  size_t nbuffers;
} result_file;

/* 0, -1 with a message, or CASE_NO_MEMORY. */
int result_load(const char *path, result_file *r, char *err, size_t errlen);
/* Compares read-back words with the reference at path (see result.c):
 * an exit status of cli_exit.h. */
int result_expect(const case_file *c, uint32_t *const *words, const char *path);
int result_parse(const char *text, size_t len, const char *path, result_file *r, char *err,
                 size_t errlen);
void result_free(result_file *r);
const result_buffer *result_find(const result_file *r, const char *name);

/* Does word `got` pass against `expected` under rule r for word type t? */
int result_word_matches(uint32_t expected, uint32_t got, case_word t, const case_rule *r);
/* Distance in units in the last place between two f32 patterns, +0 == -0. */
uint64_t result_ulp_distance(uint32_t a, uint32_t b);

/* Compares one read-back buffer against its reference and prints up to
 * max_report differing words to out. Returns the number of differing words
 * (a length or hash mismatch counts as at least 1). */
uint64_t result_compare(const case_buffer *b, const uint32_t *got, const result_buffer *ref,
                        FILE *out, int max_report);

/* SHA-256 of words as little-endian bytes, and of plain bytes. */
void result_sha256_words(const uint32_t *words, uint64_t n, uint8_t out[32]);
void result_sha256_bytes(const void *data, size_t n, uint8_t out[32]);

/* Text of one word for people: decimal by type, f32 as the shortest
 * decimal that reads back to the same f32, "NaN", "Infinity", "-0". */
void result_word_text(uint32_t w, case_word t, char *buf, size_t len);

#endif
