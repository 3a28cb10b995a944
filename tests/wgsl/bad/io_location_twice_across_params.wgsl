// expect: 6:3 @location(2) is used by two inputs of 'main'
// §Input-output Locations: an entry point's inputs, counting the members of
// structure parameters, have distinct locations.
struct S {
  @location(1) a: f32,
  @location(2) b: f32,
}
@fragment fn main(@location(2) x: f32, s: S) {}
