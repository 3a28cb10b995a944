// §Uniformity Rules for Statements: a loop ending by a non-uniform `break if` has
// behavior {Next}: control flow after it is uniform again.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop { continuing { break if i == 0u; } }
  workgroupBarrier();
}
