// capture.test.mjs — lockstep-webgpu/capture: a program with several
// dispatches, two modules, ping-pong buffers, writeBuffer between submits,
// copies, a clear and dynamic offsets (capture/program.mjs) is recorded on
// lockstep and on Dawn; the capture must not change what the program reads;
// each case replays on lockstep and on Dawn to the bytes the program read
// (and, for spans the program did not read, to the bytes the recorder read
// after them). Dawn (../shared/peers/setup.sh) missing: its parts skip.
// Also: a program with textures (capture/textures.mjs), capture=DIR and
// LOCKSTEP_CAPTURE, an unwritable directory, span names, late readbacks,
// what is not captured, and the replayer's refusals (unknown name, digest,
// output).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { create, globals, packageDir } from './helpers.mjs';
import { loadProvider } from './seeds/provider.mjs';
import { run } from './capture/program.mjs';
import { run as runTextures } from './capture/textures.mjs';

const require = createRequire(import.meta.url);
const capture = require('../capture.js');
const REPLAY = path.join(packageDir, 'tools', 'replay.mjs');
const D = await loadProvider('dawn');
const noDawn = D.missing || false;
if (noDawn) console.log(`capture: Dawn parts skipped: ${noDawn}`);

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-capture-'));
const lockstepImpl = { name: 'lockstep', create, globals };
const dawnImpl = () => ({ name: 'dawn', create: D.create, globals: D.globals, flags: ['backend=opengles'], featureLevel: 'compatibility' });

async function device(impl) {
  const adapter = await impl.create(impl.flags ?? []).requestAdapter(impl.featureLevel ? { featureLevel: impl.featureLevel } : {});
  return adapter.requestDevice();
}

// Runs the program plainly and under the recorder on impl; returns the
// capture's files and both readbacks.
async function captured(impl, dir) {
  const plainDevice = await device(impl);
  const plain = await run(plainDevice, impl.globals);
  plainDevice.destroy();
  const gpu = capture.wrapGPU(impl.create(impl.flags ?? []), { dir, implementation: impl.name, quiet: true });
  const adapter = await gpu.requestAdapter(impl.featureLevel ? { featureLevel: impl.featureLevel } : {});
  const dev = await adapter.requestDevice();
  const got = await run(dev, impl.globals);
  const rec = capture.recorderOf(dev);
  const files = await rec.flush();
  assert.deepEqual(rec.errors, []);
  rec.detach();
  dev.destroy();
  return { files, plain, got };
}

const hexOf = (result) => Object.fromEntries(Object.entries(result.buffers).map(([k, v]) => [k, v.hex]));

async function replayMatches(file, impl) {
  const reference = JSON.parse(fs.readFileSync(file.replace(/\.json$/, '.result.json'), 'utf8'));
  const { result, errors } = await capture.replay(capture.loadCase(file), impl);
  assert.deepEqual(errors, [], `${path.basename(file)} on ${impl.name}`);
  assert.ok(Object.keys(reference.buffers).length > 0);
  assert.deepEqual(hexOf(result), hexOf(reference), `${path.basename(file)} replayed on ${impl.name}`);
}

