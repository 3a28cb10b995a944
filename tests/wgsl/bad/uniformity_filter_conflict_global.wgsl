// expect: 4:12 conflicting diagnostic filters for 'derivative_uniformity'
// §Diagnostic Filtering: two global filters with one rule and different severities conflict.
diagnostic(off, derivative_uniformity);
diagnostic(warning, derivative_uniformity);
@compute @workgroup_size(64) fn main() { }
