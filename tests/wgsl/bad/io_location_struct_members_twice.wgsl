// expect: 6:3 @location(0) is used by members 'a' and 'b' of 'S'
// §Input-output Locations: the members of any structure with @location
// have distinct locations, whether or not an entry point uses it.
struct S {
  @location(0) a: f32,
  @location(0) b: f32,
}
