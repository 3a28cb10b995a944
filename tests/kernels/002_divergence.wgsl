// Lesson 002: a branch where the lanes of a subgroup disagree runs both
// sides, each with part of the lanes masked off. Even and odd lanes take
// different paths, and inside the odd path the data splits them again; the
// write after the if/else runs with all lanes back together.
@group(0) @binding(0) var<storage, read> entrada: array<u32>;
@group(0) @binding(1) var<storage, read_write> salida: array<u32>;
@group(0) @binding(2) var<storage, read_write> rama: array<u32>;

@compute @workgroup_size(64)
fn main(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) li: u32,
) {
  let x = entrada[gid.x];
  var r: u32;
  var camino: u32;
  if ((li & 1u) == 0u) {
    r = x * x + 7u;
    camino = 0u;
  } else {
    if (x % 3u == 0u) {
      r = x / 3u;
      camino = 1u;
    } else {
      r = (x ^ 0xffffu) >> 3u;
      camino = 2u;
    }
  }
  rama[gid.x] = camino;
  salida[gid.x] = r + li;
}
