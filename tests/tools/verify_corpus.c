/*
 * verify_corpus.c — the bytecode verifier over the test corpus (ctest
 * ir.verify_corpus): every .wgsl file under the directories given is
 * compiled and each compute entry point lowered (default limits raised to
 * 1024 invocations and 32768 bytes of workgroup storage, no override
 * values); every case file (.json, wgsl-compute-case/1) has each of its
 * pipelines lowered with its constants and requiredLimits. Each program
 * lowering produces must pass ir_verify; shaders that are invalid or
 * cannot be lowered (an override without a value, a refused feature) are
 * counted, not failed: their diagnostics are other tests' business.
 *
 *   verify_corpus [--min N] DIR...
 *
 * Exit 0 when every lowered program verified and at least N were lowered
 * (so that a corpus that stopped lowering cannot pass by having nothing to
 * verify), 1 otherwise, 2 on bad usage.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../fuzz/fuzz_file.h"
#include "ir/lower.h"
#include "wgsl/sema.h"

typedef struct tally {
  unsigned files, invalid, lowered, not_lowered, rejected;
} tally;

static void wide_limits(ls_limits *lim) {
  ls_limits_default(lim);
  lim->max_compute_invocations_per_workgroup = 1024;
  lim->max_compute_workgroup_size_x = 1024;
  lim->max_compute_workgroup_size_y = 1024;
  lim->max_compute_workgroup_size_z = 64;
  lim->max_compute_workgroup_storage_size = 32768;
}

/* Lowers one entry point and verifies what comes out. */
static void lower_one(const char *file, wgsl_module *m, const char *entry,
                      const ls_constant_entry *cs, size_t ncs, const ls_limits *lim, tally *t) {
  diag_list d;
  diag_init(&d);
  ir_program *p = lower_pipeline(m, entry, cs, ncs, lim, &d);
  diag_free(&d);
  if (!p) {
    t->not_lowered++;
    return;
  }
  t->lowered++;
  char err[256];
  if (!ir_verify(p, err, sizeof err)) {
    t->rejected++;
    fprintf(stderr, "%s: entry point '%s': the verifier rejects the lowered program: %s\n", file,
            entry, err);
  }
  ir_program_free(p);
}

static wgsl_module *compile(const char *path, tally *t) {
  size_t len;
  char *src = fz_read_file(path, &len);
  if (!src) {
    fprintf(stderr, "%s: cannot read\n", path);
    t->rejected++;
    return NULL;
  }
  wgsl_module *m = wgsl_module_compile(src, len, path);
  free(src);
  if (!m || !wgsl_module_ok(m) || !m->ast) {
    t->invalid++;
    wgsl_module_free(m);
    return NULL;
  }
  return m;
}

static void do_wgsl(const char *path, tally *t) {
  wgsl_module *m = compile(path, t);
  if (!m) return;
  ls_limits lim;
  wide_limits(&lim);
  for (int i = 0; i < m->ast->ndecls; i++) {
    const ast_decl *d = m->ast->decls[i];
    if (d->kind == DECL_FN && d->stage == 1) lower_one(path, m, d->name, NULL, 0, &lim, t);
  }
  wgsl_module_free(m);
}

/* requiredLimits by their WebGPU names (the few the corpus raises). */
static void case_limits(json_t *root, ls_limits *lim) {
  wide_limits(lim);
  json_t *rl = json_object_get(json_object_get(root, "device"), "requiredLimits");
  const char *k;
  json_t *v;
  json_object_foreach(rl, k, v) {
    if (!json_is_integer(v)) continue;
    const uint64_t x = (uint64_t)json_integer_value(v);
    if (!strcmp(k, "maxComputeInvocationsPerWorkgroup")) lim->max_compute_invocations_per_workgroup = x;
    else if (!strcmp(k, "maxComputeWorkgroupSizeX")) lim->max_compute_workgroup_size_x = x;
    else if (!strcmp(k, "maxComputeWorkgroupSizeY")) lim->max_compute_workgroup_size_y = x;
    else if (!strcmp(k, "maxComputeWorkgroupSizeZ")) lim->max_compute_workgroup_size_z = x;
    else if (!strcmp(k, "maxComputeWorkgroupStorageSize")) lim->max_compute_workgroup_storage_size = x;
  }
}

static void do_case(const char *path, tally *t) {
  json_t *root = json_load_file(path, 0, NULL);
  const char *fmt = json_string_value(json_object_get(root, "format"));
  const char *shader = json_string_value(json_object_get(root, "shader"));
  if (!fmt || strcmp(fmt, "wgsl-compute-case/1") || !shader) {
    json_decref(root);
    return; /* a result file, or another kind of JSON */
  }
  char spath[4096];
  const char *slash = shader[0] == '/' ? NULL : strrchr(path, '/');
  snprintf(spath, sizeof spath, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, shader);
  struct stat st;
  if (stat(spath, &st) == 0 && !S_ISREG(st.st_mode)) {
    json_decref(root);
    return; /* an error case's shader that is a device (/dev/zero), not WGSL */
  }
  t->files++;
  wgsl_module *m = compile(spath, t);
  if (m) {
    ls_limits lim;
    case_limits(root, &lim);
    const char *name;
    json_t *pl;
    json_object_foreach(json_object_get(root, "pipelines"), name, pl) {
      const char *entry = json_string_value(json_object_get(pl, "entryPoint"));
      json_t *consts = json_object_get(pl, "constants");
      ls_constant_entry cs[64];
      size_t n = 0;
      const char *k;
      json_t *v;
      json_object_foreach(consts, k, v) {
        if (n < 64 && json_is_number(v)) cs[n++] = (ls_constant_entry){.key = k, .value = json_number_value(v)};
      }
      lower_one(path, m, entry, cs, n, &lim, t);
    }
    wgsl_module_free(m);
  }
  json_decref(root);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .wgsl and .json below dir, in name order (stable output). */
static void walk(const char *dir, tally *t) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "%s: cannot open\n", dir);
    t->rejected++;
    return;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char **nn = realloc(names, (n + 1) * sizeof *nn);
    if (!nn) break;
    names = nn;
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      walk(path, t);
    } else if (ends_with(path, ".wgsl")) {
      t->files++;
      do_wgsl(path, t);
    } else if (ends_with(path, ".json")) {
      do_case(path, t);
    }
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  unsigned min = 0;
  tally t = {0};
  int dirs = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--min") && i + 1 < argc) {
      min = (unsigned)strtoul(argv[++i], NULL, 10);
      continue;
    }
    walk(argv[i], &t);
    dirs++;
  }
  if (!dirs) {
    fprintf(stderr, "usage: verify_corpus [--min N] DIR...\n");
    return 2;
  }
  printf("%u shaders and cases: %u programs lowered, %u rejected by the verifier; "
         "%u entry points not lowerable, %u invalid shaders\n",
         t.files, t.lowered, t.rejected, t.not_lowered, t.invalid);
  if (t.lowered < min) {
    fprintf(stderr, "only %u programs were lowered, fewer than the %u expected\n", t.lowered, min);
    return 1;
  }
  return t.rejected ? 1 : 0;
}
