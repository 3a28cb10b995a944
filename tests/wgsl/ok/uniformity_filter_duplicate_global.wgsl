// §Diagnostic Filtering: multiple global filters are permitted when they do not conflict.
diagnostic(off, derivative_uniformity);
diagnostic(off, derivative_uniformity);
diagnostic(warning, subgroup_uniformity);
@compute @workgroup_size(64) fn main() { }
