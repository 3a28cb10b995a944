// expect: 3:10 @workgroup_size takes 1 to 3 arguments
// §workgroup_size: one, two or three parameters.
@compute @workgroup_size(1, 1, 1, 1) fn main() {}
