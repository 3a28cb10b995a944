// expect: 5:41 read-only
// §Address Spaces: immediate data is immutable (access mode read).
var<immediate> a: u32;
@compute @workgroup_size(1) fn main() {
                                        a = 1u;
}
