// The sum of the red channel of every texel of a 4 x 4 rgba8uint texture.
@group(0) @binding(0) var t: texture_2d<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main() {
  var s = 0u;
  for (var y = 0; y < 4; y++) {
    for (var x = 0; x < 4; x++) {
      s += textureLoad(t, vec2i(x, y), 0).r;
    }
  }
  out[0] = s;
}
