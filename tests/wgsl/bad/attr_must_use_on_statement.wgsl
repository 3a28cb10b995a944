// expect: 5:3 '@must_use' is not allowed on a statement
// §Attributes: statements (if, switch, loop, for, while, compound
// statements) take only the diagnostic attribute.
@compute @workgroup_size(1) fn main() {
  @must_use if true { }
}
