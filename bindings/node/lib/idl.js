'use strict';
// idl.js - WebIDL argument conversion for the WebGPU API, from one table.
//
// TYPES and DICTS below transcribe the spec's IDL (gpuweb/gpuweb
// spec/index.bs, sections "IDL" of each interface): typedefs, enums and
// dictionaries with their required members and defaults. convert(type, value,
// context) applies WebIDL's conversion rules to a value: [EnforceRange]
// integers (NaN, infinities and out-of-range values are a TypeError),
// [Clamp], restricted float/double, DOMString/USVString, enums, sequences,
// records, nullable types, unions and interface types. A failure throws a
// TypeError naming the method, the member and the rule, synchronously (the
// interface classes turn it into a rejected promise for methods that return
// one, as WebIDL says).

const ENUMS = {
  GPUFeatureName: ['core-features-and-limits', 'depth-clip-control', 'depth32float-stencil8',
    'texture-compression-bc', 'texture-compression-bc-sliced-3d', 'texture-compression-etc2',
    'texture-compression-astc', 'texture-compression-astc-sliced-3d', 'timestamp-query',
    'indirect-first-instance', 'shader-f16', 'rg11b10ufloat-renderable', 'bgra8unorm-storage',
    'float32-filterable', 'float32-blendable', 'clip-distances', 'dual-source-blending',
    'subgroups', 'texture-formats-tier1', 'texture-formats-tier2', 'primitive-index',
    'texture-component-swizzle', 'subgroup-size-control'],
  GPUPowerPreference: ['low-power', 'high-performance'],
  GPUBufferMapState: ['unmapped', 'pending', 'mapped'],
  GPUTextureDimension: ['1d', '2d', '3d'],
  GPUTextureViewDimension: ['1d', '2d', '2d-array', 'cube', 'cube-array', '3d'],
  GPUTextureAspect: ['all', 'stencil-only', 'depth-only'],
  GPUTextureFormat: ['r8unorm', 'r8snorm', 'r8uint', 'r8sint', 'r16unorm', 'r16snorm', 'r16uint',
    'r16sint', 'r16float', 'rg8unorm', 'rg8snorm', 'rg8uint', 'rg8sint', 'r32uint', 'r32sint',
    'r32float', 'rg16unorm', 'rg16snorm', 'rg16uint', 'rg16sint', 'rg16float', 'rgba8unorm',
    'rgba8unorm-srgb', 'rgba8snorm', 'rgba8uint', 'rgba8sint', 'bgra8unorm', 'bgra8unorm-srgb',
    'rgb9e5ufloat', 'rgb10a2uint', 'rgb10a2unorm', 'rg11b10ufloat', 'rg32uint', 'rg32sint',
    'rg32float', 'rgba16unorm', 'rgba16snorm', 'rgba16uint', 'rgba16sint', 'rgba16float',
    'rgba32uint', 'rgba32sint', 'rgba32float', 'stencil8', 'depth16unorm', 'depth24plus',
    'depth24plus-stencil8', 'depth32float', 'depth32float-stencil8',
    'bc1-rgba-unorm', 'bc1-rgba-unorm-srgb', 'bc2-rgba-unorm', 'bc2-rgba-unorm-srgb',
    'bc3-rgba-unorm', 'bc3-rgba-unorm-srgb', 'bc4-r-unorm', 'bc4-r-snorm', 'bc5-rg-unorm',
    'bc5-rg-snorm', 'bc6h-rgb-ufloat', 'bc6h-rgb-float', 'bc7-rgba-unorm', 'bc7-rgba-unorm-srgb',
    'etc2-rgb8unorm', 'etc2-rgb8unorm-srgb', 'etc2-rgb8a1unorm', 'etc2-rgb8a1unorm-srgb',
    'etc2-rgba8unorm', 'etc2-rgba8unorm-srgb', 'eac-r11unorm', 'eac-r11snorm', 'eac-rg11unorm',
    'eac-rg11snorm',
    ...['4x4', '5x4', '5x5', '6x5', '6x6', '8x5', '8x6', '8x8', '10x5', '10x6', '10x8', '10x10',
      '12x10', '12x12'].flatMap((s) => [`astc-${s}-unorm`, `astc-${s}-unorm-srgb`])],
  GPUAddressMode: ['clamp-to-edge', 'repeat', 'mirror-repeat'],
  GPUFilterMode: ['nearest', 'linear'],
  GPUMipmapFilterMode: ['nearest', 'linear'],
  GPUCompareFunction: ['never', 'less', 'equal', 'less-equal', 'greater', 'not-equal',
    'greater-equal', 'always'],
  GPUBufferBindingType: ['uniform', 'storage', 'read-only-storage'],
  GPUSamplerBindingType: ['filtering', 'non-filtering', 'comparison'],
  GPUTextureSampleType: ['float', 'unfilterable-float', 'depth', 'sint', 'uint'],
  GPUStorageTextureAccess: ['write-only', 'read-only', 'read-write'],
  GPUCompilationMessageType: ['error', 'warning', 'info'],
  GPUPipelineErrorReason: ['validation', 'internal'],
  GPUAutoLayoutMode: ['auto'],
  GPUQueryType: ['occlusion', 'timestamp'],
  GPUDeviceLostReason: ['unknown', 'destroyed'],
  GPUErrorFilter: ['validation', 'out-of-memory', 'internal'],
  GPULoadOp: ['load', 'clear'],
  GPUStoreOp: ['store', 'discard'],
  GPUPrimitiveTopology: ['point-list', 'line-list', 'line-strip', 'triangle-list', 'triangle-strip'],
  GPUIndexFormat: ['uint16', 'uint32'],
  GPUFrontFace: ['ccw', 'cw'],
  GPUCullMode: ['none', 'front', 'back'],
  PredefinedColorSpace: ['srgb', 'display-p3'],
};

