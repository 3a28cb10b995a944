// webidl.test.mjs — WebIDL conversions are TypeErrors thrown synchronously
// (or rejected promises, for methods that return one): missing required
// members and arguments, unknown enum values, NaN, infinities, negative or
// too-large [EnforceRange] integers, wrong interface types. A validation
// error is never one of these: those go to error scopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDevice, GPUBufferUsage, GPUMapMode } from './helpers.mjs';

const { device } = await getDevice();
const U = GPUBufferUsage;

test('createBuffer: a missing required member, NaN, negative and too large sizes are TypeErrors naming the member', () => {
  assert.throws(() => device.createBuffer(), { name: 'TypeError', message: /1 argument required/ });
  assert.throws(() => device.createBuffer({ usage: U.STORAGE }), { name: 'TypeError', message: /GPUBufferDescriptor\.size is required/ });
  assert.throws(() => device.createBuffer({ size: 4 }), { name: 'TypeError', message: /usage is required/ });
  assert.throws(() => device.createBuffer({ size: NaN, usage: U.STORAGE }), { name: 'TypeError', message: /size: NaN is not a finite number/ });
  assert.throws(() => device.createBuffer({ size: -4, usage: U.STORAGE }), { name: 'TypeError', message: /size: -4 is outside/ });
  assert.throws(() => device.createBuffer({ size: Infinity, usage: U.STORAGE }), TypeError);
  assert.throws(() => device.createBuffer({ size: 2 ** 53, usage: U.STORAGE }), TypeError);
  assert.throws(() => device.createBuffer({ size: 4, usage: 2 ** 32 }), { name: 'TypeError', message: /usage/ });
  assert.throws(() => device.createBuffer({ size: 4n, usage: U.STORAGE }), TypeError);
  assert.throws(() => device.createBuffer('big'), TypeError);
  // conversions WebIDL allows: strings that are numbers, fractions truncated
  const b = device.createBuffer({ size: '16', usage: U.STORAGE + 0.9 });
  assert.equal(b.size, 16);
  assert.equal(b.usage, U.STORAGE);
});

test('unknown enum values are TypeErrors', () => {
  assert.throws(() => device.createTexture({ size: [4, 4], format: 'rgba9unorm', usage: 1 }), { name: 'TypeError', message: /"rgba9unorm" is not a valid value of the enum GPUTextureFormat/ });
  assert.throws(() => device.createSampler({ magFilter: 'cubic' }), TypeError);
  assert.throws(() => device.pushErrorScope('everything'), TypeError);
  assert.throws(() => device.createBindGroupLayout({ entries: [{ binding: 0, visibility: 4, buffer: { type: 'storage-ish' } }] }), TypeError);
  assert.throws(() => device.createQuerySet({ type: 'pipeline-statistics', count: 1 }), TypeError);
  assert.throws(() => device.createComputePipeline({ layout: 'manual', compute: { module: device.createShaderModule({ code: '' }) } }), TypeError);
});

test('wrong interface types and missing nested members are TypeErrors', () => {
  const buf = device.createBuffer({ size: 16, usage: U.STORAGE });
  assert.throws(() => device.createBindGroup({ layout: buf, entries: [] }), { name: 'TypeError', message: /is not a GPUBindGroupLayout/ });
  assert.throws(() => device.createBindGroup({ entries: [] }), { name: 'TypeError', message: /layout is required/ });
  assert.throws(() => device.createComputePipeline({ layout: 'auto' }), { name: 'TypeError', message: /compute is required/ });
  assert.throws(() => device.createComputePipeline({ layout: 'auto', compute: {} }), { name: 'TypeError', message: /module is required/ });
  assert.throws(() => device.createShaderModule({}), { name: 'TypeError', message: /code is required/ });
  assert.throws(() => device.createBindGroupLayout({ entries: 5 }), { name: 'TypeError', message: /sequence/ });
  assert.throws(() => device.queue.submit([buf]), { name: 'TypeError', message: /is not a GPUCommandBuffer/ });
  assert.throws(() => device.queue.writeBuffer(buf, 0, [1, 2, 3]), { name: 'TypeError', message: /ArrayBuffer/ });
  assert.throws(() => device.queue.writeBuffer({}, 0, new Uint32Array(4)), TypeError);
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  assert.throws(() => pass.dispatchWorkgroups(), TypeError);
  assert.throws(() => pass.dispatchWorkgroups(-1), TypeError);
  assert.throws(() => pass.dispatchWorkgroups(NaN), TypeError);
  assert.throws(() => pass.setPipeline(null), TypeError);
  assert.throws(() => pass.setBindGroup(0, null, [-1]), TypeError);
  pass.end();
  enc.finish();
});

test('methods that return a promise reject with the TypeError instead of throwing', async () => {
  const buf = device.createBuffer({ size: 16, usage: U.MAP_READ });
  const p = buf.mapAsync(NaN);
  assert.ok(p instanceof Promise);
  await assert.rejects(p, TypeError);
  assert.equal(buf.mapState, 'unmapped');
  await assert.rejects(buf.mapAsync(GPUMapMode.READ, -8), TypeError);
  await assert.rejects(device.createComputePipelineAsync({ layout: 'auto' }), TypeError);
  await assert.rejects(device.createComputePipelineAsync(), TypeError);
});

test('dictionaries: defaults are applied, null and undefined are the empty dictionary', () => {
  const s1 = device.createSampler(undefined);
  const s2 = device.createSampler(null);
  assert.ok(s1 && s2);
  const t = device.createTexture({ size: { width: 4 }, format: 'r32float', usage: 4 });
  assert.deepEqual([t.width, t.height, t.depthOrArrayLayers, t.mipLevelCount, t.sampleCount, t.dimension],
    [4, 1, 1, 1, 1, '2d']);
  const t2 = device.createTexture({ size: [8, 2], format: 'r32float', usage: 4 });
  assert.deepEqual([t2.width, t2.height, t2.depthOrArrayLayers], [8, 2, 1]);
});
