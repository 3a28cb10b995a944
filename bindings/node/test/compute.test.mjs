// compute.test.mjs — recording and submitting compute work: dynamic offsets
// in both setBindGroup overloads, indirect dispatch, the copy and clear
// commands, timestamp queries, the encoder's and pass's states (a finished
// encoder, an ended pass, a command buffer submitted twice), the order in
// which the queue's promises resolve, and getCompilationInfo's UTF-16
// positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDevice, runKernel, globals, GPUBufferUsage, GPUMapMode, GPUShaderStage } from './helpers.mjs';

const U = GPUBufferUsage;
const { device, adapter } = await getDevice([], { requiredFeatures: ['timestamp-query'] });

async function read(buf, Type = Uint32Array) {
  const r = device.createBuffer({ size: buf.size, usage: U.MAP_READ | U.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, r, 0, buf.size);
  device.queue.submit([enc.finish()]);
  await r.mapAsync(GPUMapMode.READ);
  const out = new Type(r.getMappedRange().slice(0));
  r.destroy();
  return out;
}

test('a dispatch: each invocation writes its index (guarded), the rest of the buffer stays zero', async () => {
  const n = 1000;
  const [out] = await runKernel(device, `
    @group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
      if (id.x < 1000u) { d[id.x] = id.x * 3u; }
    }`, [new Uint32Array(1024)], Math.ceil(n / 64));
  for (let i = 0; i < 1024; i++) assert.equal(out[i], i < n ? i * 3 : 0);
});

test('setBindGroup dynamic offsets: the array overload and the Uint32Array + start + length overload', async () => {
  const layout = device.createBindGroupLayout({ entries: [
    { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage', hasDynamicOffset: true } }] });
  const module = device.createShaderModule({ code: `
    @group(0) @binding(0) var<storage, read_write> d: array<u32, 4>;
    @compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { d[i] = d[i] + i + 1u; }` });
  const pipeline = device.createComputePipeline({ layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }), compute: { module } });
  const buf = device.createBuffer({ size: 1024, usage: U.STORAGE | U.COPY_SRC });
  const group = device.createBindGroup({ layout, entries: [{ binding: 0, resource: { buffer: buf, size: 16 } }] });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group, [256]);
  pass.dispatchWorkgroups(1);
  const offsets = new Uint32Array([0, 512, 768, 0]);
  pass.setBindGroup(0, group, offsets, 1, 2); // [512, 768]: two entries, only one dynamic... lockstep takes length 2?
  pass.end();
  device.pushErrorScope('validation');
  enc.finish();
  const wrongCount = await device.popErrorScope();
  assert.ok(wrongCount, 'two offsets for one dynamic binding is a validation error');
  const enc2 = device.createCommandEncoder();
  const p2 = enc2.beginComputePass();
  p2.setPipeline(pipeline);
  p2.setBindGroup(0, group, [256]);
  p2.dispatchWorkgroups(1);
  p2.setBindGroup(0, group, offsets, 1, 1); // [512]
  p2.dispatchWorkgroups(1);
  p2.setBindGroup(0, group, offsets, 2, 1); // [768]
  p2.dispatchWorkgroups(2);
  p2.end();
  device.queue.submit([enc2.finish()]);
  const out = await read(buf);
  assert.deepEqual([...out.slice(64, 68)], [1, 2, 3, 4]);
  assert.deepEqual([...out.slice(128, 132)], [1, 2, 3, 4]);
  assert.deepEqual([...out.slice(192, 196)], [2, 4, 6, 8]); // two workgroups, one after the other
  assert.deepEqual([...out.slice(0, 4)], [0, 0, 0, 0]);
  // an offset that is not a multiple of minStorageBufferOffsetAlignment
  const enc3 = device.createCommandEncoder();
  const p3 = enc3.beginComputePass();
  p3.setPipeline(pipeline);
  p3.setBindGroup(0, group, [100]);
  p3.dispatchWorkgroups(1);
  p3.end();
  device.pushErrorScope('validation');
  enc3.finish();
  assert.ok(await device.popErrorScope());
  assert.throws(() => device.createCommandEncoder().beginComputePass().setBindGroup(0, group, offsets, 3, 2), RangeError);
});

test('dispatchWorkgroupsIndirect: counts a previous kernel computed on the device', async () => {
  const counterModule = device.createShaderModule({ code: `
    @group(0) @binding(0) var<storage, read_write> args: array<u32, 3>;
    @compute @workgroup_size(1) fn main() { args[0] = 5u; args[1] = 2u; args[2] = 1u; }` });
  const workModule = device.createShaderModule({ code: `
    @group(0) @binding(0) var<storage, read_write> hits: array<atomic<u32>, 1>;
    @compute @workgroup_size(8) fn main() { atomicAdd(&hits[0], 1u); }` });
  const counter = device.createComputePipeline({ layout: 'auto', compute: { module: counterModule } });
  const worker = device.createComputePipeline({ layout: 'auto', compute: { module: workModule } });
  const args = device.createBuffer({ size: 12, usage: U.STORAGE | U.INDIRECT });
  const hits = device.createBuffer({ size: 4, usage: U.STORAGE | U.COPY_SRC });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(counter);
  pass.setBindGroup(0, device.createBindGroup({ layout: counter.getBindGroupLayout(0), entries: [{ binding: 0, resource: args }] }));
  pass.dispatchWorkgroups(1);
  pass.setPipeline(worker);
  pass.setBindGroup(0, device.createBindGroup({ layout: worker.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: hits } }] }));
  pass.dispatchWorkgroupsIndirect(args, 0);
  pass.end();
  device.queue.submit([enc.finish()]);
  assert.equal((await read(hits))[0], 5 * 2 * 1 * 8);
  // the same buffer as indirect arguments and writable storage in one dispatch: a validation error
  const e2 = device.createCommandEncoder();
  const p2 = e2.beginComputePass();
  p2.setPipeline(counter);
  p2.setBindGroup(0, device.createBindGroup({ layout: counter.getBindGroupLayout(0), entries: [{ binding: 0, resource: args }] }));
  p2.dispatchWorkgroupsIndirect(args, 0);
  p2.end();
  device.pushErrorScope('validation');
  e2.finish();
  assert.match((await device.popErrorScope()).message, /indirect/);
  // an offset that is not a multiple of 4
  const e3 = device.createCommandEncoder();
  const p3 = e3.beginComputePass();
  p3.setPipeline(worker);
  p3.dispatchWorkgroupsIndirect(args, 2);
  p3.end();
  device.pushErrorScope('validation');
  e3.finish();
  assert.ok(await device.popErrorScope());
});

