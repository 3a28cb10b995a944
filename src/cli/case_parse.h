/*
 * case_parse.h — the field readers that case.c (version 1) and case2.c
 * (version 2) share, so that both formats check numbers, name JSON paths,
 * encode words and read init parts, samplers and compare rules the same
 * way. Internal to the `lockstep` command; the functions live in case.c.
 */
#ifndef LS_CLI_CASE_PARSE_H
#define LS_CLI_CASE_PARSE_H

#include "case.h"

/* Buffers beyond this are refused before any memory is spent on them (the
 * device would refuse them anyway: maxBufferSize is at most 1 GiB). A build
 * may lower it (fuzz/run.sh does). */
#ifndef CASE_MAX_WORDS
#define CASE_MAX_WORDS ((uint64_t)1 << 28)
#endif

/* Where parsing is: the file for messages and the message buffer. */
typedef struct case_ctx {
  const char *file;
  char *err;
  size_t errlen;
  int nomem; /* the failure was memory running out, not the file */
} case_ctx;

/* JSON paths for messages: "buffers[2].init[1].data[5]". */
typedef struct case_path {
  char s[256];
} case_path;

/* "FILE: AT: message" into x->err; returns -1. */
int case_fail(case_ctx *x, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int case_nomem(case_ctx *x, const char *at);
char *case_strdup(const char *s);
const char *case_json_type(const json_t *v);
uint32_t case_to_uint32(double v);
case_path case_key(const char *base, const char *key);
case_path case_index(const char *base, size_t i);
/* A whole number from 0 to max (at most 2^53). */
int case_uint(case_ctx *x, const json_t *v, const char *at, uint64_t max, uint64_t *out);
int case_opt_uint(case_ctx *x, const json_t *obj, const char *base, const char *key,
                  uint64_t max, uint64_t dflt, uint64_t *out, int *present);
int case_string(case_ctx *x, const json_t *v, const char *at, const char **out);
const json_t *case_required(case_ctx *x, const json_t *obj, const char *base, const char *key);
/* A word type or record into b->rec / b->rec_len. */
int case_record(case_ctx *x, const json_t *type, const char *at, case_buffer *b);
/* One init part into b->init (b->words words typed by b->rec). */
int case_init_part(case_ctx *x, const json_t *part, const char *at, case_buffer *b);
int case_enum(case_ctx *x, const json_t *obj, const char *at, const char *key,
              const char *const *names, int n, int dflt, int *out);
int case_opt_float(case_ctx *x, const json_t *obj, const char *at, const char *key, float *out);
/* A GPUSamplerDescriptor into b->smp_desc (and the layout type). */
int case_sampler(case_ctx *x, const json_t *js, const char *at, case_buffer *b);
int case_rule_parse(case_ctx *x, const json_t *v, const char *at, int in_list, case_range *out,
                    uint64_t nwords);
/* "compare": rules for the entries of c->buffers by name. */
int case_compare_parse(case_ctx *x, case_file *c, const json_t *jc);
/* "device" and "adapter". */
int case_extensions(case_ctx *x, case_file *c, const json_t *root);
/* rel relative to the folder of file. */
char *case_join(const char *file, const char *rel);
char *case_basename_noext(const char *path);

/* Version 2 (case2.c): the rest of root after "format", "name" and
 * "title"; read_files: read the modules' files and the side files. */
int case2_parse(case_ctx *x, case_file *c, const json_t *root, int read_files);

#endif
