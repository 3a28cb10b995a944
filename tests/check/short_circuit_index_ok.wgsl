// A guard in front of a runtime index: `&&` and `||` run their right operand
// only on the lanes that need it, also when the indexed array is a value or
// a function variable (kept in private memory), so no lane reads past the
// end and the sanitizer reports nothing.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let data = array<u32, 6>(3u, 1u, 4u, 1u, 5u, 9u);
  var table = array<u32, 4>(2u, 7u, 1u, 8u);
  var j = 0u;
  while j < 6u && data[j] != i % 7u {
    j++;
  }
  let k = i % 9u;
  let hit = k < 4u && table[k] == 1u;
  let miss = k >= 4u || table[k] != 7u;
  if i < arrayLength(&out) && out[i] == 0u {
    out[i] = j * 4u + select(0u, 2u, hit) + select(0u, 1u, miss);
  }
}
