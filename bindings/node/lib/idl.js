'use strict';
// idl.js - WebIDL argument conversion for the WebGPU API, from one table.
//
// IDL below transcribes the spec's IDL (gpuweb/gpuweb
// spec/index.bs, sections "IDL" of each interface): typedefs, enums and
// dictionaries with their required members and defaults. convert(type, value,
// context) applies WebIDL's conversion rules to a value: [EnforceRange]
// integers (NaN, infinities and out-of-range values are a TypeError),
// [Clamp], restricted float/double, DOMString/USVString, enums, sequences,
// records, nullable types, unions and interface types. A failure throws a
// TypeError naming the method, the member and the rule, synchronously (the
// interface classes turn it into a rejected promise for methods that return
// one, as WebIDL says).

// The declarations of the spec's IDL that conversion needs, written as the
// spec writes them: typedefs, enums and dictionaries. One string, looked up
// by name on first use (declaration): importing the module builds nothing
// from it. (As arrays and objects, these tables were built at every
// import, ~500 of them with their strings, a tenth of the young
// generation a small job may fill before V8 pauses it for a scavenge.)
const IDL = `
typedef [EnforceRange] unsigned long GPUBufferDynamicOffset;
typedef [EnforceRange] unsigned long GPUStencilValue;
typedef [EnforceRange] unsigned long GPUSampleMask;
typedef [EnforceRange] long GPUDepthBias;
typedef [EnforceRange] unsigned long long GPUSize64;
typedef [EnforceRange] unsigned long GPUIntegerCoordinate;
typedef [EnforceRange] unsigned long GPUIndex32;
typedef [EnforceRange] unsigned long GPUSize32;
typedef [EnforceRange] long GPUSignedOffset32;
typedef [EnforceRange] unsigned long GPUBufferUsageFlags;
typedef [EnforceRange] unsigned long GPUMapModeFlags;
typedef [EnforceRange] unsigned long GPUTextureUsageFlags;
typedef [EnforceRange] unsigned long GPUShaderStageFlags;
typedef [EnforceRange] unsigned long GPUColorWriteFlags;
typedef double GPUPipelineConstantValue;
typedef (sequence<GPUIntegerCoordinate> or GPUExtent3DDict) GPUExtent3D;
typedef (sequence<GPUIntegerCoordinate> or GPUOrigin3DDict) GPUOrigin3D;
typedef (sequence<GPUIntegerCoordinate> or GPUOrigin2DDict) GPUOrigin2D;
typedef (sequence<double> or GPUColorDict) GPUColor;
typedef (GPUSampler or GPUTexture or GPUTextureView or GPUBuffer or GPUExternalTexture or GPUBufferBinding) GPUBindingResource;

enum GPUFeatureName { "core-features-and-limits", "depth-clip-control", "depth32float-stencil8",
  "texture-compression-bc", "texture-compression-bc-sliced-3d", "texture-compression-etc2",
  "texture-compression-astc", "texture-compression-astc-sliced-3d", "timestamp-query",
  "indirect-first-instance", "shader-f16", "rg11b10ufloat-renderable", "bgra8unorm-storage",
  "float32-filterable", "float32-blendable", "clip-distances", "dual-source-blending", "subgroups",
  "texture-formats-tier1", "texture-formats-tier2", "primitive-index", "texture-component-swizzle",
  "subgroup-size-control" };
enum GPUPowerPreference { "low-power", "high-performance" };
enum GPUBufferMapState { "unmapped", "pending", "mapped" };
enum GPUTextureDimension { "1d", "2d", "3d" };
enum GPUTextureViewDimension { "1d", "2d", "2d-array", "cube", "cube-array", "3d" };
enum GPUTextureAspect { "all", "stencil-only", "depth-only" };
enum GPUTextureFormat { "r8unorm", "r8snorm", "r8uint", "r8sint", "r16unorm", "r16snorm",
  "r16uint", "r16sint", "r16float", "rg8unorm", "rg8snorm", "rg8uint", "rg8sint", "r32uint",
  "r32sint", "r32float", "rg16unorm", "rg16snorm", "rg16uint", "rg16sint", "rg16float",
  "rgba8unorm", "rgba8unorm-srgb", "rgba8snorm", "rgba8uint", "rgba8sint", "bgra8unorm",
  "bgra8unorm-srgb", "rgb9e5ufloat", "rgb10a2uint", "rgb10a2unorm", "rg11b10ufloat", "rg32uint",
  "rg32sint", "rg32float", "rgba16unorm", "rgba16snorm", "rgba16uint", "rgba16sint", "rgba16float",
  "rgba32uint", "rgba32sint", "rgba32float", "stencil8", "depth16unorm", "depth24plus",
  "depth24plus-stencil8", "depth32float", "depth32float-stencil8", "bc1-rgba-unorm",
  "bc1-rgba-unorm-srgb", "bc2-rgba-unorm", "bc2-rgba-unorm-srgb", "bc3-rgba-unorm",
  "bc3-rgba-unorm-srgb", "bc4-r-unorm", "bc4-r-snorm", "bc5-rg-unorm", "bc5-rg-snorm",
  "bc6h-rgb-ufloat", "bc6h-rgb-float", "bc7-rgba-unorm", "bc7-rgba-unorm-srgb", "etc2-rgb8unorm",
  "etc2-rgb8unorm-srgb", "etc2-rgb8a1unorm", "etc2-rgb8a1unorm-srgb", "etc2-rgba8unorm",
  "etc2-rgba8unorm-srgb", "eac-r11unorm", "eac-r11snorm", "eac-rg11unorm", "eac-rg11snorm",
  "astc-4x4-unorm", "astc-4x4-unorm-srgb", "astc-5x4-unorm", "astc-5x4-unorm-srgb",
  "astc-5x5-unorm", "astc-5x5-unorm-srgb", "astc-6x5-unorm", "astc-6x5-unorm-srgb",
  "astc-6x6-unorm", "astc-6x6-unorm-srgb", "astc-8x5-unorm", "astc-8x5-unorm-srgb",
  "astc-8x6-unorm", "astc-8x6-unorm-srgb", "astc-8x8-unorm", "astc-8x8-unorm-srgb",
  "astc-10x5-unorm", "astc-10x5-unorm-srgb", "astc-10x6-unorm", "astc-10x6-unorm-srgb",
  "astc-10x8-unorm", "astc-10x8-unorm-srgb", "astc-10x10-unorm", "astc-10x10-unorm-srgb",
  "astc-12x10-unorm", "astc-12x10-unorm-srgb", "astc-12x12-unorm", "astc-12x12-unorm-srgb" };
enum GPUAddressMode { "clamp-to-edge", "repeat", "mirror-repeat" };
enum GPUFilterMode { "nearest", "linear" };
enum GPUMipmapFilterMode { "nearest", "linear" };
enum GPUCompareFunction { "never", "less", "equal", "less-equal", "greater", "not-equal",
  "greater-equal", "always" };
enum GPUBufferBindingType { "uniform", "storage", "read-only-storage" };
enum GPUSamplerBindingType { "filtering", "non-filtering", "comparison" };
enum GPUTextureSampleType { "float", "unfilterable-float", "depth", "sint", "uint" };
enum GPUStorageTextureAccess { "write-only", "read-only", "read-write" };
enum GPUCompilationMessageType { "error", "warning", "info" };
enum GPUPipelineErrorReason { "validation", "internal" };
enum GPUAutoLayoutMode { "auto" };
enum GPUQueryType { "occlusion", "timestamp" };
enum GPUDeviceLostReason { "unknown", "destroyed" };
enum GPUErrorFilter { "validation", "out-of-memory", "internal" };
enum GPULoadOp { "load", "clear" };
enum GPUStoreOp { "store", "discard" };
enum GPUPrimitiveTopology { "point-list", "line-list", "line-strip", "triangle-list",
  "triangle-strip" };
enum GPUIndexFormat { "uint16", "uint32" };
enum GPUFrontFace { "ccw", "cw" };
enum GPUCullMode { "none", "front", "back" };
enum PredefinedColorSpace { "srgb", "display-p3" };

dictionary GPUObjectDescriptorBase {
  USVString label = "";
};
dictionary GPURequestAdapterOptions {
  DOMString featureLevel = "core";
  GPUPowerPreference powerPreference;
  boolean forceFallbackAdapter = false;
  boolean xrCompatible = false;
};
dictionary GPUQueueDescriptor : GPUObjectDescriptorBase {};
dictionary GPUDeviceDescriptor : GPUObjectDescriptorBase {
  sequence<GPUFeatureName> requiredFeatures = [];
  record<DOMString, (GPUSize64 or undefined)> requiredLimits = {};
  GPUQueueDescriptor defaultQueue = {};
};
dictionary GPUBufferDescriptor : GPUObjectDescriptorBase {
  required GPUSize64 size;
  required GPUBufferUsageFlags usage;
  boolean mappedAtCreation = false;
};
dictionary GPUTextureDescriptor : GPUObjectDescriptorBase {
  required GPUExtent3D size;
  GPUIntegerCoordinate mipLevelCount = 1;
  GPUSize32 sampleCount = 1;
  GPUTextureDimension dimension = "2d";
  required GPUTextureFormat format;
  required GPUTextureUsageFlags usage;
  sequence<GPUTextureFormat> viewFormats = [];
  GPUTextureViewDimension textureBindingViewDimension;
};
dictionary GPUTextureViewDescriptor : GPUObjectDescriptorBase {
  GPUTextureFormat format;
  GPUTextureViewDimension dimension;
  GPUTextureUsageFlags usage = 0;
  GPUTextureAspect aspect = "all";
  GPUIntegerCoordinate baseMipLevel = 0;
  GPUIntegerCoordinate mipLevelCount;
  GPUIntegerCoordinate baseArrayLayer = 0;
  GPUIntegerCoordinate arrayLayerCount;
  DOMString swizzle = "rgba";
};
dictionary GPUExternalTextureDescriptor : GPUObjectDescriptorBase {
  required any source;
  PredefinedColorSpace colorSpace = "srgb";
};
dictionary GPUSamplerDescriptor : GPUObjectDescriptorBase {
  GPUAddressMode addressModeU = "clamp-to-edge";
  GPUAddressMode addressModeV = "clamp-to-edge";
  GPUAddressMode addressModeW = "clamp-to-edge";
  GPUFilterMode magFilter = "nearest";
  GPUFilterMode minFilter = "nearest";
  GPUMipmapFilterMode mipmapFilter = "nearest";
  float lodMinClamp = 0;
  float lodMaxClamp = 32;
  GPUCompareFunction compare;
  [Clamp] unsigned short maxAnisotropy = 1;
};
dictionary GPUBindGroupLayoutDescriptor : GPUObjectDescriptorBase {
  required sequence<GPUBindGroupLayoutEntry> entries;
};
dictionary GPUBindGroupLayoutEntry {
  required GPUIndex32 binding;
  required GPUShaderStageFlags visibility;
  GPUBufferBindingLayout buffer;
  GPUSamplerBindingLayout sampler;
  GPUTextureBindingLayout texture;
  GPUStorageTextureBindingLayout storageTexture;
  GPUExternalTextureBindingLayout externalTexture;
};
dictionary GPUBufferBindingLayout {
  GPUBufferBindingType type = "uniform";
  boolean hasDynamicOffset = false;
  GPUSize64 minBindingSize = 0;
};
dictionary GPUSamplerBindingLayout {
  GPUSamplerBindingType type = "filtering";
};
dictionary GPUTextureBindingLayout {
  GPUTextureSampleType sampleType = "float";
  GPUTextureViewDimension viewDimension = "2d";
  boolean multisampled = false;
};
dictionary GPUStorageTextureBindingLayout {
  GPUStorageTextureAccess access = "write-only";
  required GPUTextureFormat format;
  GPUTextureViewDimension viewDimension = "2d";
};
dictionary GPUExternalTextureBindingLayout {};
dictionary GPUBindGroupDescriptor : GPUObjectDescriptorBase {
  required GPUBindGroupLayout layout;
  required sequence<GPUBindGroupEntry> entries;
};
dictionary GPUBindGroupEntry {
  required GPUIndex32 binding;
  required GPUBindingResource resource;
};
dictionary GPUBufferBinding {
  required GPUBuffer buffer;
  GPUSize64 offset = 0;
  GPUSize64 size;
};
dictionary GPUPipelineLayoutDescriptor : GPUObjectDescriptorBase {
  required sequence<GPUBindGroupLayout?> bindGroupLayouts;
  GPUSize32 immediateSize = 0;
};
dictionary GPUShaderModuleDescriptor : GPUObjectDescriptorBase {
  required USVString code;
  sequence<GPUShaderModuleCompilationHint> compilationHints = [];
};
dictionary GPUShaderModuleCompilationHint {
  required USVString entryPoint;
  (GPUPipelineLayout or GPUAutoLayoutMode) layout;
};
dictionary GPUPipelineDescriptorBase : GPUObjectDescriptorBase {
  required (GPUPipelineLayout or GPUAutoLayoutMode) layout;
};
dictionary GPUProgrammableStage {
  required GPUShaderModule module;
  USVString entryPoint;
  record<USVString, GPUPipelineConstantValue> constants = {};
};
dictionary GPUComputePipelineDescriptor : GPUPipelineDescriptorBase {
  required GPUProgrammableStage compute;
};
dictionary GPUVertexState : GPUProgrammableStage {
  sequence<any> buffers = [];
};
dictionary GPUFragmentState : GPUProgrammableStage {
  required sequence<any> targets;
};
dictionary GPURenderPipelineDescriptor : GPUPipelineDescriptorBase {
  required GPUVertexState vertex;
  any primitive;
  any depthStencil;
  any multisample;
  GPUFragmentState fragment;
};
dictionary GPUCommandBufferDescriptor : GPUObjectDescriptorBase {};
dictionary GPUCommandEncoderDescriptor : GPUObjectDescriptorBase {};
dictionary GPUComputePassTimestampWrites {
  required GPUQuerySet querySet;
  GPUSize32 beginningOfPassWriteIndex;
  GPUSize32 endOfPassWriteIndex;
};
dictionary GPUComputePassDescriptor : GPUObjectDescriptorBase {
  GPUComputePassTimestampWrites timestampWrites;
};
dictionary GPURenderPassDescriptor : GPUObjectDescriptorBase {
  required sequence<any> colorAttachments;
  any depthStencilAttachment;
  GPUQuerySet occlusionQuerySet;
  any timestampWrites;
  GPUSize64 maxDrawCount = 50000000;
};
dictionary GPURenderBundleEncoderDescriptor : GPUObjectDescriptorBase {
  required sequence<GPUTextureFormat?> colorFormats;
  GPUTextureFormat depthStencilFormat;
  GPUSize32 sampleCount = 1;
  boolean depthReadOnly = false;
  boolean stencilReadOnly = false;
};
dictionary GPUQuerySetDescriptor : GPUObjectDescriptorBase {
  required GPUQueryType type;
  required GPUSize32 count;
};
dictionary GPUTexelCopyBufferLayout {
  GPUSize64 offset = 0;
  GPUSize32 bytesPerRow;
  GPUSize32 rowsPerImage;
};
dictionary GPUTexelCopyBufferInfo : GPUTexelCopyBufferLayout {
  required GPUBuffer buffer;
};
dictionary GPUTexelCopyTextureInfo {
  required GPUTexture texture;
  GPUIntegerCoordinate mipLevel = 0;
  GPUOrigin3D origin = {};
  GPUTextureAspect aspect = "all";
};
dictionary GPUExtent3DDict {
  required GPUIntegerCoordinate width;
  GPUIntegerCoordinate height = 1;
  GPUIntegerCoordinate depthOrArrayLayers = 1;
};
dictionary GPUOrigin3DDict {
  GPUIntegerCoordinate x = 0;
  GPUIntegerCoordinate y = 0;
  GPUIntegerCoordinate z = 0;
};
dictionary GPUOrigin2DDict {
  GPUIntegerCoordinate x = 0;
  GPUIntegerCoordinate y = 0;
};
dictionary GPUColorDict {
  required double r;
  required double g;
  required double b;
  required double a;
};
dictionary GPUUncapturedErrorEventInit {
  boolean bubbles = false;
  boolean cancelable = false;
  boolean composed = false;
  required GPUError error;
};
dictionary GPUPipelineErrorInit {
  required GPUPipelineErrorReason reason;
};
`;

