// expect: 3:19 '@location' takes 1 argument, found 2
// §location: one argument.
@fragment fn main(@location(1, 2) x: f32) {}
