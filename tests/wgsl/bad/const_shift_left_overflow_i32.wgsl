// expect: 3:11 overflows i32
// §Bit Expressions: for a const i32 shift left, the e2+1 top bits of e1 must be equal (else it overflows).
const a = 3i << 30u;
@compute @workgroup_size(1) fn main() {}
