// The wrapper around the seed lessons' snippets: it obtains navigator.gpu
// from the provider (provider.mjs), opens a device per configuration, runs a
// snippet file verbatim with the names it expects in scope, creates and reads
// back buffers, and checks that every configuration gave the same bytes.
// The snippets themselves live in snippets/, copied by hand from the lessons.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SNIPPETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'snippets');
const AsyncFunction = (async () => {}).constructor;

// The text of snippets/NAME, exactly as it is in the file.
export function snippet(name) {
  return fs.readFileSync(path.join(SNIPPETS, name), 'utf8');
}

// Runs the JavaScript snippet NAME as the body of an async function whose
// parameters are the names of `scope`, and returns the snippet's own
// variables listed in `results` (read after its last line). Nothing is
// added to the snippet's text but that final `return { ... }`.
export async function runJs(name, scope = {}, results = []) {
  const body = `${snippet(name)}\n;return { ${results.join(', ')} };`;
  const fn = new AsyncFunction(...Object.keys(scope), body);
  return fn(...Object.values(scope));
}

// navigator.gpu as a browser script sees it. On a provider whose only
// adapter is at another feature level (Dawn on OpenGL ES: "compatibility"),
// a bare requestAdapter() asks for that level, as a page would have to.
export function navigatorFor(gpu, featureLevel) {
  if (featureLevel === 'core') return { gpu };
  return {
    gpu: {
      requestAdapter: (opts = {}) => gpu.requestAdapter({ featureLevel, ...opts }),
      getPreferredCanvasFormat: () => gpu.getPreferredCanvasFormat(),
      get wgslLanguageFeatures() { return gpu.wgslLanguageFeatures; },
    },
  };
}

// Limits a test needs above the defaults: asks for min(wanted, adapter's),
// the lesson-001 rule, so compatibility-level Dawn (128 invocations by
// default) can still run 256-invocation workgroups.
function limitsFor(adapter, wanted) {
  const out = {};
  for (const [k, v] of Object.entries(wanted || {})) out[k] = Math.min(v, adapter.limits[k]);
  return out;
}

// Opens one device of `provider` in configuration `config`. Uncaptured
// errors are collected in ctx.errors so a test can assert there were none.
export async function openDevice(provider, config, { requiredLimits } = {}) {
  const gpu = provider.create(config.flags);
  const navigator = navigatorFor(gpu, provider.featureLevel);
  const adapter = await navigator.gpu.requestAdapter();
  assert.ok(adapter, `${provider.name} ${config.name}: no adapter`);
  const device = await adapter.requestDevice({ requiredLimits: limitsFor(adapter, requiredLimits) });
  const errors = [];
  device.addEventListener('uncapturederror', (ev) => errors.push(ev.error.message));
  return { gpu, navigator, adapter, device, errors, config, provider };
}

// Runs body(ctx) once per configuration of the provider, each on a fresh
// device, and asserts that every configuration returned the same bytes
// (body returns an object of Uint8Array/TypedArray/ArrayBuffer or a plain
// value). Returns the first configuration's result.
export async function acrossConfigs(provider, body, opts = {}) {
  let first = null, firstName = null;
  for (const config of opts.configs || provider.configs) {
    const ctx = await openDevice(provider, config, opts);
    let out;
    try {
      out = await body(ctx);
      await ctx.device.queue.onSubmittedWorkDone();
      assert.deepEqual(ctx.errors, [], `${config.name}: uncaptured errors`);
      checkChannel(ctx);
    } finally {
      ctx.device.destroy();
    }
    const norm = normalise(out);
    if (first === null) { first = norm; firstName = config.name; continue; }
    assert.deepEqual(norm, first, `${config.name} gave other results than ${firstName}`);
  }
  return first;
}

// lockstep's own channel (device[Symbol.for('lockstep')], docs/node.md);
// undefined on other implementations.
export function lockstepChannel(device) {
  return device[Symbol.for('lockstep')];
}

// On lockstep, each configuration must be the one asked for (the adapter's
// subgroup width), and the race-free programs of these tests must give the
// sanitizer nothing to report.
function checkChannel({ device, config }) {
  const ch = lockstepChannel(device);
  if (!ch) return;
  const w = config.flags.find((f) => f.startsWith('subgroup-size='));
  if (w) assert.equal(ch.adapter.subgroupSize, Number(w.split('=')[1]), `${config.name}: subgroup width`);
  if (config.flags.includes('check'))
    assert.deepEqual(ch.findings.map((f) => f.text || f.message), [], `${config.name}: sanitizer findings`);
}

function normalise(v) {
  if (v instanceof ArrayBuffer) return Buffer.from(v.slice(0));
  if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = normalise(x);
    return o;
  }
  return v;
}

// A storage buffer filled from a typed array (mappedAtCreation), with
// COPY_SRC so it can be read back. Size rounded up to 4 and to at least 16.
export function bufferFrom(device, data, usage, label) {
  const size = Math.max(16, Math.ceil(data.byteLength / 4) * 4);
  const buf = device.createBuffer({ label, size, usage: usage | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
  new Uint8Array(buf.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  buf.unmap();
  return buf;
}

// A zeroed buffer of `size` bytes.
export function bufferOf(device, size, usage, label) {
  return device.createBuffer({ label, size: Math.max(16, Math.ceil(size / 4) * 4), usage: usage | GPUBufferUsage.COPY_SRC });
}

// The first `size` bytes of `buf` (default: all of it), copied through a
// MAP_READ buffer after everything submitted so far.
export async function readBack(device, buf, size = buf.size) {
  const staging = device.createBuffer({ label: 'readback', size: Math.ceil(size / 4) * 4,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, staging, 0, staging.size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint8Array(staging.getMappedRange().slice(0, size));
  staging.unmap();
  staging.destroy();
  return out;
}

// Runs fn() inside a validation error scope and returns the error (or null).
export async function validationError(device, fn) {
  device.pushErrorScope('validation');
  const value = await fn();
  const error = await device.popErrorScope();
  return { value, error };
}

// A bind group of `entries` (buffers, or { buffer, offset, size }) at
// bindings 0, 1, ... for group 0 of `pipeline`'s layout.
export function bindGroup(device, pipeline, entries, label) {
  return device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: entries.map((e, binding) => ({ binding, resource: e.buffer ? e : { buffer: e } })),
  });
}

// A pass-encoder stand-in that records the arguments of each dispatch and
// forwards them: the lessons' snippets call pass.dispatchWorkgroups(...)
// with counts they compute inline, and the tests check those counts.
export function recordingPass(pass) {
  const calls = [];
  return {
    calls,
    setPipeline: (p) => pass.setPipeline(p),
    setBindGroup: (...a) => pass.setBindGroup(...a),
    dispatchWorkgroups: (...a) => { calls.push(['direct', ...a]); pass.dispatchWorkgroups(...a); },
    dispatchWorkgroupsIndirect: (b, o) => { calls.push(['indirect', o]); pass.dispatchWorkgroupsIndirect(b, o); },
    end: () => pass.end(),
  };
}

// One encoder, one compute pass with `pipeline` and bind group 0, whatever
// `record(pass)` dispatches, then submit.
export function submitPass(device, pipeline, bg, record) {
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  const out = record(pass);
  pass.end();
  device.queue.submit([enc.finish()]);
  return out;
}

// f32 helpers for expected values. WGSL's `*` on f32 is correctly rounded;
// the product of two f32 values is exact in a double (24 + 24 bits < 53),
// so Math.fround of the double product is the correctly rounded result.
export const f32 = Math.fround;
export const mulF32 = (a, b) => Math.fround(Math.fround(a) * Math.fround(b));