// name -> {kind: 'typedef', type} | {kind: 'enum', values} |
// {kind: 'dictionary', parent, body} | null (not declared in IDL)
const declarations = new Map();

function declaration(name) {
  let d = declarations.get(name);
  if (d === undefined) {
    d = findDeclaration(name);
    declarations.set(name, d);
  }
  return d;
}

// name -> where its declaration starts in IDL, from one pass over the text
// on the first lookup (a search of the whole text per name cost more than
// the conversions of a small job)
let offsets;
function indexIDL() {
  offsets = new Map();
  for (let at = 0; at >= 0; at = IDL.indexOf('\n', at + 1)) {
    const s = at + 1;
    let name;
    if (IDL.startsWith('dictionary ', s)) name = IDL.slice(s + 11, IDL.indexOf(' ', s + 11));
    else if (IDL.startsWith('enum ', s)) name = IDL.slice(s + 5, IDL.indexOf(' ', s + 5));
    else if (IDL.startsWith('typedef ', s)) {
      const end = IDL.indexOf(';', s);
      name = IDL.slice(IDL.lastIndexOf(' ', end) + 1, end);
    }
    if (name) offsets.set(name, s);
  }
}

function findDeclaration(name) {
  if (!offsets) indexIDL();
  const at = offsets.get(name);
  if (at === undefined) return null;
  if (IDL.startsWith('dictionary ', at)) {
    const open = IDL.indexOf('{', at);
    const parent = IDL.indexOf(':', at);
    return {
      kind: 'dictionary',
      parent: parent >= 0 && parent < open ? IDL.slice(parent + 2, open - 1) : null,
      // the body ends at a line "};" (member defaults may be "{}"); "{};" is empty
      from: open + 1,
      to: IDL.startsWith('{};', open) ? open + 1 : IDL.indexOf('\n};', open),
    };
  }
  if (IDL.startsWith('enum ', at)) {
    const values = [];
    const end = IDL.indexOf('}', at);
    for (let q = IDL.indexOf('"', at); q >= 0 && q < end; ) {
      const close = IDL.indexOf('"', q + 1);
      values.push(IDL.slice(q + 1, close));
      q = IDL.indexOf('"', close + 1);
    }
    return { kind: 'enum', values };
  }
  const end = IDL.indexOf(';', at); // typedef TYPE NAME; on one line
  return { kind: 'typedef', type: IDL.slice(at + 8, IDL.lastIndexOf(' ', end)) };
}

