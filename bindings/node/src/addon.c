/*
 * addon.c — the Node.js binding's entry: module init, the export table, the
 * handle wraps and the event channel back to JavaScript.
 *
 * Events: lockstep calls back on its queue thread (maps, work done, device
 * loss, warnings) or on the calling thread (validation errors). Either way
 * the callback only posts an nd_event to one thread-safe function; its
 * call_js runs on the main thread, from the event loop, and hands the event
 * to the JavaScript dispatcher (lib/native.js), so JavaScript is never
 * entered from a foreign thread or from inside a lockstep call. The
 * thread-safe function is referenced (keeps the loop alive) only while the
 * main thread has requests outstanding: each request adds one to `pending`
 * and its completion event takes it away.
 */
#include "addon.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nd_event {
  nd_event_kind kind;
  uint32_t id;
  int32_t status;
  int counted;   /* posted from the main thread: holds a pending count */
  char *message; /* malloc'd or NULL */
} nd_event;

static napi_threadsafe_function g_tsfn;
static pthread_t g_main;
static atomic_int g_closing;
static uint32_t g_pending; /* main thread only */
static napi_env g_env;      /* the one environment the addon serves (no workers) */

/* --------------------------------------------------------------- values */

napi_value nd_undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

napi_value nd_bool(napi_env env, int b) {
  napi_value v;
  napi_get_boolean(env, b != 0, &v);
  return v;
}

napi_value nd_u32(napi_env env, uint32_t x) {
  napi_value v;
  napi_create_uint32(env, x, &v);
  return v;
}

napi_value nd_f64(napi_env env, double x) {
  napi_value v;
  napi_create_double(env, x, &v);
  return v;
}

napi_value nd_str(napi_env env, const char *s) {
  napi_value v;
  if (!s) return nd_undefined(env);
  napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v);
  return v;
}

napi_value nd_throw(napi_env env, const char *code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  napi_throw_error(env, code, msg);
  return NULL;
}

/* Every export is reached through call(op, ...args) (init, below): the
 * first argument is the operation's number, the function's own start at
 * the second. */
int nd_args(napi_env env, napi_callback_info info, size_t n, napi_value *argv) {
  napi_value all[ND_MAX_ARGS + 1];
  size_t got = n + 1;
  if (n > ND_MAX_ARGS || napi_get_cb_info(env, info, &got, all, NULL, NULL) != napi_ok) return 0;
  for (size_t i = 0; i < n; i++) argv[i] = i + 1 < got ? all[i + 1] : nd_undefined(env);
  return 1;
}

static napi_valuetype type_of(napi_env env, napi_value v) {
  napi_valuetype t = napi_undefined;
  if (v) napi_typeof(env, v, &t);
  return t;
}

int nd_is_nullish(napi_env env, napi_value v) {
  napi_valuetype t = type_of(env, v);
  return t == napi_undefined || t == napi_null;
}

uint32_t nd_get_u32(napi_env env, napi_value v) {
  uint32_t x = 0;
  napi_get_value_uint32(env, v, &x);
  return x;
}

int32_t nd_get_i32(napi_env env, napi_value v) {
  int32_t x = 0;
  napi_get_value_int32(env, v, &x);
  return x;
}

double nd_get_f64(napi_env env, napi_value v) {
  double x = 0;
  napi_get_value_double(env, v, &x);
  return x;
}

uint64_t nd_get_u64(napi_env env, napi_value v) {
  napi_valuetype t = type_of(env, v);
  if (t == napi_undefined || t == napi_null) return LS_WHOLE_SIZE;
  if (t == napi_bigint) {
    uint64_t x = 0;
    bool lossless;
    napi_get_value_bigint_uint64(env, v, &x, &lossless);
    return x;
  }
  double d = nd_get_f64(env, v);
  /* JavaScript has converted with [EnforceRange]: an integer in 0 .. 2^53 - 1 */
  return d <= 0 ? 0 : (uint64_t)d;
}

