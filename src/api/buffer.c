/*
 * buffer.c — buffers: creation with WebGPU's usage rules, destruction, and
 * the queue's direct transfers (writeBuffer, and reading back through a
 * mapped copy). Memory is plain host memory, zeroed at creation; bind groups
 * point dispatches into it (queue.c).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

#define API_ALL_USAGES 0x03ffu

void api_buffer_ref(ls_buffer *b) {
  if (b) b->refs++;
}

void api_buffer_unref(ls_buffer *b) {
  if (!b || --b->refs) return;
  ls_device *d = b->device;
  free(b->data);
  free(b->label);
  free(b);
  api_device_unref(d);
}

const char *api_buffer_name(const ls_buffer *b) {
  return b ? api_label(b->label, "(unlabelled)") : "(null)";
}

ls_buffer *ls_device_create_buffer(ls_device *device, const ls_buffer_desc *desc) {
  if (api_device_dead(device)) return NULL;
  if (!desc) {
    api_validation(device, "createBuffer: no descriptor");
    return NULL;
  }
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
  return b;
}

void ls_buffer_destroy(ls_buffer *buffer) {
  if (!buffer || buffer->destroyed) return;
  buffer->destroyed = 1;
  free(buffer->data);
  buffer->data = NULL;
  api_buffer_unref(buffer);
}

uint64_t ls_buffer_get_size(const ls_buffer *buffer) { return buffer ? buffer->size : 0; }
uint32_t ls_buffer_get_usage(const ls_buffer *buffer) { return buffer ? buffer->usage : 0; }

/* The checks every transfer shares; the message names the operation. */
static ls_status api_check_transfer(ls_device *device, ls_buffer *buffer, const char *op,
                                    uint32_t need_usage, const char *usage_name,
                                    uint64_t offset, uint64_t offset_align, const void *ptr,
                                    size_t size) {
  if (api_device_dead(device)) return LS_DEVICE_LOST;
  if (!buffer) {
    api_validation(device, "%s: no buffer", op);
    return LS_VALIDATION;
  }
  const char *name = api_buffer_name(buffer);
  if (buffer->device != device) {
    api_validation(device, "%s: buffer '%s' belongs to another device", op, name);
    return LS_VALIDATION;
  }
  if (buffer->destroyed) {
    api_validation(device, "%s: buffer '%s' is destroyed", op, name);
    return LS_VALIDATION;
  }
  if (!(buffer->usage & need_usage)) {
    api_validation(device, "%s: buffer '%s' lacks %s usage", op, name, usage_name);
    return LS_VALIDATION;
  }
  if (offset % offset_align) {
    api_validation(device, "%s: offset %llu into buffer '%s' is not a multiple of %llu", op,
                   (unsigned long long)offset, name, (unsigned long long)offset_align);
    return LS_VALIDATION;
  }
  if (size % 4) {
    api_validation(device, "%s: size %zu is not a multiple of 4", op, size);
    return LS_VALIDATION;
  }
  if (offset > buffer->size || size > buffer->size - offset) {
    api_validation(device,
                   "%s: range [%llu, %llu) is outside buffer '%s' (%llu bytes)", op,
                   (unsigned long long)offset, (unsigned long long)offset + size, name,
                   (unsigned long long)buffer->size);
    return LS_VALIDATION;
  }
  if (size && !ptr) {
    api_validation(device, "%s: no host memory given for %zu bytes", op, size);
    return LS_VALIDATION;
  }
  return LS_OK;
}

ls_status ls_queue_write_buffer(ls_device *device, ls_buffer *buffer, uint64_t offset,
                                const void *data, size_t size) {
  ls_status s = api_check_transfer(device, buffer, "writeBuffer", LS_BUFFER_USAGE_COPY_DST,
                                   "COPY_DST", offset, 4, data, size);
  if (s == LS_OK && size) memcpy(buffer->data + offset, data, size);
  return s;
}

ls_status ls_buffer_map_read(ls_device *device, ls_buffer *buffer, uint64_t offset, void *dst,
                             size_t size) {
  ls_status s = api_check_transfer(device, buffer, "mapAsync(READ)", LS_BUFFER_USAGE_MAP_READ,
                                   "MAP_READ", offset, 8, dst, size);
  if (s == LS_OK && size) memcpy(dst, buffer->data + offset, size);
  return s;
}

ls_status ls_queue_read_buffer(ls_device *device, ls_buffer *buffer, uint64_t offset, void *dst,
                               size_t size) {
  ls_status s = api_check_transfer(device, buffer, "readBuffer", LS_BUFFER_USAGE_COPY_SRC,
                                   "COPY_SRC", offset, 4, dst, size);
  if (s == LS_OK && size) memcpy(dst, buffer->data + offset, size);
  return s;
}
