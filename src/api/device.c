/*
 * device.c — requestDevice, the device's lifetime and its error model. Every
 * other file of src/api/ reports through api_error() here: the innermost
 * error scope whose filter matches catches the error, otherwise the error
 * callback gets it. A lost device reports nothing (as WebGPU). The device
 * also owns the worker pool every dispatch runs on and its queue timeline
 * (timeline.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* ---------------------------------------------------------------- helpers */

char *api_vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return NULL;
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *api_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = api_vformat(fmt, ap);
  va_end(ap);
  return s;
}

char *api_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

const char *api_label(const char *label, const char *fallback) {
  return label && *label ? label : fallback;
}

void api_free_handle(void *p, size_t size) {
#if defined(LS_POISON_FREED)
  if (p) memset(p, 0xA5, size);
#else
  (void)size;
#endif
  free(p);
}

int api_desc_read(void *dst, const void *src, size_t size) {
  memset(dst, 0, size);
  if (!src) return 1;
  size_t n = *(const size_t *)src;
  if (n > size) return 0;
  memcpy(dst, src, n ? n : size);
  *(size_t *)dst = size;
  return 1;
}

int api_set_label(ls_device *d, char *_Atomic *slot, const char *label) {
  char *copy = label ? api_strdup(label) : NULL;
  if (label && !copy) return 0;
  API_LOCK(d);
  char **r = realloc(d->retired, (d->nretired + 1) * sizeof *r);
  if (!r) {
    API_UNLOCK(d);
    free(copy);
    return 0;
  }
  d->retired = r;
  d->retired[d->nretired++] = *slot;
  *slot = copy;
  API_UNLOCK(d);
  return 1;
}

int api_label_init(char *_Atomic *slot, const char *label) {
  char *copy = label ? api_strdup(label) : NULL;
  *slot = copy;
  return !label || copy;
}

void ls_device_set_label(ls_device *device, const char *label) {
  if (device) api_set_label(device, &device->label, label);
}

/* ---------------------------------------------------------- requestDevice */

/* Features the adapter offers; any other name is rejected as WebGPU rejects
 * a feature the adapter lacks (TypeError). */
static const char *const api_features[] = {"core-features-and-limits",
                                           "subgroups",
                                           "subgroup-size-control",
                                           "shader-f16",
                                           "bgra8unorm-storage",
                                           "float32-filterable",
                                           "texture-formats-tier1",
                                           "texture-formats-tier2",
                                           "rg11b10ufloat-renderable",
                                           "depth32float-stencil8",
                                           "timestamp-query",
                                           NULL};

static int api_feature_index(const char *name) {
  for (int k = 0; name && api_features[k]; k++)
    if (strcmp(name, api_features[k]) == 0) return k;
  return -1;
}

int ls_adapter_has_feature(const ls_adapter *adapter, const char *name) {
  return adapter && api_feature_index(name) >= 0;
}

/* A device has exactly the features requestDevice asked for. */
int ls_device_has_feature(const ls_device *device, const char *name) {
  const int k = api_feature_index(name);
  return device && k >= 0 && (device->features >> k & 1u);
}

#define API_IS_ALIGN_MAX 0
#define API_IS_ALIGN_ALIGN 1

static void api_err(char *err, size_t errlen, const char *fmt, ...) API_PRINTF(3, 4);
static void api_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* Applies one required limit to the device's limits after checking it
 * against the adapter's. */
static ls_status api_apply_limit(const ls_limits *adapter, ls_limits *dev,
                                 const ls_required_limit *r, char *err, size_t errlen) {
  if (!r->name) {
    api_err(err, errlen, "requiredLimits: a limit without a name");
    return LS_OPERATION;
  }
#define LS_X_(field, wname, def, cls)                                          \
  if (strcmp(r->name, wname) == 0) {                                           \
    if (API_IS_ALIGN_##cls) {                                                  \
      if (r->value == 0 || r->value >= ((uint64_t)1 << 32) ||                  \
          (r->value & (r->value - 1)) != 0) {                                  \
        api_err(err, errlen,                                                   \
                "requiredLimits: %s = %llu is not a power of two below 2^32",  \
                wname, (unsigned long long)r->value);                          \
        return LS_OPERATION;                                                   \
      }                                                                        \
      if (r->value < adapter->field) {                                         \
        api_err(err, errlen,                                                   \
                "requiredLimits: %s = %llu is better than the adapter's "      \
                "limit (%llu)",                                                \
                wname, (unsigned long long)r->value,                           \
                (unsigned long long)adapter->field);                           \
        return LS_OPERATION;                                                   \
      }                                                                        \
      if (r->value < dev->field) dev->field = r->value;                        \
    } else {                                                                   \
      if (r->value > adapter->field) {                                         \
        api_err(err, errlen,                                                   \
                "requiredLimits: %s = %llu is better than the adapter's "      \
                "limit (%llu)",                                                \
                wname, (unsigned long long)r->value,                           \
                (unsigned long long)adapter->field);                           \
        return LS_OPERATION;                                                   \
      }                                                                        \
      if (r->value > dev->field) dev->field = r->value;                        \
    }                                                                          \
    return LS_OK;                                                              \
  }
  LS_LIMITS_LIST(LS_X_)
#undef LS_X_
  api_err(err, errlen, "requiredLimits: unknown limit '%s'", r->name);
  return LS_OPERATION;
}