int nd_get_bool(napi_env env, napi_value v) {
  bool b = false;
  if (type_of(env, v) == napi_boolean) napi_get_value_bool(env, v, &b);
  return b;
}

char *nd_get_str_len(napi_env env, napi_value v, size_t *out_len) {
  *out_len = 0;
  if (nd_is_nullish(env, v)) return NULL;
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (!s) return NULL;
  napi_get_value_string_utf8(env, v, s, len + 1, &len);
  *out_len = len;
  return s;
}

int nd_get_bytes(napi_env env, napi_value v, void **data, size_t *len) {
  napi_typedarray_type t;
  size_t n = 0;
  void *p = NULL;
  if (napi_get_typedarray_info(env, v, &t, &n, &p, NULL, NULL) != napi_ok || t != napi_uint8_array)
    return 0;
  *data = p;
  *len = n;
  return 1;
}

char *nd_get_name(napi_env env, napi_value v) {
  size_t len;
  char *s = nd_get_str_len(env, v, &len);
  if (!s || strlen(s) == len) return s;
  /* a NUL inside: written out as \u0000, which no WGSL name contains, so
   * the name matches nothing (and reads as the caller wrote it) */
  size_t nul = 0;
  for (size_t i = 0; i < len; i++) nul += s[i] == 0;
  char *e = malloc(len + nul * 5 + 1);
  if (!e) {
    free(s);
    return NULL;
  }
  size_t k = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i]) {
      e[k++] = s[i];
    } else {
      memcpy(e + k, "\\u0000", 6);
      k += 6;
    }
  }
  e[k] = 0;
  free(s);
  return e;
}

char *nd_get_str(napi_env env, napi_value v) {
  if (nd_is_nullish(env, v)) return NULL;
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (!s) return NULL;
  napi_get_value_string_utf8(env, v, s, len + 1, &len);
  return s;
}

napi_value nd_prop(napi_env env, napi_value obj, const char *name) {
  napi_value v = NULL;
  if (nd_is_nullish(env, obj) || napi_get_named_property(env, obj, name, &v) != napi_ok)
    return nd_undefined(env);
  return v;
}

void nd_set(napi_env env, napi_value obj, const char *name, napi_value v) {
  napi_set_named_property(env, obj, name, v);
}

/* ---------------------------------------------------------------- wraps */

typedef void (*nd_release_fn)(void *h);
typedef void (*nd_label_fn)(void *h, const char *label);

static const struct {
  const char *name;
  nd_release_fn release;
  nd_label_fn set_label;
} kinds[ND_KIND_COUNT_] = {
#define ND_X_(k, nm, rel, lab) [ND_##k] = {nm, (nd_release_fn)(rel), (nd_label_fn)(lab)},
  ND_KIND_LIST(ND_X_)
#undef ND_X_
};

static void finalize_obj(napi_env env, void *data, void *hint) {
  nd_obj *o = data;
  if (o->h && kinds[o->kind].release) kinds[o->kind].release(o->h);
  if (o->ext_bytes) {
    int64_t ignored;
    napi_adjust_external_memory(env, -o->ext_bytes, &ignored);
  }
  free(o->source);
  free(o);
}

nd_obj *nd_wrap(napi_env env, napi_value js, nd_kind kind, void *h, nd_device *dev) {
  nd_obj *o = calloc(1, sizeof *o);
  if (!o) {
    kinds[kind].release(h);
    nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
    return NULL;
  }
  o->kind = kind;
  o->h = h;
  o->dev = dev;
  if (napi_wrap(env, js, o, finalize_obj, NULL, NULL) != napi_ok) {
    if (h) kinds[kind].release(h);
    free(o);
    nd_throw(env, "ERR_LOCKSTEP_WRAP", "%s: the object already holds a handle", kinds[kind].name);
    return NULL;
  }
  return o;
}

