// expect: 6:34 'subgroupAdd' must only be called from uniform control flow (subgroup_uniformity)
// §Uniformity Rules for Function Calls: quad operations are ReturnValueMayBeNonUniform
// at every scope.
enable subgroups;
@compute @workgroup_size(64) fn main() {
  if (quadSwapX(1u) == 1u) { _ = subgroupAdd(2u); }
}
