// f16 needs the device feature shader-f16 (err_f16_without_feature)
enable f16;
@group(0) @binding(0) var<storage, read_write> hs: array<f16>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  hs[g.x] = f16(g.x) * 0.5h;
}
