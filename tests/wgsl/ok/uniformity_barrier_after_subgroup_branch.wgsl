// §Uniformity Rules for Statements: a subgroup-uniform branch that reconverges
// (behavior {Next}) leaves the barrier after it in workgroup-uniform control flow.
enable subgroups;
@compute @workgroup_size(64) fn main() {
  if (subgroupAdd(1u) == 64u) { _ = subgroupMax(2u); }
  workgroupBarrier();
}
