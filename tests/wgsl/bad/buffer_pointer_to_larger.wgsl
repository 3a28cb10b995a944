// expect: 7:5 argument: expected ptr<workgroup, buffer<128>>
// §Conversion Rank: a buffer<N1> pointer converts only to a smaller
// buffer<N2> (N2 < N1) or to the runtime-sized buffer.
var<workgroup> b: buffer<64>;
fn f(p: ptr<workgroup, buffer<128>>) {}
@compute @workgroup_size(1) fn main() {
  f(&b);
}
