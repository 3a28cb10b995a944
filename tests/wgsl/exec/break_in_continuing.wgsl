// break and continue of loops and switches nested in a continuing block.
// Model (each invocation, i from buf): repeat { i = i > 5 ? i * 2 : i * 3;
// if i is odd { i = i + 1 }; until i > 10 }.
// 1 -> 3 -> 4 -> 12; 3 -> 9 -> 10 -> 20; 7 -> 14; 100 -> 200.
@group(0) @binding(0) var<storage, read_write> buf: array<i32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) li: u32) {
  var i = buf[li];
  loop {
    continuing {
      loop {
        if (i > 5) { i = i * 2; break; }
        i = i * 3;
        break;
      }
      switch (i & 1) { case 1: { i = i + 1; break; } default: { } }
      break if i > 10;
    }
  }
  buf[li] = i;
}
