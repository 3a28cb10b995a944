// seeds/001_b7a5983b4ef64cf6.txt (@workgroup_size y los límites de la especificación),
// section "Los límites que acota la especificación", lines 29-41, verbatim.
// In scope: navigator.
const adapter = await navigator.gpu.requestAdapter();

const quiero = 1024;
const puedo  = adapter.limits.maxComputeInvocationsPerWorkgroup;   // p. ej. 1024
const usar   = Math.min(quiero, puedo);

const device = await adapter.requestDevice({
  requiredLimits: {
    // Solo pedimos lo que el adaptador ya nos ha dicho que tiene.
    maxComputeInvocationsPerWorkgroup: usar,
    maxComputeWorkgroupSizeX: usar,
  },
});
