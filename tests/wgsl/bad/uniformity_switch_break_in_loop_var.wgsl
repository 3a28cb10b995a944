// expect: 8:20 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a variable assigned in one clause of a
// switch on a non-uniform selector (inside a loop) is non-uniform after it.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  loop {
    switch i { case 0u { x = 1u; break; } default { } }
    if (x == 0u) { workgroupBarrier(); }
    break;
  }
}
