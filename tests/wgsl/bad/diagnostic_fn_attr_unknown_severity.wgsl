// expect: 4:13 unknown diagnostic severity 'quiet'
// §Diagnostic Filtering: also on a function.
@compute @workgroup_size(1)
@diagnostic(quiet, derivative_uniformity) fn main() {}
