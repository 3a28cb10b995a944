// expect: 3:12 unknown diagnostic severity 'loud'
// §Diagnostic Filtering: the severity is error, warning, info or off.
diagnostic(loud, derivative_uniformity);
@compute @workgroup_size(1) fn main() {}
