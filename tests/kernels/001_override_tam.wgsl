// Lesson 001: one module, several workgroup sizes. TAM is an override, fixed
// when the pipeline is created (constants: { TAM: ... }). grupo[i] records
// the workgroup that handled element i, which makes TAM visible: i / TAM.
override TAM: u32 = 64u;

@group(0) @binding(0) var<storage, read> entrada: array<f32>;
@group(0) @binding(1) var<storage, read_write> salida: array<f32>;
@group(0) @binding(2) var<storage, read_write> grupo: array<u32>;

@compute @workgroup_size(TAM)
fn main(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(workgroup_id) wid: vec3u,
) {
  let i = gid.x;
  if (i >= arrayLength(&entrada)) { return; }
  salida[i] = sqrt(entrada[i]);
  grupo[i] = wid.x;
}
