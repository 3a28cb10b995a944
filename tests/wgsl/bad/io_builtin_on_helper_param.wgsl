// expect: 4:11 @builtin applies only to entry point parameters (and structure members)
// §builtin: only on entry point parameters, return types and structure
// members.
fn helper(@builtin(position) p: vec4f) -> f32 { return p.x; }
