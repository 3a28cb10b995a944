// expect: 5:3 this loop never finishes
// §Statements Behavior Analysis: loop {} has behavior {}, and behavior
// analysis must find a non-empty behavior for every statement.
@compute @workgroup_size(1) fn main() {
  loop { }
}
