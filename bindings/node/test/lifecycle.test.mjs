// lifecycle.test.mjs — the event loop and the process: a runaway shader
// loses the device (lost resolves, reason "unknown") and the process goes
// on; device.destroy(); timers fire during a multi-second dispatch; 100,000
// dropped buffers keep memory bounded; scripts exit on their own, with and
// without destroy(); the register entry and its environment variables;
// create(flags) refuses unknown flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { getDevice, runKernel, create, globals, GPUBufferUsage, GPUMapMode, runNode, packageDir } from './helpers.mjs';

const U = GPUBufferUsage;
const fixture = (f) => path.join(packageDir, 'test', 'fixtures', f);
const register = path.join(packageDir, 'register.mjs');

test('a runaway shader loses the device (budget flag); the process stays healthy', async () => {
  const { device } = await getDevice(['budget=200000']);
  const out = runKernel(device, `
    @group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(32) fn main() { loop { if (d[0] == 7u) { break; } d[1] = d[1] + 1u; } }`,
  [new Uint32Array(4)], 1, { label: 'spin.wgsl' });
  const info = await device.lost;
  assert.equal(info.reason, 'unknown');
  assert.match(info.message, /spin\.wgsl|budget|runaway|instruction/i);
  await assert.rejects(out, { name: 'AbortError' }); // the read-back map of a lost device
  // the lost device: calls do nothing, nothing throws, promises settle
  device.createBuffer({ size: 4, usage: U.STORAGE });
  await device.queue.onSubmittedWorkDone();
  assert.equal(await device.popErrorScope(), null);
  assert.ok(device[Symbol.for('lockstep')].warnings.some((w) => /lost/.test(w)));
  // and a new device works
  const { device: fresh } = await getDevice();
  const [r] = await runKernel(fresh, `@group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { d[i] = i + 1u; }`, [new Uint32Array(4)], 1);
  assert.deepEqual([...r], [1, 2, 3, 4]);
  fresh.destroy();
});

test('time-limit=MS: a submit that runs past its wall time loses the device (the GPU timeout)', async () => {
  const { device } = await getDevice(['time-limit=100', 'threads=1']);
  const t0 = performance.now();
  const out = runKernel(device, `@group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
      var x = id.x; for (var i = 0u; i < 2000000u; i++) { x = x * 1664525u + 1013904223u; } d[id.x] = x; }`,
  [new Uint32Array(64 * 64)], 64, { label: 'slow.wgsl' });
  const info = await device.lost;
  assert.equal(info.reason, 'unknown');
  assert.ok(performance.now() - t0 < 5000, 'lost long before the work would have ended');
  await assert.rejects(out, { name: 'AbortError' });
});

test('device.destroy(): lost resolves with "destroyed", pending maps abort, later calls do nothing', async () => {
  const { device } = await getDevice(['threads=1']);
  // work queued before the map, so that the map is still waiting when the
  // device goes (a map with nothing before it may complete first: the spec
  // allows that too)
  const busy = runKernel(device, `@group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
      var x = id.x; for (var i = 0u; i < 100000u; i++) { x = x * 1664525u + 1013904223u; } d[id.x] = x; }`,
  [new Uint32Array(64 * 64)], 64).catch((e) => e.name);
  const b = device.createBuffer({ size: 16, usage: U.MAP_READ });
  const m = b.mapAsync(GPUMapMode.READ).then(() => 'resolved', (e) => e.name);
  const w = device.createBuffer({ size: 16, usage: U.COPY_SRC, mappedAtCreation: true });
  const range = w.getMappedRange();
  device.destroy(); // unmaps every buffer of the device first (the spec)
  assert.equal(range.byteLength, 0, 'the mapped range is detached');
  assert.equal(w.mapState, 'unmapped');
  assert.equal(await busy, 'AbortError');
  const info = await device.lost;
  assert.equal(info.reason, 'destroyed');
  assert.equal(await m, 'AbortError');
  const after = device.createBuffer({ size: 16, usage: U.MAP_READ, label: 'after' });
  assert.ok(after instanceof globals.GPUBuffer);
  await assert.rejects(after.mapAsync(GPUMapMode.READ), { name: 'AbortError' });
  device.queue.submit([device.createCommandEncoder().finish()]);
  device.destroy(); // twice: fine
  const channel = device[Symbol.for('lockstep')];
  assert.equal(channel.warnings.filter((w) => /is lost/.test(w)).length, 1); // warned once
});

