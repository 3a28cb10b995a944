// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "El techo y el guardia son inseparables", lines 9-12 with the change the
// next paragraph makes ("Cambia n a 3.000.001 y tendrás 46876 grupos"): n and its comment.
// In scope: pass.
const TAM = 64;
const n = 3_000_001;
const grupos = Math.ceil(n / TAM);   // 46876
pass.dispatchWorkgroups(grupos);
