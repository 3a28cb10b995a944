// expect: 6:31 @builtin(clip_distances) must have type array<f32, N> (N at most 8), found array<f32, 9>
// §clip_distances: the array size must be at most 8.
enable clip_distances;
struct V {
  @builtin(position) p: vec4f,
  @builtin(clip_distances) c: array<f32, 9>,
}
@vertex fn main() -> V { return V(); }