test('timers keep firing while a dispatch runs for seconds', async () => {
  const { device } = await getDevice(['threads=1']);
  const kernel = (n) => `@group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
      var x = id.x; for (var i = 0u; i < ${n}u; i++) { x = x * 1664525u + 1013904223u; } d[id.x] = x; }`;
  // calibrate: the loop count that makes the dispatch last about 1.5 s here
  // (the machine's load changes, so a run that was too short is redone longer)
  let t = performance.now();
  await runKernel(device, kernel(20000), [new Uint32Array(64 * 8)], 8);
  let n = Math.min(4e9, Math.ceil(20000 * 1500 / Math.max(1, performance.now() - t)));
  let ticks = 0;
  let gap = 0;
  let ms = 0;
  for (let attempt = 0; attempt < 4 && ms < 1000; attempt++) {
    if (attempt) n = Math.min(4e9, Math.ceil(n * 1500 / Math.max(ms, 1)));
    ticks = 0;
    gap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
      ticks++;
    }, 10);
    t = performance.now();
    await runKernel(device, kernel(n), [new Uint32Array(64 * 8)], 8);
    ms = performance.now() - t;
    clearInterval(timer);
  }
  assert.ok(ms > 1000, `the dispatch took ${ms.toFixed(0)} ms`);
  // a blocked loop would give one tick after the whole dispatch; on a
  // loaded machine a 10 ms timer still fires many times, with short gaps
  assert.ok(ticks >= (ms / 10) * 0.2, `${ticks} ticks in ${ms.toFixed(0)} ms`);
  assert.ok(gap < ms / 3, `the longest gap between ticks was ${gap.toFixed(0)} ms of ${ms.toFixed(0)} ms`);
  device.destroy();
});

// Node runs finalizers from the event loop, so the program yields between
// batches, as any program that awaits does.
test('100,000 buffers created and dropped keep memory bounded (finalizers release them)', async () => {
  assert.equal(typeof globalThis.gc, 'function', 'run with --expose-gc');
  const { device } = await getDevice();
  const rss = () => process.memoryUsage().rss;
  const churn = async (rounds) => {
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < 10000; i++) device.createBuffer({ size: 4096, usage: U.STORAGE });
      globalThis.gc();
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await churn(1);
  const before = rss();
  await churn(10); // 100,000 buffers: 400 MiB if nothing were released
  const grown = rss() - before;
  assert.ok(grown < 64 * 1024 * 1024, `RSS grew by ${(grown / 1048576).toFixed(1)} MiB`);
  device.destroy();
});

test('a script exits on its own when its work is done, with and without device.destroy()', () => {
  for (const extra of [[], ['destroy']]) {
    const r = runNode([fixture('idle.mjs'), ...extra], { timeout: 20000 });
    assert.equal(r.timedOut, false, `idle.mjs ${extra} did not exit`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /done/);
  }
});

test('handlers that throw: the exception reaches the process, events keep coming, nothing crashes', () => {
  const r = runNode([fixture('throwing.mjs')]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), ['listener boom', 'then boom', 'listener boom']);
});

test('worker threads: the addon refuses a second environment with a clear error', () => {
  const r = runNode(['-e', `
    require('./index.js');
    const { Worker } = require('node:worker_threads');
    const w = new Worker("try { require(process.argv[2]); } catch (e) { require('node:worker_threads').parentPort.postMessage(e.message); }",
      { eval: true, argv: [require.resolve('./index.js')] });
    w.on('message', (m) => { console.log(m); w.terminate(); });`]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /one Node\.js environment/);
});

test('register: navigator.gpu and the globals from the environment, for an unmodified browser-style script', () => {
  const sum = (1023 * 1024 / 2) * 2;
  for (const w of [8, 64]) {
    const r = runNode(['--import', register, fixture('job.mjs')], { env: { LOCKSTEP_SUBGROUP_SIZE: String(w) } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), `sum ${sum} W ${w}`);
  }
  const r = runNode(['--import', register, fixture('job.mjs'), 'destroy'], { env: { LOCKSTEP_PROFILE: 'amd' } });
  assert.equal(r.status, 0, r.stderr);
  const bad = runNode(['--import', register, fixture('job.mjs')], { env: { LOCKSTEP_SUBGROUP_SIZE: '12' } });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /subgroup-size=12/);
});

test('create(flags): unknown flags and bad values are clear errors', () => {
  assert.throws(() => create(['warp=9']), /unknown flag "warp=9"/);
  assert.throws(() => create(['subgroup-size=12']), /8, 16, 32 or 64/);
  assert.throws(() => create(['profile=cray']), /unknown profile.*nvidia/);
  assert.throws(() => create(['threads=many']), /threads/);
  assert.throws(() => create('check'), TypeError);
  assert.ok(create(['subgroup-size=16', 'profile=apple', 'threads=2', 'budget=1000000']) instanceof globals.GPU);
});
