// expect: 3:1 '@diagnostic' is not allowed here
// §Diagnostic Filtering: the diagnostic attribute goes on functions and statements, not variables.
@diagnostic(off, derivative_uniformity) var<private> x: f32;
@compute @workgroup_size(1) fn main() {}
