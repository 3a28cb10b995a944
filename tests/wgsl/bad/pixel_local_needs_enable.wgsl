// expect: 4:5 unknown address space 'pixel_local'
// The pixel_local address space exists only under its extension.
struct PL { count: u32 }
var<pixel_local> pl: PL;
@fragment fn f() { pl.count = 1u; }
