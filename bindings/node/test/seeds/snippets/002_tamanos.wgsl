// seeds/002_67b4d361477d1bec.txt (SIMT: por qué tus invocaciones no son hilos independientes),
// section "Workgroup y subgrupo: dos cosas distintas que se confunden", lines 35-45, verbatim.
// Mal: 100 no es multiplo de 32 ni de 64.
@compute @workgroup_size(100)
fn peor(@builtin(global_invocation_id) gid: vec3<u32>) { /* ... */ }

// Bien: 64 encaja en cualquier tamano de subgrupo real.
@compute @workgroup_size(64)
fn mejor(@builtin(global_invocation_id) gid: vec3<u32>) { /* ... */ }

// Bien para trabajo bidimensional: 8 por 8 son 64.
@compute @workgroup_size(8, 8)
fn imagen(@builtin(global_invocation_id) gid: vec3<u32>) { /* ... */ }
