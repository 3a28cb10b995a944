// seeds/001_b7a5983b4ef64cf6.txt (@workgroup_size y los límites de la especificación),
// section "Parametrizar el tamaño sin duplicar el shader", lines 61-71, verbatim.
// In scope: device, wgsl (the text of 001_override.wgsl).
const module = device.createShaderModule({ code: wgsl });

function pipelineCon(tam) {
  return device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main', constants: { TAM: tam } },
  });
}

const p64  = pipelineCon(64);
const p256 = pipelineCon(256);
