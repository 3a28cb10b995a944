// expect: 3:11 takes one scalar argument
// §Value Constructor Built-in Functions: a scalar constructor takes one argument.
const x = f32(1, 2);
@compute @workgroup_size(1) fn main() {}