// typedefs: name -> the type they stand for
const TYPEDEFS = {
  GPUBufferDynamicOffset: '[EnforceRange] unsigned long',
  GPUStencilValue: '[EnforceRange] unsigned long',
  GPUSampleMask: '[EnforceRange] unsigned long',
  GPUDepthBias: '[EnforceRange] long',
  GPUSize64: '[EnforceRange] unsigned long long',
  GPUIntegerCoordinate: '[EnforceRange] unsigned long',
  GPUIndex32: '[EnforceRange] unsigned long',
  GPUSize32: '[EnforceRange] unsigned long',
  GPUSignedOffset32: '[EnforceRange] long',
  GPUBufferUsageFlags: '[EnforceRange] unsigned long',
  GPUMapModeFlags: '[EnforceRange] unsigned long',
  GPUTextureUsageFlags: '[EnforceRange] unsigned long',
  GPUShaderStageFlags: '[EnforceRange] unsigned long',
  GPUColorWriteFlags: '[EnforceRange] unsigned long',
  GPUPipelineConstantValue: 'double',
  GPUExtent3D: '(sequence<GPUIntegerCoordinate> or GPUExtent3DDict)',
  GPUOrigin3D: '(sequence<GPUIntegerCoordinate> or GPUOrigin3DDict)',
  GPUOrigin2D: '(sequence<GPUIntegerCoordinate> or GPUOrigin2DDict)',
  GPUColor: '(sequence<double> or GPUColorDict)',
  GPUBindingResource:
    '(GPUSampler or GPUTexture or GPUTextureView or GPUBuffer or GPUExternalTexture or GPUBufferBinding)',
};

