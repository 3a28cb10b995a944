// expect: 3:49 expected a texel format
// §Texel Formats: a storage texture names one of the texel formats.
@group(0) @binding(0) var t: texture_storage_2d<rgb8unorm, write>;
@compute @workgroup_size(1) fn main() {}
