// Lesson 001 says an override cannot size a var<workgroup> array; the WGSL
// specification allows it (outermost array in the workgroup address space,
// count fixed at pipeline creation). One module, two pipelines: TAM = 32 and
// TAM = 128, each a tree reduction over chunks of TAM floats.
override TAM: u32 = 64u;
var<workgroup> buf: array<f32, TAM>;

@group(0) @binding(0) var<storage, read> entrada: array<f32>;
@group(0) @binding(1) var<storage, read_write> sumas_a: array<f32>;
@group(0) @binding(2) var<storage, read_write> sumas_b: array<f32>;

fn reducir(li: u32, base: u32) -> f32 {
  buf[li] = entrada[base + li];
  workgroupBarrier();
  for (var s = TAM / 2u; s > 0u; s = s / 2u) {
    if (li < s) {
      buf[li] = buf[li] + buf[li + s];
    }
    workgroupBarrier();
  }
  return buf[0];
}

@compute @workgroup_size(TAM)
fn reducir_a(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3u) {
  let suma = reducir(li, wid.x * TAM);
  if (li == 0u) { sumas_a[wid.x] = suma; }
}

@compute @workgroup_size(TAM)
fn reducir_b(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3u) {
  let suma = reducir(li, wid.x * TAM);
  if (li == 0u) { sumas_b[wid.x] = suma; }
}
