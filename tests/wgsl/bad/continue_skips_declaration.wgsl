// expect: 9:7 skips the declaration of 't'
// A continue must not pass over a declaration that the loop's continuing
// block uses (t would have no value there); Dawn reports the same position.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  var i = 0u;
  loop {
    if i > 2u {
      continue;
    }
    let t = i;
    continuing {
      i++;
      break if t > 3u;
    }
  }
  out[0] = i;
}
