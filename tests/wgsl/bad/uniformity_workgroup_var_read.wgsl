// expect: 6:5 must only be called from uniform control flow
// note: 5:7 control flow depends on this possibly non-uniform value
var<workgroup> flag: u32;
@compute @workgroup_size(64) fn main() {
  if (flag == 1u) {
    workgroupBarrier();
  }
}
