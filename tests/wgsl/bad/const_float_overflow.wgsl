// expect: 3:11 not a finite f32
// §Floating Point Evaluation: a const f32 result that is not finite is an error.
const a = 3.0e38f * 10.0f;
@compute @workgroup_size(1) fn main() {}
