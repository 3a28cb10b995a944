// Collatz steps of n = 1 .. 1,048,576, at most 64: a data-dependent branch
// inside a loop whose trip count differs from lane to lane.
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> steps: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= arrayLength(&src)) {
    return;
  }
  var n = src[g.x];
  var s = 0u;
  loop {
    if (n <= 1u || s >= 64u) {
      break;
    }
    if ((n & 1u) == 1u) {
      n = 3u * n + 1u;
    } else {
      n = n >> 1u;
    }
    s++;
  }
  steps[g.x] = s;
}
