// expect: 3:11 no overload of 'cross'
@compute @workgroup_size(1) fn main() {
  let x = cross(vec2f(1.0), vec2f(2.0));
}
