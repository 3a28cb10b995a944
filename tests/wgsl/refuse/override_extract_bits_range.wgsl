// expect: 7:48 extractBits: offset 28 + count 8 is more than 32 bits
// §extractBits: offset + count above the bit width is a pipeline-creation
// error when both are override-expressions (a const-expression is one
// too), even though e is only known when the shader runs.
override off: u32 = 28;
@group(0) @binding(0) var<storage, read_write> s: array<u32>;
@compute @workgroup_size(1) fn main() { s[0] = extractBits(s[1], off, 8u); }