/* Only this addon wraps the binding's objects (lib/ creates them), so a
 * wrap is always an nd_obj, and its kind tells one interface from another:
 * cheaper per call than Node-API's type tags. */
static nd_obj *unwrap_any(napi_env env, napi_value js) {
  void *p = NULL;
  if (!js || napi_unwrap(env, js, &p) != napi_ok) return NULL;
  return p;
}

nd_obj *nd_unwrap(napi_env env, napi_value js, nd_kind kind) {
  nd_obj *o = unwrap_any(env, js);
  return o && o->kind == kind ? o : NULL;
}

void *nd_handle(napi_env env, napi_value js, nd_kind kind) {
  nd_obj *o = nd_unwrap(env, js, kind);
  return o ? o->h : NULL;
}

void nd_external_memory(napi_env env, nd_obj *o, int64_t bytes) {
  int64_t ignored;
  o->ext_bytes += bytes;
  napi_adjust_external_memory(env, bytes, &ignored);
}

/* setLabel(obj, label): WebGPU's label attribute, for every kind. */
ND_FN(set_label) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  nd_obj *o = unwrap_any(env, argv[0]);
  if (o && o->h && kinds[o->kind].set_label) {
    char *s = nd_get_str(env, argv[1]);
    kinds[o->kind].set_label(o->h, s ? s : "");
    free(s);
  }
  return nd_undefined(env);
}

/* --------------------------------------------------------------- events */

int nd_on_main_thread(void) { return pthread_equal(pthread_self(), g_main); }

static void pending_add(napi_env env) {
  if (g_pending++ == 0) napi_ref_threadsafe_function(env, g_tsfn);
}

static void pending_done(napi_env env) {
  if (g_pending && --g_pending == 0) napi_unref_threadsafe_function(env, g_tsfn);
}

void nd_pending_begin(napi_env env) { pending_add(env); }

/* Request kinds: their pending count was taken when the request began. */
static int is_request(nd_event_kind k) {
  return k == ND_EV_RESOLVE || k == ND_EV_MAP || k == ND_EV_DONE || k == ND_EV_POP ||
         k == ND_EV_INTERNAL_DONE;
}


void nd_post(nd_event_kind kind, uint32_t id, int32_t status, const char *message) {
  if (atomic_load(&g_closing)) return;
  nd_event *e = calloc(1, sizeof *e);
  if (!e) return;
  e->kind = kind;
  e->id = id;
  e->status = status;
  e->message = message ? strdup(message) : NULL;
  /* Requests (maps, work done, posts) were counted when they began; an
   * error or loss raised on the main thread is counted here so that its
   * event is delivered before the process may exit. */
  if (nd_on_main_thread() && (kind == ND_EV_ERROR || kind == ND_EV_LOST || kind == ND_EV_LOG ||
                              kind == ND_EV_FINDING)) {
    e->counted = 1;
    pending_add(g_env);
  }
  if (!g_tsfn || napi_call_threadsafe_function(g_tsfn, e, napi_tsfn_nonblocking) != napi_ok) {
    if (nd_on_main_thread() && (e->counted || is_request(kind))) pending_done(g_env);
    free(e->message);
    free(e);
  }
}

static void call_js(napi_env env, napi_value js_cb, void *context, void *data) {
  nd_event *e = data;
  if (env && js_cb) {
    napi_value argv[4], undef, result;
    napi_get_undefined(env, &undef);
    argv[0] = nd_u32(env, (uint32_t)e->kind);
    argv[1] = nd_u32(env, e->id);
    napi_create_int32(env, e->status, &argv[2]);
    argv[3] = e->message ? nd_str(env, e->message) : undef;
    /* The dispatcher catches what a handler throws; should anything still
     * escape, it goes to process 'uncaughtException', not into libuv. */
    if (napi_call_function(env, undef, js_cb, 4, argv, &result) != napi_ok) {
      bool pending = false;
      napi_is_exception_pending(env, &pending);
      if (pending) {
        napi_value exc;
        napi_get_and_clear_last_exception(env, &exc);
        napi_fatal_exception(env, exc);
      }
    }
  }
  int renewed = env && e->kind == ND_EV_INTERNAL_DONE && nd_watch_done(nd_device_by_id(e->id));
  if (env && !renewed && (is_request(e->kind) || e->counted)) pending_done(env);
  free(e->message);
  free(e);
}

