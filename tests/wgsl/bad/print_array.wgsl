// expect: 4:3 no overload of 'print' for array<i32, 2>
// print takes a scalar or a vector only.
@compute @workgroup_size(1) fn main() {
  print(array<i32, 2>(1, 2));
}
