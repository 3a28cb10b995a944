'use strict';
// queue.js - GPUQueue: submit (returns at once; lockstep runs the work on
// its queue thread), writeBuffer (dataOffset and size count elements of a
// TypedArray and bytes otherwise, as the spec says), writeTexture and
// onSubmittedWorkDone.

const { native, request } = require('./native.js');
const { convert, required } = require('./idl.js');
const { kHandle, kDevice, InvalidUse, illegal, init, name, defineLabel, register, use, kSubmitted } = require('./base.js');
const { operationError } = require('./errors.js');
const { attempt, live, kRaise } = require('./device.js');

const ASPECTS = { all: 0, 'stencil-only': 1, 'depth-only': 2 };

function extent(e) {
  return Array.isArray(e) ? [e[0], e[1] ?? 1, e[2] ?? 1] : [e.width, e.height, e.depthOrArrayLayers];
}
function origin(o) {
  return Array.isArray(o) ? [o[0] ?? 0, o[1] ?? 0, o[2] ?? 0] : [o.x, o.y, o.z];
}
// GPUExtent3D / GPUOrigin3D given as sequences: the spec's length rules
function checkSequences(device, where, size, org) {
  if (Array.isArray(size) && (size.length < 1 || size.length > 3))
    throw new InvalidUse(`${where}: a GPUExtent3D sequence has 1 to 3 elements, not ${size.length}`);
  if (org && Array.isArray(org) && org.length > 3)
    throw new InvalidUse(`${where}: a GPUOrigin3D sequence has at most 3 elements, not ${org.length}`);
}

// A converted GPUTexelCopyTextureInfo as the addon reads it.
function textureInfo(t, where) {
  use(t.texture, `${where}: texture`);
  return { texture: t.texture, mipLevel: t.mipLevel, origin: origin(t.origin), aspect: ASPECTS[t.aspect] };
}

// The bytes of a BufferSource as a Uint8Array over exactly [start, start + length).
function bytesOf(data, start, length) {
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset + start, length);
  return new Uint8Array(data, start, length);
}

class GPUQueue {
  constructor(token, device, label) {
    illegal(token);
    init(this, device, label);
  }

  submit(commandBuffers) {
    required(arguments, 1, 'GPUQueue.submit');
    const cbs = convert('sequence<GPUCommandBuffer>', commandBuffers, 'GPUQueue.submit: commandBuffers');
    const device = this[kDevice];
    if (!live(device, 'queue.submit')) return;
    const bad = cbs.find((cb) => !cb[kHandle]);
    if (bad) {
      // the whole submit is refused, and every command buffer in it is spent
      const why = bad[kSubmitted] ? 'was already submitted' : 'is invalid';
      native.submit(null, cbs);
      for (const cb of cbs) { cb[kHandle] = false; cb[kSubmitted] = true; }
      device[kRaise](`GPUQueue.submit: ${name(bad)} ${why}; nothing in this submit runs`);
      return;
    }
    native.submit(device, cbs);
    for (const cb of cbs) { cb[kHandle] = false; cb[kSubmitted] = true; }
  }

  onSubmittedWorkDone() {
    const device = this[kDevice];
    return new Promise((resolve) => {
      if (!device[kHandle]) return resolve();
      native.onSubmittedWorkDone(device, request(() => resolve()));
    });
  }

  writeBuffer(buffer, bufferOffset, data, dataOffset = 0, size = undefined) {
    required(arguments, 3, 'GPUQueue.writeBuffer');
    const where = 'GPUQueue.writeBuffer';
    buffer = convert('GPUBuffer', buffer, `${where}: buffer`);
    bufferOffset = convert('GPUSize64', bufferOffset, `${where}: bufferOffset`);
    data = convert('AllowSharedBufferSource', data, `${where}: data`);
    dataOffset = convert('GPUSize64', dataOffset, `${where}: dataOffset`);
    if (size !== undefined) size = convert('GPUSize64', size, `${where}: size`);
    const elem = ArrayBuffer.isView(data) && !(data instanceof DataView) ? data.BYTES_PER_ELEMENT : 1;
    const dataSize = ArrayBuffer.isView(data) ? data.byteLength / elem : data.byteLength;
    const unit = elem === 1 ? 'bytes' : `elements of ${elem} bytes`;
    const contents = size === undefined ? dataSize - dataOffset : size;
    if (contents < 0) throw operationError(`${where}: dataOffset ${dataOffset} is past the end of data (${dataSize} ${unit})`);
    if (dataOffset + contents > dataSize)
      throw operationError(`${where}: dataOffset ${dataOffset} + size ${contents} is more than data holds (${dataSize} ${unit})`);
    if ((contents * elem) % 4 !== 0)
      throw operationError(`${where}: the size to write, ${contents * elem} bytes, is not a multiple of 4`);
    const device = this[kDevice];
    if (!live(device, 'queue.writeBuffer')) return;
    attempt(device, where, () => {
      use(buffer, 'buffer');
      native.writeBuffer(device, buffer, bufferOffset, bytesOf(data, dataOffset * elem, contents * elem));
    });
  }

  writeTexture(destination, data, dataLayout, size) {
    required(arguments, 4, 'GPUQueue.writeTexture');
    const where = 'GPUQueue.writeTexture';
    const dst = convert('GPUTexelCopyTextureInfo', destination, `${where}: destination`);
    data = convert('AllowSharedBufferSource', data, `${where}: data`);
    const layout = convert('GPUTexelCopyBufferLayout', dataLayout, `${where}: dataLayout`);
    const ext = convert('GPUExtent3D', size, `${where}: size`);
    const device = this[kDevice];
    if (!live(device, 'queue.writeTexture')) return;
    attempt(device, where, () => {
      checkSequences(device, where, ext, dst.origin);
      const info = textureInfo(dst, where);
      native.writeTexture(device, info, bytesOf(data, 0, data.byteLength), layout, extent(ext));
    });
  }

  copyExternalImageToTexture(source, destination, copySize) {
    required(arguments, 3, 'GPUQueue.copyExternalImageToTexture');
    throw new TypeError('GPUQueue.copyExternalImageToTexture: Node.js has no images, canvases or video frames (use writeTexture)');
  }
}
defineLabel(GPUQueue);
register(GPUQueue);

module.exports = { GPUQueue, textureInfo, extent, origin, checkSequences, bytesOf };
