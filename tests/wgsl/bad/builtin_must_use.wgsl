// expect: 3:3 must be used
@compute @workgroup_size(1) fn main() {
  cos(1.0);
}
