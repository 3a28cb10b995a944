// expect: 6:39 'continue' is not allowed in a continuing block
// §Continue Statement: a continue must not be placed in a continuing block
// (a switch inside it does not change its target).
@compute @workgroup_size(1) fn main() {
  loop {
    continuing { switch 1 { default { continue; } } break if true; }
  }
}
