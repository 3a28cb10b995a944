'use strict';
// The CTS's --gpu-provider for lockstep: loads lockstep's Node binding
// (bindings/node, or the directory in $LOCKSTEP_CTS_BINDING, which
// tests/cts/run.mjs sets from --binding) and installs its WebGPU globals,
// because the CTS checks `instanceof GPUValidationError` and friends.
// create(flags) is the binding's own: subgroup-size=W, profile=NAME, ...
//
// With $LOCKSTEP_CTS_SHADER_ERRORS set (run.mjs --shader-errors), every
// shader module that fails to compile has its messages and its source
// written to stderr, which lands in the query's log: the CTS itself reports
// only that a pipeline could not be created.
const path = require('node:path');
const dir = process.env.LOCKSTEP_CTS_BINDING || path.join(__dirname, '..', '..', 'bindings', 'node');
const binding = require(path.resolve(dir));
Object.assign(globalThis, binding.globals);

if (process.env.LOCKSTEP_CTS_SHADER_ERRORS) {
  const proto = binding.globals.GPUDevice.prototype;
  const create = proto.createShaderModule;
  proto.createShaderModule = function (descriptor) {
    const module = create.call(this, descriptor);
    module.getCompilationInfo().then((info) => {
      const errors = info.messages.filter((m) => m.type === 'error');
      if (!errors.length) return;
      const text = errors.map((m) => `  ${m.lineNum}:${m.linePos}: ${m.message}`).join('\n');
      process.stderr.write(`lockstep: shader module ${module.label || ''} failed to compile:\n${text}\n` +
        `--- source ---\n${descriptor.code}\n--- end ---\n`);
    }, () => {});
    return module;
  };
}

module.exports = { create: (flags) => binding.create(flags) };
