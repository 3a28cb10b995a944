// expect: 4:16 @location applies only to entry point return types (and structure members)
// §location: only on entry point parameters, return types and structure
// members.
fn helper() -> @location(0) f32 { return 1.0; }
