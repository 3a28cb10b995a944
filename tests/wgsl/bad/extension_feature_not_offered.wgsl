// expect: 6:8 'enable clip_distances;' needs the device feature "clip-distances" (a feature lockstep does not offer)
// WebGPU createShaderModule: an enabled extension needs its device feature;
// lockstep offers neither clip-distances nor dual-source-blending, so the
// module is refused although the front end finds its IO valid (a
// structure with the two @blend_src outputs, a clip_distances output).
enable clip_distances;
enable dual_source_blending;
struct F {
  @location(0) @blend_src(0) a: vec4f,
  @location(0) @blend_src(1) b: vec4f,
}
@fragment fn fs() -> F { return F(); }
struct V {
  @builtin(position) p: vec4f,
  @builtin(clip_distances) c: array<f32, 8>,
}
@vertex fn vs() -> V { return V(); }
