// api.test.mjs — the shapes of the API: the module's contract (create,
// globals, instanceof), GPU, GPUAdapter, GPUSupportedLimits and
// GPUSupportedFeatures (setlike), GPUAdapterInfo, requestDevice's
// rejections, labels. Each expectation is the spec's (gpuweb spec/index.bs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { create, globals, lockstep, getDevice, GPUBufferUsage, packageDir } from './helpers.mjs';

test('the module exports create(flags) and globals with every interface and namespace', () => {
  for (const n of ['GPU', 'GPUAdapter', 'GPUAdapterInfo', 'GPUDevice', 'GPUQueue', 'GPUBuffer', 'GPUTexture',
    'GPUTextureView', 'GPUSampler', 'GPUShaderModule', 'GPUBindGroupLayout', 'GPUPipelineLayout',
    'GPUBindGroup', 'GPUComputePipeline', 'GPURenderPipeline', 'GPUCommandEncoder', 'GPUCommandBuffer',
    'GPUComputePassEncoder', 'GPUQuerySet', 'GPUError', 'GPUValidationError', 'GPUOutOfMemoryError',
    'GPUInternalError', 'GPUPipelineError', 'GPUUncapturedErrorEvent', 'GPUDeviceLostInfo',
    'GPUSupportedLimits', 'GPUSupportedFeatures', 'WGSLLanguageFeatures', 'GPUCompilationInfo',
    'GPUCompilationMessage']) {
    assert.equal(typeof globals[n], 'function', n);
  }
  assert.deepEqual({ ...globals.GPUBufferUsage }, { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, INDEX: 16,
    VERTEX: 32, UNIFORM: 64, STORAGE: 128, INDIRECT: 256, QUERY_RESOLVE: 512 });
  assert.deepEqual({ ...globals.GPUMapMode }, { READ: 1, WRITE: 2 });
  assert.deepEqual({ ...globals.GPUShaderStage }, { VERTEX: 1, FRAGMENT: 2, COMPUTE: 4 });
  assert.equal(globals.GPUTextureUsage.STORAGE_BINDING, 8);
  assert.equal(globals.GPUColorWrite.ALL, 0xf);
  assert.ok(Object.isFrozen(globals.GPUBufferUsage));
});

test('interface objects: instanceof works and constructors are not callable', async () => {
  const { gpu, adapter, device } = await getDevice();
  assert.ok(gpu instanceof globals.GPU);
  assert.ok(adapter instanceof globals.GPUAdapter);
  assert.ok(device instanceof globals.GPUDevice);
  assert.ok(device instanceof EventTarget);
  assert.ok(device.queue instanceof globals.GPUQueue);
  const b = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
  assert.ok(b instanceof globals.GPUBuffer);
  assert.equal(Object.prototype.toString.call(b), '[object GPUBuffer]');
  assert.throws(() => new globals.GPUBuffer(), TypeError);
  assert.throws(() => new globals.GPUDevice(), TypeError);
  assert.throws(() => new globals.GPUError('x'), TypeError);
  const e = new globals.GPUValidationError('why');
  assert.ok(e instanceof globals.GPUError);
  assert.equal(e.message, 'why');
  const pe = new globals.GPUPipelineError('m', { reason: 'validation' });
  assert.ok(pe instanceof DOMException);
  assert.equal(pe.name, 'GPUPipelineError');
  assert.equal(pe.reason, 'validation');
  assert.throws(() => new globals.GPUPipelineError('m', { reason: 'bogus' }), TypeError);
  const ev = new globals.GPUUncapturedErrorEvent('uncapturederror', { error: e });
  assert.ok(ev instanceof Event);
  assert.equal(ev.error, e);
  device.destroy();
});

test('requestAdapter: featureLevel core and compatibility give an adapter, an unknown one null', async () => {
  const gpu = create();
  assert.ok((await gpu.requestAdapter()) instanceof globals.GPUAdapter);
  assert.ok((await gpu.requestAdapter({ featureLevel: 'compatibility' })) instanceof globals.GPUAdapter);
  assert.equal(await gpu.requestAdapter({ featureLevel: 'ultra' }), null);
  await assert.rejects(gpu.requestAdapter({ powerPreference: 'fast' }), TypeError);
  assert.ok(['rgba8unorm', 'bgra8unorm'].includes(gpu.getPreferredCanvasFormat()));
  assert.equal(gpu.wgslLanguageFeatures, gpu.wgslLanguageFeatures); // [SameObject]
  assert.ok(gpu.wgslLanguageFeatures.has('pointer_composite_access'));
  assert.ok(!gpu.wgslLanguageFeatures.has('no_such_feature'));
});

test('GPUSupportedFeatures is setlike: has, forEach, size, iteration, entries', async () => {
  const { adapter, device } = await getDevice();
  const f = adapter.features;
  assert.equal(adapter.features, f); // [SameObject]
  assert.ok(f.has('core-features-and-limits'));
  assert.ok(f.has('timestamp-query'));
  assert.ok(!f.has('texture-compression-bc'));
  const seen = [];
  f.forEach((v, k, set) => { assert.equal(v, k); assert.equal(set, f); seen.push(v); });
  assert.deepEqual(seen, [...f]);
  assert.equal(f.size, seen.length);
  assert.deepEqual([...f.keys()], [...f.values()]);
  assert.deepEqual([...f.entries()].map(([a, b]) => a === b), seen.map(() => true));
  assert.equal(typeof f.add, 'undefined'); // readonly setlike
  // the device has what it asked for (and core-features-and-limits)
  assert.deepEqual([...device.features], ['core-features-and-limits']);
  device.destroy();
});

