// expect: 3:45 @builtin(front_facing) must have type bool, found u32
// §front_facing: the fragment input front_facing is a bool.
@fragment fn main(@builtin(front_facing) b: u32) {}
