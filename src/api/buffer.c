/*
 * buffer.c — buffers: creation with WebGPU's usage rules, destroy() and
 * release, mapping (mapAsync, getMappedRange, unmap: the buffer's map
 * state machine), and the queue's direct transfers (writeBuffer, reading
 * back), which run on the queue timeline (timeline.c) in issue order. Memory
 * is plain host memory, zeroed at creation; bind groups point dispatches
 * into it (queue.c); a mapped range is a pointer into it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

#define API_ALL_USAGES 0x03ffu

void api_buffer_ref(ls_buffer *b) {
  if (b) API_REF(b);
}

void api_buffer_unref(ls_buffer *b) {
  if (!b || !API_UNREF_LAST(b)) return;
  ls_device *d = b->device;
  API_LOCK(d);
  if (b->prev) b->prev->next = b->next;
  else d->buffers = b->next;
  if (b->next) b->next->prev = b->prev;
  API_UNLOCK(d);
  free(b->shadow);
  free(b->data);
  free(b->label);
  free(b->ranges);
  API_FREE_HANDLE(b);
  api_device_unref(d);
}

void ls_buffer_set_label(ls_buffer *buffer, const char *label) {
  if (buffer) api_set_label(buffer->device, &buffer->label, label);
}

const char *api_buffer_unavailable_locked(const ls_buffer *b) {
  if (b->destroyed) return "is destroyed";
  if (b->map_state == LS_MAP_STATE_MAPPED) return "is mapped (unmap it first)";
  if (b->map_state == LS_MAP_STATE_PENDING) return "has a pending mapAsync";
  return NULL;
}

const char *api_buffer_name(const ls_buffer *b) {
  return b ? api_label(b->label, "(unlabelled)") : "(null)";
}

ls_buffer *ls_device_create_buffer(ls_device *device, const ls_buffer_desc *user_desc) {
  if (api_device_dead(device)) return NULL;
  if (!user_desc) {
    api_validation(device, "createBuffer: no descriptor");
    return NULL;
  }
  ls_buffer_desc dd;
  if (!API_DESC(dd, user_desc)) {
    api_validation(device, "createBuffer: %s", API_DESC_NEWER);
    return NULL;
  }
  const ls_buffer_desc *desc = &dd;
  const char *name = api_label(desc->label, "(unlabelled)");
  uint32_t u = desc->usage;
  if (u == 0) {
    api_validation(device, "createBuffer '%s': usage is 0", name);
    return NULL;
  }
  if (u & ~API_ALL_USAGES) {
    api_validation(device, "createBuffer '%s': usage 0x%x has unknown bits", name, u);
    return NULL;
  }
  if ((u & LS_BUFFER_USAGE_MAP_READ) && (u & ~(uint32_t)(LS_BUFFER_USAGE_MAP_READ |
                                                         LS_BUFFER_USAGE_COPY_DST))) {
    api_validation(device,
                   "createBuffer '%s': usage MAP_READ may only be combined with COPY_DST "
                   "(usage 0x%x)",
                   name, u);
    return NULL;
  }
  if ((u & LS_BUFFER_USAGE_MAP_WRITE) && (u & ~(uint32_t)(LS_BUFFER_USAGE_MAP_WRITE |
                                                          LS_BUFFER_USAGE_COPY_SRC))) {
    api_validation(device,
                   "createBuffer '%s': usage MAP_WRITE may only be combined with COPY_SRC "
                   "(usage 0x%x)",
                   name, u);
    return NULL;
  }
  if (desc->size > device->limits.max_buffer_size) {
    api_validation(device, "createBuffer '%s': size %llu exceeds maxBufferSize (%llu)", name,
                   (unsigned long long)desc->size,
                   (unsigned long long)device->limits.max_buffer_size);
    return NULL;
  }
  if (desc->mapped_at_creation && desc->size % 4) {
    api_validation(device, "createBuffer '%s': mappedAtCreation needs a size that is a multiple "
                           "of 4 (size %llu)",
                   name, (unsigned long long)desc->size);
    return NULL;
  }
  ls_buffer *b = calloc(1, sizeof *b);
  /* Rounded up to whole words so that a shader never reads past the end
   * of a word-sized access; never 0 bytes, so data is never NULL. */
  uint64_t alloc = (desc->size + 3) & ~(uint64_t)3;
  if (alloc == 0) alloc = 4;
  if (b && alloc <= SIZE_MAX) b->data = calloc(1, (size_t)alloc);
  if (b && desc->label) b->label = api_strdup(desc->label);
  if (!b || !b->data || (desc->label && !b->label)) {
    if (b) {
      free(b->data);
      free(b->label);
      free(b);
    }
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createBuffer '%s': out of memory (%llu bytes)",
              name, (unsigned long long)desc->size);
    return NULL;
  }
  b->device = device;
  api_device_ref(device);
  b->refs = 1;
  b->size = desc->size;
  b->logical_size = UINT64_MAX;
  b->usage = u;
  if (desc->mapped_at_creation) {
    b->map_state = LS_MAP_STATE_MAPPED;
    b->map_mode = LS_MAP_WRITE;
    b->mapped.size = b->size;
  }
  API_LOCK(device);
  b->next = device->buffers;
  if (b->next) b->next->prev = b;
  device->buffers = b;
  API_UNLOCK(device);
  return b;
}

