// One Hillis-Steele step of an inclusive prefix sum: dst[i] = src[i] +
// src[i - d] (just src[i] below d). The case ping-pongs two buffers through
// this module, d = 1, 2, 4, ... set per dispatch by a dynamic uniform offset.
struct Step { d: u32 }

@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> step: Step;

override WG: u32 = 64;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= arrayLength(&dst)) {
    return;
  }
  var v = src[i];
  if (i >= step.d) {
    v += src[i - step.d];
  }
  dst[i] = v;
}
