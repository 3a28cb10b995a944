// An array sized by an override-expression (n * 2): with n = 4 the array
// has 8 elements, each invocation writes w[li] = 3*li + 1, and reads
// w[7 - li]. Expected out[li] = 3*(7 - li) + 1 = 22 19 16 13 10 7 4 1.
override n: u32 = 4;
var<workgroup> w: array<u32, n * 2>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) li: u32) {
  w[li] = li * 3u + 1u;
  workgroupBarrier();
  out[li] = w[7u - li];
}
