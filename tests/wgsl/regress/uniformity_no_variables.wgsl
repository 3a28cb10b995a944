// Found by fuzzing: with no function variables, the uniformity analysis
// copied an empty state from a null pointer (undefined behaviour).
var<workgroup> flag: u32;
@compute @workgroup_size(64) fn main() {
  if (workgroupUniformLoad(&flag) == 1u) {
    workgroupBarrier();
  }
}
