'use strict';
// shader.js - GPUShaderModule and getCompilationInfo (GPUCompilationInfo,
// GPUCompilationMessage: positions in UTF-16 code units, converted by the
// addon from lockstep's UTF-8 byte offsets). A module without a label is
// "module N" in lockstep's diagnostics (sanitizer findings, profiles).

const { native, request } = require('./native.js');
const { kToken, kHandle, kLabel, illegal, init, defineLabel, register } = require('./base.js');
const { live } = require('./device.js');

let moduleCount = 0;

class GPUCompilationMessage {
  #m;
  constructor(token, m) {
    illegal(token);
    this.#m = m;
  }
  get message() { return this.#m.message; }
  get type() { return this.#m.type; }
  get lineNum() { return this.#m.lineNum; }
  get linePos() { return this.#m.linePos; }
  get offset() { return this.#m.offset; }
  get length() { return this.#m.length; }
}

class GPUCompilationInfo {
  #messages;
  constructor(token, messages) {
    illegal(token);
    this.#messages = Object.freeze(messages);
  }
  get messages() { return this.#messages; }
}

class GPUShaderModule {
  constructor(token, device, d) {
    illegal(token);
    init(this, device, d.label);
    moduleCount++;
    if (!live(device, 'createShaderModule')) return;
    const file = d.label || `module ${moduleCount}`;
    this[kHandle] = native.shaderCreate(this, device, d.code, file);
    // the module object exists whatever its WGSL says; pipelines from an
    // invalid one fail in lockstep, which names its errors
  }

  getCompilationInfo() {
    return new Promise((resolve) => {
      const messages = this[kHandle]
        ? native.shaderMessages(this).map((m) => new GPUCompilationMessage(kToken, m)) : [];
      native.post(request(() => resolve(new GPUCompilationInfo(kToken, messages))));
    });
  }
}
defineLabel(GPUShaderModule);
register(GPUShaderModule, GPUCompilationInfo, GPUCompilationMessage);

module.exports = { GPUShaderModule, GPUCompilationInfo, GPUCompilationMessage };
