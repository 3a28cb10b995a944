// Lesson 000: the grid-stride loop. A fixed number of workgroups covers any
// count; each invocation advances by the total number of invocations, so
// neighbouring lanes touch neighbouring words on every iteration.
// por_bloques is the contrast the lesson warns about: each invocation takes
// one contiguous block, so lanes of a subgroup touch words far apart.
struct Params { conteo: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> datos: array<f32>;
@group(0) @binding(2) var<storage, read_write> quien: array<u32>;
@group(0) @binding(3) var<storage, read_write> datos_bloques: array<f32>;
@group(0) @binding(4) var<storage, read_write> quien_bloques: array<u32>;

@compute @workgroup_size(64)
fn zancada(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let zancada = nwg.x * 64u;
  var i = gid.x;
  loop {
    if (i >= params.conteo) { break; }
    datos[i] = datos[i] * 0.99;
    quien[i] = gid.x;
    i += zancada;
  }
}

@compute @workgroup_size(64)
fn por_bloques(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let total = nwg.x * 64u;
  let porcion = (params.conteo + total - 1u) / total;
  let inicio = gid.x * porcion;
  for (var k = 0u; k < porcion; k++) {
    let i = inicio + k;
    if (i >= params.conteo) { break; }
    datos_bloques[i] = datos_bloques[i] * 0.99;
    quien_bloques[i] = gid.x;
  }
}
