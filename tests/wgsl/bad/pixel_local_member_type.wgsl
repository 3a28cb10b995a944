// expect: 5:22 a pixel_local variable must be a structure of i32, u32 and f32 members
// chromium_experimental_pixel_local: the members are i32, u32 or f32.
enable chromium_experimental_pixel_local;
struct PL { v: vec2f }
var<pixel_local> pl: PL;
@fragment fn f() { pl.v = vec2f(); }
