// expect: nothing
// §Filterable Triggering Rules: an unrecognized two-token rule name may be accepted silently.
diagnostic(off, vendor.some_rule);
@diagnostic(warning, vendor.other_rule)
@compute @workgroup_size(64) fn main() { }
