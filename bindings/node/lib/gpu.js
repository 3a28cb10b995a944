'use strict';
// gpu.js - GPU (navigator.gpu), GPUAdapter and what an adapter describes:
// GPUSupportedLimits, GPUSupportedFeatures (setlike), WGSLLanguageFeatures
// (setlike) and GPUAdapterInfo. requestDevice's checks follow the spec's
// algorithm: an unknown feature is a TypeError; an unknown limit name, a
// value better than the adapter's or an alignment that is not a power of two
// is an OperationError; a second requestDevice on one adapter gives a device
// that is already lost.

const { native } = require('./native.js');
const { convert, enumValues } = require('./idl.js');
const { kToken, illegal, register } = require('./base.js');
const { operationError } = require('./errors.js');

// GPUSupportedLimits' members: [name, class, default]. Those lockstep does
// not hold (vertex and fragment stages, render targets) keep WebGPU's
// default, which a device may not raise.
const LIMITS = [
  ['maxTextureDimension1D', 'max', 8192], ['maxTextureDimension2D', 'max', 8192],
  ['maxTextureDimension3D', 'max', 2048], ['maxTextureArrayLayers', 'max', 256],
  ['maxBindGroups', 'max', 4], ['maxBindGroupsPlusVertexBuffers', 'max', 24],
  ['maxImmediateSize', 'max', 64], ['maxBindingsPerBindGroup', 'max', 1000],
  ['maxDynamicUniformBuffersPerPipelineLayout', 'max', 8],
  ['maxDynamicStorageBuffersPerPipelineLayout', 'max', 4],
  ['maxSampledTexturesPerShaderStage', 'max', 16], ['maxSamplersPerShaderStage', 'max', 16],
  ['maxStorageBuffersPerShaderStage', 'max', 8], ['maxStorageBuffersInVertexStage', 'max', 8],
  ['maxStorageBuffersInFragmentStage', 'max', 8], ['maxStorageTexturesPerShaderStage', 'max', 4],
  ['maxStorageTexturesInVertexStage', 'max', 4], ['maxStorageTexturesInFragmentStage', 'max', 4],
  ['maxUniformBuffersPerShaderStage', 'max', 12], ['maxUniformBufferBindingSize', 'max', 65536],
  ['maxStorageBufferBindingSize', 'max', 134217728], ['minUniformBufferOffsetAlignment', 'align', 256],
  ['minStorageBufferOffsetAlignment', 'align', 256], ['maxVertexBuffers', 'max', 8],
  ['maxBufferSize', 'max', 268435456], ['maxVertexAttributes', 'max', 16],
  ['maxVertexBufferArrayStride', 'max', 2048], ['maxInterStageShaderVariables', 'max', 16],
  ['maxColorAttachments', 'max', 8], ['maxColorAttachmentBytesPerSample', 'max', 32],
  ['maxComputeWorkgroupStorageSize', 'max', 16384], ['maxComputeInvocationsPerWorkgroup', 'max', 256],
  ['maxComputeWorkgroupSizeX', 'max', 256], ['maxComputeWorkgroupSizeY', 'max', 256],
  ['maxComputeWorkgroupSizeZ', 'max', 64], ['maxComputeWorkgroupsPerDimension', 'max', 65535],
];
// The vertex and fragment stages' storage limits and the per-stage limit
// they are folded into: a core device (lockstep's are) has each equal to
// its per-stage limit, and asking for one raises the per-stage limit
// (spec/index.bs, "a new device").
const STAGE_LIMITS = {
  maxStorageBuffersInVertexStage: 'maxStorageBuffersPerShaderStage',
  maxStorageBuffersInFragmentStage: 'maxStorageBuffersPerShaderStage',
  maxStorageTexturesInVertexStage: 'maxStorageTexturesPerShaderStage',
  maxStorageTexturesInFragmentStage: 'maxStorageTexturesPerShaderStage',
};
// The limits lockstep's C API holds, in the order adapterLimits and
// deviceLimits give their values (arrays, not objects: an object of 25
// named numbers made twice per device cost more young-generation memory
// than the rest of requestDevice).
const HELD = native.limitNames();
// For each member of LIMITS, the index of its value in those arrays (-1:
// not held, WebGPU's default).
const SOURCE = LIMITS.map(([n]) => HELD.indexOf(HELD.includes(n) ? n : STAGE_LIMITS[n]));

