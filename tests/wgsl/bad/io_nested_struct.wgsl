// expect: 5:16 member 'inner' of parameter 'o' of entry point 'main' needs @builtin(...) or @location(...) (structures of IO do not nest)
// §Input-output Locations: each member of an IO structure is a built-in
// value or has a location; IO structures do not nest.
struct Inner { @location(0) x: f32 }
struct Outer { inner: Inner }
@fragment fn main(o: Outer) {}