const R = Symbol('required'); // a dictionary member's default: none, the member is required

const kindOf = (t) => declaration(t)?.kind;
const enumValues = (name) => declaration(name).values;

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

// attrs: the extended attributes' text ("EnforceRange", "Clamp" or "")
function integer(kind, attrs) {
  const lo = INT_RANGES[kind][0];
  const hi = INT_RANGES[kind][1];
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
  let attrs = '';
  if (t[0] === '[') {
    const end = t.indexOf(']');
    attrs = t.slice(1, end);
    t = t.slice(end + 1).trim();
  }
  if (t.endsWith('?')) {
    const inner = converter(t.slice(0, -1));
    return (v, ctx) => (v === null || v === undefined ? null : inner(v, ctx));
  }
  if (t.startsWith('(') && t.endsWith(')')) return union(splitTopLevel(t.slice(1, -1), ' or '));
  if (t.startsWith('sequence<')) return sequence(converter(t.slice(9, -1)));
  if (t.startsWith('record<')) {
    const kv = splitTopLevel(t.slice(7, -1), ',');
    return record(converter(kv[0]), converter(kv[1]));
  }
  const d = declaration(t);
  if (attrs === '' && d?.kind === 'typedef') return converter(d.type);
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
  if (d?.kind === 'enum') {
    const values = new Set(d.values);
    return (v, ctx) => {
      const s = domString(v, ctx);
      if (!values.has(s)) fail(ctx, `${describe(s)} is not a valid value of the enum ${t}`);
      return s;
    };
  }
  if (d?.kind === 'dictionary') return dictionary(t);
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
    const keys = Reflect.ownKeys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const d = Reflect.getOwnPropertyDescriptor(v, k);
      if (!d || !d.enumerable || typeof k === 'symbol') continue;
      out[key(k, ctx)] = value(v[k], `${ctx}[${JSON.stringify(k)}]`);
    }
    return out;
  };
}

