// chromium_experimental_pixel_local: var<pixel_local> holds a structure of
// i32/u32/f32 members, read and written by fragment shaders.
enable chromium_experimental_pixel_local;
struct PL { count: u32, sum: f32 }
var<pixel_local> pl: PL;
@fragment fn f(@builtin(position) pos: vec4f) {
  pl.count += 1u;
  let p = &pl;
  (*p).sum += pos.x;
}