/* Takes a pending map's callback out of the buffer (mu held): the caller
 * calls it with LS_ABORTED once the lock is released. */
static ls_map_callback api_map_abort_locked(ls_buffer *b, void **user) {
  ls_map_callback fn = NULL;
  if (b->map_state == LS_MAP_STATE_PENDING) {
    fn = b->map_fn;
    *user = b->map_user;
    b->map_fn = NULL;
    b->map_ticket = 0;
  }
  b->map_state = LS_MAP_STATE_UNMAPPED;
  b->nranges = 0;
  free(b->shadow);
  b->shadow = NULL;
  return fn;
}

void api_buffer_unmap_all(ls_device *d) {
  /* one pending map per round: its callback runs unlocked and may release
   * buffers, so the walk starts again after it */
  for (;;) {
    ls_map_callback fn = NULL;
    void *user = NULL;
    API_LOCK(d);
    for (ls_buffer *b = d->buffers; b && !fn; b = b->next)
      if (b->map_state != LS_MAP_STATE_UNMAPPED) fn = api_map_abort_locked(b, &user);
    API_UNLOCK(d);
    if (!fn) return;
    fn(user, LS_ABORTED, "the device was destroyed before the map completed");
  }
}

static void api_free_memory_run(ls_device *d, void *arg) {
  ls_buffer *b = arg;
  free(b->data);
  b->data = NULL;
  api_buffer_unref(b);
}

void ls_buffer_destroy(ls_buffer *buffer) {
  if (!buffer) return;
  ls_device *d = buffer->device;
  void *user = NULL;
  API_LOCK(d);
  if (buffer->destroyed) {
    API_UNLOCK(d);
    return;
  }
  buffer->destroyed = 1;
  ls_map_callback fn = api_map_abort_locked(buffer, &user);
  /* Work queued before destroy() may still use the memory: it goes after
   * that work, in queue order. */
  int later = 0;
  if (api_timeline_busy_locked(d)) {
    api_buffer_ref(buffer);
    later = api_timeline_push_locked(d, api_free_memory_run, api_free_memory_run, buffer) != 0;
    if (!later) atomic_fetch_sub(&buffer->refs, 1);
  }
  if (!later) {
    free(buffer->data);
    buffer->data = NULL;
  }
  API_UNLOCK(d);
  if (fn) fn(user, LS_ABORTED, "the buffer was destroyed before the map completed");
}

void ls_buffer_release(ls_buffer *buffer) { api_buffer_unref(buffer); }

