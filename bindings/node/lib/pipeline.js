'use strict';
// pipeline.js - GPUComputePipeline (createComputePipeline,
// createComputePipelineAsync rejecting with GPUPipelineError, and
// getBindGroupLayout of layout "auto"), and GPURenderPipeline, which exists
// so that a program that makes one gets WebGPU's answer for a pipeline the
// implementation cannot make: a validation error (lockstep runs compute
// only) and an invalid object, or a rejected promise.

const { native } = require('./native.js');
const { convert, required } = require('./idl.js');
const { kToken, kHandle, kDevice, kIsLost, InvalidUse, illegal, init, name, defineLabel, register, use } = require('./base.js');
const { attempt, live, kRaise } = require('./device.js');
const { GPUPipelineError } = require('./errors.js');

const COMPUTE_ONLY = 'lockstep runs compute only: render pipelines, render passes and render bundles are not implemented';

let layoutModule;

function getBindGroupLayout(index) {
  required(arguments, 1, `${name(this)}.getBindGroupLayout`);
  index = convert('unsigned long', index, `${name(this)}.getBindGroupLayout: index`);
  const device = this[kDevice];
  const l = new (layoutModule ??= require('./layout.js')).GPUBindGroupLayout(kToken, device, '');
  if (!live(device, 'getBindGroupLayout')) return l;
  attempt(device, `${name(this)}.getBindGroupLayout(${index})`, () => {
    use(this, 'the pipeline');
    l[kHandle] = native.pipelineBindGroupLayout(l, this, index);
  });
  return l;
}

class GPUComputePipeline {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
}
GPUComputePipeline.prototype.getBindGroupLayout = getBindGroupLayout;
defineLabel(GPUComputePipeline);

class GPURenderPipeline {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
}
GPURenderPipeline.prototype.getBindGroupLayout = getBindGroupLayout;
defineLabel(GPURenderPipeline);

// The native arguments of a converted GPUComputePipelineDescriptor.
function nativeArgs(d, where) {
  use(d.compute.module, `${where}: compute.module`);
  const layout = d.layout === 'auto' ? null : use(d.layout, `${where}: layout`);
  return [d.compute.module, d.compute.entryPoint, Object.entries(d.compute.constants), layout, d.label];
}

function createComputePipeline(device, d) {
  const p = new GPUComputePipeline(kToken, device, d.label);
  if (!live(device, 'createComputePipeline')) return p;
  attempt(device, 'GPUDevice.createComputePipeline', () => {
    p[kHandle] = native.computePipelineCreate(p, device, ...nativeArgs(d, 'GPUDevice.createComputePipeline'));
  });
  return p;
}

async function createComputePipelineAsync(device, d) {
  const where = 'GPUDevice.createComputePipelineAsync';
  const p = new GPUComputePipeline(kToken, device, d.label);
  if (!live(device, 'createComputePipelineAsync')) return p; // resolves; the pipeline is invalid
  let args;
  try {
    args = nativeArgs(d, where);
  } catch (e) {
    if (!(e instanceof InvalidUse)) throw e;
    throw new GPUPipelineError(`${where}: ${e.message}`, { reason: 'validation' });
  }
  try {
    await native.computePipelineCreateAsync(p, device, ...args);
  } catch (e) {
    // the spec resolves, with an invalid pipeline, when the device is lost
    // by the time creation completes (a lost device reports no errors)
    if ((e && e.lost) || device[kIsLost]) return p;
    throw new GPUPipelineError(`${where}: ${e?.message ?? e}`, { reason: 'validation' });
  }
  p[kHandle] = true;
  return p;
}

function createRenderPipeline(device, d) {
  const p = new GPURenderPipeline(kToken, device, d.label);
  if (live(device, 'createRenderPipeline'))
    device[kRaise](`GPUDevice.createRenderPipeline: ${name(p)}: ${COMPUTE_ONLY}`);
  return p;
}

async function createRenderPipelineAsync(device, d) {
  const p = new GPURenderPipeline(kToken, device, d.label);
  if (!live(device, 'createRenderPipelineAsync')) return p;
  throw new GPUPipelineError(`GPUDevice.createRenderPipelineAsync: ${name(p)}: ${COMPUTE_ONLY}`, { reason: 'validation' });
}

register(GPUComputePipeline, GPURenderPipeline);

module.exports = { GPUComputePipeline, GPURenderPipeline, createComputePipeline, createComputePipelineAsync, createRenderPipeline, createRenderPipelineAsync, COMPUTE_ONLY };
