// expect: 4:20 no operator '<'
// §Const Expressions: `false && e` does not evaluate e, but e is still
// type-checked.
const a = false && (1 < true);
@compute @workgroup_size(1) fn main() {}
