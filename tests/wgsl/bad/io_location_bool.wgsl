// expect: 3:54 @location needs a numeric scalar or vector type, found bool
// §location: only numeric scalars and vectors have IO locations.
@fragment fn main(@location(0) @interpolate(flat) b: bool) {}
