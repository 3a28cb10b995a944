// A barrier after a return that depends on the invocation: the front end's
// uniformity analysis rejects it (an error no filter can silence).
var<workgroup> t: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li >= 40u) { return; }
  workgroupBarrier();
  t[li] = 1u;
}