test('copyBufferToBuffer (the 5-argument overload) and clearBuffer', async () => {
  const a = device.createBuffer({ size: 32, usage: U.COPY_SRC | U.COPY_DST });
  const b = device.createBuffer({ size: 32, usage: U.COPY_SRC | U.COPY_DST });
  device.queue.writeBuffer(a, 0, new Uint32Array([1, 2, 3, 4, 5, 6, 7, 8]));
  device.queue.writeBuffer(b, 0, new Uint32Array(8).fill(9));
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(a, 8, b, 0, 8);
  enc.copyBufferToBuffer(a, 24, b, 24); // no size: to the end of the source
  enc.clearBuffer(b, 8, 8);
  device.queue.submit([enc.finish()]);
  assert.deepEqual([...(await read(b))], [3, 4, 0, 0, 9, 9, 7, 8]);
  device.pushErrorScope('validation');
  const e2 = device.createCommandEncoder();
  e2.copyBufferToBuffer(a, 2, b, 0, 4); // offset not a multiple of 4
  e2.finish();
  assert.ok(await device.popErrorScope());
});

test('timestamp queries: the pass\'s elapsed time on the host clock, in nanoseconds, end after beginning', async () => {
  const qs = device.createQuerySet({ type: 'timestamp', count: 2, label: 'times' });
  assert.equal(qs.type, 'timestamp');
  assert.equal(qs.count, 2);
  const module = device.createShaderModule({ code: `
    @group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
      var x = id.x; for (var i = 0u; i < 2000u; i++) { x = x * 1664525u + 1013904223u; } d[id.x] = x; }` });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module } });
  const data = device.createBuffer({ size: 64 * 64 * 4, usage: U.STORAGE });
  const resolve = device.createBuffer({ size: 16, usage: U.QUERY_RESOLVE | U.COPY_SRC });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: data }] }));
  const t0 = process.hrtime.bigint();
  pass.dispatchWorkgroups(64);
  pass.end();
  enc.resolveQuerySet(qs, 0, 2, resolve, 0);
  device.queue.submit([enc.finish()]);
  const [begin, end] = await read(resolve, BigUint64Array);
  const t1 = process.hrtime.bigint();
  assert.ok(end > begin, `${begin} < ${end}`);
  assert.ok(end - begin < t1 - t0 + 1000000n, 'the pass took no longer than the wall time around it');
  // without the feature: a validation error
  const { device: plain } = await getDevice();
  plain.pushErrorScope('validation');
  plain.createQuerySet({ type: 'timestamp', count: 2 });
  assert.ok(await plain.popErrorScope());
  plain.destroy();
});

