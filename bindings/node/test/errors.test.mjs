// errors.test.mjs — WebGPU's error model from JavaScript: validation errors
// go to error scopes (innermost matching filter, popped in order) or to
// uncapturederror (onuncapturederror and addEventListener), never thrown;
// an object whose creation failed is invalid and using it is a validation
// error naming it by label; render pipelines and passes say lockstep runs
// compute only; createComputePipelineAsync rejects with GPUPipelineError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDevice, globals, GPUBufferUsage, GPUShaderStage } from './helpers.mjs';

const U = GPUBufferUsage;
const badBuffer = (device, label = 'bad') => device.createBuffer({ size: 6, usage: U.STORAGE | U.MAP_READ, label });

test('error scopes: the innermost matching filter catches, pops resolve in call order, an empty stack rejects', async () => {
  const { device } = await getDevice();
  device.pushErrorScope('validation');
  device.pushErrorScope('out-of-memory');
  badBuffer(device, 'inner');
  const oom = device.popErrorScope();
  const val = device.popErrorScope();
  const order = [];
  oom.then(() => order.push('oom'));
  val.then(() => order.push('val'));
  assert.equal(await oom, null); // an out-of-memory scope does not catch a validation error
  const e = await val;
  assert.ok(e instanceof globals.GPUValidationError);
  assert.match(e.message, /'inner'/);
  assert.deepEqual(order, ['oom', 'val']);
  // only the first error of a scope is kept
  device.pushErrorScope('validation');
  badBuffer(device, 'one');
  badBuffer(device, 'two');
  assert.match((await device.popErrorScope()).message, /'one'/);
  await assert.rejects(device.popErrorScope(), (x) => x instanceof DOMException && x.name === 'OperationError');
  device.destroy();
});

test('uncapturederror: onuncapturederror and addEventListener both get a GPUUncapturedErrorEvent; nothing is thrown', async () => {
  const { device } = await getDevice();
  const got = [];
  device.onuncapturederror = (ev) => { got.push(['attr', ev]); ev.preventDefault(); };
  device.addEventListener('uncapturederror', (ev) => got.push(['listener', ev]));
  const b = badBuffer(device, 'loose');
  assert.ok(b instanceof globals.GPUBuffer);
  assert.equal(got.length, 0); // delivered by the event loop, not during the call
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(got.length, 2);
  assert.deepEqual(got.map(([k]) => k), ['attr', 'listener']);
  const ev = got[0][1];
  assert.ok(ev instanceof globals.GPUUncapturedErrorEvent);
  assert.equal(ev.type, 'uncapturederror');
  assert.ok(ev.error instanceof globals.GPUValidationError);
  assert.match(ev.error.message, /'loose'/);
  // the attribute set to null and back: still one call per event
  device.onuncapturederror = null;
  assert.equal(device.onuncapturederror, null);
  let calls = 0;
  device.onuncapturederror = (e2) => { calls++; e2.preventDefault(); };
  badBuffer(device);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(calls, 1);
  assert.equal(got.length, 3); // the listener too
  got.pop();
  // a captured error does not reach the event
  device.pushErrorScope('validation');
  badBuffer(device);
  await device.popErrorScope();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(got.length, 2);
  device.destroy();
});

test('invalid objects: creation fails into an invalid object; using it is a validation error naming its label', async () => {
  const { device } = await getDevice();
  device.pushErrorScope('validation');
  const b = badBuffer(device, 'broken');
  const e1 = await device.popErrorScope();
  assert.ok(e1);
  assert.equal(b.label, 'broken');
  assert.equal(b.size, 6);
  const layout = device.createBindGroupLayout({ entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } }] });
  const { error } = await (async () => {
    device.pushErrorScope('validation');
    const g = device.createBindGroup({ layout, entries: [{ binding: 0, resource: { buffer: b } }], label: 'uses broken' });
    assert.ok(g instanceof globals.GPUBindGroup);
    return { error: await device.popErrorScope() };
  })();
  assert.ok(error instanceof globals.GPUValidationError);
  assert.match(error.message, /GPUBuffer 'broken' is invalid/);
  // a command encoder that used it fails at finish, naming it
  device.pushErrorScope('validation');
  const enc = device.createCommandEncoder({ label: 'enc' });
  enc.clearBuffer(b);
  const cb = enc.finish();
  const e3 = await device.popErrorScope();
  assert.match(e3.message, /'enc'/);
  assert.match(e3.message, /'broken'/);
  // and submitting that command buffer is one more
  device.pushErrorScope('validation');
  device.queue.submit([cb]);
  assert.match((await device.popErrorScope()).message, /invalid/);
  device.destroy();
});

