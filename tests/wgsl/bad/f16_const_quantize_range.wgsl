// expect: 3:11 outside the finite range of f16
// quantizeToF16 of a constant beyond 65504 is a shader-creation error
const x = quantizeToF16(65510.0f);
@compute @workgroup_size(64) fn main() {}
