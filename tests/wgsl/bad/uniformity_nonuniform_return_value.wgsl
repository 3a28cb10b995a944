// expect: 6:5 must only be called from uniform control flow
var<private> p: u32;
fn getp() -> u32 { return p; }
@compute @workgroup_size(64) fn main() {
  if (getp() == 0u) {
    workgroupBarrier();
  }
}
