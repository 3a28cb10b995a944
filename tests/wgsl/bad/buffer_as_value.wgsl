// expect: 6:11 a buffer has no value
// §Buffer Types: an expression must not evaluate to a buffer type (buffers
// are opaque; read them through a view).
@group(0) @binding(0) var<storage> b: buffer<16>;
@compute @workgroup_size(1) fn main() {
  let x = b;
}
