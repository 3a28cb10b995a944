// expect: 5:15 unknown diagnostic severity 'loud'
// §Diagnostic Filtering: the severity of a diagnostic attribute is error,
// warning, info or off.
@compute @workgroup_size(1) fn main() {
  @diagnostic(loud, derivative_uniformity) if true { }
}
