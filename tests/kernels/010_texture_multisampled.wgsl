// Multisampled textures in a compute shader: textureNumSamples,
// textureDimensions of a colour and a depth multisampled texture that
// nothing has rendered to, and textureLoad of every sample of the colour
// one, which holds only WebGPU's zero initialisation (directly and through
// a function parameter).
@group(0) @binding(0) var ms: texture_multisampled_2d<f32>;
@group(0) @binding(1) var msd: texture_depth_multisampled_2d;
@group(0) @binding(3) var<storage, read_write> info: array<u32, 8>;
@group(0) @binding(4) var<storage, read_write> texels: array<vec4f>;

fn load(t: texture_multisampled_2d<f32>, c: vec2u, s: u32) -> vec4f {
  return textureLoad(t, c, s);
}

@compute @workgroup_size(4, 2)
fn main(@builtin(local_invocation_id) l: vec3u) {
  let dims = textureDimensions(ms);
  let n = textureNumSamples(ms);
  for (var s = 0u; s < n; s++) {
    let c = textureLoad(ms, l.xy, s);
    let p = load(ms, l.xy, s);
    // a texel of 1s where every channel is 0 as WGSL's zeroed texture gives it
    texels[(l.y * 4u + l.x) * 4u + s] = vec4f(c.x + 1.0, c.w + 1.0, c.y + 1.0, p.y + p.z + 1.0);
  }
  if (all(l == vec3u(0u))) {
    info[0] = dims.x;
    info[1] = dims.y;
    info[2] = n;
    info[3] = textureNumSamples(msd);
    let dd = textureDimensions(msd);
    info[4] = dd.x;
    info[5] = dd.y;
    info[6] = textureNumSamples(ms) * 2u;
    info[7] = textureDimensions(msd).x + 1u;
  }
}
