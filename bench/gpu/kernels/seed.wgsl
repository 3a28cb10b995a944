// The seed lesson's kernel (lesson 000) in its three dispatch shapes, for the
// cost model's calibration on a real GPU (bench/gpu/README.md): one
// invocation per element (1D, or 2D past 65,535 workgroups) or a fixed grid
// that strides over the data.
struct Params { n: u32, row: u32 };
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> d: array<f32>;

@compute @workgroup_size(64)
fn one_d(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < p.n) { d[g.x] = d[g.x] * 0.99 + 1.0; }
}

// p.row workgroups per row in X, rows in Y
@compute @workgroup_size(64)
fn two_d(@builtin(workgroup_id) w: vec3u, @builtin(local_invocation_index) li: u32) {
  let i = (w.y * p.row + w.x) * 64u + li;
  if (i < p.n) { d[i] = d[i] * 0.99 + 1.0; }
}

@compute @workgroup_size(64)
fn grid_stride(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let step = nw.x * 64u;
  for (var i = g.x; i < p.n; i += step) { d[i] = d[i] * 0.99 + 1.0; }
}
