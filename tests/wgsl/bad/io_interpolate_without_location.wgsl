// expect: 3:38 @interpolate applies only to a declaration with @location
// §interpolate: only on a declaration with @location.
@fragment fn main(@builtin(position) @interpolate(flat) p: vec4f) {}