uint64_t ls_buffer_get_size(const ls_buffer *buffer) { return buffer ? buffer->size : 0; }
uint32_t ls_buffer_get_usage(const ls_buffer *buffer) { return buffer ? buffer->usage : 0; }

/* The checks every transfer shares (mu held); the message names the
 * operation. Returns LS_OK, or the status with the message in *why. */
static ls_status api_check_transfer(ls_device *device, ls_buffer *buffer, const char *op,
                                    uint32_t need_usage, const char *usage_name,
                                    uint64_t offset, uint64_t offset_align, const void *ptr,
                                    size_t size, char **why) {
  *why = NULL;
  const char *name = api_buffer_name(buffer);
  const char *gone = api_buffer_unavailable_locked(buffer);
  if (gone)
    *why = api_format("%s: buffer '%s' %s", op, name, gone);
  else if (!(buffer->usage & need_usage))
    *why = api_format("%s: buffer '%s' lacks %s usage", op, name, usage_name);
  else if (offset % offset_align)
    *why = api_format("%s: offset %llu into buffer '%s' is not a multiple of %llu", op,
                      (unsigned long long)offset, name, (unsigned long long)offset_align);
  else if (size % 4)
    *why = api_format("%s: size %zu is not a multiple of 4 (buffer '%s')", op, size, name);
  else if (offset > buffer->size || size > buffer->size - offset)
    *why = api_format("%s: range [%llu, %llu) is outside buffer '%s' (%llu bytes)", op,
                      (unsigned long long)offset, (unsigned long long)offset + size, name,
                      (unsigned long long)buffer->size);
  else if (size && !ptr)
    *why = api_format("%s: no host memory given for %zu bytes (buffer '%s')", op, size, name);
  else
    return LS_OK;
  return LS_VALIDATION;
}

/* One transfer on the timeline: host memory to or from buffer memory. */
typedef struct api_xfer {
  ls_buffer *buffer;
  uint64_t offset;
  size_t size;
  uint8_t *host;     /* a read's destination, or the write's own copy */
  int write, owned;  /* owned: host was malloc'd here */
} api_xfer;

static void api_xfer_run(ls_device *d, void *arg) {
  api_xfer *x = arg;
  if (x->size && x->buffer->data) {
    if (x->write) memcpy(x->buffer->data + x->offset, x->host, x->size);
    else memcpy(x->host, x->buffer->data + x->offset, x->size);
  }
  api_buffer_unref(x->buffer);
  if (x->owned) free(x->host);
  free(x);
}

/* Validates, then queues the transfer; a read waits for it. */
static ls_status api_transfer(ls_device *device, ls_buffer *buffer, const char *op,
                              uint32_t need_usage, const char *usage_name, uint64_t offset,
                              uint64_t align, void *host, const void *src, size_t size) {
  if (api_device_dead(device)) return LS_DEVICE_LOST;
  if (!buffer || buffer->device != device) {
    api_validation(device, "%s: %s", op, buffer ? "the buffer belongs to another device"
                                                 : "no buffer");
    return LS_VALIDATION;
  }
  const int write = src != NULL || !host;
  api_xfer *x = calloc(1, sizeof *x);
  uint8_t *copy = write && size ? malloc(size) : NULL;
  if (!x || (write && size && !copy)) {
    free(x);
    free(copy);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "%s: out of memory (%zu bytes)", op, size);
    return LS_OUT_OF_MEMORY;
  }
  if (copy && src) memcpy(copy, src, size);
  char *why;
  /* A read from a callback on the queue thread cannot wait for the queue:
   * it runs at once, and sees the work done before the callback. */
  const int now = !write && api_timeline_is_queue_thread(device);
  API_LOCK(device);
  ls_status st = api_check_transfer(device, buffer, op, need_usage, usage_name, offset, align,
                                    write ? src : host, size, &why);
  uint64_t seq = 0;
  if (st == LS_OK) {
    x->buffer = buffer;
    api_buffer_ref(buffer);
    x->offset = offset;
    x->size = size;
    x->write = write;
    x->owned = write;
    x->host = write ? copy : host;
    if (!now) seq = api_timeline_push_locked(device, api_xfer_run, api_xfer_run, x);
    if (!now && !seq) {
      atomic_fetch_sub(&buffer->refs, 1);
      st = LS_DEVICE_LOST;
    }
  }
  API_UNLOCK(device);
  if (now && st == LS_OK) {
    api_xfer_run(device, x);
    return LS_OK;
  }
  if (st != LS_OK) {
    free(x);
    free(copy);
    if (why) api_validation(device, "%s", why);
    free(why);
    return st;
  }
  if (!write) api_timeline_wait(device, seq);
  return api_device_dead(device) && !write ? LS_DEVICE_LOST : LS_OK;
}

