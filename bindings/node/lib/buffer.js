'use strict';
// buffer.js - GPUBuffer: size, usage, mapState, mapAsync, getMappedRange,
// unmap and destroy, with the spec's content-timeline state kept here:
// [[pending_map]] (mapState "pending" from the call on, whatever the
// outcome), [[mapping]] (its range, mode and the ArrayBuffers handed out,
// which must not overlap and are detached at unmap). An invalid buffer
// created mappedAtCreation still has a mapping (plain JavaScript memory), as
// the spec requires.

const { native, request } = require('./native.js');
const { convert, required } = require('./idl.js');
const { kToken, kDevice, kHandle, kLabel, illegal, init, name, defineLabel, register, kIsLost, kMapped } = require('./base.js');
const { operationError, abortError } = require('./errors.js');
const { kRaise, live } = require('./device.js');

const READ = 1;
const WRITE = 2;

class GPUBuffer {
  #size;
  #usage;
  #pending = null; // {reject, id} of the map in flight
  #mapping = null; // {mode, start, end, views: [{start, end, ab, back}], local}
  #destroyed = false;
  #self = new WeakRef(this); // in the device's set of mapped buffers, which must not keep it alive

  constructor(token, device, d) {
    illegal(token);
    init(this, device, d.label);
    this.#size = d.size;
    this.#usage = d.usage;
    if (live(device, 'createBuffer'))
      this[kHandle] = native.bufferCreate(this, device, d.size, d.usage, d.label, d.mappedAtCreation);
    if (d.mappedAtCreation) {
      device[kMapped].add(this.#self);
      if (this[kHandle]) {
        this.#mapping = { mode: WRITE, start: 0, end: d.size, views: [], local: null };
      } else {
        // the spec's RangeError when the mapping cannot be allocated
        if (d.size > 2 ** 31) throw new RangeError(`GPUDevice.createBuffer: cannot allocate ${d.size} bytes for mappedAtCreation`);
        this.#mapping = { mode: WRITE, start: 0, end: d.size, views: [], local: new ArrayBuffer(d.size) };
      }
    }
  }

  get size() { return this.#size; }
  get usage() { return this.#usage; }
  get mapState() {
    if (this.#mapping) return 'mapped';
    if (this.#pending) return 'pending';
    return 'unmapped';
  }

  mapAsync(mode, offset = 0, size = undefined) {
    try {
      required(arguments, 1, `${name(this)}.mapAsync`);
      mode = convert('GPUMapModeFlags', mode, `${name(this)}.mapAsync: mode`);
      offset = convert('GPUSize64', offset, `${name(this)}.mapAsync: offset`);
      if (size !== undefined) size = convert('GPUSize64', size, `${name(this)}.mapAsync: size`);
    } catch (e) {
      return Promise.reject(e);
    }
    const device = this[kDevice];
    if (this.mapState !== 'unmapped') {
      device[kRaise](`${name(this)}.mapAsync: the buffer is ${this.mapState}; it must be unmapped`);
      return Promise.reject(operationError(`${name(this)}.mapAsync: the buffer is already ${this.mapState}`));
    }
    return new Promise((resolve, reject) => {
      const p = { reject };
      this.#pending = p;
      device[kMapped].add(this.#self);
      if (!this[kHandle] || device[kIsLost]) {
        // an invalid buffer or a lost device: the map fails (AbortError on a
        // lost device, as the spec's deviceLost; OperationError otherwise,
        // with a validation error)
        const lost = device[kIsLost];
        if (!lost) device[kRaise](`${name(this)}.mapAsync: the buffer is invalid`);
        queueMicrotask(() => {
          if (this.#pending !== p) return;
          this.#pending = null;
          device[kMapped].delete(this.#self);
          reject(lost ? abortError(`${name(this)}.mapAsync: the device is lost`)
            : operationError(`${name(this)}.mapAsync: the buffer is invalid`));
        });
        return;
      }
      const rangeSize = size === undefined ? Math.max(0, this.#size - offset) : size;
      native.bufferMapAsync(this, mode, offset, size, request((status, message) => {
        if (this.#pending !== p) return; // cancelled by unmap/destroy: already rejected
        this.#pending = null;
        if (status !== 0) device[kMapped].delete(this.#self);
        if (status === 0) {
          this.#mapping = { mode, start: offset, end: offset + rangeSize, views: [], local: null };
          resolve();
        } else if (status === 5 || status === 6) {
          reject(abortError(`${name(this)}.mapAsync: ${message ?? 'aborted'}`));
        } else {
          reject(operationError(`${name(this)}.mapAsync: ${message ?? 'the map failed'}`));
        }
      }));
    });
  }

  getMappedRange(offset = 0, size = undefined) {
    offset = convert('GPUSize64', offset, `${name(this)}.getMappedRange: offset`);
    if (size !== undefined) size = convert('GPUSize64', size, `${name(this)}.getMappedRange: size`);
    const m = this.#mapping;
    const rangeSize = size === undefined ? Math.max(0, this.#size - offset) : size;
    const where = `${name(this)}.getMappedRange(${offset}, ${size === undefined ? '' : size})`;
    if (!m) throw operationError(`${where}: the buffer is not mapped (mapState "${this.mapState}")`);
    if (offset % 8 !== 0) throw operationError(`${where}: offset ${offset} is not a multiple of 8`);
    if (rangeSize % 4 !== 0) throw operationError(`${where}: size ${rangeSize} is not a multiple of 4`);
    if (offset < m.start || offset + rangeSize > m.end)
      throw operationError(`${where}: [${offset}, ${offset + rangeSize}) is outside the mapped range [${m.start}, ${m.end})`);
    for (const v of m.views) {
      if (offset < v.end && v.start < offset + rangeSize)
        throw operationError(`${where}: [${offset}, ${offset + rangeSize}) overlaps the range [${v.start}, ${v.end}) already returned`);
    }
    let ab;
    let back;
    if (m.local) {
      ab = m.local.slice(offset, offset + rangeSize);
      back = { local: m.local, offset };
    } else {
      [ab, back] = native.bufferMappedRange(this, offset, rangeSize, m.mode === READ);
    }
    m.views.push({ start: offset, end: offset + rangeSize, ab, back });
    return ab;
  }

  unmap() {
    this[kDevice][kMapped].delete(this.#self);
    if (this.#pending) {
      const p = this.#pending;
      this.#pending = null;
      p.reject(abortError(`${name(this)}.mapAsync: the buffer was unmapped before the map completed`));
    }
    const m = this.#mapping;
    this.#mapping = null;
    if (m && m.local) {
      for (const v of m.views) structuredClone(v.ab, { transfer: [v.ab] });
      if (this[kHandle]) native.bufferUnmap(this, []);
      return;
    }
    if (this[kHandle]) native.bufferUnmap(this, m ? m.views.map((v) => [v.ab, v.back]) : []);
  }

  destroy() {
    this.unmap();
    this.#destroyed = true;
    if (this[kHandle]) native.bufferDestroy(this);
  }
}
defineLabel(GPUBuffer);
register(GPUBuffer);

module.exports = { GPUBuffer };