/* post(id): resolves request id through the event channel, after every
 * event posted before it. */
ND_FN(post) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  pending_add(env);
  nd_post(ND_EV_RESOLVE, nd_get_u32(env, argv[0]), 0, NULL);
  return nd_undefined(env);
}

/* setDispatcher(fn): the JavaScript function every event goes to. */
ND_FN(set_dispatcher) {
  napi_value argv[1], name;
  if (!nd_args(env, info, 1, argv)) return NULL;
  if (g_tsfn) return nd_throw(env, "ERR_LOCKSTEP_DISPATCHER", "the dispatcher is already set");
  napi_create_string_utf8(env, "lockstep events", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[0], NULL, name, 0, 1, NULL, NULL, NULL, call_js,
                                      &g_tsfn) != napi_ok)
    return nd_throw(env, "ERR_LOCKSTEP_DISPATCHER", "cannot create the event channel");
  napi_unref_threadsafe_function(env, g_tsfn);
  return nd_undefined(env);
}

/* finishAll(): at process exit, writes every device's reports and prints
 * the findings not printed yet. */
ND_FN(finish_all) {
  nd_devices_finish_all();
  return nd_undefined(env);
}

static void cleanup(void *arg) {
  nd_devices_finish_all();
  atomic_store(&g_closing, 1);
  if (g_tsfn) napi_release_threadsafe_function(g_tsfn, napi_tsfn_abort);
}

/* below, beside the export list they read */
ND_FN(used_ops);
ND_FN(calls);

static const nd_export exports_addon[] = {
  {"setLabel", set_label},
  {"post", post},
  {"setDispatcher", set_dispatcher},
  {"finishAll", finish_all},
  {"usedOps", used_ops},
  {"calls", calls},
  {NULL, NULL},
};

static const nd_export *const tables[] = {
  exports_addon,  nd_exports_gpu,    nd_exports_adapter, nd_exports_device, nd_exports_buffer,
  nd_exports_queue, nd_exports_texture, nd_exports_sampler, nd_exports_shader, nd_exports_layout,
  nd_exports_pipeline, nd_exports_encoder, nd_exports_pass, nd_exports_query, nd_exports_jscache,
};

/* The exports in one list, in the order of `names`; g_used: those called
 * (one bit each), g_names_hash: which list the bits refer to. */
#define ND_MAX_OPS 128
static napi_callback g_ops[ND_MAX_OPS];
static uint32_t g_nops;
static uint64_t g_used[ND_MAX_OPS / 64];
static uint32_t g_names_hash;
static double g_calls; /* calls made, all exports */

/* call(op, ...args): export number op. */
static napi_value call(napi_env env, napi_callback_info info) {
  napi_value op_v;
  size_t got = 1;
  uint32_t op = UINT32_MAX;
  if (napi_get_cb_info(env, info, &got, &op_v, NULL, NULL) != napi_ok || got < 1 ||
      napi_get_value_uint32(env, op_v, &op) != napi_ok || op >= g_nops)
    return nd_throw(env, "ERR_LOCKSTEP_CALL", "lockstep.node: no export number %u", op);
  g_used[op / 64] |= UINT64_C(1) << (op % 64);
  g_calls++;
  return g_ops[op](env, info);
}

