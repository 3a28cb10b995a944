// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "El techo y el guardia son inseparables", lines 9-12, verbatim.
// In scope: pass (a compute pass with the guard kernel bound).
const TAM = 64;
const n = 3_000_000;
const grupos = Math.ceil(n / TAM);   // 46875
pass.dispatchWorkgroups(grupos);
