// expect: 6:48 smoothstep with equal edges
// §smoothstep: edge0 == edge1 is a pipeline-creation error when both are
// override-expressions.
override edge: f32 = 0.5;
@group(0) @binding(0) var<storage, read_write> s: array<f32>;
@compute @workgroup_size(1) fn main() { s[0] = smoothstep(edge, 0.5, s[1]); }
