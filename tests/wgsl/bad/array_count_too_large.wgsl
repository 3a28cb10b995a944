// expect: 4:30 array element count 1073741824 is too large
// An implementation limit of lockstep (the spec lets implementations limit
// sizes, §Limits): an array's byte size must fit in 32 bits.
var<private> a: array<vec4f, 1073741824>;
@compute @workgroup_size(1) fn main() {}
