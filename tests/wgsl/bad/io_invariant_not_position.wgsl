// expect: 5:16 @invariant applies only to @builtin(position)
// §invariant: only on the position built-in value.
struct V {
  @builtin(position) p: vec4f,
  @location(0) @invariant x: f32,
}
@vertex fn main() -> V { return V(); }
