// expect: 3:29 must be greater than 0
// §workgroup_size: a const-expression parameter must be positive.
@compute @workgroup_size(8, -1) fn main() {}