// Dictionaries: [parent, {member: [type, 'required' | default | undefined]}]
const R = 'required';
const DICTS = {
  GPUObjectDescriptorBase: [null, { label: ['USVString', ''] }],
  GPURequestAdapterOptions: [null, {
    featureLevel: ['DOMString', 'core'], powerPreference: ['GPUPowerPreference'],
    forceFallbackAdapter: ['boolean', false], xrCompatible: ['boolean', false] }],
  GPUQueueDescriptor: ['GPUObjectDescriptorBase', {}],
  GPUDeviceDescriptor: ['GPUObjectDescriptorBase', {
    requiredFeatures: ['sequence<GPUFeatureName>', []],
    requiredLimits: ['record<DOMString, (GPUSize64 or undefined)>', {}],
    defaultQueue: ['GPUQueueDescriptor', {}] }],
  GPUBufferDescriptor: ['GPUObjectDescriptorBase', {
    size: ['GPUSize64', R], usage: ['GPUBufferUsageFlags', R], mappedAtCreation: ['boolean', false] }],
  GPUTextureDescriptor: ['GPUObjectDescriptorBase', {
    size: ['GPUExtent3D', R], mipLevelCount: ['GPUIntegerCoordinate', 1], sampleCount: ['GPUSize32', 1],
    dimension: ['GPUTextureDimension', '2d'], format: ['GPUTextureFormat', R],
    usage: ['GPUTextureUsageFlags', R], viewFormats: ['sequence<GPUTextureFormat>', []],
    textureBindingViewDimension: ['GPUTextureViewDimension'] }],
  GPUTextureViewDescriptor: ['GPUObjectDescriptorBase', {
    format: ['GPUTextureFormat'], dimension: ['GPUTextureViewDimension'],
    usage: ['GPUTextureUsageFlags', 0], aspect: ['GPUTextureAspect', 'all'],
    baseMipLevel: ['GPUIntegerCoordinate', 0], mipLevelCount: ['GPUIntegerCoordinate'],
    baseArrayLayer: ['GPUIntegerCoordinate', 0], arrayLayerCount: ['GPUIntegerCoordinate'],
    swizzle: ['DOMString', 'rgba'] }],
  GPUExternalTextureDescriptor: ['GPUObjectDescriptorBase', {
    source: ['any', R], colorSpace: ['PredefinedColorSpace', 'srgb'] }],
  GPUSamplerDescriptor: ['GPUObjectDescriptorBase', {
    addressModeU: ['GPUAddressMode', 'clamp-to-edge'], addressModeV: ['GPUAddressMode', 'clamp-to-edge'],
    addressModeW: ['GPUAddressMode', 'clamp-to-edge'], magFilter: ['GPUFilterMode', 'nearest'],
    minFilter: ['GPUFilterMode', 'nearest'], mipmapFilter: ['GPUMipmapFilterMode', 'nearest'],
    lodMinClamp: ['float', 0], lodMaxClamp: ['float', 32], compare: ['GPUCompareFunction'],
    maxAnisotropy: ['[Clamp] unsigned short', 1] }],
  GPUBindGroupLayoutDescriptor: ['GPUObjectDescriptorBase', {
    entries: ['sequence<GPUBindGroupLayoutEntry>', R] }],
  GPUBindGroupLayoutEntry: [null, {
    binding: ['GPUIndex32', R], visibility: ['GPUShaderStageFlags', R],
    buffer: ['GPUBufferBindingLayout'], sampler: ['GPUSamplerBindingLayout'],
    texture: ['GPUTextureBindingLayout'], storageTexture: ['GPUStorageTextureBindingLayout'],
    externalTexture: ['GPUExternalTextureBindingLayout'] }],
  GPUBufferBindingLayout: [null, {
    type: ['GPUBufferBindingType', 'uniform'], hasDynamicOffset: ['boolean', false],
    minBindingSize: ['GPUSize64', 0] }],
  GPUSamplerBindingLayout: [null, { type: ['GPUSamplerBindingType', 'filtering'] }],
  GPUTextureBindingLayout: [null, {
    sampleType: ['GPUTextureSampleType', 'float'], viewDimension: ['GPUTextureViewDimension', '2d'],
    multisampled: ['boolean', false] }],
  GPUStorageTextureBindingLayout: [null, {
    access: ['GPUStorageTextureAccess', 'write-only'], format: ['GPUTextureFormat', R],
    viewDimension: ['GPUTextureViewDimension', '2d'] }],
  GPUExternalTextureBindingLayout: [null, {}],
  GPUBindGroupDescriptor: ['GPUObjectDescriptorBase', {
    layout: ['GPUBindGroupLayout', R], entries: ['sequence<GPUBindGroupEntry>', R] }],
  GPUBindGroupEntry: [null, { binding: ['GPUIndex32', R], resource: ['GPUBindingResource', R] }],
  GPUBufferBinding: [null, { buffer: ['GPUBuffer', R], offset: ['GPUSize64', 0], size: ['GPUSize64'] }],
  GPUPipelineLayoutDescriptor: ['GPUObjectDescriptorBase', {
    bindGroupLayouts: ['sequence<GPUBindGroupLayout?>', R], immediateSize: ['GPUSize32', 0] }],
  GPUShaderModuleDescriptor: ['GPUObjectDescriptorBase', {
    code: ['USVString', R], compilationHints: ['sequence<GPUShaderModuleCompilationHint>', []] }],
  GPUShaderModuleCompilationHint: [null, {
    entryPoint: ['USVString', R], layout: ['(GPUPipelineLayout or GPUAutoLayoutMode)'] }],
  GPUPipelineDescriptorBase: ['GPUObjectDescriptorBase', {
    layout: ['(GPUPipelineLayout or GPUAutoLayoutMode)', R] }],
  GPUProgrammableStage: [null, {
    module: ['GPUShaderModule', R], entryPoint: ['USVString'],
    constants: ['record<USVString, GPUPipelineConstantValue>', {}] }],
  GPUComputePipelineDescriptor: ['GPUPipelineDescriptorBase', { compute: ['GPUProgrammableStage', R] }],
  GPUVertexState: ['GPUProgrammableStage', { buffers: ['sequence<any>', []] }],
  GPUFragmentState: ['GPUProgrammableStage', { targets: ['sequence<any>', R] }],
  GPURenderPipelineDescriptor: ['GPUPipelineDescriptorBase', {
    vertex: ['GPUVertexState', R], primitive: ['any'], depthStencil: ['any'],
    multisample: ['any'], fragment: ['GPUFragmentState'] }],
  GPUCommandBufferDescriptor: ['GPUObjectDescriptorBase', {}],
  GPUCommandEncoderDescriptor: ['GPUObjectDescriptorBase', {}],
  GPUComputePassTimestampWrites: [null, {
    querySet: ['GPUQuerySet', R], beginningOfPassWriteIndex: ['GPUSize32'],
    endOfPassWriteIndex: ['GPUSize32'] }],
  GPUComputePassDescriptor: ['GPUObjectDescriptorBase', {
    timestampWrites: ['GPUComputePassTimestampWrites'] }],
  GPURenderPassDescriptor: ['GPUObjectDescriptorBase', {
    colorAttachments: ['sequence<any>', R], depthStencilAttachment: ['any'],
    occlusionQuerySet: ['GPUQuerySet'], timestampWrites: ['any'], maxDrawCount: ['GPUSize64', 50000000] }],
  GPURenderBundleEncoderDescriptor: ['GPUObjectDescriptorBase', {
    colorFormats: ['sequence<GPUTextureFormat?>', R], depthStencilFormat: ['GPUTextureFormat'],
    sampleCount: ['GPUSize32', 1], depthReadOnly: ['boolean', false], stencilReadOnly: ['boolean', false] }],
  GPUQuerySetDescriptor: ['GPUObjectDescriptorBase', {
    type: ['GPUQueryType', R], count: ['GPUSize32', R] }],
  GPUTexelCopyBufferLayout: [null, {
    offset: ['GPUSize64', 0], bytesPerRow: ['GPUSize32'], rowsPerImage: ['GPUSize32'] }],
  GPUTexelCopyBufferInfo: ['GPUTexelCopyBufferLayout', { buffer: ['GPUBuffer', R] }],
  GPUTexelCopyTextureInfo: [null, {
    texture: ['GPUTexture', R], mipLevel: ['GPUIntegerCoordinate', 0], origin: ['GPUOrigin3D', {}],
    aspect: ['GPUTextureAspect', 'all'] }],
  GPUExtent3DDict: [null, {
    width: ['GPUIntegerCoordinate', R], height: ['GPUIntegerCoordinate', 1],
    depthOrArrayLayers: ['GPUIntegerCoordinate', 1] }],
  GPUOrigin3DDict: [null, {
    x: ['GPUIntegerCoordinate', 0], y: ['GPUIntegerCoordinate', 0], z: ['GPUIntegerCoordinate', 0] }],
  GPUOrigin2DDict: [null, { x: ['GPUIntegerCoordinate', 0], y: ['GPUIntegerCoordinate', 0] }],
  GPUColorDict: [null, { r: ['double', R], g: ['double', R], b: ['double', R], a: ['double', R] }],
  GPUUncapturedErrorEventInit: [null, {
    bubbles: ['boolean', false], cancelable: ['boolean', false], composed: ['boolean', false],
    error: ['GPUError', R] }],
  GPUPipelineErrorInit: [null, { reason: ['GPUPipelineErrorReason', R] }],
};

