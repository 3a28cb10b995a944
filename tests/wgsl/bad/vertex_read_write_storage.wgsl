// expect: 5:56 vertex entry point 'main' uses 'b', a read_write storage buffer (a vertex shader only reads its storage)
// §Address Spaces: a vertex shader accesses storage buffers only with the
// read access mode.
@group(0) @binding(0) var<storage, read_write> b: array<vec4f, 4>;
@vertex fn main() -> @builtin(position) vec4f { return b[0]; }
