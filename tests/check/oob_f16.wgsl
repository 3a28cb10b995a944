// 2-byte accesses: hs holds 10 f16 (20 bytes); invocations 10..63 read and
// write past its end. Invocation 9's half (bytes 18..19) is in bounds.
enable f16;
@group(0) @binding(0) var<storage, read_write> hs: array<f16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  hs[gid.x] = hs[gid.x] * 2.0h;
}
