// expect: 7:48 clamp's low is greater than its high
// §clamp: low > high is a pipeline-creation error when low and high are
// override-expressions, whatever e is.
override lo: f32 = 2.0;
override hi: f32 = 1.0;
@group(0) @binding(0) var<storage, read_write> s: array<f32>;
@compute @workgroup_size(1) fn main() { s[0] = clamp(s[1], vec2(lo).x, hi); }
