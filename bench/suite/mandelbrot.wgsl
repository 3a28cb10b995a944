// Mandelbrot escape counts on a 512x512 grid over [-2, 1] x [-1.5, 1.5],
// at most 256 iterations: neighbouring pixels leave the loop at different
// iterations, so the subgroups diverge.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let cx = -2.0 + 3.0 * f32(g.x) / 512.0;
  let cy = -1.5 + 3.0 * f32(g.y) / 512.0;
  var x = 0.0;
  var y = 0.0;
  var i = 0u;
  loop {
    if (i >= 256u || x * x + y * y > 4.0) {
      break;
    }
    let t = x * x - y * y + cx;
    y = 2.0 * x * y + cy;
    x = t;
    i++;
  }
  out[g.y * 512u + g.x] = i;
}
