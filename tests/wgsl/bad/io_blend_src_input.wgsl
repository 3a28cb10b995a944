// expect: 5:16 @blend_src applies only to members of a fragment shader's output structure
// §blend_src: must not be included in a shader stage input.
enable dual_source_blending;
struct F {
  @location(0) @blend_src(0) a: vec4f,
  @location(0) @blend_src(1) b: vec4f,
}
@fragment fn main(f: F) {}
