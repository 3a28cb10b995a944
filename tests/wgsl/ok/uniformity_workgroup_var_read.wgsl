// §Uniformity Rules for Expressions: workgroupUniformLoad makes a workgroup value uniform.
var<workgroup> flag: u32;
@compute @workgroup_size(64) fn main() {
  if (workgroupUniformLoad(&flag) == 1u) {
    workgroupBarrier();
  }
}