// WGSL language features lockstep compiles and runs (the compiler's table,
// src/wgsl/directives.def).
const WGSL_FEATURES = native.wgslLanguageFeatures();

const kValues = Symbol('lockstep.values');

class GPUSupportedLimits {
  // held: values in HELD's order, or null (an invalid device: the defaults)
  constructor(token, held) {
    illegal(token);
    const v = new Array(LIMITS.length);
    for (let i = 0; i < LIMITS.length; i++) v[i] = held && SOURCE[i] >= 0 ? held[SOURCE[i]] : LIMITS[i][2];
    Object.defineProperty(this, kValues, { value: v });
  }
}
// Attributes on the prototype, as WebIDL puts them (enumerable: programs
// copy limits with for...in). A prototype in dictionary mode takes them
// without the map transition and descriptor copy each addition to a fast
// object costs (measured: 12 KB instead of 25 KB of young generation).
const limitsProto = GPUSupportedLimits.prototype;
limitsProto.normalized = 0;
delete limitsProto.normalized;
for (let i = 0; i < LIMITS.length; i++) {
  Object.defineProperty(limitsProto, LIMITS[i][0], {
    get() { return this[kValues][i]; }, enumerable: true, configurable: true,
  });
}

// setlike<DOMString>, read-only, over a Set in this[kSet]. The members are
// written out in each class body: defining them in a loop cost each class
// 4 KB of young generation at import.
const kSet = Symbol('lockstep.set');
function forEachOf(set, cls, cb, thisArg) {
  if (typeof cb !== 'function') throw new TypeError(`${cls}.forEach: the callback is not a function`);
  for (const v of set[kSet]) cb.call(thisArg, v, v, set);
}
// WebIDL: @@iterator is the same function as values; size is enumerable
function setlike(cls) {
  const p = cls.prototype;
  Object.defineProperty(p, Symbol.iterator, { value: p.values, writable: true, configurable: true });
  Object.defineProperty(p, 'size', { enumerable: true });
}

class GPUSupportedFeatures {
  constructor(token, names) {
    illegal(token);
    Object.defineProperty(this, kSet, { value: new Set(names) });
  }
  has(v) { return this[kSet].has(String(v)); }
  forEach(cb, thisArg) { forEachOf(this, 'GPUSupportedFeatures', cb, thisArg); }
  entries() { return this[kSet].entries(); }
  keys() { return this[kSet].keys(); }
  values() { return this[kSet].values(); }
  get size() { return this[kSet].size; }
}
setlike(GPUSupportedFeatures);

class WGSLLanguageFeatures {
  constructor(token, names) {
    illegal(token);
    Object.defineProperty(this, kSet, { value: new Set(names) });
  }
  has(v) { return this[kSet].has(String(v)); }
  forEach(cb, thisArg) { forEachOf(this, 'WGSLLanguageFeatures', cb, thisArg); }
  entries() { return this[kSet].entries(); }
  keys() { return this[kSet].keys(); }
  values() { return this[kSet].values(); }
  get size() { return this[kSet].size; }
}
setlike(WGSLLanguageFeatures);

