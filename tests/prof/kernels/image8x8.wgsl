// Lesson 001: @workgroup_size(8, 8) reading a row-major 64x64 image by
// gid.xy. At W = 32 a subgroup holds four rows of eight pixels: four
// separate 32-byte segments per request, not one of 128.
@group(0) @binding(0) var<storage, read> imagen: array<f32>;
@group(0) @binding(1) var<storage, read_write> salida: array<f32>;
const ANCHO: u32 = 64u;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.y * ANCHO + gid.x;
  salida[i] = imagen[i] * 2.0;
}
