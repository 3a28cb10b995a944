// expect: 8:3 a pixel_local variable is only allowed in fragment shaders
// chromium_experimental_pixel_local: pixel_local memory belongs to a
// fragment's pixel; a compute entry point cannot reach it.
enable chromium_experimental_pixel_local;
struct PL { count: u32 }
var<pixel_local> pl: PL;
@compute @workgroup_size(1) fn main() {
  pl.count = 1u;
}
