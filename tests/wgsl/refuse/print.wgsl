// expect: 4:3 the built-in function 'print' is not supported by lockstep yet
// print is validated, not executed.
@compute @workgroup_size(1) fn main() {
  print(1u);
}