ls_status ls_queue_write_buffer(ls_device *device, ls_buffer *buffer, uint64_t offset,
                                const void *data, size_t size) {
  return api_transfer(device, buffer, "writeBuffer", LS_BUFFER_USAGE_COPY_DST, "COPY_DST", offset,
                      4, NULL, size ? data : "", size);
}

ls_status ls_buffer_map_read(ls_device *device, ls_buffer *buffer, uint64_t offset, void *dst,
                             size_t size) {
  return api_transfer(device, buffer, "mapAsync(READ)", LS_BUFFER_USAGE_MAP_READ, "MAP_READ",
                      offset, 8, dst, NULL, size);
}

ls_status ls_queue_read_buffer(ls_device *device, ls_buffer *buffer, uint64_t offset, void *dst,
                               size_t size) {
  return api_transfer(device, buffer, "readBuffer", LS_BUFFER_USAGE_COPY_SRC, "COPY_SRC", offset,
                      4, dst, NULL, size);
}

/* ----------------------------------------------------------------- mapping */

typedef struct api_map {
  ls_buffer *buffer;
  uint64_t ticket;
} api_map;

static _Atomic uint64_t api_next_ticket = 1;

static void api_map_finish(ls_device *d, void *arg, int run) {
  api_map *m = arg;
  ls_buffer *b = m->buffer;
  ls_map_callback fn = NULL;
  void *user = NULL;
  ls_status st = run ? LS_OK : LS_DEVICE_LOST;
  API_LOCK(d);
  if (b->map_ticket == m->ticket && b->map_state == LS_MAP_STATE_PENDING) {
    fn = b->map_fn;
    user = b->map_user;
    b->map_fn = NULL;
    b->map_ticket = 0;
    if (run && b->map_mode == LS_MAP_READ && b->mapped.size) {
      /* WebGPU discards what the host writes into a READ mapping */
      b->shadow = malloc((size_t)b->mapped.size);
      if (b->shadow) memcpy(b->shadow, b->data + b->mapped.offset, (size_t)b->mapped.size);
      else st = LS_OUT_OF_MEMORY;
    }
    b->map_state = st == LS_OK ? LS_MAP_STATE_MAPPED : LS_MAP_STATE_UNMAPPED;
  }
  API_UNLOCK(d);
  /* an unmap or destroy that came first has told the callback already */
  if (fn) {
    if (st == LS_OK) fn(user, LS_OK, NULL);
    else if (st == LS_OUT_OF_MEMORY) fn(user, st, "mapAsync: out of memory for the mapping");
    else fn(user, LS_DEVICE_LOST, "the device was lost before the map completed");
  }
  api_buffer_unref(b);
  free(m);
}

static void api_map_run(ls_device *d, void *arg) { api_map_finish(d, arg, 1); }
static void api_map_drop(ls_device *d, void *arg) { api_map_finish(d, arg, 0); }

