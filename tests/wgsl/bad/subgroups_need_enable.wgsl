// expect: 3:11 needs 'enable subgroups;'
@compute @workgroup_size(64) fn main() {
  let x = subgroupAdd(1u);
}
