// expect: 7:3 a structure that uses @blend_src has exactly two @location members, @location(0) @blend_src(0) and @location(0) @blend_src(1), of one type
// §Input-output Locations: a structure that uses @blend_src has exactly two
// @location(0) members, @blend_src(0) and @blend_src(1).
enable dual_source_blending;
struct F {
  @location(0) @blend_src(0) a: vec4f,
  @location(1) b: vec4f,
}