// Members of a dictionary, inherited ones first, each level in
// lexicographic order (WebIDL's order of conversion): [name, type,
// default], the default R when the member is required.
function members(name) {
  const d = declaration(name);
  const list = d.parent ? members(d.parent) : [];
  const own = [];
  // each member: blanks, [required ]TYPE NAME[ = DEFAULT];
  for (let at = d.from; ; ) {
    while (at < d.to && IDL.charCodeAt(at) <= 32) at++;
    if (at >= d.to) break;
    const end = IDL.indexOf(';', at);
    let eq = IDL.indexOf(' = ', at);
    if (eq < 0 || eq > end) eq = end;
    const space = IDL.lastIndexOf(' ', eq - 1);
    const req = IDL.startsWith('required ', at);
    own.push([IDL.slice(space + 1, eq), IDL.slice(req ? at + 9 : at, space),
      req ? R : eq === end ? undefined : JSON.parse(IDL.slice(eq + 3, end))]);
    at = end + 1;
  }
  own.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let i = 0; i < own.length; i++) list.push(own[i]);
  return list;
}

// The converters below run a few times per program, in V8's interpreter,
// which allocates an object for every step of a for...of and of an array
// destructuring: they loop by index.
function dictionary(name) {
  // [name, converter, default, ...] flat; a member's converter is its type
  // until a value of it comes (most calls leave most members out)
  let list;
  return (v, ctx) => {
    if (!list) {
      const m = members(name);
      list = [];
      for (let i = 0; i < m.length; i++) list.push(m[i][0], m[i][1], m[i][2]);
    }
    if (v !== undefined && v !== null && typeof v !== 'object' && typeof v !== 'function')
      fail(ctx, `${describe(v)} is not an object (a ${name} is needed)`);
    const out = {};
    for (let i = 0; i < list.length; i += 3) {
      const k = list[i];
      const x = v === undefined || v === null ? undefined : v[k];
      if (x === undefined) {
        const def = list[i + 2];
        if (def === R) fail(ctx, `${name}.${k} is required`);
        // object defaults are all empty ({} or [])
        if (def !== undefined) out[k] = typeof def === 'object' ? (Array.isArray(def) ? [] : {}) : def;
        continue;
      }
      let conv = list[i + 1];
      if (typeof conv === 'string') conv = list[i + 1] = converter(conv);
      out[k] = conv(x, ctx + '.' + k);
    }
    return out;
  };
}

