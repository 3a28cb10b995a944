// expect: 4:35 parameter 'i' of integer type vec2<i32> needs @interpolate(flat)
// §Interpolation: integer vertex outputs and fragment inputs are
// @interpolate(flat).
@fragment fn main(@location(0) i: vec2i) {}
