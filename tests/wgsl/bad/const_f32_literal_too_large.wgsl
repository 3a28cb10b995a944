// expect: 3:11 float literal is out of range for f32
// §Floating Point Evaluation: an f32 literal must be representable as a finite f32.
const a = 1e39f;
@compute @workgroup_size(1) fn main() {}
