// expect: 3:39 conflicting diagnostic filters for 'subgroup_uniformity'
// §Diagnostic Filtering: two @diagnostic attributes of one function conflict.
@diagnostic(off, subgroup_uniformity) @diagnostic(info, subgroup_uniformity)
fn f() { }
@compute @workgroup_size(64) fn main() { f(); }