ls_device *ls_adapter_create_device(ls_adapter *adapter, const ls_device_desc *desc,
                                    ls_status *status, char *err, size_t errlen) {
  ls_status st_dummy;
  if (!status) status = &st_dummy;
  if (err && errlen) err[0] = 0;
  if (!adapter) {
    *status = LS_TYPE;
    api_err(err, errlen, "requestDevice: no adapter");
    return NULL;
  }
  ls_device_desc d;
  if (!API_DESC(d, desc)) {
    *status = LS_TYPE;
    api_err(err, errlen, "requestDevice: %s", API_DESC_NEWER);
    return NULL;
  }
  uint32_t features = 0;
  for (size_t i = 0; i < d.required_feature_count; i++) {
    const char *f = d.required_features ? d.required_features[i] : NULL;
    const int k = api_feature_index(f);
    if (k >= 0) features |= 1u << k;
    if (k < 0) {
      *status = LS_TYPE;
      api_err(err, errlen, "requiredFeatures: '%s' is not supported by the adapter",
              f ? f : "(null)");
      return NULL;
    }
  }
  ls_limits lim;
  ls_limits_default(&lim);
  if (d.required_limit_count && !d.required_limits) {
    *status = LS_TYPE;
    api_err(err, errlen, "requestDevice: required_limits is NULL");
    return NULL;
  }
  for (size_t i = 0; i < d.required_limit_count; i++) {
    ls_status s = api_apply_limit(&adapter->limits, &lim, &d.required_limits[i], err, errlen);
    if (s != LS_OK) {
      *status = s;
      return NULL;
    }
  }
  ls_device *dev = calloc(1, sizeof *dev);
  if (!dev) {
    *status = LS_OUT_OF_MEMORY;
    api_err(err, errlen, "requestDevice: out of memory");
    return NULL;
  }
  dev->refs = 1;
  dev->limits = lim;
  /* the spec's feature dependencies: subgroup-size-control enables
   * subgroups, texture-formats-tier2 tier1, and tier1
   * rg11b10ufloat-renderable; a core device always has
   * core-features-and-limits */
  if (features & API_FEATURE_SUBGROUP_SIZE_CONTROL) features |= API_FEATURE_SUBGROUPS;
  if (features & API_FEATURE_TIER2) features |= API_FEATURE_TIER1;
  if (features & API_FEATURE_TIER1) features |= API_FEATURE_RG11B10_RENDERABLE;
  features |= API_FEATURE_CORE;
  dev->features = features;
  dev->width = adapter->width;
  dev->threads = adapter->threads;
  dev->budget = adapter->budget;
  dev->dispatch_budget = adapter->dispatch_budget;
  dev->time_limit_ms = adapter->time_limit_ms;
  dev->memory_limit = adapter->memory_limit;
  dev->profile = adapter->profile;
  dev->next_id = 1;
  if (d.label && !api_label_init(&dev->label, d.label)) {
    free(dev);
    *status = LS_OUT_OF_MEMORY;
    api_err(err, errlen, "requestDevice: out of memory");
    return NULL;
  }
  dev->pool = vm_pool_create(adapter->threads);
  int mu = dev->pool && pthread_mutex_init(&dev->mu, NULL) == 0;
  if (!mu || !api_timeline_start(dev)) {
    if (mu) pthread_mutex_destroy(&dev->mu);
    vm_pool_destroy(dev->pool);
    free(dev->label);
    free(dev);
    *status = LS_OUT_OF_MEMORY;
    api_err(err, errlen, "requestDevice: cannot start %u worker threads", adapter->threads);
    return NULL;
  }
  *status = LS_OK;
  return dev;
}

/* --------------------------------------------------------------- lifetime */

