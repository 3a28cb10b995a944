// Guards the lint must accept: early return, enclosing if, grid-stride loop
// with break, modulo.
struct Params { conteo: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> datos: array<f32>;

@compute @workgroup_size(64)
fn a(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.conteo) { return; }
  datos[gid.x] = datos[gid.x] * 0.99;
}

@compute @workgroup_size(64)
fn b(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i < params.conteo) {
    datos[i] = 0.0;
  }
}

@compute @workgroup_size(64)
fn c(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  var i = gid.x;
  loop {
    if (i >= params.conteo) { break; }
    datos[i] = datos[i] * 0.99;
    i += nwg.x * 64u;
  }
}

@compute @workgroup_size(64)
fn d(@builtin(global_invocation_id) gid: vec3u) {
  datos[gid.x % params.conteo] = 1.0;
}
