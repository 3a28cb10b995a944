/*
 * builtins.c — the tables of builtins.def (functions, overload classes,
 * extensions, uniformity behaviours) as const data, and the lookup of a
 * built-in function by its WGSL name, which the resolver does for every
 * call it cannot bind to a declaration (sema_expr.c).
 */
#include <pthread.h>
#include <string.h>

#include "builtins.h"

static const builtin_info fns[BF_COUNT] = {
#define BUILTIN(id, nm, kind_, args_, targs_, eval_, lower_, ext_, stage_, unif_, mem_, use_, fx_) \
  [BF_##id] = {.name = nm, .kind = BK_##kind_, .args = args_, .targs = targs_,                     \
               .eval = BE_##eval_, .lower = BL_##lower_, .ext = BX_##ext_, .stage = BS_##stage_,  \
               .unif = BU_##unif_, .mem = BM_##mem_, .use = BR_##use_, .fx = BFX_##fx_},
#include "builtins.def"
};

static const builtin_class_info classes[BK_COUNT] = {
#define BUILTIN_CLASS(name, targs_by_, args_by_) \
  [BK_##name] = {.targs_by = BC_##targs_by_, .args_by = BC_##args_by_},
#include "builtins.def"
};

static const builtin_ext_info exts[BX_COUNT] = {
#define BUILTIN_EXT(name, directive_, gate_) [BX_##name] = {.directive = directive_, .gate = BG_##gate_},
#include "builtins.def"
};

static const builtin_unif_info unifs[BU_COUNT] = {
#define BUILTIN_UNIFORMITY(name, call_, result_, param_, param_name_) \
  [BU_##name] = {.call = BUC_##call_, .result = BUR_##result_, .param = param_, .param_name = param_name_},
#include "builtins.def"
};

const builtin_info *builtin_fn_info(builtin_fn f) { return &fns[f]; }
const builtin_class_info *builtin_class_info_of(builtin_kind k) { return &classes[k]; }
const builtin_ext_info *builtin_ext_info_of(builtin_ext x) { return &exts[x]; }
const builtin_unif_info *builtin_unif_info_of(builtin_unif u) { return &unifs[u]; }
const char *builtin_fn_name(builtin_fn f) { return fns[f].name; }
builtin_kind builtin_fn_kind(builtin_fn f) { return fns[f].kind; }

/* Open-addressed hash of the names: slot = 1 + builtin_fn, 0 empty. Built
 * on first use; pthread_once makes two modules compiled at once on two
 * threads wait for one complete table instead of racing to fill it. */
#define NAME_SLOTS 512
_Static_assert(BF_COUNT <= NAME_SLOTS / 2, "builtins.def outgrew the name hash: double NAME_SLOTS");

static short name_slot[NAME_SLOTS];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static unsigned hash_str(const char *s) {
  unsigned h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static void build_names(void) {
  for (int i = 0; i < BF_COUNT; i++) {
    unsigned h = hash_str(fns[i].name) & (NAME_SLOTS - 1);
    while (name_slot[h]) h = (h + 1) & (NAME_SLOTS - 1);
    name_slot[h] = (short)(i + 1);
  }
}

int builtin_find(const char *n) {
  pthread_once(&names_once, build_names);
  unsigned h = hash_str(n) & (NAME_SLOTS - 1);
  while (name_slot[h]) {
    int i = name_slot[h] - 1;
    if (!strcmp(fns[i].name, n)) return i;
    h = (h + 1) & (NAME_SLOTS - 1);
  }
  return -1;
}