void api_device_ref(ls_device *d) {
  if (d) API_REF(d);
}

static void api_device_free(ls_device *d) {
  api_observers_free(d);
  api_check_free(d);
  for (size_t i = 0; i < d->nscopes; i++) free(d->scopes[i].message);
  free(d->scopes);
  free(d->lost_message);
  free(d->label);
  for (size_t i = 0; i < d->nretired; i++) free(d->retired[i]);
  free(d->retired);
  vm_pool_destroy(d->pool);
  pthread_cond_destroy(&d->qwake);
  pthread_cond_destroy(&d->qidle);
  pthread_mutex_destroy(&d->mu);
  API_FREE_HANDLE(d);
}

void api_device_unref(ls_device *d) {
  if (d && API_UNREF_LAST(d)) api_device_free(d);
}

void ls_device_destroy(ls_device *device) {
  if (!device) return;
  int was = 0;
  if (!atomic_compare_exchange_strong(&device->destroyed, &was, 1)) return;
  api_device_ref(device); /* a callback below may release the handle */
  /* WebGPU unmaps every buffer first: pending maps get an AbortError */
  api_buffer_unmap_all(device);
  api_device_lose(device, LS_LOST_DESTROYED, "the device was destroyed (device.destroy())");
  /* Queued work is dropped and a running dispatch stops at its next
   * workgroup; called from the queue thread itself, this returns at once
   * and the thread ends after the current op. The worker pool stays until
   * the device is freed: the current op may still be using it. */
  api_timeline_stop(device);
  api_device_unref(device);
}

void ls_device_release(ls_device *device) {
  if (!device) return;
  int was = 0;
  if (!atomic_compare_exchange_strong(&device->released, &was, 1)) return;
  ls_device_destroy(device);
  api_device_unref(device);
}

int api_device_dead(const ls_device *d) {
  return !d || atomic_load(&d->lost) || atomic_load(&d->destroyed);
}


void ls_device_get_limits(const ls_device *device, ls_limits *out) {
  if (!out) return;
  if (!device) {
    ls_limits_default(out);
    return;
  }
  *out = device->limits;
}

int ls_device_is_lost(const ls_device *device) { return !device || atomic_load(&device->lost); }

static const char api_lost_oom[] = "(the message was lost: out of memory)";

const char *ls_device_get_lost_message(const ls_device *device) {
  if (!device || !atomic_load(&device->lost)) return NULL;
  ls_device *d = (ls_device *)device;
  API_LOCK(d);
  const char *m = d->lost_message ? d->lost_message : api_lost_oom;
  API_UNLOCK(d);
  return m;
}

/* Calls the lost callback once, outside the lock. */
static void api_tell_lost(ls_device *d) {
  API_LOCK(d);
  ls_lost_callback fn = d->lost_told || !atomic_load(&d->lost) ? NULL : d->lost_fn;
  void *user = d->lost_user;
  if (fn) d->lost_told = 1;
  ls_lost_reason why = d->lost_reason;
  const char *m = d->lost_message ? d->lost_message : api_lost_oom;
  API_UNLOCK(d);
  if (fn) fn(user, why, m);
}

void api_device_lose(ls_device *d, ls_lost_reason reason, const char *fmt, ...) {
  if (!d) return;
  va_list ap;
  va_start(ap, fmt);
  char *m = api_vformat(fmt, ap);
  va_end(ap);
  API_LOCK(d);
  int first = !atomic_load(&d->lost);
  if (first) {
    d->lost_message = m;
    d->lost_reason = reason;
    atomic_store(&d->lost, 1);
  }
  API_UNLOCK(d);
  if (!first) {
    free(m);
    return;
  }
  atomic_store(&d->cancel, 1);
  api_tell_lost(d);
}

void ls_device_set_lost_callback(ls_device *device, ls_lost_callback fn, void *user) {
  if (!device) return;
  API_LOCK(device);
  device->lost_fn = fn;
  device->lost_user = user;
  device->lost_told = 0;
  API_UNLOCK(device);
  api_tell_lost(device); /* at once when already lost */
}

/* ----------------------------------------------------------------- errors */

void ls_device_set_error_callback(ls_device *device, ls_error_callback fn, void *user) {
  if (!device) return;
  API_LOCK(device);
  device->error_fn = fn;
  device->error_user = user;
  API_UNLOCK(device);
}

void ls_device_set_log_callback(ls_device *device, ls_log_callback fn, void *user) {
  if (!device) return;
  API_LOCK(device);
  device->log_fn = fn;
  device->log_user = user;
  API_UNLOCK(device);
}