// Unions, by WebIDL's order: interfaces first, then sequences (an iterable
// object), then dictionaries (any other object), then strings (enums).
function union(types) {
  let seq;
  let dict;
  let other; // the first enum, typedef, integer or undefined: strings and numbers
  let acceptsUndefined = false;
  for (let i = 0; i < types.length; i++) {
    const t = types[i];
    const kind = kindOf(t);
    if (t.startsWith('sequence<')) seq ??= t;
    else if (kind === 'dictionary') dict ??= t;
    else if (t === 'undefined') acceptsUndefined = true;
    else if (kind === 'enum' || kind === 'typedef' || INT_RANGES[t]) other ??= t;
  }
  let classes; // the interfaces, found once every class has registered
  return (v, ctx) => {
    if (v !== null && typeof v === 'object') {
      if (!classes) {
        classes = [];
        for (let i = 0; i < types.length; i++) if (INTERFACES.has(types[i])) classes.push(INTERFACES.get(types[i]));
      }
      for (let i = 0; i < classes.length; i++) if (branded(v, classes[i])) return v;
      if (seq && iterableOf(v)) return converter(seq)(v, ctx);
      if (dict) return converter(dict)(v, ctx);
    }
    if (v === undefined && acceptsUndefined) return undefined;
    if (v === undefined && dict) return converter(dict)(v, ctx);
    if (other) return converter(other)(v, ctx);
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

module.exports = { usv, convert, required, registerInterface, kValid, enumValues, ConversionError };
