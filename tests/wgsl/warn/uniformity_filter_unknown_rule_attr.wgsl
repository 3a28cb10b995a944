// expect: 3:18 warning: unknown diagnostic rule 'no_such_rule'
// §Filterable Triggering Rules: the same for a @diagnostic attribute.
@diagnostic(off, no_such_rule)
@compute @workgroup_size(64) fn main() { }
