// expect: 3:11 cannot be used as a value
@compute @workgroup_size(1) fn main() {
  let b = vec3;
}
