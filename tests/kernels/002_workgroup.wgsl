// Lesson 002: N = 100000 elements. @workgroup_size(100) gives 1000 groups and
// exactly N invocations, but 100 is no multiple of any subgroup width, so
// every workgroup wastes lanes. @workgroup_size(64) gives 1563 groups and
// 100032 invocations: 32 too many, stopped by the arrayLength guard.
// quien[i] = (workgroup << 8) | local index of the invocation that did i.
@group(0) @binding(0) var<storage, read_write> datos: array<f32>;
@group(0) @binding(1) var<storage, read_write> quien: array<u32>;

@compute @workgroup_size(100)
fn peor(@builtin(global_invocation_id) gid: vec3u,
        @builtin(workgroup_id) wid: vec3u,
        @builtin(local_invocation_index) li: u32) {
  let i = gid.x;
  if (i >= arrayLength(&datos)) { return; }
  datos[i] = datos[i] * 2.0 + 1.0;
  quien[i] = (wid.x << 8u) | li;
}

@compute @workgroup_size(64)
fn mejor(@builtin(global_invocation_id) gid: vec3u,
         @builtin(workgroup_id) wid: vec3u,
         @builtin(local_invocation_index) li: u32) {
  let i = gid.x;
  if (i >= arrayLength(&datos)) { return; }
  datos[i] = datos[i] * 2.0 + 1.0;
  quien[i] = (wid.x << 8u) | li;
}
