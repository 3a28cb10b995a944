'use strict';
// encoder.js - GPUCommandEncoder, GPUCommandBuffer and the pass encoders.
// The encoder keeps the spec's state ("open", "locked" while a pass is
// open, "ended" after finish): commands on an ended encoder or pass are a
// validation error at once; anything else wrong while recording (an invalid
// object, a locked encoder) makes the encoder invalid, and finish() raises
// the first such error and returns an invalid command buffer.
// Render passes and render bundles exist only to give the
// validation error that says lockstep runs compute only.

const { native } = require('./native.js');
const { convert, required } = require('./idl.js');
const { kToken, kHandle, kDevice, kLabel, kValid, InvalidUse, illegal, init, name, defineLabel, register, use } = require('./base.js');
const { attempt, live, kRaise } = require('./device.js');
const { textureInfo, extent, checkSequences } = require('./queue.js');
const { COMPUTE_ONLY, GPUComputePipeline } = require('./pipeline.js');
const { GPUBindGroup } = require('./layout.js');

const NO_OFFSETS = new Uint32Array(0);

// Fast paths for the calls a program makes per dispatch: an argument that
// is already what WebIDL would make of it skips the general conversion (and
// the message it would build).
function size32(v, self, what) {
  if (typeof v === 'number' && v >>> 0 === v) return v >>> 0;
  return convert('GPUSize32', v, `${name(self)}.${what}`);
}

class GPUCommandBuffer {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
}
defineLabel(GPUCommandBuffer);

class GPUCommandEncoder {
  #state = 'open';
  #error = null;
  constructor(token, device, d) {
    illegal(token);
    init(this, device, d.label);
    if (live(device, 'createCommandEncoder')) this[kHandle] = native.encoderCreate(this, device, d.label);
    if (!this[kHandle]) this.#error = `${name(this)} is invalid`;
  }

