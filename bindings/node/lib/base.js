'use strict';
// base.js - what every WebGPU interface class of the binding shares: the
// token that keeps constructors internal ("Illegal constructor" otherwise,
// as in a browser), the `label` attribute (GPUObjectBase), validity (an
// object whose creation failed validation is *invalid*, and using it is a
// validation error naming it by its label), and interface registration for
// the WebIDL layer.

const { native } = require('./native.js');
const { registerInterface, kValid, usv } = require('./idl.js');

const kToken = Symbol('lockstep.construct');
const kDevice = Symbol('lockstep.device');
const kLabel = Symbol('lockstep.label');
const kHandle = Symbol('lockstep.handle'); // true while the native wrap holds a live handle
const kIsLost = Symbol('lockstep.isLost'); // GPUDevice: lost, destroyed or never made
const kSubmitted = Symbol('lockstep.submitted'); // GPUCommandBuffer: went to a submit
const kMapped = Symbol('lockstep.mapped'); // GPUDevice: WeakRefs of its buffers mapped or with a map pending

// Thrown inside a method when an argument is an invalid object; the method
// turns it into a validation error (and an invalid result).
class InvalidUse extends Error {}

function illegal(token) {
  if (token !== kToken) throw new TypeError('Illegal constructor');
}

// Marks obj as an instance of its interface, made on device.
function init(obj, device, label) {
  obj[kValid] = true;
  obj[kDevice] = device;
  obj[kLabel] = label ?? '';
  obj[kHandle] = false;
}

function name(obj) {
  const n = obj?.constructor?.name ?? 'object';
  const l = obj?.[kLabel];
  return l ? `${n} '${l}'` : `${n} (no label)`;
}

// GPUObjectBase's label: settable at any time; lockstep's messages use it.
// One getter and setter for every interface (a pair of functions per class
// was young-generation memory at import for nothing).
const LABEL = {
  get() { return this[kLabel]; },
  set(v) {
    const s = usv(String(v));
    this[kLabel] = s;
    if (this[kHandle]) native.setLabel(this, s);
  },
  enumerable: true,
  configurable: true,
};
function defineLabel(cls) {
  Object.defineProperty(cls.prototype, 'label', LABEL);
}

function register(...classes) {
  for (const c of classes) {
    registerInterface(c.name, c);
    Object.defineProperty(c.prototype, Symbol.toStringTag, { value: c.name, configurable: true });
  }
}

// An argument object must be valid (a live handle) to be used; else the
// call is a validation error naming it.
function use(obj, role) {
  if (!obj[kHandle]) throw new InvalidUse(`${role ? role + ' ' : ''}${name(obj)} is invalid` +
    (obj[kLabel] === undefined ? '' : ' (its creation failed validation, or it was consumed)'));
  return obj;
}

module.exports = { kMapped, kIsLost, kSubmitted, usv, kToken, kDevice, kLabel, kHandle, kValid, InvalidUse, illegal, init, name, defineLabel, register, use };
