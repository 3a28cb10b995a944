// helpers.mjs — what the binding's tests share: the package loaded as a
// program would load it, a device per test, and a small compute runner
// (upload, dispatch, read back) written with the public WebGPU API only.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
export const pkg = require('../index.js');
export const { create, globals, lockstep } = pkg;
export const { GPUBufferUsage, GPUMapMode, GPUShaderStage } = globals;
export const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// Extra flags for every device of a run (LOCKSTEP_TEST_FLAGS="subgroup-size=8 check").
export const runFlags = (process.env.LOCKSTEP_TEST_FLAGS ?? '').split(/\s+/).filter(Boolean);

export async function getDevice(flags = [], desc = {}) {
  const gpu = create([...runFlags, ...flags]);
  const adapter = await gpu.requestAdapter();
  const device = await adapter.requestDevice(desc);
  return { gpu, adapter, device };
}

// Runs `code` (entry point main) over the given u32 arrays bound at group 0,
// bindings 0.., dispatching `groups`; returns the arrays read back.
export async function runKernel(device, code, arrays, groups, { constants, label } = {}) {
  const module = device.createShaderModule({ code, label: label ?? 'kernel.wgsl' });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main', constants } });
  const U = GPUBufferUsage;
  const bufs = arrays.map((a) => {
    const b = device.createBuffer({ size: a.byteLength, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
    device.queue.writeBuffer(b, 0, a);
    return b;
  });
  const bg = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: bufs.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(...[groups].flat());
  pass.end();
  const reads = bufs.map((b) => {
    const r = device.createBuffer({ size: b.size, usage: U.MAP_READ | U.COPY_DST });
    enc.copyBufferToBuffer(b, 0, r, 0, b.size);
    return r;
  });
  device.queue.submit([enc.finish()]);
  return Promise.all(reads.map(async (r, i) => {
    await r.mapAsync(GPUMapMode.READ);
    const out = new arrays[i].constructor(r.getMappedRange().slice(0));
    r.unmap();
    return out;
  }));
}

// Expects the validation errors raised while fn runs (inside an error scope).
export async function validationErrors(device, fn) {
  device.pushErrorScope('validation');
  const r = await fn();
  const e = await device.popErrorScope();
  return { result: r, error: e };
}

// Runs a Node program in a child process (for exit, stderr and register tests).
export function runNode(args, { env = {}, timeout = 30000, input } = {}) {
  const r = spawnSync(process.execPath, args, {
    env: { ...process.env, ...env }, timeout, encoding: 'utf8', input, cwd: packageDir,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, timedOut: r.error?.code === 'ETIMEDOUT' };
}