test('GPUSupportedLimits: every limit of the spec as an attribute, with the defaults lockstep offers', async () => {
  const { adapter, device } = await getDevice();
  const l = adapter.limits;
  assert.equal(l.maxComputeInvocationsPerWorkgroup >= 256, true);
  assert.equal(l.maxComputeWorkgroupsPerDimension, 65535);
  assert.equal(l.minStorageBufferOffsetAlignment, 256);
  assert.equal(l.maxBindGroupsPlusVertexBuffers, 24);
  assert.ok('maxBufferSize' in l);
  assert.ok(Object.keys(Object.getPrototypeOf(l)).includes('maxStorageBufferBindingSize'));
  assert.equal(device.limits.maxComputeInvocationsPerWorkgroup, 256); // the default, not the adapter's
  device.destroy();
});

test('GPUAdapterInfo: vendor, architecture, device, description, subgroup sizes per subgroup-size flag', async () => {
  for (const w of [8, 16, 32, 64]) {
    const a = await create([`subgroup-size=${w}`]).requestAdapter();
    assert.equal(a.info, a.info);
    assert.equal(a.info.subgroupMinSize, w);
    assert.equal(a.info.subgroupMaxSize, w);
    for (const k of ['vendor', 'architecture', 'device', 'description']) assert.equal(typeof a.info[k], 'string');
    assert.equal(a.info.isFallbackAdapter, false);
    assert.equal(a[Symbol.for('lockstep')].subgroupSize, w);
    assert.match(a[Symbol.for('lockstep')].isa, /^(sse2|avx2|avx512)$/);
  }
});

test("the lockstep channel names the interpreter's instruction set; LOCKSTEP_ISA=sse2 forces the baseline", () => {
  const script = `require(${JSON.stringify(packageDir)}).create().requestAdapter().then((a) => console.log(a[Symbol.for('lockstep')].isa))`;
  const run = (isa) => {
    const env = { ...process.env };
    delete env.LOCKSTEP_ISA;
    if (isa) env.LOCKSTEP_ISA = isa;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  assert.equal(run('sse2'), 'sse2');
  assert.match(run(null), /^(sse2|avx2|avx512)$/);
});

test('requestDevice: requiredLimits up to the adapter, OperationError above it or for an unknown name, TypeError for an unknown feature', async () => {
  const gpu = create();
  let a = await gpu.requestAdapter();
  const want = a.limits.maxComputeInvocationsPerWorkgroup;
  const d = await a.requestDevice({ requiredLimits: { maxComputeInvocationsPerWorkgroup: want, maxBindGroups: undefined } });
  assert.equal(d.limits.maxComputeInvocationsPerWorkgroup, want);
  d.destroy();
  a = await gpu.requestAdapter();
  await assert.rejects(a.requestDevice({ requiredLimits: { maxComputeInvocationsPerWorkgroup: want + 1 } }),
    (e) => e instanceof DOMException && e.name === 'OperationError' && /maxComputeInvocationsPerWorkgroup/.test(e.message));
  // the spec: an unknown limit name is an OperationError (the record's key is any string)
  await assert.rejects(a.requestDevice({ requiredLimits: { maxWarpDrive: 1 } }),
    (e) => e.name === 'OperationError' && /maxWarpDrive/.test(e.message));
  await assert.rejects(a.requestDevice({ requiredLimits: { minStorageBufferOffsetAlignment: 128 } }),
    (e) => e.name === 'OperationError');
  await assert.rejects(a.requestDevice({ requiredLimits: { maxBindGroups: -1 } }), TypeError);
  await assert.rejects(a.requestDevice({ requiredFeatures: ['texture-compression-bc'] }), TypeError);
  await assert.rejects(a.requestDevice({ requiredFeatures: ['warp-drive'] }), TypeError);
  // the rejections above did not consume the adapter
  const d2 = await a.requestDevice({ requiredFeatures: ['timestamp-query', 'subgroups'], label: 'two', defaultQueue: { label: 'q' } });
  assert.ok(d2.features.has('timestamp-query') && d2.features.has('subgroups'));
  assert.equal(d2.label, 'two');
  assert.equal(d2.queue.label, 'q');
  // a second device from the same adapter is lost at once
  const d3 = await a.requestDevice();
  const info = await d3.lost;
  assert.equal(info.reason, 'unknown');
  assert.ok(info instanceof globals.GPUDeviceLostInfo);
  d2.destroy();
});

test('labels: every object has a settable label, used in lockstep messages', async () => {
  const { device } = await getDevice();
  const b = device.createBuffer({ size: 4, usage: GPUBufferUsage.COPY_DST, label: 'first' });
  assert.equal(b.label, 'first');
  b.label = 'second';
  assert.equal(b.label, 'second');
  device.pushErrorScope('validation');
  const enc = device.createCommandEncoder();
  enc.clearBuffer(b, 0, 4); // b has no COPY_DST problem; clear needs COPY_DST: fine
  enc.clearBuffer(b, 2, 4); // offset not a multiple of 4
  enc.finish();
  const e = await device.popErrorScope();
  assert.ok(e instanceof globals.GPUValidationError);
  assert.match(e.message, /second/);
  for (const o of [device, device.queue, device.createCommandEncoder(), device.createSampler(),
    device.createShaderModule({ code: '' }), device.createBindGroupLayout({ entries: [] })]) {
    o.label = 'x';
    assert.equal(o.label, 'x');
  }
  assert.equal(lockstep(device), device[Symbol.for('lockstep')]);
  device.destroy();
});
