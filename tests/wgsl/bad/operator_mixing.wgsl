// expect: 6:14 mixing '*' and '^' requires parentheses
// Dawn reports the same position: the first operator after the first operand.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  let a = out[0];
  out[3] = a * 3u ^ a;
}
