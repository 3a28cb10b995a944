/*
 * sampler.c — GPUSampler: createSampler from a converted
 * GPUSamplerDescriptor (JavaScript has applied the spec's defaults).
 */
#include "addon.h"

#include <stdlib.h>

static const char *const address_names[] = {"clamp-to-edge", "repeat", "mirror-repeat", NULL};
static const char *const filter_names[] = {"nearest", "linear", NULL};
static const char *const compare_names[] = {"", "never", "less", "equal", "less-equal",
                                            "greater", "not-equal", "greater-equal", "always",
                                            NULL};

/* samplerCreate(js, device, desc): true when made. */
ND_FN(sampler_create) {
  napi_value argv[3];
  if (!nd_args(env, info, 3, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  napi_value s = argv[2];
  char *label = nd_get_str(env, nd_prop(env, s, "label"));
  ls_sampler_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_sampler_desc),
    .address_mode_u = nd_enum(env, nd_prop(env, s, "addressModeU"), address_names, NULL, 0),
    .address_mode_v = nd_enum(env, nd_prop(env, s, "addressModeV"), address_names, NULL, 0),
    .address_mode_w = nd_enum(env, nd_prop(env, s, "addressModeW"), address_names, NULL, 0),
    .mag_filter = nd_enum(env, nd_prop(env, s, "magFilter"), filter_names, NULL, 0),
    .min_filter = nd_enum(env, nd_prop(env, s, "minFilter"), filter_names, NULL, 0),
    .mipmap_filter = nd_enum(env, nd_prop(env, s, "mipmapFilter"), filter_names, NULL, 0),
    .lod_min_clamp = (float)nd_get_f64(env, nd_prop(env, s, "lodMinClamp")),
    .lod_max_clamp = (float)nd_get_f64(env, nd_prop(env, s, "lodMaxClamp")),
    .compare = nd_enum(env, nd_prop(env, s, "compare"), compare_names, NULL, 0),
    .max_anisotropy = (uint16_t)nd_get_u32(env, nd_prop(env, s, "maxAnisotropy")),
    .label = label,
  };
  ls_sampler *h = ls_device_create_sampler(d->h, &desc);
  free(label);
  if (!h) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_SAMPLER, h, d) != NULL);
}

const nd_export nd_exports_sampler[] = {
  {"samplerCreate", sampler_create},
  {NULL, NULL},
};
