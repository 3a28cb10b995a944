// expect: 17:14 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope variable value analysis: a switch is left with the values
// of its breaks too; here one sets x from non-uniform data.
@group(0) @binding(0) var<storage> uniform_value: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> nonuniform_value: array<u32, 4>;
@compute @workgroup_size(16) fn main() {
  var x: u32;
  switch uniform_value[3] {
    default {
      x = uniform_value[0];
      if uniform_value[1] > 0 {
        x = nonuniform_value[0];
        break;
      }
    }
  }
  if x > 0 { workgroupBarrier(); }
}
