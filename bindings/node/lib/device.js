'use strict';
// device.js - GPUDevice: its features, limits and queue, destroy() and the
// `lost` promise, error scopes, the uncapturederror event, every create*
// method, and lockstep's own channel (device[Symbol.for('lockstep')]): the
// sanitizer's findings and lockstep's warnings as they come, and the
// profiler's reports.

const { native, EV, request, devices, trackDevice } = require('./native.js');
const { convert, required, enumValues } = require('./idl.js');
const { kToken, kDevice, kHandle, kLabel, InvalidUse, illegal, init, name, defineLabel, register, use, kIsLost, kMapped } = require('./base.js');
const errors = require('./errors.js');
const { GPUSupportedFeatures, GPUSupportedLimits, GPUAdapterInfo } = require('./gpu.js');

const kRaise = Symbol.for('lockstep.raise');
const kLost = Symbol.for('lockstep.lost');
const kWarnLost = Symbol.for('lockstep.warnLost');
const kChannel = Symbol.for('lockstep');

// The other interfaces' modules, loaded on first use (they require this one).
let mods;
function M() {
  mods ??= {
    buffer: require('./buffer.js'), texture: require('./texture.js'), layout: require('./layout.js'),
    shader: require('./shader.js'), pipeline: require('./pipeline.js'), encoder: require('./encoder.js'),
    query: require('./query.js'), queue: require('./queue.js'),
  };
  return mods;
}

let nextDeviceId = 1;
let profCount = 0;

const FILTERS = { validation: 1, 'out-of-memory': 2, internal: 3 };

// The report file of the n-th profiled device: report.html, report.2.html, ...
function numbered(file, n) {
  if (!file || n === 1) return file;
  const dot = file.lastIndexOf('.');
  return dot > 0 ? `${file.slice(0, dot)}.${n}${file.slice(dot)}` : `${file}.${n}`;
}

class LockstepFindingEvent extends Event {
  constructor(type, detail) {
    super(type);
    Object.assign(this, detail);
  }
}