test('encoder and pass states: a finished encoder, an ended pass, a locked encoder, a command buffer submitted twice', async () => {
  const enc = device.createCommandEncoder({ label: 'once' });
  const cb = enc.finish({ label: 'cb' });
  device.pushErrorScope('validation');
  enc.clearBuffer(device.createBuffer({ size: 4, usage: U.COPY_DST }));
  assert.match((await device.popErrorScope()).message, /'once'.*finished/);
  device.pushErrorScope('validation');
  enc.finish();
  assert.match((await device.popErrorScope()).message, /already finished/);
  device.pushErrorScope('validation');
  device.queue.submit([cb]);
  assert.equal(await device.popErrorScope(), null);
  device.pushErrorScope('validation');
  device.queue.submit([cb]);
  assert.match((await device.popErrorScope()).message, /'cb' was already submitted/);
  const e2 = device.createCommandEncoder({ label: 'locked' });
  const pass = e2.beginComputePass({ label: 'p' });
  e2.clearBuffer(device.createBuffer({ size: 4, usage: U.COPY_DST })); // while locked: invalidates e2
  pass.end();
  device.pushErrorScope('validation');
  pass.end();
  assert.match((await device.popErrorScope()).message, /'p'.*already ended/);
  device.pushErrorScope('validation');
  pass.dispatchWorkgroups(1);
  assert.match((await device.popErrorScope()).message, /ended/);
  device.pushErrorScope('validation');
  e2.finish();
  assert.match((await device.popErrorScope()).message, /locked/);
  const e3 = device.createCommandEncoder({ label: 'early' });
  const open = e3.beginComputePass({ label: 'open' });
  device.pushErrorScope('validation');
  e3.finish(); // a pass still open
  assert.match((await device.popErrorScope()).message, /still open/);
  // that pass's end() finds its encoder finished: an error at once (spec
  // GPUComputePassEncoder.end: the parent must be "locked")
  device.pushErrorScope('validation');
  open.end();
  assert.match((await device.popErrorScope()).message, /'open'.*'early'.*has finished/);
  // a pass begun on a finished encoder: both calls are errors
  device.pushErrorScope('validation');
  const late = enc.beginComputePass();
  assert.match((await device.popErrorScope()).message, /finished/);
  device.pushErrorScope('validation');
  late.end();
  assert.match((await device.popErrorScope()).message, /has finished/);
});

test('promise order: a mapAsync made before onSubmittedWorkDone resolves first; pops resolve in call order', async () => {
  const order = [];
  const bufs = [0, 1, 2].map(() => device.createBuffer({ size: 16, usage: U.MAP_READ }));
  const maps = bufs.map((b, i) => b.mapAsync(GPUMapMode.READ).then(() => order.push(`map${i}`)));
  const done = device.queue.onSubmittedWorkDone().then(() => order.push('done'));
  device.pushErrorScope('validation');
  device.pushErrorScope('validation');
  const pops = [device.popErrorScope().then(() => order.push('pop1')), device.popErrorScope().then(() => order.push('pop2'))];
  await Promise.all([...maps, done, ...pops]);
  assert.ok(order.indexOf('done') > order.indexOf('map0') && order.indexOf('done') > order.indexOf('map2'), order.join());
  assert.ok(order.indexOf('pop1') < order.indexOf('pop2'));
  for (const b of bufs) b.unmap();
});