/* usedOps(recorded): the exports this process called, as "HASH:BITS" (the
 * export list's hash, then one hex digit per four exports), or undefined
 * when every one of them is in `recorded` (such a string, of the same
 * list). The code cache's writer compares processes with it: a process
 * that called an export none of the cache's writers called ran
 * JavaScript they did not. The answer is the union with `recorded`. */
ND_FN(used_ops) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  char *rec = nd_get_str(env, argv[0]);
  uint64_t seen[ND_MAX_OPS / 64] = {0};
  const unsigned digits = (g_nops + 3) / 4;
  char *colon = rec ? strchr(rec, ':') : NULL;
  if (colon && strtoul(rec, NULL, 16) == g_names_hash && strlen(colon + 1) == digits) {
    for (unsigned i = 0; i < digits; i++) {
      const char *hex = "0123456789abcdef", *d = strchr(hex, colon[1 + i]);
      if (d && *d) seen[(4 * i) / 64] |= (uint64_t)(d - hex) << ((4 * i) % 64);
    }
  }
  free(rec);
  int fresh = 0;
  for (unsigned k = 0; k < ND_MAX_OPS / 64; k++) {
    if (g_used[k] & ~seen[k]) fresh = 1;
    seen[k] |= g_used[k];
  }
  if (!fresh) return nd_undefined(env);
  char out[16 + ND_MAX_OPS / 4];
  int at = snprintf(out, 16, "%08x:", g_names_hash);
  for (unsigned i = 0; i < digits; i++)
    out[at++] = "0123456789abcdef"[(seen[(4 * i) / 64] >> ((4 * i) % 64)) & 15];
  out[at] = '\0';
  return nd_str(env, out);
}

/* calls(): how many calls the process made into the addon. */
ND_FN(calls) { return nd_f64(env, g_calls); }

/* The module's exports are `call` and `names` (the exports' names, in
 * order, comma-separated); index.js makes each export call bound to its
 * number. One native function instead of one per export: creating a
 * native function cost 4 to 6 us, 0.3 to 0.4 ms for all of them at every
 * import, where binding one in JavaScript costs a fraction of that. */
static napi_value init(napi_env env, napi_value exports) {
  if (g_env) {
    /* the event channel and the device list belong to one environment */
    napi_throw_error(env, "ERR_LOCKSTEP_ENVIRONMENT",
                     "lockstep-webgpu serves one Node.js environment per process: load it "
                     "in the main thread only (not in worker threads)");
    return NULL;
  }
  g_main = pthread_self();
  g_env = env;
  char names[4096];
  size_t len = 0;
  g_nops = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    for (const nd_export *e = tables[t]; e->name; e++) {
      size_t n = strlen(e->name);
      if (g_nops == ND_MAX_OPS || len + n + 2 > sizeof names) {
        napi_throw_error(env, "ERR_LOCKSTEP_INTERNAL", "lockstep.node: too many exports");
        return NULL;
      }
      if (len) names[len++] = ',';
      memcpy(names + len, e->name, n);
      len += n;
      g_ops[g_nops++] = e->fn;
    }
  }
  g_names_hash = 0x811c9dc5u; /* FNV-1a */
  for (size_t i = 0; i < len; i++) g_names_hash = (g_names_hash ^ (unsigned char)names[i]) * 0x01000193u;
  napi_value fn, list;
  napi_create_function(env, "call", NAPI_AUTO_LENGTH, call, NULL, &fn);
  napi_create_string_latin1(env, names, len, &list);
  napi_set_named_property(env, exports, "call", fn);
  napi_set_named_property(env, exports, "names", list);
  napi_add_env_cleanup_hook(env, cleanup, NULL);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)

int nd_enum(napi_env env, napi_value v, const char *const *names, const int *values, int def) {
  if (nd_is_nullish(env, v)) return def;
  char buf[64];
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, buf, sizeof buf, &len) != napi_ok) return def;
  for (int i = 0; names[i]; i++) {
    if (!strcmp(names[i], buf)) return values ? values[i] : i;
  }
  return def;
}
