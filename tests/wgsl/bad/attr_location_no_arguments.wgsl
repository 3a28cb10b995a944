// expect: 3:19 '@location' takes 1 argument, found 0
// §location: one argument, in parentheses.
@fragment fn main(@location x: f32) {}
