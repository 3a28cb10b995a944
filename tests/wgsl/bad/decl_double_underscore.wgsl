// expect: 3:7 must not start with '__'
// §Identifiers: identifiers cannot start with two underscores.
const __a = 1;
@compute @workgroup_size(1) fn main() {}
