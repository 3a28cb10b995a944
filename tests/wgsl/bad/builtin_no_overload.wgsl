// expect: 3:11 no overload of 'sin'
@compute @workgroup_size(1) fn main() {
  let x = sin(1u);
}
