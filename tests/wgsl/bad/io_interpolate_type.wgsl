// expect: 3:45 unknown interpolation type 'centroid' (perspective, linear or flat)
// §interpolate: the first argument is an interpolation type.
@fragment fn main(@location(0) @interpolate(centroid) x: f32) {}