test('a layout entry needs exactly one binding kind, and shader-stage bits only', async () => {
  const { device } = await getDevice();
  device.pushErrorScope('validation');
  device.createBindGroupLayout({ entries: [{ binding: 0, visibility: 4 }] });
  assert.match((await device.popErrorScope()).message, /exactly one of buffer/);
  device.pushErrorScope('validation');
  device.createBindGroupLayout({ entries: [{ binding: 0, visibility: 8, buffer: {} }] });
  assert.match((await device.popErrorScope()).message, /visibility/);
  device.pushErrorScope('validation');
  device.createBindGroupLayout({ entries: [{ binding: 0, visibility: 1, buffer: { type: 'storage' } }] });
  assert.match((await device.popErrorScope()).message, /VERTEX/);
  device.pushErrorScope('validation');
  device.createBindGroupLayout({ entries: [{ binding: 0, visibility: 0x80000000, buffer: {} }] });
  assert.match((await device.popErrorScope()).message, /bits outside GPUShaderStage/);
  // a binding the compute shader uses must be visible to COMPUTE; one no
  // stage sees (visibility 0) is a valid layout entry all the same
  const code = '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n' +
    '@compute @workgroup_size(1) fn main() { o[0] = 1u; }';
  const module = device.createShaderModule({ code });
  for (const [visibility, want] of [[GPUShaderStage.FRAGMENT, /not visible to the COMPUTE stage/], [0, /not visible/],
    [GPUShaderStage.COMPUTE | GPUShaderStage.FRAGMENT, null]]) {
    device.pushErrorScope('validation');
    const bgl = device.createBindGroupLayout({ entries: [{ binding: 0, visibility, buffer: { type: 'storage' } }] });
    device.createComputePipeline({ layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
      compute: { module, entryPoint: 'main' } });
    const e = await device.popErrorScope();
    if (want) assert.match(e?.message ?? 'no error', want);
    else assert.equal(e, null);
  }
  device.destroy();
});

test('render pipelines, render passes and bundles: a validation error that says lockstep runs compute only', async () => {
  const { device } = await getDevice();
  const module = device.createShaderModule({ code: '@vertex fn v() -> @builtin(position) vec4f { return vec4f(); }' });
  device.pushErrorScope('validation');
  const rp = device.createRenderPipeline({ layout: 'auto', vertex: { module }, label: 'draw' });
  const e = await device.popErrorScope();
  assert.ok(rp instanceof globals.GPURenderPipeline);
  assert.match(e.message, /'draw'.*compute only/);
  await assert.rejects(device.createRenderPipelineAsync({ layout: 'auto', vertex: { module } }),
    (x) => x instanceof globals.GPUPipelineError && x.reason === 'validation' && /compute only/.test(x.message));
  device.pushErrorScope('validation');
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({ colorAttachments: [] });
  assert.ok(pass instanceof globals.GPURenderPassEncoder);
  pass.draw(3);
  pass.end();
  enc.finish();
  assert.match((await device.popErrorScope()).message, /compute only/);
  assert.throws(() => device.createCommandEncoder().beginRenderPass({}), TypeError); // colorAttachments is required
  device.pushErrorScope('validation');
  device.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
  assert.match((await device.popErrorScope()).message, /compute only/);
  device.destroy();
});

test('createComputePipelineAsync: resolves to a working pipeline, rejects with GPUPipelineError (no validation error)', async () => {
  const { device } = await getDevice();
  const module = device.createShaderModule({ code: '@compute @workgroup_size(256, 256) fn main() {}', label: 'huge.wgsl' });
  device.pushErrorScope('validation');
  const rejected = await device.createComputePipelineAsync({ layout: 'auto', compute: { module } }).then(() => null, (x) => x);
  assert.ok(rejected instanceof globals.GPUPipelineError);
  assert.equal(rejected.reason, 'validation');
  assert.match(rejected.message, /256/);
  assert.equal(await device.popErrorScope(), null);
  // the synchronous form: a validation error and an invalid pipeline
  device.pushErrorScope('validation');
  const p = device.createComputePipeline({ layout: 'auto', compute: { module } });
  assert.ok(p instanceof globals.GPUComputePipeline);
  assert.match((await device.popErrorScope()).message, /256/);
  const ok = device.createShaderModule({ code: '@compute @workgroup_size(64) fn main() {}' });
  const good = await device.createComputePipelineAsync({ layout: 'auto', compute: { module: ok } });
  assert.ok(good instanceof globals.GPUComputePipeline);
  device.pushErrorScope('validation');
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(good);
  pass.dispatchWorkgroups(1);
  pass.end();
  device.queue.submit([enc.finish()]);
  assert.equal(await device.popErrorScope(), null);
  await device.queue.onSubmittedWorkDone();
  device.destroy();
});

