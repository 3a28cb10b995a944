'use strict';
// globals.js - the WebGPU interface objects and constant namespaces, as
// `globals` (dawn.node's contract) and as register installs them on
// globalThis.

const gpu = require('./gpu.js');
const errors = require('./errors.js');
const device = require('./device.js');
const buffer = require('./buffer.js');
const queue = require('./queue.js');
const texture = require('./texture.js');
const shader = require('./shader.js');
const layout = require('./layout.js');
const pipeline = require('./pipeline.js');
const encoder = require('./encoder.js');
const query = require('./query.js');

const freeze = (o) => Object.freeze(o);

const globals = {
  GPU: gpu.GPU, GPUAdapter: gpu.GPUAdapter, GPUAdapterInfo: gpu.GPUAdapterInfo,
  GPUSupportedLimits: gpu.GPUSupportedLimits, GPUSupportedFeatures: gpu.GPUSupportedFeatures,
  WGSLLanguageFeatures: gpu.WGSLLanguageFeatures,
  GPUDevice: device.GPUDevice, GPUQueue: queue.GPUQueue, GPUBuffer: buffer.GPUBuffer,
  GPUTexture: texture.GPUTexture, GPUTextureView: texture.GPUTextureView, GPUSampler: texture.GPUSampler,
  GPUExternalTexture: texture.GPUExternalTexture,
  GPUShaderModule: shader.GPUShaderModule, GPUCompilationInfo: shader.GPUCompilationInfo,
  GPUCompilationMessage: shader.GPUCompilationMessage,
  GPUBindGroupLayout: layout.GPUBindGroupLayout, GPUPipelineLayout: layout.GPUPipelineLayout,
  GPUBindGroup: layout.GPUBindGroup,
  GPUComputePipeline: pipeline.GPUComputePipeline, GPURenderPipeline: pipeline.GPURenderPipeline,
  GPUCommandEncoder: encoder.GPUCommandEncoder, GPUCommandBuffer: encoder.GPUCommandBuffer,
  GPUComputePassEncoder: encoder.GPUComputePassEncoder, GPURenderPassEncoder: encoder.GPURenderPassEncoder,
  GPURenderBundle: encoder.GPURenderBundle, GPURenderBundleEncoder: encoder.GPURenderBundleEncoder,
  GPUQuerySet: query.GPUQuerySet,
  GPUError: errors.GPUError, GPUValidationError: errors.GPUValidationError,
  GPUOutOfMemoryError: errors.GPUOutOfMemoryError, GPUInternalError: errors.GPUInternalError,
  GPUPipelineError: errors.GPUPipelineError, GPUUncapturedErrorEvent: errors.GPUUncapturedErrorEvent,
  GPUDeviceLostInfo: errors.GPUDeviceLostInfo,
  GPUBufferUsage: freeze({ MAP_READ: 0x1, MAP_WRITE: 0x2, COPY_SRC: 0x4, COPY_DST: 0x8, INDEX: 0x10,
    VERTEX: 0x20, UNIFORM: 0x40, STORAGE: 0x80, INDIRECT: 0x100, QUERY_RESOLVE: 0x200 }),
  GPUMapMode: freeze({ READ: 0x1, WRITE: 0x2 }),
  GPUShaderStage: freeze({ VERTEX: 0x1, FRAGMENT: 0x2, COMPUTE: 0x4 }),
  GPUTextureUsage: freeze({ COPY_SRC: 0x01, COPY_DST: 0x02, TEXTURE_BINDING: 0x04, STORAGE_BINDING: 0x08,
    RENDER_ATTACHMENT: 0x10, TRANSIENT_ATTACHMENT: 0x20 }),
  GPUColorWrite: freeze({ RED: 0x1, GREEN: 0x2, BLUE: 0x4, ALPHA: 0x8, ALL: 0xF }),
};

module.exports = { globals: Object.freeze(globals) };
