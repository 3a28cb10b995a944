'use strict';
// errors.js - WebGPU's error interfaces (GPUError and its three kinds,
// GPUPipelineError, GPUUncapturedErrorEvent, GPUDeviceLostInfo) and the
// DOMExceptions its promises reject with.

const { convert, required, registerInterface } = require('./idl.js');
const { kToken, illegal } = require('./base.js');

class GPUError {
  #message;
  constructor(message) {
    if (new.target === GPUError) throw new TypeError('Illegal constructor');
    required(arguments, 1, `${new.target.name} constructor`);
    this.#message = convert('DOMString', message, `${new.target.name}: message`);
  }
  get message() { return this.#message; }
}
class GPUValidationError extends GPUError {}
class GPUOutOfMemoryError extends GPUError {}
class GPUInternalError extends GPUError {}

class GPUPipelineError extends DOMException {
  #reason;
  constructor(message = '', options) {
    required(arguments, 2, 'GPUPipelineError constructor');
    super(convert('DOMString', message, 'GPUPipelineError: message'), 'GPUPipelineError');
    this.#reason = convert('GPUPipelineErrorInit', options, 'GPUPipelineError: options').reason;
  }
  get reason() { return this.#reason; }
}

class GPUUncapturedErrorEvent extends Event {
  #error;
  constructor(type, init) {
    required(arguments, 2, 'GPUUncapturedErrorEvent constructor');
    const i = convert('GPUUncapturedErrorEventInit', init, 'GPUUncapturedErrorEvent: init');
    super(convert('DOMString', type, 'GPUUncapturedErrorEvent: type'), i);
    this.#error = i.error;
  }
  get error() { return this.#error; }
}

class GPUDeviceLostInfo {
  #reason;
  #message;
  constructor(token, reason, message) {
    illegal(token);
    this.#reason = reason;
    this.#message = message;
  }
  get reason() { return this.#reason; }
  get message() { return this.#message; }
}

for (const c of [GPUError, GPUValidationError, GPUOutOfMemoryError, GPUInternalError, GPUPipelineError,
  GPUUncapturedErrorEvent, GPUDeviceLostInfo]) {
  registerInterface(c.name, c, false);
  Object.defineProperty(c.prototype, Symbol.toStringTag, { value: c.name, configurable: true });
}

// lockstep's error types (ls_error_type) -> classes
const ERROR_CLASSES = [null, GPUValidationError, GPUOutOfMemoryError, GPUInternalError];

function operationError(msg) { return new DOMException(msg, 'OperationError'); }
function abortError(msg) { return new DOMException(msg, 'AbortError'); }

function lostInfo(reason, message) { return new GPUDeviceLostInfo(kToken, reason, message); }

module.exports = {
  GPUError, GPUValidationError, GPUOutOfMemoryError, GPUInternalError, GPUPipelineError,
  GPUUncapturedErrorEvent, GPUDeviceLostInfo, ERROR_CLASSES, operationError, abortError, lostInfo,
};