// Interface types are registered by the classes (name -> class).
const INTERFACES = new Map();
const kValid = Symbol('lockstep.interface');

// branded: instances of a WebGPU object interface carry kValid (set by
// base.js); errors and events are plain classes.
function registerInterface(name, cls, branded = true) {
  INTERFACES.set(name, cls);
  if (!branded) UNBRANDED.add(cls);
}
const UNBRANDED = new Set();
const branded = (v, cls) => v instanceof cls && (UNBRANDED.has(cls) || v[kValid]);

// ----------------------------------------------------------- conversion

// USVString: lone surrogates become U+FFFD (String.prototype.toWellFormed
// where the runtime has it, Node.js 20; by hand on Node.js 18).
const usv = String.prototype.toWellFormed
  ? (s) => s.toWellFormed()
  : (s) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

class ConversionError extends TypeError {}

function fail(ctx, what) {
  throw new TypeError(`${ctx}: ${what}`);
}

function describe(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '\u2026' : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return 'a Symbol';
  if (v === null) return 'null';
  if (typeof v === 'object') return v.constructor?.name ? `a ${v.constructor.name}` : 'an object';
  if (typeof v === 'function') return 'a function';
  return String(v);
}

function toNumber(v, ctx) {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint' || typeof v === 'symbol') fail(ctx, `${describe(v)} is not a number`);
  return Number(v);
}

