'use strict';
// query.js - GPUQuerySet. Timestamps on lockstep are the host's monotonic
// clock read on the queue thread when a pass begins and ends, in
// nanoseconds: the real elapsed time of the pass on the CPU, not a GPU's.

const { native } = require('./native.js');
const { illegal, init, kHandle, defineLabel, register } = require('./base.js');
const { live } = require('./device.js');

class GPUQuerySet {
  #type;
  #count;
  constructor(token, device, d) {
    illegal(token);
    init(this, device, d.label);
    this.#type = d.type;
    this.#count = d.count;
    if (live(device, 'createQuerySet')) this[kHandle] = native.querySetCreate(this, device, d.type, d.count, d.label);
  }
  get type() { return this.#type; }
  get count() { return this.#count; }
  destroy() { if (this[kHandle]) native.querySetDestroy(this); }
}
defineLabel(GPUQuerySet);
register(GPUQuerySet);

module.exports = { GPUQuerySet };