test('getBindGroupLayout(i) of layout "auto": past the last group is a validation error', async () => {
  const { device } = await getDevice();
  const module = device.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n@compute @workgroup_size(1) fn main() { d[0] = 1u; }' });
  const p = device.createComputePipeline({ layout: 'auto', compute: { module } });
  assert.ok(p.getBindGroupLayout(0) instanceof globals.GPUBindGroupLayout);
  assert.notEqual(p.getBindGroupLayout(0), p.getBindGroupLayout(0)); // [NewObject]
  device.pushErrorScope('validation');
  p.getBindGroupLayout(4);
  assert.ok(await device.popErrorScope());
  device.destroy();
});

test('an explicit 0 is not a default: mipLevelCount and sampleCount of createTexture, mipLevelCount and arrayLayerCount of createView', async () => {
  const { device } = await getDevice();
  const T = globals.GPUTextureUsage;
  const desc = { size: [4, 4], format: 'r32float', usage: T.TEXTURE_BINDING };
  for (const [extra, want] of [[{ mipLevelCount: 0 }, /'zero mips'.*mipLevelCount is 0/],
    [{ sampleCount: 0 }, /'zero samples'.*sampleCount is 0; it must be 1 or 4/],
    [{ sampleCount: 2 }, /sampleCount is 2/]]) {
    device.pushErrorScope('validation');
    device.createTexture({ ...desc, ...extra, label: extra.mipLevelCount === 0 ? 'zero mips' : 'zero samples' });
    const e = await device.popErrorScope();
    assert.ok(e instanceof globals.GPUValidationError, `no error for ${JSON.stringify(extra)}`);
    assert.match(e.message, want);
  }
  const t = device.createTexture({ ...desc, label: 'ok' });
  for (const k of ['mipLevelCount', 'arrayLayerCount']) {
    device.pushErrorScope('validation');
    t.createView({ [k]: 0 });
    const e = await device.popErrorScope();
    assert.ok(e instanceof globals.GPUValidationError, `no error for ${k}: 0`);
    assert.match(e.message, new RegExp(`${k} is 0`));
    device.pushErrorScope('validation');
    t.createView({ [k]: 1 }); // the same view with 1 is valid
    assert.equal(await device.popErrorScope(), null);
  }
  device.destroy();
});

test('a constants key holding a NUL names no override (it must not match the name before the NUL)', async () => {
  const { device } = await getDevice();
  const module = device.createShaderModule({ code: 'override c0: u32 = 1u;\n' +
    '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n' +
    '@compute @workgroup_size(1) fn main() { o[0] = c0; }' });
  device.pushErrorScope('validation');
  device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main', constants: { 'c0\0': 0 } } });
  assert.match((await device.popErrorScope())?.message ?? 'no error', /pipeline constant 'c0\\u0000' does not name an override/);
  await assert.rejects(device.createComputePipelineAsync({ layout: 'auto',
    compute: { module, entryPoint: 'main', constants: { 'c0\0': 0 } } }), (e) => e instanceof globals.GPUPipelineError);
  device.pushErrorScope('validation');
  device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main', constants: { c0: 0 } } });
  assert.equal(await device.popErrorScope(), null);
  device.destroy();
});

test('createComputePipelineAsync of an invalid descriptor resolves (to an invalid pipeline) once the device is destroyed', async () => {
  const { device } = await getDevice();
  const module = device.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' });
  let lost = false;
  device.lost.then(() => { lost = true; });
  const p = device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'does_not_exist' } });
  device.destroy();
  const pipeline = await p; // rejecting now would report an error from a lost device
  assert.ok(lost);
  assert.ok(pipeline instanceof globals.GPUComputePipeline);
});

test('a NUL character is part of a string: in WGSL source an error at its place, in an entry point or constant name no match', async () => {
  const { device } = await getDevice();
  const nul = device.createShaderModule({ code: 'const name : i32 = 0;\0// after', label: 'nul.wgsl' });
  const info = await nul.getCompilationInfo();
  assert.equal(info.messages[0].type, 'error');
  assert.equal(info.messages[0].lineNum, 1);
  assert.equal(info.messages[0].linePos, 22);
  assert.match(info.messages[0].message, /null character/);
  const module = device.createShaderModule({ code: 'override x: u32 = 1u;\n@group(0) @binding(0) var<storage, read_write> d: u32;\n@compute @workgroup_size(1) fn main() { d = x; }' });
  for (const compute of [{ module, entryPoint: 'main\0' }, { module, entryPoint: 'main', constants: { 'x\0': 2 } }]) {
    device.pushErrorScope('validation');
    device.createComputePipeline({ layout: 'auto', compute });
    const e = await device.popErrorScope();
    assert.ok(e instanceof globals.GPUValidationError, `no error for ${JSON.stringify(compute.entryPoint)}`);
    assert.match(e.message, /\\u0000/);
  }
  device.destroy();
});