void ls_device_push_error_scope(ls_device *device, ls_error_filter filter) {
  if (!device) return;
  if (filter != LS_FILTER_VALIDATION && filter != LS_FILTER_OUT_OF_MEMORY &&
      filter != LS_FILTER_INTERNAL) {
    api_validation(device, "pushErrorScope: %d is not a GPUErrorFilter (validation, "
                           "out-of-memory or internal)", (int)filter);
    return;
  }
  API_LOCK(device);
  if (device->nscopes == device->capscopes) {
    size_t cap = device->capscopes ? device->capscopes * 2 : 8;
    api_scope *n = realloc(device->scopes, cap * sizeof *n);
    if (!n) {
      API_UNLOCK(device);
      /* The scope cannot exist; the matching pop will find the stack one
       * short, which is the best a failed push can do. */
      api_error(device, LS_ERROR_OUT_OF_MEMORY, "pushErrorScope: out of memory");
      return;
    }
    device->scopes = n;
    device->capscopes = cap;
  }
  api_scope *s = &device->scopes[device->nscopes++];
  s->filter = filter;
  s->type = LS_ERROR_NONE;
  s->message = NULL;
  API_UNLOCK(device);
}

ls_error_type ls_device_pop_error_scope(ls_device *device, char **message) {
  if (message) *message = NULL;
  if (!device) return LS_ERROR_NONE;
  API_LOCK(device);
  if (device->nscopes == 0) {
    API_UNLOCK(device);
    if (message) *message = api_strdup("popErrorScope: the error scope stack is empty");
    return LS_ERROR_VALIDATION;
  }
  api_scope s = device->scopes[--device->nscopes];
  API_UNLOCK(device);
  if (s.type != LS_ERROR_NONE && !s.message) s.message = api_strdup(api_lost_oom);
  if (message) *message = s.message;
  else free(s.message);
  return s.type;
}

static int api_filter_matches(ls_error_filter f, ls_error_type t) {
  return (f == LS_FILTER_VALIDATION && t == LS_ERROR_VALIDATION) ||
         (f == LS_FILTER_OUT_OF_MEMORY && t == LS_ERROR_OUT_OF_MEMORY) ||
         (f == LS_FILTER_INTERNAL && t == LS_ERROR_INTERNAL);
}

_Thread_local int api_errors_uncaptured;
_Thread_local char **api_capture_errors;

void api_verror(ls_device *d, ls_error_type type, const char *fmt, va_list ap) {
  if (api_device_dead(d)) return;
  char *msg = api_vformat(fmt, ap);
  if (api_capture_errors) {
    if (!*api_capture_errors) *api_capture_errors = msg;
    else free(msg);
    return;
  }
  const char *text = msg ? msg : "(out of memory while formatting an error message)";
  API_LOCK(d);
  for (size_t i = api_errors_uncaptured ? 0 : d->nscopes; i-- > 0;) {
    api_scope *s = &d->scopes[i];
    if (!api_filter_matches(s->filter, type)) continue;
    if (s->type == LS_ERROR_NONE) {
      s->type = type;
      s->message = msg;
    } else {
      free(msg);
    }
    API_UNLOCK(d);
    return;
  }
  ls_error_callback fn = d->error_fn;
  void *user = d->error_user;
  API_UNLOCK(d);
  if (fn) {
    /* the callback may release or destroy the device */
    api_device_ref(d);
    fn(user, type, text);
    api_device_unref(d);
  }
  free(msg);
}

void api_error(ls_device *d, ls_error_type type, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  api_verror(d, type, fmt, ap);
  va_end(ap);
}

void ls_device_raise_error(ls_device *device, ls_error_type type, const char *message) {
  if (!device || type == LS_ERROR_NONE) return;
  if (type != LS_ERROR_VALIDATION && type != LS_ERROR_OUT_OF_MEMORY && type != LS_ERROR_INTERNAL)
    type = LS_ERROR_INTERNAL;
  api_error(device, type, "%s", message ? message : "(no message)");
}

void api_log(ls_device *d, ls_log_level level, const char *fmt, ...) {
  if (!d) return;
  API_LOCK(d);
  ls_log_callback fn = d->log_fn;
  void *user = d->log_user;
  API_UNLOCK(d);
  if (!fn) return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = api_vformat(fmt, ap);
  va_end(ap);
  api_device_ref(d);
  fn(user, level, msg ? msg : "(out of memory while formatting a message)");
  api_device_unref(d);
  free(msg);
}
