// buffer.test.mjs — GPUBuffer mapping as the spec has it: mapState through
// a map's life, mapAsync's rejections (OperationError on a validation
// failure, AbortError when unmapped or destroyed first), getMappedRange's
// alignment, range and overlap rules (OperationError), ArrayBuffers detached
// on unmap, mappedAtCreation, READ-mapped writes discarded; and
// queue.writeBuffer's element and byte counting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDevice, globals, GPUBufferUsage, GPUMapMode } from './helpers.mjs';

const U = GPUBufferUsage;
const { device } = await getDevice();

async function readBack(buf, size = buf.size) {
  const r = device.createBuffer({ size, usage: U.MAP_READ | U.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, r, 0, size);
  device.queue.submit([enc.finish()]);
  await r.mapAsync(GPUMapMode.READ);
  const out = new Uint8Array(r.getMappedRange().slice(0));
  r.destroy();
  return out;
}

test('mapState: unmapped, pending from the call, mapped once resolved, unmapped after unmap', async () => {
  const b = device.createBuffer({ size: 64, usage: U.MAP_READ });
  assert.equal(b.mapState, 'unmapped');
  const p = b.mapAsync(GPUMapMode.READ);
  assert.equal(b.mapState, 'pending');
  await p;
  assert.equal(b.mapState, 'mapped');
  b.unmap();
  assert.equal(b.mapState, 'unmapped');
  // a validation failure is still "pending" until its rejection arrives
  const bad = b.mapAsync(GPUMapMode.WRITE);
  assert.equal(b.mapState, 'pending');
  await assert.rejects(bad, (e) => e.name === 'OperationError');
  assert.equal(b.mapState, 'unmapped');
});

test('mapAsync rejections: OperationError (+ validation error) without MAP_READ, misaligned, out of range, already pending', async () => {
  const storage = device.createBuffer({ size: 64, usage: U.STORAGE, label: 'no-map' });
  device.pushErrorScope('validation');
  await assert.rejects(storage.mapAsync(GPUMapMode.READ), (e) => e instanceof DOMException && e.name === 'OperationError');
  const v = await device.popErrorScope();
  assert.ok(v instanceof globals.GPUValidationError);
  assert.match(v.message, /no-map/);
  const b = device.createBuffer({ size: 64, usage: U.MAP_READ });
  for (const [offset, size] of [[4, 8], [0, 6], [56, 16], [72, undefined]]) {
    device.pushErrorScope('validation');
    await assert.rejects(b.mapAsync(GPUMapMode.READ, offset, size), { name: 'OperationError' }, `${offset} ${size}`);
    assert.ok(await device.popErrorScope(), `${offset} ${size}`);
  }
  device.pushErrorScope('validation');
  await assert.rejects(b.mapAsync(GPUMapMode.READ | GPUMapMode.WRITE), { name: 'OperationError' });
  assert.ok(await device.popErrorScope());
  const first = b.mapAsync(GPUMapMode.READ);
  device.pushErrorScope('validation');
  await assert.rejects(b.mapAsync(GPUMapMode.READ), { name: 'OperationError' });
  assert.ok(await device.popErrorScope()); // the early-reject steps raise a validation error too
  await first;
  b.unmap();
});

test('mapAsync is aborted (AbortError) by unmap or destroy before it resolves', async () => {
  const b = device.createBuffer({ size: 64, usage: U.MAP_READ });
  const p = b.mapAsync(GPUMapMode.READ);
  b.unmap();
  assert.equal(b.mapState, 'unmapped');
  await assert.rejects(p, (e) => e instanceof DOMException && e.name === 'AbortError');
  const q = b.mapAsync(GPUMapMode.READ);
  b.destroy();
  await assert.rejects(q, { name: 'AbortError' });
  // a destroyed buffer: the map fails (validation)
  device.pushErrorScope('validation');
  await assert.rejects(b.mapAsync(GPUMapMode.READ), { name: 'OperationError' });
  assert.ok(await device.popErrorScope());
});

test('getMappedRange: offset multiple of 8, size of 4, inside the mapped range, no overlap (OperationError)', async () => {
  const b = device.createBuffer({ size: 64, usage: U.MAP_WRITE });
  assert.throws(() => b.getMappedRange(), { name: 'OperationError' }); // not mapped
  await b.mapAsync(GPUMapMode.WRITE, 8, 48); // [8, 56)
  assert.throws(() => b.getMappedRange(0, 8), { name: 'OperationError', message: /outside the mapped range/ });
  assert.throws(() => b.getMappedRange(12, 4), { name: 'OperationError', message: /multiple of 8/ });
  assert.throws(() => b.getMappedRange(8, 6), { name: 'OperationError', message: /multiple of 4/ });
  assert.throws(() => b.getMappedRange(48, 16), { name: 'OperationError' });
  const a = b.getMappedRange(8, 16);
  assert.equal(a.byteLength, 16);
  assert.throws(() => b.getMappedRange(16, 8), { name: 'OperationError', message: /overlaps/ });
  const c = b.getMappedRange(24, 8);
  const z = b.getMappedRange(32, 0); // an empty range overlaps nothing
  assert.equal(z.byteLength, 0);
  new Uint32Array(a).set([1, 2, 3, 4]);
  new Uint32Array(c).set([5, 6]);
  b.unmap();
  assert.equal(a.byteLength, 0); // detached
  assert.equal(c.byteLength, 0);
  assert.throws(() => new Uint32Array(a), TypeError);
  // what was written through the ArrayBuffers is the buffer's new content
  const src = device.createBuffer({ size: 64, usage: U.MAP_WRITE | U.COPY_SRC });
  await src.mapAsync(GPUMapMode.WRITE);
  new Uint32Array(src.getMappedRange()).set([7, 8, 9]);
  src.unmap();
  const bytes = await readBack(src, 16);
  assert.deepEqual([...new Uint32Array(bytes.buffer)], [7, 8, 9, 0]);
});

test('a READ mapping is a copy: what the program writes into it is discarded at unmap', async () => {
  const b = device.createBuffer({ size: 16, usage: U.MAP_READ | U.COPY_DST });
  device.queue.writeBuffer(b, 0, new Uint32Array([10, 20, 30, 40]));
  await b.mapAsync(GPUMapMode.READ);
  const view = new Uint32Array(b.getMappedRange());
  assert.deepEqual([...view], [10, 20, 30, 40]);
  view[0] = 99;
  b.unmap();
  await b.mapAsync(GPUMapMode.READ);
  assert.deepEqual([...new Uint32Array(b.getMappedRange())], [10, 20, 30, 40]);
  b.unmap();
});

test('mappedAtCreation: mapped at once, any usage, contents kept at unmap; an invalid one still maps', async () => {
  const b = device.createBuffer({ size: 16, usage: U.COPY_SRC, mappedAtCreation: true });
  assert.equal(b.mapState, 'mapped');
  new Float32Array(b.getMappedRange()).set([1.5, 2.5, -3, 4]);
  b.unmap();
  assert.equal(b.mapState, 'unmapped');
  assert.deepEqual([...new Float32Array((await readBack(b)).buffer)], [1.5, 2.5, -3, 4]);
  // a size that is not a multiple of 4 is the content timeline's RangeError
  // (spec/index.bs createBuffer), before any validation
  device.pushErrorScope('validation');
  assert.throws(() => device.createBuffer({ size: 6, usage: U.STORAGE, mappedAtCreation: true }),
    { name: 'RangeError', message: /multiple of 4 \(size 6\)/ });
  assert.equal(await device.popErrorScope(), null);
  device.pushErrorScope('validation');
  const bad = device.createBuffer({ size: 8, usage: U.STORAGE | U.MAP_READ, mappedAtCreation: true, label: 'odd' });
  assert.match((await device.popErrorScope()).message, /odd/);
  assert.equal(bad.mapState, 'mapped');
  const r = bad.getMappedRange(0, 4);
  assert.equal(r.byteLength, 4);
  bad.unmap();
  assert.equal(r.byteLength, 0);
});

test('writeBuffer: dataOffset and size count elements of a TypedArray and bytes of an ArrayBuffer or DataView', async () => {
  const b = device.createBuffer({ size: 32, usage: U.COPY_DST | U.COPY_SRC });
  const words = new Uint32Array([1, 2, 3, 4, 5, 6, 7, 8]);
  device.queue.writeBuffer(b, 0, words, 2, 3); // elements 2..4 -> bytes 0..11
  device.queue.writeBuffer(b, 16, words.buffer, 4, 8); // bytes 4..11 of the ArrayBuffer -> 16..23
  device.queue.writeBuffer(b, 24, new DataView(words.buffer, 28), 0, 4); // the last word
  const got = new Uint32Array((await readBack(b)).buffer);
  assert.deepEqual([...got], [3, 4, 5, 0, 2, 3, 8, 0]);
  // a Float64Array view in the middle of a larger ArrayBuffer
  const f = new Float64Array(new ArrayBuffer(64), 16, 4).fill(0.5);
  device.queue.writeBuffer(b, 0, f, 1, 2);
  assert.deepEqual([...new Float64Array((await readBack(b)).buffer, 0, 2)], [0.5, 0.5]);
});

test('writeBuffer: OperationError for sizes past the data or not a multiple of 4 bytes; validation errors for the buffer side', async () => {
  const b = device.createBuffer({ size: 16, usage: U.COPY_DST, label: 'dst' });
  const bytes = new Uint8Array(8);
  assert.throws(() => device.queue.writeBuffer(b, 0, bytes, 10), { name: 'OperationError' });
  assert.throws(() => device.queue.writeBuffer(b, 0, bytes, 4, 8), { name: 'OperationError' });
  assert.throws(() => device.queue.writeBuffer(b, 0, bytes, 0, 3), { name: 'OperationError', message: /multiple of 4/ });
  assert.throws(() => device.queue.writeBuffer(b, 0, new Uint16Array(3)), { name: 'OperationError' });
  device.queue.writeBuffer(b, 0, new Uint16Array(2)); // 4 bytes: fine
  for (const [offset, data] of [[2, new Uint32Array(1)], [16, new Uint32Array(1)]]) {
    device.pushErrorScope('validation');
    device.queue.writeBuffer(b, offset, data);
    assert.match((await device.popErrorScope())?.message ?? '', /dst/, `offset ${offset}`);
  }
  const noCopy = device.createBuffer({ size: 16, usage: U.STORAGE, label: 'no-copy-dst' });
  device.pushErrorScope('validation');
  device.queue.writeBuffer(noCopy, 0, new Uint32Array(4));
  assert.match((await device.popErrorScope()).message, /no-copy-dst/);
});

test('buffers used after destroy: a submit that uses one is a validation error, and nothing runs', async () => {
  const a = device.createBuffer({ size: 16, usage: U.COPY_SRC | U.COPY_DST, label: 'gone' });
  const c = device.createBuffer({ size: 16, usage: U.COPY_DST | U.COPY_SRC, label: 'kept' });
  device.queue.writeBuffer(c, 0, new Uint32Array([1, 2, 3, 4]));
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(a, c); // the 2- and 3-argument overload: whole buffer
  const cb = enc.finish();
  a.destroy();
  a.destroy(); // idempotent
  device.pushErrorScope('validation');
  device.queue.submit([cb]);
  const e = await device.popErrorScope();
  assert.match(e.message, /gone/);
  assert.deepEqual([...new Uint32Array((await readBack(c)).buffer)], [1, 2, 3, 4]);
  device.pushErrorScope('validation');
  device.queue.writeBuffer(a, 0, new Uint32Array(4));
  assert.ok(await device.popErrorScope());
});

test('a mapped range the program keeps after dropping its buffer stays valid memory', async () => {
  const kept = [];
  for (let i = 0; i < 200; i++) {
    const b = device.createBuffer({ size: 1 << 16, usage: U.MAP_WRITE });
    await b.mapAsync(GPUMapMode.WRITE);
    kept.push(b.getMappedRange());
    if (i % 2) b.unmap();
  }
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setImmediate(r));
  }
  let live = 0;
  for (const ab of kept) {
    if (ab.byteLength === 0) continue; // unmapped: detached
    new Uint8Array(ab).fill(7); // would be a use after free if the buffer had been released
    live++;
  }
  assert.equal(live, 100);
});
