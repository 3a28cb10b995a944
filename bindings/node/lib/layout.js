'use strict';
// layout.js - GPUBindGroupLayout, GPUPipelineLayout and GPUBindGroup. Each
// layout entry is flattened to the one binding type lockstep takes; each
// bind group resource to the handle it binds (a GPUTexture binds its
// default view, a GPUBuffer its whole range, as the spec says).

const { native } = require('./native.js');
const { kToken, kHandle, InvalidUse, illegal, init, defineLabel, register, use } = require('./base.js');
const { attempt, live } = require('./device.js');

const LAYOUT_KINDS = ['buffer', 'sampler', 'texture', 'storageTexture', 'externalTexture'];

class GPUBindGroupLayout {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
}
defineLabel(GPUBindGroupLayout);

class GPUPipelineLayout {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
}
defineLabel(GPUPipelineLayout);

class GPUBindGroup {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
}
defineLabel(GPUBindGroup);

function flattenLayoutEntry(e, where) {
  const kinds = LAYOUT_KINDS.filter((k) => e[k] !== undefined);
  if (kinds.length !== 1)
    throw new InvalidUse(`${where}: entry ${e.binding} must have exactly one of buffer, sampler, texture, storageTexture, externalTexture (it has ${kinds.length ? kinds.join(', ') : 'none'})`);
  // visibility is checked by lockstep (bits, and no writable storage in VERTEX)
  const out = { binding: e.binding, visibility: e.visibility };
  switch (kinds[0]) {
    case 'buffer':
      return { ...out, type: e.buffer.type, hasDynamicOffset: e.buffer.hasDynamicOffset, minBindingSize: e.buffer.minBindingSize };
    case 'sampler':
      return { ...out, type: `${e.sampler.type}-sampler` };
    case 'texture':
      return { ...out, type: 'texture', sampleType: e.texture.sampleType, viewDimension: e.texture.viewDimension, multisampled: e.texture.multisampled };
    case 'storageTexture':
      return { ...out, type: `${e.storageTexture.access}-storage-texture`, format: e.storageTexture.format, viewDimension: e.storageTexture.viewDimension };
    default:
      return { ...out, type: 'external-texture' };
  }
}

function createBindGroupLayout(device, d) {
  const l = new GPUBindGroupLayout(kToken, device, d.label);
  if (!live(device, 'createBindGroupLayout')) return l;
  const where = 'GPUDevice.createBindGroupLayout';
  attempt(device, where, () => {
    const entries = d.entries.map((e) => flattenLayoutEntry(e, where));
    l[kHandle] = native.bindGroupLayoutCreate(l, device, entries, d.label);
  });
  return l;
}

function createPipelineLayout(device, d) {
  const l = new GPUPipelineLayout(kToken, device, d.label);
  if (!live(device, 'createPipelineLayout')) return l;
  attempt(device, 'GPUDevice.createPipelineLayout', () => {
    d.bindGroupLayouts.forEach((g, i) => g && use(g, `bindGroupLayouts[${i}]`));
    l[kHandle] = native.pipelineLayoutCreate(l, device, d.bindGroupLayouts, d.immediateSize, d.label);
  });
  return l;
}

let resourceClasses;
function classes() {
  resourceClasses ??= { ...require('./buffer.js'), ...require('./texture.js') };
  return resourceClasses;
}

function flattenResource(entry, where) {
  const r = entry.resource;
  const out = { binding: entry.binding };
  const { GPUBuffer, GPUTexture, GPUTextureView, GPUSampler, GPUExternalTexture } = classes();
  if (r instanceof GPUBuffer) return { ...out, buffer: use(r, `${where}: binding ${entry.binding}`) };
  if (r instanceof GPUTextureView) return { ...out, view: use(r, `${where}: binding ${entry.binding}`) };
  if (r instanceof GPUTexture) return { ...out, view: use(r.createView(), `${where}: binding ${entry.binding}`) };
  if (r instanceof GPUSampler) return { ...out, sampler: use(r, `${where}: binding ${entry.binding}`) };
  if (r instanceof GPUExternalTexture) return { ...out, externalTexture: use(r, `${where}: binding ${entry.binding}`) };
  return { ...out, buffer: use(r.buffer, `${where}: binding ${entry.binding}`), offset: r.offset, size: r.size };
}

function createBindGroup(device, d) {
  const g = new GPUBindGroup(kToken, device, d.label);
  if (!live(device, 'createBindGroup')) return g;
  const where = 'GPUDevice.createBindGroup';
  attempt(device, where, () => {
    use(d.layout, 'layout');
    const entries = d.entries.map((e) => flattenResource(e, where));
    g[kHandle] = native.bindGroupCreate(g, device, d.layout, entries, d.label);
  });
  return g;
}

register(GPUBindGroupLayout, GPUPipelineLayout, GPUBindGroup);

module.exports = { GPUBindGroupLayout, GPUPipelineLayout, GPUBindGroup, createBindGroupLayout, createPipelineLayout, createBindGroup };
