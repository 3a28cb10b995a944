// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "Dejar que la GPU decida el dispatch", lines 105-113, verbatim.
// In scope: enc, preparar and procesar (pipelines), bgPreparar, bgProcesar, argsDispatch.
// Kernel A rellena args; kernel B lo consume. Todo en el mismo submit.
const pass = enc.beginComputePass();
pass.setPipeline(preparar);
pass.setBindGroup(0, bgPreparar);
pass.dispatchWorkgroups(1);
pass.setPipeline(procesar);
pass.setBindGroup(0, bgProcesar);
pass.dispatchWorkgroupsIndirect(argsDispatch, 0);
pass.end();
