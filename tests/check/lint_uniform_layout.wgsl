// Uniform buffers that break the uniform address space's rules of WGSL
// §Address Space Layout Constraints, which apply where the language
// extension uniform_buffer_standard_layout is missing (lockstep has it, so
// the module is valid here). Offsets and strides by §Memory Layout, by hand:
enable f16;
struct S {           // AlignOf 4, SizeOf 4
  x: f32,
}
struct AfterStruct {
  a: S,              // offset 0
  b: f32,            // offset 4: 4 bytes after 'a', roundUp(16, SizeOf(S)) = 16 needed
}
struct Strided {
  a: array<f32, 8>,  // stride 4, not a multiple of 16 (offset 0 is fine)
}
struct Wrapped {
  @size(16) x: f32,  // AlignOf 4, SizeOf 16
}
struct Misaligned {
  x: f32,            // offset 0
  w: array<Wrapped, 2>, // stride 16 fine; offset 4, RequiredAlignOf = roundUp(16, 4) = 16
  s: S,              // offset 4 + 32 = 36, RequiredAlignOf = 16
}
@group(0) @binding(0) var<uniform> after: AfterStruct;
@group(0) @binding(1) var<uniform> strided: Strided;
@group(0) @binding(2) var<uniform> mis: Misaligned;
@group(0) @binding(3) var<uniform> pairs: array<vec2<u32>, 3>; // stride 8
@group(0) @binding(4) var<uniform> grid: array<array<f32, 4>, 4>; // inner stride 4, outer 16
@group(0) @binding(5) var<uniform> halves: array<vec4<f16>, 2>; // stride 8
// a structure already reported through 'after' is not reported again
@group(0) @binding(6) var<uniform> again: AfterStruct;
// the storage address space has no such rule
@group(0) @binding(7) var<storage, read_write> out: Strided;

@compute @workgroup_size(64)
fn main() {
  out.a[0] = after.b + strided.a[1] + mis.s.x + f32(pairs[0].x) + grid[1][2] + f32(halves[0].x) + again.a.x;
}