  // The spec's "validate the encoder state" (an ended encoder: a
  // validation error now; a locked one: invalid from now on).
  _stateOk(where) {
    if (this.#state === 'ended') {
      this[kDevice][kRaise](`${name(this)}.${where}: the encoder has finished`);
      return false;
    }
    if (this.#state === 'locked') {
      this._invalidate(`${where} while a pass is open (the encoder is locked)`);
      return false;
    }
    return true;
  }
  // false: skip the command (also when the encoder is already invalid).
  _validate(where) {
    return this._stateOk(where) && this.#error === null;
  }
  _invalidate(message) { this.#error ??= `${name(this)}: ${message}`; }
  _unlock() { if (this.#state === 'locked') this.#state = 'open'; }
  _state() { return this.#state; }

  // Runs a command: an invalid argument invalidates the encoder.
  _record(where, fn) {
    if (!this._validate(where)) return;
    try {
      fn();
    } catch (e) {
      if (!(e instanceof InvalidUse)) throw e;
      this._invalidate(`${where}: ${e.message}`);
    }
  }

  beginComputePass(descriptor = {}) {
    const d = convert('GPUComputePassDescriptor', descriptor, `${name(this)}.beginComputePass: descriptor`);
    const pass = new GPUComputePassEncoder(kToken, this, d.label);
    // a pass of an encoder that failed the state check is invalid (no
    // handle: its commands do nothing); one of an encoder that is merely
    // invalid still locks it, and finish() reports the encoder's error
    if (!this._stateOk('beginComputePass')) return pass;
    this.#state = 'locked';
    if (this.#error !== null) return pass;
    try {
      const tw = d.timestampWrites;
      if (tw) use(tw.querySet, 'timestampWrites.querySet');
      pass[kHandle] = native.beginComputePass(pass, this, d.label, tw?.querySet ?? null,
        tw?.beginningOfPassWriteIndex, tw?.endOfPassWriteIndex);
      if (!pass[kHandle]) this._invalidate('beginComputePass failed');
    } catch (e) {
      if (!(e instanceof InvalidUse)) throw e;
      this._invalidate(`beginComputePass: ${e.message}`);
    }
    return pass;
  }

  beginRenderPass(descriptor) {
    required(arguments, 1, `${name(this)}.beginRenderPass`);
    const d = convert('GPURenderPassDescriptor', descriptor, `${name(this)}.beginRenderPass: descriptor`);
    const pass = new GPURenderPassEncoder(kToken, this[kDevice], d.label);
    if (this._validate('beginRenderPass')) {
      this[kDevice][kRaise](`${name(this)}.beginRenderPass: ${COMPUTE_ONLY}`);
      this._invalidate(`beginRenderPass: ${COMPUTE_ONLY}`);
    }
    return pass;
  }

  copyBufferToBuffer(source, ...rest) {
    required(arguments, 2, `${name(this)}.copyBufferToBuffer`);
    const where = 'copyBufferToBuffer';
    let srcOffset = 0;
    let dst;
    let dstOffset = 0;
    let size;
    source = convert('GPUBuffer', source, `${name(this)}.${where}: source`);
    if (arguments.length >= 4) {
      srcOffset = convert('GPUSize64', rest[0], `${name(this)}.${where}: sourceOffset`);
      dst = convert('GPUBuffer', rest[1], `${name(this)}.${where}: destination`);
      dstOffset = convert('GPUSize64', rest[2], `${name(this)}.${where}: destinationOffset`);
      if (rest[3] !== undefined) size = convert('GPUSize64', rest[3], `${name(this)}.${where}: size`);
    } else {
      dst = convert('GPUBuffer', rest[0], `${name(this)}.${where}: destination`);
      if (rest[1] !== undefined) size = convert('GPUSize64', rest[1], `${name(this)}.${where}: size`);
    }
    this._record(where, () => {
      use(source, 'source');
      use(dst, 'destination');
      native.copyBufferToBuffer(this, source, srcOffset, dst, dstOffset, size);
    });
  }

  clearBuffer(buffer, offset = 0, size = undefined) {
    required(arguments, 1, `${name(this)}.clearBuffer`);
    buffer = convert('GPUBuffer', buffer, `${name(this)}.clearBuffer: buffer`);
    offset = convert('GPUSize64', offset, `${name(this)}.clearBuffer: offset`);
    if (size !== undefined) size = convert('GPUSize64', size, `${name(this)}.clearBuffer: size`);
    this._record('clearBuffer', () => native.clearBuffer(this, use(buffer, 'buffer'), offset, size));
  }

  copyBufferToTexture(source, destination, copySize) {
    required(arguments, 3, `${name(this)}.copyBufferToTexture`);
    const where = 'copyBufferToTexture';
    const src = convert('GPUTexelCopyBufferInfo', source, `${name(this)}.${where}: source`);
    const dst = convert('GPUTexelCopyTextureInfo', destination, `${name(this)}.${where}: destination`);
    const size = convert('GPUExtent3D', copySize, `${name(this)}.${where}: copySize`);
    this._record(where, () => {
      checkSequences(this[kDevice], where, size, dst.origin);
      use(src.buffer, 'source.buffer');
      native.copyBufferToTexture(this, src, textureInfo(dst, where), extent(size));
    });
  }

  copyTextureToBuffer(source, destination, copySize) {
    required(arguments, 3, `${name(this)}.copyTextureToBuffer`);
    const where = 'copyTextureToBuffer';
    const src = convert('GPUTexelCopyTextureInfo', source, `${name(this)}.${where}: source`);
    const dst = convert('GPUTexelCopyBufferInfo', destination, `${name(this)}.${where}: destination`);
    const size = convert('GPUExtent3D', copySize, `${name(this)}.${where}: copySize`);
    this._record(where, () => {
      checkSequences(this[kDevice], where, size, src.origin);
      use(dst.buffer, 'destination.buffer');
      native.copyTextureToBuffer(this, textureInfo(src, where), dst, extent(size));
    });
  }

  copyTextureToTexture(source, destination, copySize) {
    required(arguments, 3, `${name(this)}.copyTextureToTexture`);
    const where = 'copyTextureToTexture';
    const src = convert('GPUTexelCopyTextureInfo', source, `${name(this)}.${where}: source`);
    const dst = convert('GPUTexelCopyTextureInfo', destination, `${name(this)}.${where}: destination`);
    const size = convert('GPUExtent3D', copySize, `${name(this)}.${where}: copySize`);
    this._record(where, () => {
      checkSequences(this[kDevice], where, size, src.origin);
      checkSequences(this[kDevice], where, size, dst.origin);
      native.copyTextureToTexture(this, textureInfo(src, where), textureInfo(dst, where), extent(size));
    });
  }

  resolveQuerySet(querySet, firstQuery, queryCount, destination, destinationOffset) {
    required(arguments, 5, `${name(this)}.resolveQuerySet`);
    const where = `${name(this)}.resolveQuerySet`;
    querySet = convert('GPUQuerySet', querySet, `${where}: querySet`);
    firstQuery = convert('GPUSize32', firstQuery, `${where}: firstQuery`);
    queryCount = convert('GPUSize32', queryCount, `${where}: queryCount`);
    destination = convert('GPUBuffer', destination, `${where}: destination`);
    destinationOffset = convert('GPUSize64', destinationOffset, `${where}: destinationOffset`);
    this._record('resolveQuerySet', () => native.resolveQuerySet(this, use(querySet, 'querySet'),
      firstQuery, queryCount, use(destination, 'destination'), destinationOffset));
  }

  pushDebugGroup(groupLabel) {
    required(arguments, 1, `${name(this)}.pushDebugGroup`);
    const l = convert('USVString', groupLabel, `${name(this)}.pushDebugGroup: groupLabel`);
    this._record('pushDebugGroup', () => native.encoderDebug(this, 0, l));
  }
  popDebugGroup() { this._record('popDebugGroup', () => native.encoderDebug(this, 1, '')); }
  insertDebugMarker(markerLabel) {
    required(arguments, 1, `${name(this)}.insertDebugMarker`);
    const l = convert('USVString', markerLabel, `${name(this)}.insertDebugMarker: markerLabel`);
    this._record('insertDebugMarker', () => native.encoderDebug(this, 2, l));
  }

  finish(descriptor = {}) {
    const d = convert('GPUCommandBufferDescriptor', descriptor, `${name(this)}.finish: descriptor`);
    const device = this[kDevice];
    const cb = new GPUCommandBuffer(kToken, device, d.label);
    if (!live(device, 'finish')) return cb;
    if (this.#state === 'ended') {
      device[kRaise](`${name(this)}.finish: the encoder has already finished`);
      return cb;
    }
    if (this.#state === 'locked') this._invalidate('finish while a pass is still open (end() it first)');
    this.#state = 'ended';
    if (this.#error !== null) {
      device[kRaise](`${name(this)}.finish: ${this.#error}`);
      return cb;
    }
    cb[kHandle] = native.encoderFinish(cb, this, d.label);
    this[kHandle] = false;
    return cb;
  }
}
defineLabel(GPUCommandEncoder);

// Shared by the pass encoders: the spec's pass state.
class GPUComputePassEncoder {
  #encoder;
  #ended = false;
  constructor(token, encoder, label) {
    illegal(token);
    init(this, encoder[kDevice], label);
    this.#encoder = encoder;
  }

  #record(where, fn) {
    if (this.#ended) {
      this[kDevice][kRaise](`${name(this)}.${where}: the pass has ended`);
      return;
    }
    if (!this[kHandle]) return;
    try {
      fn();
    } catch (e) {
      if (!(e instanceof InvalidUse)) throw e;
      this.#encoder._invalidate(`${name(this)}.${where}: ${e.message}`);
    }
  }

  setPipeline(pipeline) {
    required(arguments, 1, `${name(this)}.setPipeline`);
    if (!(pipeline instanceof GPUComputePipeline && pipeline[kValid]))
      pipeline = convert('GPUComputePipeline', pipeline, `${name(this)}.setPipeline: pipeline`);
    if (this.#ended || !this[kHandle] || !pipeline[kHandle]) {
      this.#record('setPipeline', () => use(pipeline, 'pipeline'));
      return;
    }
    native.setPipeline(this, pipeline);
  }

  setBindGroup(index, bindGroup, dynamicOffsets = undefined, start = undefined, length = undefined) {
    required(arguments, 2, `${name(this)}.setBindGroup`);
    index = size32(index, this, 'setBindGroup: index');
    if (bindGroup !== null && !(bindGroup instanceof GPUBindGroup && bindGroup[kValid]))
      bindGroup = convert('GPUBindGroup?', bindGroup, `${name(this)}.setBindGroup: bindGroup`);
    let data = NO_OFFSETS;
    let from = 0;
    let count = 0;
    if (arguments.length >= 5) {
      const where = `${name(this)}.setBindGroup`;
      if (!(dynamicOffsets instanceof Uint32Array)) throw new TypeError(`${where}: dynamicOffsetsData: ${dynamicOffsets} is not a Uint32Array`);
      from = convert('GPUSize64', start, `${where}: dynamicOffsetsDataStart`);
      count = convert('GPUSize32', length, `${where}: dynamicOffsetsDataLength`);
      if (from + count > dynamicOffsets.length)
        throw new RangeError(`${where}: dynamicOffsetsDataStart ${from} + dynamicOffsetsDataLength ${count} is past the end of dynamicOffsetsData (${dynamicOffsets.length} elements)`);
      data = dynamicOffsets;
    } else if (dynamicOffsets !== undefined && !(Array.isArray(dynamicOffsets) && dynamicOffsets.length === 0)) {
      const seq = convert('sequence<GPUBufferDynamicOffset>', dynamicOffsets, `${name(this)}.setBindGroup: dynamicOffsets`);
      if (seq.length) {
        data = Uint32Array.from(seq);
        count = seq.length;
      }
    }
    if (this.#ended || !this[kHandle] || (bindGroup && !bindGroup[kHandle])) {
      this.#record('setBindGroup', () => {
        if (bindGroup) use(bindGroup, 'bindGroup');
        native.setBindGroup(this, index, bindGroup, data, from, count);
      });
      return;
    }
    native.setBindGroup(this, index, bindGroup, data, from, count);
  }

  dispatchWorkgroups(x, y = 1, z = 1) {
    required(arguments, 1, `${name(this)}.dispatchWorkgroups`);
    x = size32(x, this, 'dispatchWorkgroups: workgroupCountX');
    y = size32(y, this, 'dispatchWorkgroups: workgroupCountY');
    z = size32(z, this, 'dispatchWorkgroups: workgroupCountZ');
    if (this.#ended || !this[kHandle]) {
      this.#record('dispatchWorkgroups', () => {});
      return;
    }
    native.dispatch(this, x, y, z);
  }

  dispatchWorkgroupsIndirect(indirectBuffer, indirectOffset) {
    required(arguments, 2, `${name(this)}.dispatchWorkgroupsIndirect`);
    const where = `${name(this)}.dispatchWorkgroupsIndirect`;
    indirectBuffer = convert('GPUBuffer', indirectBuffer, `${where}: indirectBuffer`);
    indirectOffset = convert('GPUSize64', indirectOffset, `${where}: indirectOffset`);
    this.#record('dispatchWorkgroupsIndirect', () =>
      native.dispatchIndirect(this, use(indirectBuffer, 'indirectBuffer'), indirectOffset));
  }

  setImmediates(rangeOffset, data, dataOffset = 0, dataSize = undefined) {
    required(arguments, 2, `${name(this)}.setImmediates`);
    const where = `${name(this)}.setImmediates`;
    rangeOffset = convert('GPUSize32', rangeOffset, `${where}: rangeOffset`);
    data = convert('AllowSharedBufferSource', data, `${where}: data`);
    dataOffset = convert('GPUSize64', dataOffset, `${where}: dataOffset`);
    if (dataSize !== undefined) dataSize = convert('GPUSize64', dataSize, `${where}: dataSize`);
    const elem = ArrayBuffer.isView(data) && !(data instanceof DataView) ? data.BYTES_PER_ELEMENT : 1;
    const total = data.byteLength / elem;
    const n = dataSize === undefined ? total - dataOffset : dataSize;
    if (n < 0 || dataOffset + n > total)
      throw new RangeError(`${where}: dataOffset ${dataOffset} + dataSize ${n} is past the end of data (${total} elements)`);
    const bytes = ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset + dataOffset * elem, n * elem)
      : new Uint8Array(data, dataOffset, n);
    this.#record('setImmediates', () => native.setImmediates(this, rangeOffset, bytes));
  }

  pushDebugGroup(groupLabel) {
    required(arguments, 1, `${name(this)}.pushDebugGroup`);
    const l = convert('USVString', groupLabel, `${name(this)}.pushDebugGroup: groupLabel`);
    this.#record('pushDebugGroup', () => native.passDebug(this, 0, l));
  }
  popDebugGroup() { this.#record('popDebugGroup', () => native.passDebug(this, 1, '')); }
  insertDebugMarker(markerLabel) {
    required(arguments, 1, `${name(this)}.insertDebugMarker`);
    const l = convert('USVString', markerLabel, `${name(this)}.insertDebugMarker: markerLabel`);
    this.#record('insertDebugMarker', () => native.passDebug(this, 2, l));
  }

  end() {
    if (this.#ended) {
      this[kDevice][kRaise](`${name(this)}.end: the pass has already ended`);
      return;
    }
    // the spec's end(): the parent encoder must be locked. Finished (while
    // the pass was open, or before it began) is an error now; open again
    // (a pass begun while another was open) makes the encoder invalid,
    // reported by finish() as the CTS expects (gpuweb/gpuweb#5207)
    const parent = this.#encoder._state();
    if (parent === 'ended') {
      this[kDevice][kRaise](`${name(this)}.end: ${name(this.#encoder)} has finished`);
      return;
    }
    if (parent === 'open') {
      this.#encoder._invalidate(`${name(this)}.end: the encoder is not locked by this pass`);
      return;
    }
    this.#ended = true;
    if (this[kHandle]) native.passEnd(this);
    this[kHandle] = false;
    this.#encoder._unlock();
  }
}
defineLabel(GPUComputePassEncoder);

// Render passes and bundles: the methods exist; beginRenderPass and
// createRenderBundleEncoder have raised the validation error, so the
// commands do nothing. (Written out in the class bodies: defining them in a
// loop cost 14 KB of young generation at import, more than the rest of
// this module.)
class GPURenderPassEncoder {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
  setViewport() {}
  setScissorRect() {}
  setBlendConstant() {}
  setStencilReference() {}
  beginOcclusionQuery() {}
  endOcclusionQuery() {}
  executeBundles() {}
  end() {}
  // GPURenderCommandsMixin, GPUBindingCommandsMixin, GPUDebugCommandsMixin
  setPipeline() {}
  setBindGroup() {}
  setImmediates() {}
  setIndexBuffer() {}
  setVertexBuffer() {}
  draw() {}
  drawIndexed() {}
  drawIndirect() {}
  drawIndexedIndirect() {}
  pushDebugGroup() {}
  popDebugGroup() {}
  insertDebugMarker() {}
}
class GPURenderBundle {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
}
class GPURenderBundleEncoder {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }
  finish(descriptor = {}) {
    const d = convert('GPUObjectDescriptorBase', descriptor, `${name(this)}.finish: descriptor`);
    return new GPURenderBundle(kToken, this[kDevice], d.label);
  }
  // GPURenderCommandsMixin, GPUBindingCommandsMixin, GPUDebugCommandsMixin
  setPipeline() {}
  setBindGroup() {}
  setImmediates() {}
  setIndexBuffer() {}
  setVertexBuffer() {}
  draw() {}
  drawIndexed() {}
  drawIndirect() {}
  drawIndexedIndirect() {}
  pushDebugGroup() {}
  popDebugGroup() {}
  insertDebugMarker() {}
}
defineLabel(GPURenderPassEncoder);
defineLabel(GPURenderBundle);
defineLabel(GPURenderBundleEncoder);

function createRenderBundleEncoder(device, d) {
  const e = new GPURenderBundleEncoder(kToken, device, d.label);
  if (live(device, 'createRenderBundleEncoder'))
    device[kRaise](`GPUDevice.createRenderBundleEncoder: ${name(e)}: ${COMPUTE_ONLY}`);
  return e;
}

register(GPUCommandEncoder, GPUCommandBuffer, GPUComputePassEncoder, GPURenderPassEncoder,
  GPURenderBundle, GPURenderBundleEncoder);

module.exports = { GPUCommandEncoder, GPUCommandBuffer, GPUComputePassEncoder, GPURenderPassEncoder, GPURenderBundle, GPURenderBundleEncoder, createRenderBundleEncoder };