/* mapAsync's device-timeline checks (mu held); NULL when valid. */
static char *api_map_problem(const ls_buffer *b, uint32_t mode, uint64_t offset, uint64_t size) {
  const char *n = api_buffer_name(b);
  const char *gone = api_buffer_unavailable_locked(b);
  if (gone) return api_format("mapAsync: buffer '%s' %s", n, gone);
  if (mode != LS_MAP_READ && mode != LS_MAP_WRITE)
    return api_format("mapAsync: mode 0x%x of buffer '%s' is not exactly one of READ and WRITE",
                      mode, n);
  if (mode == LS_MAP_READ && !(b->usage & LS_BUFFER_USAGE_MAP_READ))
    return api_format("mapAsync(READ): buffer '%s' lacks MAP_READ usage", n);
  if (mode == LS_MAP_WRITE && !(b->usage & LS_BUFFER_USAGE_MAP_WRITE))
    return api_format("mapAsync(WRITE): buffer '%s' lacks MAP_WRITE usage", n);
  if (offset % 8)
    return api_format("mapAsync: offset %llu into buffer '%s' is not a multiple of 8",
                      (unsigned long long)offset, n);
  if (size % 4)
    return api_format("mapAsync: size %llu of buffer '%s' is not a multiple of 4",
                      (unsigned long long)size, n);
  if (offset > b->size || size > b->size - offset)
    return api_format("mapAsync: range [%llu, %llu) is outside buffer '%s' (%llu bytes)",
                      (unsigned long long)offset, (unsigned long long)(offset + size), n,
                      (unsigned long long)b->size);
  return NULL;
}

void ls_buffer_map_async(ls_buffer *buffer, uint32_t mode, uint64_t offset, uint64_t size,
                         ls_map_callback fn, void *user) {
  if (!buffer) {
    if (fn) fn(user, LS_VALIDATION, "mapAsync: no buffer");
    return;
  }
  ls_device *d = buffer->device;
  if (api_device_dead(d)) {
    if (fn) fn(user, LS_DEVICE_LOST, "mapAsync: the device is lost");
    return;
  }
  if (size == LS_WHOLE_SIZE) size = offset <= buffer->size ? buffer->size - offset : 0;
  api_map *m = malloc(sizeof *m);
  if (!m) {
    api_error(d, LS_ERROR_OUT_OF_MEMORY, "mapAsync: out of memory");
    if (fn) fn(user, LS_OUT_OF_MEMORY, "mapAsync: out of memory");
    return;
  }
  API_LOCK(d);
  if (buffer->map_state == LS_MAP_STATE_PENDING) {
    /* the content timeline's check: no validation error */
    API_UNLOCK(d);
    free(m);
    if (fn) fn(user, LS_OPERATION, "mapAsync: buffer already has a pending map");
    return;
  }
  char *problem = api_map_problem(buffer, mode, offset, size);
  uint64_t seq = 0;
  if (!problem) {
    m->buffer = buffer;
    m->ticket = atomic_fetch_add(&api_next_ticket, 1);
    api_buffer_ref(buffer);
    buffer->map_state = LS_MAP_STATE_PENDING;
    buffer->map_mode = mode;
    buffer->mapped.offset = offset;
    buffer->mapped.size = size;
    buffer->nranges = 0;
    buffer->map_fn = fn;
    buffer->map_user = user;
    buffer->map_ticket = m->ticket;
    seq = api_timeline_push_locked(d, api_map_run, api_map_drop, m);
    if (!seq) {
      buffer->map_state = LS_MAP_STATE_UNMAPPED;
      buffer->map_fn = NULL;
      buffer->map_ticket = 0;
      atomic_fetch_sub(&buffer->refs, 1);
    }
  }
  API_UNLOCK(d);
  if (problem) {
    free(m);
    api_validation(d, "%s", problem);
    if (fn) fn(user, LS_VALIDATION, problem);
    free(problem);
  } else if (!seq) {
    free(m);
    if (fn) fn(user, LS_DEVICE_LOST, "mapAsync: the device is lost");
  }
}

