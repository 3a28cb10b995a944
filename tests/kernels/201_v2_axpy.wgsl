// y = a * x + y over the first n elements, a and n from a uniform at group 1;
// the case runs it once indirectly and once directly with new parameters.
struct Params { a: f32, n: u32 }

@group(0) @binding(0) var<storage, read_write> y: array<f32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(1) @binding(0) var<uniform> p: Params;

@compute @workgroup_size(64)
fn axpy(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < p.n) {
    y[g.x] = p.a * x[g.x] + y[g.x];
  }
}
