// expect: 6:28 use 'break if' to leave a loop from its continuing block
// §Break Statement: a break must not be used to exit from a continuing
// block; `break if` is the way out.
@compute @workgroup_size(1) fn main() {
  loop {
    continuing { if true { break; } }
  }
}
