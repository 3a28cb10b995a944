// §Break Statement, §Continue Statement: a break or continue that belongs
// to a loop or switch nested inside a continuing block does not leave the
// continuing block, so it is allowed.
@group(0) @binding(0) var<storage, read_write> buf: i32;
@compute @workgroup_size(1) fn main() {
  var i = buf;
  loop {
    continuing {
      loop {
        if (i > 5) { i = i * 2; break; }
        i = i * 3;
        continue;
      }
      switch (i & 1) { case 1: { i = i + 1; break; } default: { } }
      break if i > 10;
    }
  }
  buf = i;
}
