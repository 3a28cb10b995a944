/*
 * directives.c — the `enable` extensions and `requires` language features
 * lockstep knows (the rows of directives.def), for sema.c's directive check
 * and for the public list of language features (wgslLanguageFeatures).
 */
#include <string.h>

#include "sema_int.h"
#include "wgsl.h"

#define F(member) offsetof(sctx, member)
#define EXTENSION(name, flag, implies) {#name, flag, implies},
#define LANGUAGE(name, runs)
static const sema_extension k_extensions[] = {
#include "directives.def"
};
#undef EXTENSION
#undef LANGUAGE
#undef F

#define EXTENSION(name, flag, implies)
#define LANGUAGE(name, runs) #name,
static const char *const k_languages[] = {
#include "directives.def"
};
#undef LANGUAGE

/* Only the rows that run: RUNS_1 keeps a name, RUNS_0 drops it. */
#define RUNS_1(name) #name,
#define RUNS_0(name)
#define LANGUAGE(name, runs) RUNS_##runs(name)
static const char *const k_running[] = {
#include "directives.def"
    NULL};
#undef LANGUAGE
#undef EXTENSION

const sema_extension *sema_extension_find(const char *name) {
  for (size_t i = 0; i < sizeof k_extensions / sizeof *k_extensions; i++)
    if (!strcmp(k_extensions[i].name, name)) return &k_extensions[i];
  return NULL;
}

int sema_language_known(const char *name) {
  for (size_t i = 0; i < sizeof k_languages / sizeof *k_languages; i++)
    if (!strcmp(k_languages[i], name)) return 1;
  return 0;
}

const char *const *wgsl_language_features(void) { return k_running; }