ls_map_state ls_buffer_get_map_state(const ls_buffer *buffer) {
  if (!buffer) return LS_MAP_STATE_UNMAPPED;
  ls_device *d = buffer->device;
  API_LOCK(d);
  ls_map_state st = buffer->map_state;
  API_UNLOCK(d);
  return st;
}

static void api_err_text(char *err, size_t errlen, char *msg) {
  if (err && errlen) snprintf(err, errlen, "%s", msg ? msg : "out of memory");
  free(msg);
}

void *ls_buffer_get_mapped_range(ls_buffer *buffer, uint64_t offset, uint64_t size, char *err,
                                 size_t errlen) {
  if (err && errlen) err[0] = 0;
  if (!buffer) {
    api_err_text(err, errlen, api_strdup("getMappedRange: no buffer"));
    return NULL;
  }
  ls_device *d = buffer->device;
  const char *n = api_buffer_name(buffer);
  void *ptr = NULL;
  char *why = NULL;
  API_LOCK(d);
  const api_range m = buffer->mapped;
  /* WebGPU's default size runs to the end of the buffer, not of the mapped
   * range (the range check below then refuses it if it is longer) */
  if (size == LS_WHOLE_SIZE) size = offset <= buffer->size ? buffer->size - offset : 0;
  if (buffer->map_state != LS_MAP_STATE_MAPPED)
    why = api_format("getMappedRange: buffer '%s' is not mapped", n);
  else if (!buffer->data)
    why = api_format("getMappedRange: buffer '%s' is destroyed", n);
  else if (offset % 8 || size % 4)
    why = api_format("getMappedRange: offset %llu must be a multiple of 8 and size %llu of 4 "
                     "(buffer '%s')",
                     (unsigned long long)offset, (unsigned long long)size, n);
  else if (offset < m.offset || offset > m.offset + m.size || size > m.offset + m.size - offset)
    why = api_format("getMappedRange: range [%llu, %llu) is outside the mapped range [%llu, "
                     "%llu) of buffer '%s'",
                     (unsigned long long)offset, (unsigned long long)(offset + size),
                     (unsigned long long)m.offset, (unsigned long long)(m.offset + m.size), n);
  for (size_t i = 0; !why && i < buffer->nranges; i++) {
    const api_range *r = &buffer->ranges[i];
    if (offset < r->offset + r->size && r->offset < offset + size)
      why = api_format("getMappedRange: range [%llu, %llu) overlaps range [%llu, %llu) already "
                       "returned for buffer '%s'",
                       (unsigned long long)offset, (unsigned long long)(offset + size),
                       (unsigned long long)r->offset, (unsigned long long)(r->offset + r->size),
                       n);
  }
  if (!why && buffer->nranges == buffer->capranges) {
    size_t cap = buffer->capranges ? buffer->capranges * 2 : 4;
    api_range *r = realloc(buffer->ranges, cap * sizeof *r);
    if (!r) why = api_strdup("getMappedRange: out of memory");
    else {
      buffer->ranges = r;
      buffer->capranges = cap;
    }
  }
  if (!why) {
    buffer->ranges[buffer->nranges].offset = offset;
    buffer->ranges[buffer->nranges].size = size;
    buffer->nranges++;
    ptr = buffer->shadow ? buffer->shadow + (offset - m.offset) : buffer->data + offset;
  }
  API_UNLOCK(d);
  if (!ptr) api_err_text(err, errlen, why);
  return ptr;
}

void ls_buffer_unmap(ls_buffer *buffer) {
  if (!buffer) return;
  ls_device *d = buffer->device;
  void *user = NULL;
  API_LOCK(d);
  ls_map_callback fn = api_map_abort_locked(buffer, &user);
  API_UNLOCK(d);
  if (fn) fn(user, LS_ABORTED, "the buffer was unmapped before the map completed");
}