const INT_RANGES = {
  'unsigned short': [0, 0xffff],
  'unsigned long': [0, 0xffffffff],
  long: [-0x80000000, 0x7fffffff],
  'unsigned long long': [0, Number.MAX_SAFE_INTEGER],
  'long long': [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function integer(kind, attrs) {
  const [lo, hi] = INT_RANGES[kind];
  const enforce = attrs.includes('EnforceRange');
  const clamp = attrs.includes('Clamp');
  const label = `${enforce ? '[EnforceRange] ' : clamp ? '[Clamp] ' : ''}${kind}`;
  return (v, ctx) => {
    let x = toNumber(v, ctx);
    if (enforce) {
      if (!Number.isFinite(x)) fail(ctx, `${describe(v)} is not a finite number (${label})`);
      x = Math.trunc(x);
      if (x < lo || x > hi) fail(ctx, `${describe(v)} is outside ${lo} .. ${hi} (${label})`);
      return x === 0 ? 0 : x;
    }
    if (Number.isNaN(x)) return 0;
    if (clamp) {
      x = Math.min(Math.max(x, lo), hi);
      const f = Math.floor(x);
      const r = x - f;
      x = r > 0.5 || (r === 0.5 && f % 2 !== 0) ? f + 1 : f;
      return x === 0 ? 0 : x;
    }
    if (!Number.isFinite(x)) return 0;
    x = Math.trunc(x);
    const span = hi - lo + 1;
    x = ((x - lo) % span + span) % span + lo;
    return x === 0 ? 0 : x;
  };
}

function splitTopLevel(s, sep) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '<' || c === '(') depth++;
    else if (c === '>' || c === ')') depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      out.push(s.slice(start, i).trim());
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

const cache = new Map();

function converter(type) {
  let c = cache.get(type);
  if (!c) {
    c = build(type.trim());
    cache.set(type, c);
  }
  return c;
}

function build(t) {
  const attrs = [];
  while (t.startsWith('[')) {
    const end = t.indexOf(']');
    attrs.push(...t.slice(1, end).split(',').map((s) => s.trim()));
    t = t.slice(end + 1).trim();
  }
  if (t.endsWith('?')) {
    const inner = converter(t.slice(0, -1));
    return (v, ctx) => (v === null || v === undefined ? null : inner(v, ctx));
  }
  if (t.startsWith('(') && t.endsWith(')')) return union(splitTopLevel(t.slice(1, -1), ' or '));
  if (t.startsWith('sequence<')) return sequence(converter(t.slice(9, -1)));
  if (t.startsWith('record<')) {
    const [k, v] = splitTopLevel(t.slice(7, -1), ',');
    return record(converter(k), converter(v));
  }
  if (attrs.length === 0 && TYPEDEFS[t]) return converter(TYPEDEFS[t]);
  if (INT_RANGES[t]) return integer(t, attrs);
  switch (t) {
    case 'any': return (v) => v;
    case 'undefined': return (v, ctx) => (v === undefined ? undefined : fail(ctx, `${describe(v)} is not undefined`));
    case 'boolean': return (v) => Boolean(v);
    case 'DOMString': return domString;
    case 'USVString': return (v, ctx) => usv(domString(v, ctx));
    case 'double': return (v, ctx) => restricted(v, ctx, 'double');
    case 'float': return (v, ctx) => {
      const x = restricted(v, ctx, 'float');
      if (!Number.isFinite(Math.fround(x))) fail(ctx, `${describe(v)} does not fit in a float`);
      return Math.fround(x);
    };
    case 'AllowSharedBufferSource': return (v, ctx) => {
      if (v instanceof ArrayBuffer || ArrayBuffer.isView(v) ||
          (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer)) return v;
      return fail(ctx, `${describe(v)} is not an ArrayBuffer, SharedArrayBuffer or ArrayBufferView`);
    };
    default:
  }
  if (ENUMS[t]) {
    const values = new Set(ENUMS[t]);
    return (v, ctx) => {
      const s = domString(v, ctx);
      if (!values.has(s)) fail(ctx, `${describe(s)} is not a valid value of the enum ${t}`);
      return s;
    };
  }
  if (DICTS[t]) return dictionary(t);
  return (v, ctx) => {
    const cls = INTERFACES.get(t);
    if (!cls) throw new Error(`idl: unknown type ${t}`);
    if (v === null || typeof v !== 'object' || !branded(v, cls))
      fail(ctx, `${describe(v)} is not a ${t}`);
    return v;
  };
}

function domString(v, ctx) {
  if (typeof v === 'string') return v;
  if (typeof v === 'symbol') fail(ctx, 'a Symbol is not a string');
  return String(v);
}

function restricted(v, ctx, name) {
  const x = toNumber(v, ctx);
  if (!Number.isFinite(x)) fail(ctx, `${describe(v)} is not a finite number (${name})`);
  return x;
}

function iterableOf(v) {
  return v !== null && typeof v === 'object' && typeof v[Symbol.iterator] === 'function';
}

const arrayIterator = Array.prototype[Symbol.iterator];

function sequence(elem) {
  return (v, ctx) => {
    if (v === null || typeof v !== 'object') fail(ctx, `${describe(v)} is not a sequence`);
    const it = v[Symbol.iterator];
    if (typeof it !== 'function') fail(ctx, `${describe(v)} is not iterable (a sequence is needed)`);
    const out = [];
    if (Array.isArray(v) && it === arrayIterator) {
      // an ordinary array: what its iterator would give, without the protocol
      for (let i = 0; i < v.length; i++) out.push(elem(v[i], ctx + '[' + i + ']'));
      return out;
    }
    let i = 0;
    for (const e of { [Symbol.iterator]: () => it.call(v) }) out.push(elem(e, `${ctx}[${i++}]`));
    return out;
  };
}

function record(key, value) {
  return (v, ctx) => {
    if (v === null || v === undefined) return {};
    if (typeof v !== 'object' && typeof v !== 'function') fail(ctx, `${describe(v)} is not an object (a record is needed)`);
    const out = {};
    for (const k of Reflect.ownKeys(v)) {
      const d = Reflect.getOwnPropertyDescriptor(v, k);
      if (!d || !d.enumerable || typeof k === 'symbol') continue;
      out[key(k, ctx)] = value(v[k], `${ctx}[${JSON.stringify(k)}]`);
    }
    return out;
  };
}

// Members of a dictionary, inherited ones first, each level in
// lexicographic order (WebIDL's order of conversion).
function members(name) {
  const [parent, own] = DICTS[name];
  const list = parent ? members(parent) : [];
  for (const key of Object.keys(own).sort()) list.push([key, ...own[key]]);
  return list;
}

function dictionary(name) {
  let list;
  return (v, ctx) => {
    list ??= members(name).map(([k, type, def]) => [k, converter(type), def]);
    if (v !== undefined && v !== null && typeof v !== 'object' && typeof v !== 'function')
      fail(ctx, `${describe(v)} is not an object (a ${name} is needed)`);
    const out = {};
    for (const [k, conv, def] of list) {
      const x = v === undefined || v === null ? undefined : v[k];
      if (x === undefined) {
        if (def === R) fail(ctx, `${name}.${k} is required`);
        // object defaults are all empty ({} or [])
        if (def !== undefined) out[k] = typeof def === 'object' ? (Array.isArray(def) ? [] : {}) : def;
        continue;
      }
      out[k] = conv(x, ctx + '.' + k);
    }
    return out;
  };
}

// Unions, by WebIDL's order: interfaces first, then sequences (an iterable
// object), then dictionaries (any other object), then strings (enums).
function union(types) {
  const interfaces = types.filter((t) => !DICTS[t] && !ENUMS[t] && !t.startsWith('sequence<') &&
    (INTERFACES.has(t) || /^GPU[A-Za-z]+$/.test(t)) && !TYPEDEFS[t]);
  const seq = types.find((t) => t.startsWith('sequence<'));
  const dict = types.find((t) => DICTS[t]);
  const other = types.filter((t) => ENUMS[t] || t === 'undefined' || TYPEDEFS[t] || INT_RANGES[t]);
  let classes;
  return (v, ctx) => {
    if (v !== null && typeof v === 'object') {
      classes ??= interfaces.map((t) => INTERFACES.get(t)).filter(Boolean);
      for (const cls of classes) {
        if (branded(v, cls)) return v;
      }
      if (seq && iterableOf(v)) return converter(seq)(v, ctx);
      if (dict) return converter(dict)(v, ctx);
    }
    if (v === undefined && types.includes('undefined')) return undefined;
    if (v === undefined && dict) return converter(dict)(v, ctx);
    for (const t of other) {
      if (t === 'undefined') continue;
      return converter(t)(v, ctx);
    }
    return fail(ctx, `${describe(v)} is not a ${types.join(' or ')}`);
  };
}

function convert(type, value, ctx) {
  return converter(type)(value, ctx);
}

// A required argument: WebIDL's "n arguments required" TypeError.
function required(args, n, ctx) {
  if (args.length < n) throw new TypeError(`${ctx}: ${n} argument${n > 1 ? 's' : ''} required, but only ${args.length} present`);
}

module.exports = { usv, convert, required, registerInterface, kValid, ENUMS, DICTS, TYPEDEFS, ConversionError };
