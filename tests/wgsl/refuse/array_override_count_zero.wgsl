// expect: 5:30 this array count is 0; it must be between 1 and
// §Array Types: an override-expression element count must be positive;
// it is a pipeline-creation error otherwise.
override n: u32 = 0;
var<workgroup> w: array<u32, n * 2>;
@compute @workgroup_size(1) fn main() { w[0] = 1u; }
