// expect: 5:11 the built-in function 'bufferView' is not supported by lockstep yet
// Buffer views are validated, not executed.
@group(0) @binding(0) var<storage, read_write> b: buffer;
@compute @workgroup_size(1) fn main() {
  let p = bufferView<u32>(&b, 0);
  let n = bufferLength(&b);
  *p = n;
}
