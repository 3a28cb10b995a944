// expect: 3:37 @location(0) is used by two inputs
// §Entry Point IO: two inputs cannot use the same @location.
@fragment fn f(@location(0) a: f32, @location(0) b: f32) {}
