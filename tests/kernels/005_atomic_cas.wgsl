// atomicCompareExchangeWeak and workgroupUniformLoad. (1) Each invocation
// compare-exchanges its own cell, expecting the right value on even
// invocations and a wrong one on odd ones, and records the result struct.
// (2) A retry loop adds each invocation's value to one shared storage
// counter and takes a workgroup maximum through a workgroup atomic; the
// retries are how contended lanes of a subgroup get through one at a time.
// (3) workgroupUniformLoad hands invocation 0's value to the whole group.
@group(0) @binding(0) var<storage, read_write> cells: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> res: array<u32>;
@group(0) @binding(2) var<storage, read_write> total: atomic<u32>;
@group(0) @binding(3) var<storage, read> vals: array<u32>;

var<workgroup> wmax: atomic<i32>;
var<workgroup> shared_v: u32;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wg: vec3u) {
  let i = gid.x;
  let expect = select(7u, i * 3u, (i & 1u) == 0u);
  let r = atomicCompareExchangeWeak(&cells[i], expect, 1000u + i);
  res[i * 4u] = r.old_value;
  res[i * 4u + 1u] = select(0u, 1u, r.exchanged);

  let v = vals[i];
  loop {
    let old = atomicLoad(&total);
    let x = atomicCompareExchangeWeak(&total, old, old + v);
    if x.exchanged { break; }
  }
  let sv = bitcast<i32>(v) - 5000;
  loop {
    let old = atomicLoad(&wmax);
    if old >= sv { break; }
    if atomicCompareExchangeWeak(&wmax, old, sv).exchanged { break; }
  }
  if li == 0u { shared_v = v * 2u + wg.x; }
  let u = workgroupUniformLoad(&shared_v);
  res[i * 4u + 2u] = u;
  workgroupBarrier();
  res[i * 4u + 3u] = bitcast<u32>(atomicLoad(&wmax));
}
