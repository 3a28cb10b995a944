// expect: 7:11 uses two immediate data variables ('a' and 'b')
// §Address Spaces: each entry point must statically access at most one
// immediate data variable.
var<immediate> a: u32;
var<immediate> b: u32;
@compute @workgroup_size(1) fn main() {
  _ = a + b;
}