class GPUAdapterInfo {
  #i;
  constructor(token, info) {
    illegal(token);
    this.#i = info;
  }
  get vendor() { return this.#i.vendor; }
  get architecture() { return this.#i.architecture; }
  get device() { return this.#i.device; }
  get description() { return this.#i.description; }
  get subgroupMinSize() { return this.#i.subgroupMinSize; }
  get subgroupMaxSize() { return this.#i.subgroupMaxSize; }
  get isFallbackAdapter() { return false; }
}

function adapterFeatures(handle) {
  return enumValues('GPUFeatureName').filter((f) => native.adapterHasFeature(handle, f));
}

class GPUAdapter {
  #features;
  #limits;
  #info;
  #state = 'valid';
  #options;
  #featureLevel;
  constructor(token, options, featureLevel) {
    illegal(token);
    this.#options = options;
    this.#featureLevel = featureLevel;
    native.adapterCreate(this, options.profile, options.subgroupSize, options.threads, options.budget,
      options.dispatchBudget, options.timeLimit);
    this.#features = new GPUSupportedFeatures(kToken, adapterFeatures(this));
    const lim = native.adapterLimits(this);
    this.#limits = new GPUSupportedLimits(kToken, lim);
    this.#info = new GPUAdapterInfo(kToken, native.adapterInfo(this));
  }
  get features() { return this.#features; }
  get limits() { return this.#limits; }
  get info() { return this.#info; }
  get isFallbackAdapter() { return false; }
  // lockstep: the profile, subgroup width and worker threads the adapter runs with
  get [Symbol.for('lockstep')]() { return { ...native.adapterInfo(this), featureLevel: this.#featureLevel }; }

  requestDevice(descriptor = {}) {
    try {
      const d = convert('GPUDeviceDescriptor', descriptor, 'GPUAdapter.requestDevice: descriptor');
      return this.#requestDevice(d);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async #requestDevice(d) {
    for (const f of d.requiredFeatures) {
      if (!this.#features.has(f))
        throw new TypeError(`GPUAdapter.requestDevice: the feature "${f}" is not supported by the adapter (lockstep, profile ${this.#info.description})`);
    }
    if (this.#state === 'consumed') throw operationError('GPUAdapter.requestDevice: the adapter has already given a device (it is consumed)');
    const lockstepLimits = [];
    for (const [key, value] of Object.entries(d.requiredLimits)) {
      if (value === undefined) continue;
      const limit = LIMITS.find((l) => l[0] === key);
      if (!limit) throw operationError(`GPUAdapter.requestDevice: requiredLimits: "${key}" is not the name of a limit`);
      const cls = limit[1];
      const offered = this.#limits[key];
      if (cls === 'max' ? value > offered : value < offered)
        throw operationError(`GPUAdapter.requestDevice: requiredLimits.${key} = ${value} is better than the adapter's ${offered}`);
      if (cls === 'align' && (value <= 0 || value >= 2 ** 32 || (value & (value - 1)) !== 0))
        throw operationError(`GPUAdapter.requestDevice: requiredLimits.${key} = ${value} is not a power of 2 below 2^32`);
      const name = STAGE_LIMITS[key] ?? key;
      if (HELD.includes(name)) lockstepLimits.push([name, value]);
    }
    const { GPUDevice } = require('./device.js');
    const expired = this.#state === 'expired';
    this.#state = 'expired';
    return new GPUDevice(kToken, this, d, lockstepLimits, this.#options, expired);
  }
}

class GPU {
  #options;
  #wgsl = new WGSLLanguageFeatures(kToken, WGSL_FEATURES);
  constructor(token, options) {
    illegal(token);
    this.#options = options;
  }
  requestAdapter(options = {}) {
    try {
      const o = convert('GPURequestAdapterOptions', options, 'GPU.requestAdapter: options');
      // an unknown feature level gives no adapter; "compatibility" gets
      // lockstep's one adapter, which is core (the spec allows either)
      if (o.featureLevel !== 'core' && o.featureLevel !== 'compatibility') return Promise.resolve(null);
      return Promise.resolve(new GPUAdapter(kToken, this.#options, o.featureLevel));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  getPreferredCanvasFormat() { return 'rgba8unorm'; }
  get wgslLanguageFeatures() { return this.#wgsl; }
}

register(GPU, GPUAdapter, GPUAdapterInfo, GPUSupportedLimits, GPUSupportedFeatures, WGSLLanguageFeatures);

module.exports = { GPU, GPUAdapter, GPUAdapterInfo, GPUSupportedLimits, GPUSupportedFeatures, WGSLLanguageFeatures };
