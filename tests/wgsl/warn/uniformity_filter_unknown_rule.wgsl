// expect: 3:17 warning: unknown diagnostic rule 'uniformity'
// §Filterable Triggering Rules: an unrecognized one-token rule name draws a warning only.
diagnostic(off, uniformity);
@compute @workgroup_size(64) fn main() { workgroupBarrier(); }
