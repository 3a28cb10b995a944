// expect: 4:20 must be a constant integer
// §binding: the parameter must be a const-expression.
override o = 1;
@group(0) @binding(o) var<storage> b: u32;
@compute @workgroup_size(1) fn main() {}