// What lockstep says about a device outside WebGPU's namespace.
class LockstepChannel extends EventTarget {
  #device;
  #findings = [];
  #warnings = [];
  constructor(device) {
    super();
    this.#device = device;
  }
  /** Sanitizer findings so far (with `check`): {id, severity, message, text, file, line, ...}. */
  get findings() { return this.#findings.slice(); }
  /** lockstep's own warnings (an indirect dispatch skipped, use of a destroyed device). */
  get warnings() { return this.#warnings.slice(); }
  /** The adapter the device runs on: profile, subgroupSize, threads, vendor, ... */
  get adapter() { return this.#device[kLost].adapterInfo; }
  /** The profiler's report so far ('json' parsed, 'html' or 'text'); undefined without prof. */
  profile(kind = 'json') {
    const s = native.deviceProfile(this.#device, kind);
    return kind === 'json' && s !== undefined ? JSON.parse(s) : s;
  }
  /** The workgroup size of a compute pipeline, overrides applied. */
  workgroupSize(pipeline) { return pipeline?.[kHandle] ? native.pipelineWorkgroupSize(pipeline) : undefined; }
  _finding(index) {
    const f = native.deviceFinding(this.#device, index);
    if (!f) return;
    this.#findings.push(f);
    this.dispatchEvent(new LockstepFindingEvent('finding', { finding: f }));
  }
  _warning(message) {
    this.#warnings.push(message);
    this.dispatchEvent(new LockstepFindingEvent('warning', { message }));
  }
}

class GPUDevice extends EventTarget {
  #features;
  #limits;
  #adapterInfo;
  #queue;
  #lost;
  #resolveLost;
  #isLost = false;
  #scopes = 0;
  #onuncapturederror = null;
  #handlerInstalled = false;
  #channel;
  #id;
  #warnedLost = false;
  #destroyed = false;

  constructor(token, adapter, desc, limits, options, expired) {
    illegal(token);
    super();
    init(this, this, desc.label);
    this[kMapped] = new Set();
    this.#id = nextDeviceId++;
    this.#lost = new Promise((resolve) => { this.#resolveLost = resolve; });
    this.#channel = new LockstepChannel(this);
    this.#adapterInfo = new GPUAdapterInfo(kToken, native.adapterInfo(adapter));
    const internals = { adapterInfo: native.adapterInfo(adapter), onEvent: (k, s, m) => this.#onEvent(k, s, m) };
    this[kLost] = internals;
    trackDevice(this.#id, internals);
    let failure;
    if (expired) {
      failure = 'expired';
    } else {
      let prof;
      let profJson;
      if (options.prof || options.profJson) {
        profCount++;
        prof = numbered(options.prof, profCount);
        profJson = numbered(options.profJson, profCount);
      }
      const r = native.deviceCreate(this, adapter, limits, desc.requiredFeatures, desc.label, this.#id,
        { check: !!options.check, prof, profJson });
      if (r) {
        devices.delete(this.#id);
        if (r.status === 'TYPE') throw new TypeError(`GPUAdapter.requestDevice: ${r.message}`);
        throw errors.operationError(`GPUAdapter.requestDevice: ${r.message}`);
      }
      this[kHandle] = true;
    }
    const feats = this[kHandle] ? enumValues('GPUFeatureName').filter((f) => native.deviceHasFeature(this, f)) : [];
    this.#features = new GPUSupportedFeatures(kToken, feats);
    this.#limits = new GPUSupportedLimits(kToken, this[kHandle] ? native.deviceLimits(this) : null);
    this.#queue = new (M().queue.GPUQueue)(kToken, this, desc.defaultQueue?.label ?? '');
    if (failure) this.#markLost('unknown', 'the adapter had already given a device (requestDevice on an expired adapter)');
  }

  get features() { return this.#features; }
  get limits() { return this.#limits; }
  get adapterInfo() { return this.#adapterInfo; }
  get queue() { return this.#queue; }
  get lost() { return this.#lost; }
  get [kChannel]() { return this.#channel; }

  get onuncapturederror() { return this.#onuncapturederror; }
  set onuncapturederror(fn) {
    if (!this.#handlerInstalled && typeof fn === 'function') {
      this.#handlerInstalled = true;
      this.addEventListener('uncapturederror', (e) => {
        if (typeof this.#onuncapturederror === 'function') this.#onuncapturederror.call(this, e);
      });
    }
    this.#onuncapturederror = typeof fn === 'function' || (typeof fn === 'object' && fn !== null) ? fn : null;
  }

  destroy() {
    // the spec: unmap() every buffer of the device first (its ArrayBuffers
    // are detached before lockstep takes the memory back)
    for (const ref of [...this[kMapped]]) ref.deref()?.unmap();
    this.#destroyed = true;
    if (this[kHandle]) native.deviceDestroy(this);
    else this.#markLost('destroyed', 'the device was destroyed');
  }

  #markLost(reason, message) {
    if (this.#isLost) return;
    this.#isLost = true;
    this.#resolveLost(errors.lostInfo(reason, message ?? ''));
  }

  #onEvent(kind, status, message) {
    switch (kind) {
      case EV.ERROR: {
        const Cls = errors.ERROR_CLASSES[status] ?? errors.GPUInternalError;
        const ev = new errors.GPUUncapturedErrorEvent('uncapturederror', { error: new Cls(message ?? ''), cancelable: true });
        this.dispatchEvent(ev);
        if (!ev.defaultPrevented) process.emitWarning(`${name(this)}: uncaptured ${Cls.name}: ${message}`, { type: 'GPUUncapturedError' });
        return;
      }
      case EV.LOG:
        this.#channel._warning(message ?? '');
        return;
      case EV.LOST:
        this.#markLost(status === 1 ? 'destroyed' : 'unknown', message);
        return;
      case EV.FINDING:
        this.#channel._finding(status);
        return;
      default:
    }
  }

  // A validation error found by the binding (invalid object, finished encoder...).
  [kRaise](message) {
    if (this[kHandle] && !this.#isLost) native.raiseError(this, 1, message);
  }

  // lockstep's warning when a destroyed device is used (WebGPU says nothing).
  [kWarnLost](what) {
    if (this.#warnedLost) return;
    this.#warnedLost = true;
    const msg = `${name(this)} is lost (${what} does nothing on a lost device; WebGPU reports no error for it)`;
    process.stderr.write(`lockstep: warning: ${msg}\n`);
    this.#channel._warning(msg);
  }

  get [kIsLost]() { return this.#isLost || this.#destroyed || !this[kHandle]; }

  pushErrorScope(filter) {
    required(arguments, 1, 'GPUDevice.pushErrorScope');
    const f = convert('GPUErrorFilter', filter, 'GPUDevice.pushErrorScope: filter');
    this.#scopes++;
    if (this[kHandle]) native.pushErrorScope(this, FILTERS[f]);
  }

  popErrorScope() {
    return new Promise((resolve, reject) => {
      if (this.#isLost || !this[kHandle]) return resolve(null);
      if (this.#scopes === 0) {
        reject(errors.operationError(`${name(this)}.popErrorScope: the error scope stack is empty`));
        return;
      }
      this.#scopes--;
      native.popErrorScope(this, request((type, message) => {
        if (type <= 0) return resolve(null);
        const Cls = errors.ERROR_CLASSES[type] ?? errors.GPUInternalError;
        resolve(new Cls(message ?? ''));
      }));
    });
  }

  createBuffer(descriptor) {
    required(arguments, 1, 'GPUDevice.createBuffer');
    const d = convert('GPUBufferDescriptor', descriptor, 'GPUDevice.createBuffer: descriptor');
    // the content timeline's check, before any validation (spec/index.bs createBuffer)
    if (d.mappedAtCreation && d.size % 4 !== 0)
      throw new RangeError(`GPUDevice.createBuffer${d.label ? ` '${d.label}'` : ''}: mappedAtCreation needs a size that is a multiple of 4 (size ${d.size})`);
    return new (M().buffer.GPUBuffer)(kToken, this, d);
  }

  createTexture(descriptor) {
    required(arguments, 1, 'GPUDevice.createTexture');
    const d = convert('GPUTextureDescriptor', descriptor, 'GPUDevice.createTexture: descriptor');
    return new (M().texture.GPUTexture)(kToken, this, d);
  }

  createSampler(descriptor = {}) {
    const d = convert('GPUSamplerDescriptor', descriptor, 'GPUDevice.createSampler: descriptor');
    return new (M().texture.GPUSampler)(kToken, this, d);
  }

  importExternalTexture(descriptor) {
    required(arguments, 1, 'GPUDevice.importExternalTexture');
    const d = convert('GPUExternalTextureDescriptor', descriptor, 'GPUDevice.importExternalTexture: descriptor');
    return new (M().texture.GPUExternalTexture)(kToken, this, d);
  }

  createBindGroupLayout(descriptor) {
    required(arguments, 1, 'GPUDevice.createBindGroupLayout');
    const d = convert('GPUBindGroupLayoutDescriptor', descriptor, 'GPUDevice.createBindGroupLayout: descriptor');
    return M().layout.createBindGroupLayout(this, d);
  }

  createPipelineLayout(descriptor) {
    required(arguments, 1, 'GPUDevice.createPipelineLayout');
    const d = convert('GPUPipelineLayoutDescriptor', descriptor, 'GPUDevice.createPipelineLayout: descriptor');
    return M().layout.createPipelineLayout(this, d);
  }

  createBindGroup(descriptor) {
    required(arguments, 1, 'GPUDevice.createBindGroup');
    const d = convert('GPUBindGroupDescriptor', descriptor, 'GPUDevice.createBindGroup: descriptor');
    return M().layout.createBindGroup(this, d);
  }

  createShaderModule(descriptor) {
    required(arguments, 1, 'GPUDevice.createShaderModule');
    const d = convert('GPUShaderModuleDescriptor', descriptor, 'GPUDevice.createShaderModule: descriptor');
    return new (M().shader.GPUShaderModule)(kToken, this, d);
  }

  createComputePipeline(descriptor) {
    required(arguments, 1, 'GPUDevice.createComputePipeline');
    const d = convert('GPUComputePipelineDescriptor', descriptor, 'GPUDevice.createComputePipeline: descriptor');
    return M().pipeline.createComputePipeline(this, d);
  }

  createComputePipelineAsync(descriptor) {
    try {
      required(arguments, 1, 'GPUDevice.createComputePipelineAsync');
      const d = convert('GPUComputePipelineDescriptor', descriptor, 'GPUDevice.createComputePipelineAsync: descriptor');
      return M().pipeline.createComputePipelineAsync(this, d);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  createRenderPipeline(descriptor) {
    required(arguments, 1, 'GPUDevice.createRenderPipeline');
    const d = convert('GPURenderPipelineDescriptor', descriptor, 'GPUDevice.createRenderPipeline: descriptor');
    return M().pipeline.createRenderPipeline(this, d);
  }

  createRenderPipelineAsync(descriptor) {
    try {
      required(arguments, 1, 'GPUDevice.createRenderPipelineAsync');
      const d = convert('GPURenderPipelineDescriptor', descriptor, 'GPUDevice.createRenderPipelineAsync: descriptor');
      return M().pipeline.createRenderPipelineAsync(this, d);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  createCommandEncoder(descriptor = {}) {
    const d = convert('GPUCommandEncoderDescriptor', descriptor, 'GPUDevice.createCommandEncoder: descriptor');
    return new (M().encoder.GPUCommandEncoder)(kToken, this, d);
  }

  createRenderBundleEncoder(descriptor) {
    required(arguments, 1, 'GPUDevice.createRenderBundleEncoder');
    const d = convert('GPURenderBundleEncoderDescriptor', descriptor, 'GPUDevice.createRenderBundleEncoder: descriptor');
    return M().encoder.createRenderBundleEncoder(this, d);
  }

  createQuerySet(descriptor) {
    required(arguments, 1, 'GPUDevice.createQuerySet');
    const d = convert('GPUQuerySetDescriptor', descriptor, 'GPUDevice.createQuerySet: descriptor');
    return new (M().query.GPUQuerySet)(kToken, this, d);
  }
}
defineLabel(GPUDevice);

// Runs fn; an InvalidUse it throws becomes a validation error on device
// (named after `what`) and the result of onInvalid.
function attempt(device, what, fn, onInvalid) {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof InvalidUse)) throw e;
    device[kRaise](`${what}: ${e.message}`);
    return onInvalid ? onInvalid(e) : undefined;
  }
}

// True when device can make objects; else warns (once) on the channel.
function live(device, what) {
  if (device[kIsLost]) {
    device[kWarnLost](what);
    return false;
  }
  return true;
}

register(GPUDevice);

module.exports = { GPUDevice, LockstepChannel, attempt, live, kRaise, kChannel };
