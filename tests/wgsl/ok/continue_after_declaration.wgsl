// Continues that skip nothing the continuing block uses: after the
// declaration it uses, before declarations it does not use (u), and one
// that targets an inner for loop.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  var i = 0u;
  loop {
    let t = i;
    if i == 1u {
      i += 1u;
      continue;
    }
    for (var k = 0u; k < 3u; k++) {
      if k == 1u { continue; }
      let skipped = k;
      out[1] += skipped;
    }
    if t == 2u {
      continue;
    }
    let u = t * 2u;
    out[2] += u;
    continuing {
      i++;
      break if t > 3u;
    }
  }
  out[0] = i;
}
