// expect: 4:11 too many arguments
// §Value Constructor Built-in Functions: vec2 takes two components (or one
// vector / one scalar), never twenty.
const v = vec2f(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
@compute @workgroup_size(1) fn main() {}
