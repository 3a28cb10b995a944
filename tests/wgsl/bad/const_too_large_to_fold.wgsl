// expect: 4:11 const 'c' holds 2000000 values, more than lockstep folds
// An implementation limit of lockstep (§Limits): constants with more than
// 2^20 scalar leaves are not folded.
const c = array<i32, 2000000>();
@compute @workgroup_size(1) fn main() {}
