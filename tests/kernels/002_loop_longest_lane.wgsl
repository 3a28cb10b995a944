// Lesson 002: a loop lasts as long as its longest lane. limite[i] is 3 for
// 31 lanes of every 32 and 500 for the other one: the subgroup iterates 500
// times, the short lanes masked off after their third trip.
@group(0) @binding(0) var<storage, read> limite: array<u32>;
@group(0) @binding(1) var<storage, read_write> acumulado: array<u32>;
@group(0) @binding(2) var<storage, read_write> vueltas: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = limite[gid.x];
  var i = 0u;
  var a = 0u;
  while (i < n) {
    a = a * 31u + i;
    i++;
  }
  acumulado[gid.x] = a;
  vueltas[gid.x] = i;
}
