// Workgroups 3, 7, 11, ... (wid.x % 4 == 3) hold the loop's worst spread,
// all tied: every eighth invocation goes round 200 times, the others 2
// times (so every subgroup of those workgroups, at any width, has the same
// spread); every other workgroup's invocations all go round 2 times.
// The profiler must name workgroup (3, 0, 0), subgroup 0, whichever
// threads ran which workgroups.
@group(0) @binding(0) var<storage, read_write> salida: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u,
        @builtin(workgroup_id) wid: vec3u,
        @builtin(local_invocation_index) li: u32) {
  var n = 2u;
  if (wid.x % 4u == 3u && li % 8u == 0u) { n = 200u; }
  var s = 0u;
  for (var i = 0u; i < n; i++) { s += i; }
  salida[gid.x] = s;
}
