// expect: 4:3 override
// §override Declarations: overrides are module-scope only.
fn f() {
  override o = 1;
}
@compute @workgroup_size(1) fn main() {}