test('getCompilationInfo: messages with lineNum, linePos, offset and length in UTF-16 code units', async () => {
  // "é" is 2 UTF-8 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units
  const code = '// é😀 comentario: ñandú\n@compute @workgroup_size(1) fn main() {\n  let x: u32 = undefined_thing;\n}\n';
  const module = device.createShaderModule({ code, label: 'utf16.wgsl' });
  const info = await module.getCompilationInfo();
  assert.ok(info instanceof globals.GPUCompilationInfo);
  const errorsOnly = info.messages.filter((m) => m.type === 'error');
  assert.ok(errorsOnly.length >= 1);
  const m = errorsOnly[0];
  assert.ok(m instanceof globals.GPUCompilationMessage);
  const at = code.indexOf('undefined_thing'); // a UTF-16 index
  assert.equal(m.lineNum, 3);
  assert.equal(m.offset, at);
  assert.equal(m.linePos, at - code.lastIndexOf('\n', at));
  assert.equal(m.length, 'undefined_thing'.length);
  assert.equal(code.substr(m.offset, m.length), 'undefined_thing');
  assert.match(m.message, /undefined_thing/);
  assert.ok(Object.isFrozen(info.messages));
  // a module on the same line as non-ASCII text
  const code2 = "const s = 1u; /* 😀😀 */ const t: u32 = nope;\n@compute @workgroup_size(1) fn main() {}";
  const m2 = (await device.createShaderModule({ code: code2 }).getCompilationInfo()).messages.find((x) => x.type === 'error');
  assert.equal(code2.substr(m2.offset, m2.length), 'nope');
  assert.equal(m2.linePos, code2.indexOf('nope') + 1);
  const clean = await device.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' }).getCompilationInfo();
  assert.equal(clean.messages.filter((x) => x.type === 'error').length, 0);
});

test('textures: writeTexture, copyTextureToBuffer, copyTextureToTexture and a storage-texture kernel', async () => {
  const tex = device.createTexture({ size: [4, 2], format: 'r32uint', usage: globals.GPUTextureUsage.COPY_DST | globals.GPUTextureUsage.COPY_SRC | globals.GPUTextureUsage.STORAGE_BINDING });
  device.queue.writeTexture({ texture: tex }, new Uint32Array([1, 2, 3, 4, 5, 6, 7, 8]), { bytesPerRow: 16 }, [4, 2]);
  const tex2 = device.createTexture({ size: { width: 4, height: 2 }, format: 'r32uint', usage: globals.GPUTextureUsage.COPY_DST | globals.GPUTextureUsage.COPY_SRC });
  const out = device.createBuffer({ size: 512, usage: U.COPY_DST | U.COPY_SRC });
  const module = device.createShaderModule({ code: `
    @group(0) @binding(0) var t: texture_storage_2d<r32uint, read_write>;
    @compute @workgroup_size(4, 2) fn main(@builtin(local_invocation_id) id: vec3u) {
      let v = textureLoad(t, id.xy); textureStore(t, id.xy, v * vec4u(10u)); }` });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module } });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: tex.createView() }] }));
  pass.dispatchWorkgroups(1);
  pass.end();
  enc.copyTextureToTexture({ texture: tex }, { texture: tex2 }, [4, 2]);
  enc.copyTextureToBuffer({ texture: tex2 }, { buffer: out, bytesPerRow: 256 }, [4, 2]);
  device.queue.submit([enc.finish()]);
  const words = await read(out);
  assert.deepEqual([...words.slice(0, 4)], [10, 20, 30, 40]);
  assert.deepEqual([...words.slice(64, 68)], [50, 60, 70, 80]);
  assert.equal(tex.width, 4);
  assert.equal(tex.format, 'r32uint');
});

test('a pass of an encoder already invalid: no error until finish, which names the first one', async () => {
  device.pushErrorScope('validation');
  const bad = device.createBuffer({ size: 6, usage: U.STORAGE, label: 'odd-size' });
  await device.popErrorScope();
  const enc = device.createCommandEncoder({ label: 'spoilt' });
  enc.clearBuffer(bad); // invalidates the encoder
  device.pushErrorScope('validation');
  const pass = enc.beginComputePass();
  pass.dispatchWorkgroups(1);
  pass.end();
  assert.equal(await device.popErrorScope(), null);
  device.pushErrorScope('validation');
  enc.finish();
  assert.match((await device.popErrorScope()).message, /'spoilt'.*'odd-size'/);
});
