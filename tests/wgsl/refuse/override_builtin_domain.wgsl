// expect: 6:18 sqrt of a negative value
// §override Expressions: sqrt of an override is an override-expression,
// evaluated at pipeline creation; a value outside its domain there is a
// pipeline-creation error (§Floating Point Evaluation).
override x: f32 = -1.0;
var<private> v = sqrt(x);
@compute @workgroup_size(1) fn main() { _ = v; }
