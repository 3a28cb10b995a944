// expect: 4:16 @blend_src needs 'enable dual_source_blending;'
// §blend_src: part of the dual_source_blending extension.
struct F {
  @location(0) @blend_src(0) a: vec4f,
  @location(0) @blend_src(1) b: vec4f,
}
@fragment fn main() -> F { return F(); }
