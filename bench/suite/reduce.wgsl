// 256-wide workgroup tree reduction: each workgroup sums its 256 floats in
// workgroup memory, halving the active invocations at each step.
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> partial: array<f32>;
var<workgroup> s: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3u) {
  s[li] = src[wid.x * 256u + li];
  workgroupBarrier();
  for (var k = 128u; k > 0u; k >>= 1u) {
    if (li < k) {
      s[li] += s[li + k];
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    partial[wid.x] = s[0];
  }
}