for (const [where, impl] of [['lockstep', () => lockstepImpl], ['Dawn', dawnImpl]]) {
  test(`captured on ${where}: same results, two cases, each replays on lockstep and Dawn to the same bytes`,
    { skip: where === 'Dawn' && noDawn }, async () => {
      const dir = tmp();
      try {
        const { files, plain, got } = await captured(impl(), dir);
        assert.deepEqual([...got], [...plain], 'the capture changed what the program read');
        assert.deepEqual(files.map((f) => path.basename(f)), ['scan_first.json', 'capture_0002.json']);
        const second = JSON.parse(fs.readFileSync(files[1], 'utf8'));
        // the program's readback is the reference, in the program's bytes
        const ref = JSON.parse(fs.readFileSync(path.join(dir, 'capture_0002.result.json'), 'utf8'));
        assert.deepEqual(ref.buffers.r0_b5.hex.map((h) => parseInt(h, 16)), [...plain]);
        // what the second submit did, in order: the uniform written between
        // the submits is in k's contents; copy, clear, two dispatches, copy
        assert.deepEqual(second.commands.map((c) => c.op),
          ['copyBufferToBuffer', 'clearBuffer', 'dispatch', 'dispatch', 'copyBufferToBuffer', 'readback']);
        assert.deepEqual(second.commands[2].bindGroups[0].dynamicOffsets, [5 * 256]);
        assert.equal(Object.keys(second.modules).length, 2);
        const first = JSON.parse(fs.readFileSync(files[0], 'utf8'));
        assert.deepEqual(first.commands.filter((c) => c.op === 'dispatch').map((c) => c.bindGroups[0].dynamicOffsets ?? []),
          [[0], [256], [512], [768], []]);
        // side files carry their digest
        const steps = Object.values(second.buffers).find((b) => b.label === 'steps');
        assert.equal(steps.init.bytes, 2048);
        for (const f of files) {
          await replayMatches(f, lockstepImpl);
          if (!noDawn) await replayMatches(f, dawnImpl());
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
}

test('the command-line replayer: --impl, --out, exit status 2 for a bad case (unknown name, digest, short side file, truncated JSON, format, range), 3 for an unwritable result', () => {
  const dir = tmp();
  try {
    const caseFile = path.join(dir, 'c.json');
    const c = {
      format: 'wgsl-compute-case/2', name: 'c',
      modules: { m: { code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) i: vec3u) { a[i.x] = a[i.x] * 3u + i.x; }' } },
      buffers: { a: { size: 16, usage: ['storage'], init: { data: [1, 2, 3, 4] } } },
      pipelines: { p: { module: 'm' } },
      bindGroups: { g: { layout: { pipeline: 'p', group: 0 }, entries: [{ binding: 0, buffer: 'a' }] } },
      commands: [{ op: 'dispatch', pipeline: 'p', bindGroups: [{ group: 0, bindGroup: 'g' }], workgroups: [1] },
        { op: 'readback', name: 'a', buffer: 'a' }],
    };
    fs.writeFileSync(caseFile, JSON.stringify(c));
    const out = path.join(dir, 'r.json');
    let r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep', '--out', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(out, 'utf8')).buffers.a.values, [3, 7, 11, 15]);

    c.commands[0].bindGroups[0].bindGroup = 'g9';
    fs.writeFileSync(caseFile, JSON.stringify(c));
    r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /c\.json: commands\[0\]\.bindGroups\[0\]\.bindGroup: no bind group named "g9"/);

    c.commands[0].bindGroups[0].bindGroup = 'g';
    fs.writeFileSync(path.join(dir, 'a.bin'), Buffer.alloc(16, 1));
    c.buffers.a.init = { file: 'a.bin', bytes: 16, sha256: '0'.repeat(64) };
    fs.writeFileSync(caseFile, JSON.stringify(c));
    r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /c\.json: buffers\.a\.init\.sha256: a\.bin has SHA-256 [0-9a-f]{64}, not 0{64}/);

    fs.writeFileSync(path.join(dir, 'a.bin'), Buffer.alloc(12, 1));
    c.buffers.a.init = { file: 'a.bin', bytes: 16, sha256: '0'.repeat(64) };
    fs.writeFileSync(caseFile, JSON.stringify(c));
    r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /c\.json: buffers\.a\.init\.file: a\.bin holds 12 bytes, not 16/);

    fs.writeFileSync(caseFile, JSON.stringify(c).slice(0, 100));
    r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /c\.json: not JSON: /);

    fs.writeFileSync(caseFile, JSON.stringify({ ...c, format: 'wgsl-compute-case/1' }));
    r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /c\.json: format: "wgsl-compute-case\/1": this replayer reads wgsl-compute-case\/2/);

    c.buffers.a.init = { data: [1, 2, 3, 4] };
    c.commands.splice(1, 0, { op: 'copyBufferToBuffer', src: 'a', dst: 'a', dstOffset: 8, size: 16 });
    fs.writeFileSync(caseFile, JSON.stringify(c));
    r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /commands\[1\]\.size: 16 bytes at 8 run past the 16 bytes of a/);

    c.commands.splice(1, 1);
    fs.writeFileSync(caseFile, JSON.stringify(c));
    r = spawnSync(process.execPath, [REPLAY, caseFile, '--impl', 'lockstep', '--out', path.join(dir, 'no', 'such', 'dir', 'r.json')], { encoding: 'utf8' });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /cannot write .*r\.json: ENOENT/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('capture=DIR: an unwritable directory is an Error at create() and nothing is written', () => {
  const dir = tmp();
  try {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    assert.throws(() => create([`capture=${path.join(file, 'sub')}`]), /lockstep capture: cannot write to the capture directory .*a-file\/sub: (ENOTDIR|EEXIST)/);
    assert.throws(() => create(['capture=']), /capture=: expected a directory name/);
    assert.throws(() => create(['capture-mode=often']), /capture-mode=often: expected submit or span/);
    assert.deepEqual(fs.readdirSync(dir), ['a-file']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('LOCKSTEP_CAPTURE with --import register records a browser-style script, at exit without flush()', () => {
  const dir = tmp();
  try {
    const script = path.join(dir, 'app.mjs');
    fs.writeFileSync(script, `import { run } from ${JSON.stringify(path.join(packageDir, 'test', 'capture', 'program.mjs'))};
const device = await (await navigator.gpu.requestAdapter()).requestDevice();
const out = await run(device, globalThis);
console.log(out[0], out[255]);
`);
    const caps = path.join(dir, 'caps');
    const r = spawnSync(process.execPath, ['--import', path.join(packageDir, 'register.mjs'), script],
      { encoding: 'utf8', env: { ...process.env, LOCKSTEP_CAPTURE: caps } });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(fs.readdirSync(caps).sort(), ['capture_0002.json', 'capture_0002.result.json', 'capture_0002.b3.bin',
      'scan_first.b3.bin', 'scan_first.json', 'scan_first.result.json'].sort());
    const ref = JSON.parse(fs.readFileSync(path.join(caps, 'capture_0002.result.json'), 'utf8'));
    assert.equal(r.stdout.trim(), `${parseInt(ref.buffers.r0_b5.hex[0], 16)} ${parseInt(ref.buffers.r0_b5.hex[255], 16)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("mode 'span': only begin()/end() spans are written, under their names, with the work inside them", async () => {
  const dir = tmp();
  try {
    const gpu = capture.wrapGPU(create(), { dir, mode: 'span', quiet: true });
    const dev = await (await gpu.requestAdapter()).requestDevice();
    const rec = capture.recorderOf(dev);
    const U = globals.GPUBufferUsage;
    const m = dev.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(1) fn main() { a[0] += 1u; }' });
    const p = dev.createComputePipeline({ layout: 'auto', compute: { module: m } });
    const a = dev.createBuffer({ size: 4, usage: U.STORAGE });
    const g = dev.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a } }] });
    const once = () => {
      const e = dev.createCommandEncoder();
      const pass = e.beginComputePass();
      pass.setPipeline(p);
      pass.setBindGroup(0, g);
      pass.dispatchWorkgroups(1);
      pass.end();
      dev.queue.submit([e.finish()]);
    };
    once();              // outside any span: not recorded; a is 1 after it
    rec.begin('twice');
    once();
    once();
    assert.throws(() => rec.begin('again'), /the span "twice" is still open/);
    const file = await rec.end();
    assert.throws(() => rec.end(), /no span is open/);
    once();
    assert.deepEqual((await rec.flush()).map((f) => path.basename(f)), ['twice.json']);
    assert.equal(file, path.join(dir, 'twice.json'));
    const c = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(c.commands.map((x) => x.op), ['dispatch', 'submit', 'dispatch', 'readback']);
    assert.deepEqual(Object.values(c.buffers)[0].init, { data: ['0x00000001'] });
    const ref = JSON.parse(fs.readFileSync(path.join(dir, 'twice.result.json'), 'utf8'));
    assert.deepEqual(Object.values(ref.buffers)[0].values, [3]);
    rec.detach();
    dev.destroy();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that cannot be written leaves none of its files; the error is in rec.errors', async () => {
  const dir = tmp();
  try {
    // a directory where the first span's result file would go
    fs.mkdirSync(path.join(dir, 'scan_first.result.json'));
    const gpu = capture.wrapGPU(create(), { dir, quiet: true });
    const dev = await (await gpu.requestAdapter()).requestDevice();
    await run(dev, globals);
    const rec = capture.recorderOf(dev);
    const files = await rec.flush();
    assert.deepEqual(files.map((f) => path.basename(f)), ['capture_0002.json']);
    assert.equal(rec.errors.length, 1);
    assert.match(rec.errors[0], /cannot write .*scan_first\.json: .*(EISDIR|ENOTEMPTY|EEXIST)/);
    // scan_first's side file and temporaries are gone, the other span is whole
    assert.deepEqual(fs.readdirSync(dir).sort(), ['capture_0002.b3.bin', 'capture_0002.json', 'capture_0002.result.json', 'scan_first.result.json']);
    rec.detach();
    dev.destroy();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('what is not captured is in the notes: a depth texture copy, timestamp writes; the work around it is', async () => {
  const dir = tmp();
  try {
    const gpu = capture.wrapGPU(create(), { dir, quiet: true });
    const dev = await (await gpu.requestAdapter()).requestDevice({ requiredFeatures: ['timestamp-query'] });
    const U = globals.GPUBufferUsage;
    const m = dev.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(1) fn main() { a[0] = 7u; }' });
    const p = dev.createComputePipeline({ layout: 'auto', compute: { module: m } });
    const a = dev.createBuffer({ size: 1024, usage: U.STORAGE | U.COPY_SRC });
    const tex = dev.createTexture({ size: [4, 4], format: 'depth16unorm', usage: globals.GPUTextureUsage.COPY_DST });
    const qs = dev.createQuerySet({ type: 'timestamp', count: 2 });
    const e = dev.createCommandEncoder();
    const pass = e.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } });
    pass.setPipeline(p);
    pass.setBindGroup(0, dev.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a } }] }));
    pass.dispatchWorkgroups(1);
    pass.end();
    e.copyBufferToTexture({ buffer: a, bytesPerRow: 256 }, { texture: tex, aspect: 'depth-only' }, [4, 4]);
    dev.queue.submit([e.finish()]);
    const rec = capture.recorderOf(dev);
    const [file] = await rec.flush();
    const c = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(c.notes.sort(), ['copyBufferToTexture: a texture whose texels are not recorded (depth16unorm) is not captured',
      'device: requiredFeatures "timestamp-query" left out (the recorded work does not use it)',
      'timestamp writes of a compute pass are not captured'].sort());
    assert.deepEqual(c.commands.map((x) => x.op), ['dispatch', 'readback']);
    const ref = JSON.parse(fs.readFileSync(file.replace(/\.json$/, '.result.json'), 'utf8'));
    assert.equal(Object.values(ref.buffers)[0].values[0], 7);
    rec.detach();
    dev.destroy();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a readback after the next span began joins the span that wrote the buffer, whose files are written again', async () => {
  const dir = tmp();
  try {
    const gpu = capture.wrapGPU(create(), { dir, quiet: true });
    const dev = await (await gpu.requestAdapter()).requestDevice();
    const U = globals.GPUBufferUsage;
    const m = dev.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { a[i] = a[i] * 2u + i; }' });
    const p = dev.createComputePipeline({ layout: 'auto', compute: { module: m } });
    const a = dev.createBuffer({ size: 16, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
    dev.queue.writeBuffer(a, 0, new Uint32Array([10, 20, 30, 40]));
    const g = dev.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a } }] });
    const staging = dev.createBuffer({ size: 16, usage: U.MAP_READ | U.COPY_DST });
    const submit = (copy) => {
      const e = dev.createCommandEncoder();
      const pass = e.beginComputePass();
      pass.setPipeline(p);
      pass.setBindGroup(0, g);
      pass.dispatchWorkgroups(1);
      pass.end();
      if (copy) e.copyBufferToBuffer(a, 0, staging, 0, 16);
      dev.queue.submit([e.finish()]);
    };
    submit(true);     // span 1: a = 20, 41, 62, 83, copied to staging
    submit(false);    // span 2 begins: span 1 is closed and written
    const rec = capture.recorderOf(dev);
    await dev.queue.onSubmittedWorkDone();
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(rec.written.map((f) => path.basename(f)), ['capture_0001.json']);
    await staging.mapAsync(globals.GPUMapMode.READ);
    assert.deepEqual([...new Uint32Array(staging.getMappedRange())], [20, 41, 62, 83]);
    staging.unmap();
    await rec.flush();
    const c1 = JSON.parse(fs.readFileSync(path.join(dir, 'capture_0001.json'), 'utf8'));
    // the span's own end read of a (b0; the map-read staging b1 cannot be
    // copied from), then the program's read of staging
    assert.deepEqual(c1.commands.filter((x) => x.op === 'readback').map((x) => x.name), ['end_b0', 'r0_b1']);
    const ref = JSON.parse(fs.readFileSync(path.join(dir, 'capture_0001.result.json'), 'utf8'));
    assert.deepEqual(ref.buffers.r0_b1.values, [20, 41, 62, 83]);
    assert.deepEqual(ref.buffers.end_b0.values, [20, 41, 62, 83]);
    // span 2 read its own end state: a = 40, 83, 126, 169
    const ref2 = JSON.parse(fs.readFileSync(path.join(dir, 'capture_0002.result.json'), 'utf8'));
    assert.deepEqual(Object.values(ref2.buffers).map((b) => b.values), [[40, 83, 126, 169]]);
    for (const f of ['capture_0001.json', 'capture_0002.json']) await replayMatches(path.join(dir, f), lockstepImpl);
    rec.detach();
    dev.destroy();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// f32 words within `ulp` units in the last place (both NaN, or equal bits).
function ulpApart(a, b) {
  const f = new Float32Array(1), i = new Int32Array(f.buffer);
  const ord = (w) => { i[0] = w; return i[0] < 0 ? -(i[0] & 0x7fffffff) : i[0]; };
  return Math.abs(ord(parseInt(a, 16) | 0) - ord(parseInt(b, 16) | 0));
}

for (const [where, impl] of [['lockstep', () => lockstepImpl], ['Dawn', dawnImpl]]) {
  test(`textures captured on ${where}: mip levels, a sampler, a storage texture, texture copies; replayed on both`,
    { skip: where === 'Dawn' && noDawn }, async () => {
      const dir = tmp();
      try {
        const im = impl();
        const plainDevice = await device(im);
        const plain = await runTextures(plainDevice, im.globals);
        plainDevice.destroy();
        const gpu = capture.wrapGPU(im.create(im.flags ?? []), { dir, quiet: true });
        const dev = await (await gpu.requestAdapter(im.featureLevel ? { featureLevel: im.featureLevel } : {})).requestDevice();
        const got = await runTextures(dev, im.globals);
        assert.deepEqual([...got], [...plain], 'the capture changed what the program read');
        const rec = capture.recorderOf(dev);
        const [file] = await rec.flush();
        assert.deepEqual(rec.errors, []);
        const c = JSON.parse(fs.readFileSync(file, 'utf8'));
        assert.equal(c.notes, undefined);
        assert.deepEqual(Object.values(c.textures).map((t) => [t.label, t.format, t.mipLevelCount ?? 1]),
          [['src', 'rgba8unorm', 2], ['mid', 'r32float', 1], ['copy', 'r32float', 1]]);
        // level 1 of src, written before the submit, leads the commands
        assert.deepEqual(c.commands[0], { ...c.commands[0], op: 'writeTexture', mipLevel: 1, size: [4, 4, 1] });
        assert.deepEqual(c.commands[0].data.data.slice(0, 2), ['0x67666564', '0x6b6a6968']);
        assert.deepEqual(c.commands.map((x) => x.op).slice(1),
          ['dispatch', 'copyTextureToTexture', 'dispatch', 'copyBufferToBuffer', 'copyTextureToBuffer', 'readback']);
        const ref = JSON.parse(fs.readFileSync(file.replace(/\.json$/, '.result.json'), 'utf8'));
        // one readback, of the staging buffer (its number differs: lockstep's
        // binding makes a buffer of its own for copyTextureToTexture)
        const [name] = Object.keys(ref.buffers);
        assert.match(name, /^r0_b[0-9]+$/);
        assert.deepEqual(ref.buffers[name].hex.map((h) => parseInt(h, 16)), [...plain]);
        for (const on of [lockstepImpl, ...(noDawn ? [] : [dawnImpl()])]) {
          const { result, errors } = await capture.replay(capture.loadCase(file), on);
          assert.deepEqual(errors, []);
          const a = result.buffers[name].hex, b = ref.buffers[name].hex;
          if (on.name === im.name) assert.deepEqual(a, b, `replayed on ${on.name}, which captured it`);
          // Dawn on llvmpipe converts rgba8unorm texels 1 ULP from the
          // nearest f32 (100/255), lockstep to the nearest: within 2 ULP
          else a.forEach((h, k) => assert.ok(ulpApart(h, b[k]) <= 2, `word ${k}: ${h} vs ${b[k]} on ${on.name}`));
        }
        // and the C replayer, lockstep run, gives lockstep's capture its bits
        const cli = process.env.LOCKSTEP_CLI || path.join(packageDir, '..', '..', 'build', 'lockstep');
        if (where === 'lockstep' && fs.existsSync(cli)) {
          const r = spawnSync(cli, ['run', file, '--expect', file.replace(/\.json$/, '.result.json'), '--quiet'], { encoding: 'utf8' });
          assert.equal(r.status, 0, r.stdout + r.stderr);
        }
        rec.detach();
        dev.destroy();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
}

test('a copy from a buffer the program made without COPY_SRC is still its validation error under the recorder', async () => {
  const dir = tmp();
  try {
    const messages = [];
    for (const recorded of [false, true]) {
      const g = recorded ? capture.wrapGPU(create(), { dir, quiet: true }) : create();
      const dev = await (await g.requestAdapter()).requestDevice();
      const U = globals.GPUBufferUsage;
      const a = dev.createBuffer({ label: 'no-copy-src', size: 16, usage: U.STORAGE });
      assert.equal(a.usage, U.STORAGE);
      const b = dev.createBuffer({ size: 16, usage: U.COPY_DST });
      dev.pushErrorScope('validation');
      const e = dev.createCommandEncoder();
      e.copyBufferToBuffer(a, 0, b, 0, 16);
      dev.queue.submit([e.finish()]);
      const err = await dev.popErrorScope();
      messages.push(err?.message);
      capture.recorderOf(dev)?.detach();
      dev.destroy();
    }
    assert.ok(messages[0], 'lockstep reports the missing COPY_SRC');
    assert.equal(messages[1], messages[0]);
    assert.match(messages[1], /no-copy-src.*COPY_SRC/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

for (const [where, impl] of [['lockstep', () => lockstepImpl], ['Dawn', dawnImpl]]) {
  test(`immediates captured on ${where} (setImmediates, an explicit layout's immediateSize) replay on both`,
    { skip: where === 'Dawn' && noDawn }, async () => {
      const dir = tmp();
      try {
        const im = impl();
        const gpu = capture.wrapGPU(im.create(im.flags ?? []), { dir, quiet: true });
        const dev = await (await gpu.requestAdapter(im.featureLevel ? { featureLevel: im.featureLevel } : {})).requestDevice();
        const G = im.globals, U = G.GPUBufferUsage;
        const m = dev.createShaderModule({ code: 'requires immediate_address_space;\nvar<immediate> k: vec2u;\n' +
          '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(1) fn main() { o[k.x] = k.x * 10u + k.y; }' });
        const bgl = dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: G.GPUShaderStage.COMPUTE, buffer: { type: 'storage' } }] });
        const p = dev.createComputePipeline({ layout: dev.createPipelineLayout({ bindGroupLayouts: [bgl], immediateSize: 8 }), compute: { module: m } });
        const o = dev.createBuffer({ size: 16, usage: U.STORAGE | U.COPY_SRC });
        const e = dev.createCommandEncoder();
        const pass = e.beginComputePass();
        pass.setPipeline(p);
        pass.setBindGroup(0, dev.createBindGroup({ layout: bgl, entries: [{ binding: 0, resource: { buffer: o } }] }));
        pass.setImmediates(0, new Uint32Array([1, 7]));
        pass.dispatchWorkgroups(1);
        pass.setImmediates(0, new Uint32Array([2]));      // k.y stays 7
        pass.dispatchWorkgroups(1);
        pass.end();
        dev.queue.submit([e.finish()]);
        const rec = capture.recorderOf(dev);
        const [file] = await rec.flush();
        const c = JSON.parse(fs.readFileSync(file, 'utf8'));
        assert.deepEqual(c.commands.filter((x) => x.op === 'dispatch').map((x) => x.immediates), [[1, 7], [2, 7]]);
        assert.equal(Object.values(c.pipelineLayouts)[0].immediateSize, 8);
        const ref = JSON.parse(fs.readFileSync(file.replace(/\.json$/, '.result.json'), 'utf8'));
        assert.deepEqual(ref.buffers.end_b0.values, [0, 17, 27, 0]);
        for (const on of [lockstepImpl, ...(noDawn ? [] : [dawnImpl()])]) {
          const { result, errors } = await capture.replay(capture.loadCase(file), on);
          assert.deepEqual(errors, []);
          assert.deepEqual(result.buffers.end_b0.values, [0, 17, 27, 0], on.name);
        }
        rec.detach();
        dev.destroy();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
}
