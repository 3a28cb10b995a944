// expect: 5:5 must only be called from uniform control flow
var<workgroup> flag: u32;
@compute @workgroup_size(64) fn main() {
  if (flag == 1u) {
    workgroupBarrier();
  }
}
