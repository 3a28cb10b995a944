/*
 * sampler.c — samplers: createSampler with WebGPU's validation
 * (lodMinClamp >= 0, lodMaxClamp >= lodMinClamp, maxAnisotropy >= 1 and,
 * above 1, every filter linear) and the state the VM samples with
 * (vm/sample.c). A sampler is immutable, so bind groups share it by
 * reference.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

void api_sampler_ref(ls_sampler *s) {
  if (s) API_REF(s);
}

void api_sampler_unref(ls_sampler *s) {
  if (!s || !API_UNREF_LAST(s)) return;
  ls_device *d = s->device;
  free(s->label);
  API_FREE_HANDLE(s);
  api_device_unref(d);
}

const char *api_sampler_name(const ls_sampler *s) {
  return s && s->label && *s->label ? s->label : "(unlabelled)";
}

ls_sampler *ls_device_create_sampler(ls_device *device, const ls_sampler_desc *desc) {
  if (api_device_dead(device)) return NULL;
  ls_sampler_desc rd = LS_SAMPLER_DESC_DEFAULT;
  if (desc && !API_DESC(rd, desc)) {
    api_validation(device, "createSampler: %s", API_DESC_NEWER);
    return NULL;
  }
  const ls_sampler_desc *r = &rd;
  const char *name = api_label(r->label, "(unlabelled)");
  const unsigned am[3] = {r->address_mode_u, r->address_mode_v, r->address_mode_w};
  const unsigned fm[3] = {r->mag_filter, r->min_filter, r->mipmap_filter};
  static const char *const axis[3] = {"addressModeU", "addressModeV", "addressModeW"};
  static const char *const filt[3] = {"magFilter", "minFilter", "mipmapFilter"};
  for (int k = 0; k < 3; k++) {
    if (am[k] > LS_ADDRESS_MIRROR_REPEAT) {
      api_validation(device, "createSampler %s: bad %s %u", name, axis[k], am[k]);
      return NULL;
    }
    if (fm[k] > LS_FILTER_LINEAR) {
      api_validation(device, "createSampler %s: bad %s %u", name, filt[k], fm[k]);
      return NULL;
    }
  }
  if ((unsigned)r->compare > LS_COMPARE_ALWAYS) {
    api_validation(device, "createSampler %s: bad compare function %d", name, (int)r->compare);
    return NULL;
  }
  /* the comparisons are written so that NaN fails them */
  if (!(r->lod_min_clamp >= 0.0f)) {
    api_validation(device, "createSampler %s: lodMinClamp (%g) must be at least 0", name,
                   (double)r->lod_min_clamp);
    return NULL;
  }
  if (!(r->lod_max_clamp >= r->lod_min_clamp)) {
    api_validation(device, "createSampler %s: lodMaxClamp (%g) must be at least lodMinClamp (%g)",
                   name, (double)r->lod_max_clamp, (double)r->lod_min_clamp);
    return NULL;
  }
  if (r->max_anisotropy < 1) {
    api_validation(device,
                   "createSampler %s: maxAnisotropy (%u) must be at least 1 (start the "
                   "descriptor from LS_SAMPLER_DESC_DEFAULT)",
                   name, (unsigned)r->max_anisotropy);
    return NULL;
  }
  if (r->max_anisotropy > 1) {
    for (int k = 0; k < 3; k++)
      if (fm[k] != LS_FILTER_LINEAR) {
        api_validation(device,
                       "createSampler %s: maxAnisotropy %u needs magFilter, minFilter and "
                       "mipmapFilter \"linear\" (%s is \"nearest\")",
                       name, (unsigned)r->max_anisotropy, filt[k]);
        return NULL;
      }
  }
  ls_sampler *s = calloc(1, sizeof *s);
  if (!s || (r->label && !api_label_init(&s->label, r->label))) {
    free(s);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createSampler: out of memory");
    return NULL;
  }
  s->device = device;
  api_device_ref(device);
  s->refs = 1;
  s->valid = 1;
  s->is_comparison = r->compare != LS_COMPARE_UNDEFINED;
  s->is_filtering = fm[0] == LS_FILTER_LINEAR || fm[1] == LS_FILTER_LINEAR ||
                    fm[2] == LS_FILTER_LINEAR;
  for (int k = 0; k < 3; k++) s->state.address[k] = (uint8_t)am[k];
  s->state.mag = (uint8_t)r->mag_filter;
  s->state.min = (uint8_t)r->min_filter;
  s->state.mip = (uint8_t)r->mipmap_filter;
  s->state.compare = (uint8_t)r->compare;
  s->state.lod_min = r->lod_min_clamp;
  s->state.lod_max = r->lod_max_clamp;
  return s;
}

void ls_sampler_release(ls_sampler *sampler) { api_sampler_unref(sampler); }

void ls_sampler_set_label(ls_sampler *sampler, const char *label) {
  if (sampler) api_set_label(sampler->device, &sampler->label, label);
}
