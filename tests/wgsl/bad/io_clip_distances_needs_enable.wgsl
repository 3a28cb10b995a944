// expect: 6:3 @builtin(clip_distances) needs 'enable clip_distances;'
// §clip_distances: the built-in value belongs to the clip_distances
// extension.
struct V {
  @builtin(position) p: vec4f,
  @builtin(clip_distances) c: array<f32, 4>,
}
@vertex fn main() -> V { return V(); }
