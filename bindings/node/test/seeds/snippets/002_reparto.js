// seeds/002_67b4d361477d1bec.txt (SIMT: por qué tus invocaciones no son hilos independientes),
// section "Workgroup y subgrupo: dos cosas distintas que se confunden", lines 49-51, verbatim.
// In scope: pase (a compute pass with the guard kernel bound).
const N = 100000;
const TAM = 64;
pase.dispatchWorkgroups(Math.ceil(N / TAM));  // 1563 grupos, 100032 invocaciones
