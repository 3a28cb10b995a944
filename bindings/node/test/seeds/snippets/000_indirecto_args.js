// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "Dejar que la GPU decida el dispatch", lines 86-93 (the JavaScript
// half of the first block), verbatim. In scope: device.
const argsDispatch = device.createBuffer({
  size: 12,                                   // 3 x u32
  usage: GPUBufferUsage.INDIRECT
       | GPUBufferUsage.STORAGE
       | GPUBufferUsage.COPY_DST,
});
// Y = Z = 1 se escriben una vez y no cambian.
device.queue.writeBuffer(argsDispatch, 4, new Uint32Array([1, 1]));
