// expect: 3:51 interpolation sampling 'center' does not go with 'flat' (first or either)
// §Interpolation: flat takes the sampling first or either.
@fragment fn main(@location(0) @interpolate(flat, center) x: f32) {}
