// Lesson 001: the WGSL template, instantiated with TAM = 64. A const sizes
// both the workgroup and the workgroup array, as reductions need.
// Each workgroup (1) reverses its 64 inputs through workgroup memory, so every
// lane reads a word another lane wrote, and (2) sums them with a tree
// reduction. Both are only right if every barrier waits for the whole
// workgroup, not just one subgroup.
const TAM: u32 = 64u;
var<workgroup> buf: array<f32, TAM>;

@group(0) @binding(0) var<storage, read> entrada: array<f32>;
@group(0) @binding(1) var<storage, read_write> invertido: array<f32>;
@group(0) @binding(2) var<storage, read_write> sumas: array<f32>;

@compute @workgroup_size(TAM)
fn main(
  @builtin(local_invocation_index) li: u32,
  @builtin(workgroup_id) wid: vec3u,
) {
  let base = wid.x * TAM;
  buf[li] = entrada[base + li];
  workgroupBarrier();
  invertido[base + li] = buf[TAM - 1u - li];
  workgroupBarrier();
  for (var s = TAM / 2u; s > 0u; s = s / 2u) {
    if (li < s) {
      buf[li] = buf[li] + buf[li + s];
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    sumas[wid.x] = buf[0];
  }
}
