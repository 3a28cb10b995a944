// Shader stage inputs and outputs of vertex and fragment entry points that
// the spec accepts (§Built-in Inputs and Outputs, §Input-output Locations,
// §Interpolation, §blend_src): built-ins of each stage and direction, one
// location used by an input and an output, flat integers (with first and
// either), perspective and linear samplings, invariant position, and a
// structure shared by a helper function without any entry point IO rule.
// (clip_distances and dual_source_blending need device features lockstep
// does not offer: bad/extension_feature_not_offered.wgsl.)
struct VOut {
  @builtin(position) @invariant pos: vec4f,
  @location(0) @interpolate(flat, either) id: u32,
  @location(1) @interpolate(linear, sample) uv: vec2f,
  @location(2) @interpolate(perspective, centroid) w: f32,
  @location(3) @interpolate(flat) k: vec3i,
}
@vertex fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32,
              @location(0) a: vec4f, @location(1) b: vec2u) -> VOut {
  var o: VOut;
  o.pos = a;
  o.id = v + i + b.x;
  return o;
}
struct FIn {
  @builtin(position) pos: vec4f,
  @location(0) @interpolate(flat, first) id: u32,
  @builtin(front_facing) front: bool,
}
struct FOut {
  @location(0) c0: vec4f,
  @location(1) c1: vec4f,
  @builtin(frag_depth) depth: f32,
  @builtin(sample_mask) mask: u32,
}
@fragment fn fs(f: FIn, @location(1) uv: vec2f, @builtin(sample_index) s: u32,
                @builtin(sample_mask) m: u32) -> FOut {
  return FOut(f.pos, vec4f(uv, 0.0, 1.0), 0.5, m & (1u << s));
}
// a structure with built-in members passed between helpers: no IO rule
struct Shared { @builtin(position) p: vec4f, @location(0) x: f32 }
fn helper(s: Shared) -> Shared { return s; }
@fragment fn fs2() -> @location(0) vec4f { return helper(Shared()).p; }
// @size up to what fits a type (§size: a positive i32 or u32)
struct Big { @size(2147483647) a: f32 }
