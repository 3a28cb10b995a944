#!/usr/bin/env node
// Run one case that has textures (docs/case-format.md, "Textures") on Dawn
// and write its read-back buffers and textures as a result file
// (wgsl-compute-result/1), for the cases the reference kit's runner cannot
// run because it knows buffers only.
//
//   EGL_PLATFORM=surfaceless node --import tests/tools/dawn_device.mjs \
//     tests/tools/dawn_textures.mjs CASE.json [--out RESULT.json]
//
// The preload asks for the core default compute limits and the case's own
// device requirements (see dawn_device.mjs); without it the device gets
// the adapter's defaults. DAWN_BACKEND (default opengles) and
// DAWN_FEATURE_LEVEL (default compatibility) pick Dawn's backend and
// feature level, DAWN_ARGS adds Dawn switches, as for the kit's runner.
//
// A sampler entry (kind none plus a "sampler" object) becomes a GPUSampler
// from that descriptor, bound through a sampler layout entry of its "type".
// A texture entry becomes a GPUTexture with COPY_SRC | COPY_DST and the
// binding usage its access needs; its init words are written to level 0
// (with "initLevels": "all", to every level in turn) with queue.writeTexture
// (rows tightly packed, as in the case), other levels stay zero; it is bound through an explicit layout entry (texture or
// storageTexture) and read back with copyTextureToBuffer, whose 256-byte
// aligned rows are unpadded into tightly packed words. Buffers are handled
// as the kit's runner handles them. Exit status 0 only if everything
// validated and no device error was raised.
import fs from 'node:fs';
import path from 'node:path';
import { importPeer, PEER_DIR } from './peer.mjs';

const kit = await importPeer('lib/kit.mjs');
const { create, globals } = await importPeer('node_modules/webgpu/index.js');
Object.assign(globalThis, globals);

const argv = process.argv.slice(2);
let casePath = null, outPath = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--out') outPath = argv[++i];
  else if (!casePath) casePath = argv[i];
  else { console.error(`dawn_textures: unexpected argument ${argv[i]}`); process.exit(2); }
}
if (!casePath) { console.error('usage: dawn_textures.mjs CASE.json [--out RESULT.json]'); process.exit(2); }

const BACKEND = process.env.DAWN_BACKEND || 'opengles';
const FEATURE_LEVEL = process.env.DAWN_FEATURE_LEVEL || 'compatibility';

function fail(msg) {
  console.error(`dawn_textures: ${path.basename(casePath)}: ${msg}`);
  process.exit(1);
}

// Bytes per texel of each format the case format allows (WebGPU's texel
// block copy footprints; depth24plus and the combined depth-stencil formats
// have none, so cases cannot fill or read them).
const TEXEL_BYTES = {
  r8unorm: 1, r8snorm: 1, r8uint: 1, r8sint: 1, stencil8: 1,
  r16unorm: 2, r16snorm: 2, r16uint: 2, r16sint: 2, r16float: 2,
  rg8unorm: 2, rg8snorm: 2, rg8uint: 2, rg8sint: 2, depth16unorm: 2,
  r32float: 4, r32uint: 4, r32sint: 4, depth32float: 4,
  rg16unorm: 4, rg16snorm: 4, rg16uint: 4, rg16sint: 4, rg16float: 4,
  rgba8unorm: 4, 'rgba8unorm-srgb': 4, rgba8snorm: 4, rgba8uint: 4, rgba8sint: 4,
  bgra8unorm: 4, 'bgra8unorm-srgb': 4,
  rgb10a2uint: 4, rgb10a2unorm: 4, rg11b10ufloat: 4, rgb9e5ufloat: 4,
  rg32float: 8, rg32uint: 8, rg32sint: 8,
  rgba16unorm: 8, rgba16snorm: 8, rgba16uint: 8, rgba16sint: 8, rgba16float: 8,
  rgba32float: 16, rgba32uint: 16, rgba32sint: 16,
};

// The texture object of a case entry with its defaults filled in.
function textureOf(b) {
  const t = b.texture;
  const texelBytes = TEXEL_BYTES[t.format];
  if (!texelBytes) fail(`${b.name}: unknown texture format ${t.format}`);
  const [w, h = 1, d = 1] = t.size;
  const dimension = t.dimension ?? '2d';
  const viewDimension = t.viewDimension ??
    (dimension === '1d' ? '1d' : dimension === '3d' ? '3d' : d > 1 ? '2d-array' : '2d');
  const access = t.access ?? 'sampled';
  const integer = /uint$/.test(t.format) || t.format === 'stencil8' ? 'uint'
    : /sint$/.test(t.format) ? 'sint' : null;
  const sampleType = t.sampleType ?? integer ?? 'unfilterable-float';
  const mipLevelCount = t.mipLevelCount ?? 1;
  // "initLevels": "all": the words are every level's texels, level after level
  const levels = [];
  for (let lv = 0; lv < (t.initLevels === 'all' ? mipLevelCount : 1); lv++) {
    const lw = Math.max(1, w >> lv), lh = dimension === '1d' ? 1 : Math.max(1, h >> lv);
    const ld = dimension === '3d' ? Math.max(1, d >> lv) : d;
    levels.push({ w: lw, h: lh, d: ld, words: lw * lh * ld * texelBytes / 4 });
  }
  const words = levels.reduce((n, l) => n + l.words, 0);
  if (kit.bufferWordCount(b) !== words)
    fail(`${b.name}: ${kit.bufferWordCount(b)} words, a ${w}x${h}x${d} ${t.format} texture has ${words}`);
  return { format: t.format, w, h, d, dimension, viewDimension, access, sampleType,
    mipLevelCount, texelBytes, words, levels, allLevels: t.initLevels === 'all',
    sampleCount: t.sampleCount ?? 1 };
}

const c = kit.loadCase(casePath);
const spec = c.spec;

const gpu = create([`backend=${BACKEND}`, ...(process.env.DAWN_ARGS ?? '').split(/\s+/).filter(Boolean)]);
const adapter = await gpu.requestAdapter({ featureLevel: FEATURE_LEVEL });
if (!adapter) fail('no adapter');
const device = await adapter.requestDevice();
const errors = [];
device.addEventListener('uncapturederror', (ev) => errors.push(`uncaptured: ${ev.error.message}`));
device.lost.then((info) => { if (info.reason !== 'destroyed') errors.push(`device lost: ${info.message}`); });
device.pushErrorScope('out-of-memory');
device.pushErrorScope('internal');
device.pushErrorScope('validation');

const module = device.createShaderModule({ code: c.shaderCode, label: spec.name });
const compilationMessages = (await module.getCompilationInfo()).messages
  .map((m) => ({ type: m.type, line: m.lineNum, column: m.linePos, message: m.message }));
for (const m of compilationMessages) if (m.type === 'error') errors.push(`shader ${m.line}:${m.column}: ${m.message}`);

// ---- resources: a texture per texture entry, a buffer per other entry
const indirect = new Set(spec.dispatches.filter((d) => d.indirect).map((d) => d.indirect.buffer));
const res = {};
for (const b of spec.buffers) {
  const words = kit.buildInit(b);
  if (b.texture) {
    const t = textureOf(b);
    let usage = GPUTextureUsage.COPY_SRC | GPUTextureUsage.COPY_DST;
    usage |= t.access === 'sampled' ? GPUTextureUsage.TEXTURE_BINDING : GPUTextureUsage.STORAGE_BINDING;
    // multisampling needs RENDER_ATTACHMENT; such a texture is never copied
    if (t.sampleCount > 1) usage = GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT;
    const desc = { label: b.name, format: t.format, size: [t.w, t.h, t.d], dimension: t.dimension,
      mipLevelCount: t.mipLevelCount, sampleCount: t.sampleCount, usage };
    // Compatibility mode fixes at creation the one view dimension a texture
    // may be bound with.
    if (FEATURE_LEVEL === 'compatibility') desc.textureBindingViewDimension = t.viewDimension;
    const tex = device.createTexture(desc);
    // without "init" the texture keeps its zeros (depth32float is no copy
    // destination)
    let at = 0;
    if (b.init !== undefined)
      t.levels.forEach((l, lv) => {
        device.queue.writeTexture({ texture: tex, mipLevel: lv }, Uint32Array.from(words.slice(at, at + l.words)),
          { offset: 0, bytesPerRow: l.w * t.texelBytes, rowsPerImage: l.h }, [l.w, l.h, l.d]);
        at += l.words;
      });
    const view = tex.createView({ label: b.name, dimension: t.viewDimension, baseMipLevel: 0,
      mipLevelCount: t.access === 'sampled' ? t.mipLevelCount : 1 });
    res[b.name] = { tex, view, t };
    continue;
  }
  if (b.sampler) {
    // lockstep's sampler extension: a GPUSamplerDescriptor plus the layout's type
    const { type, ...desc } = b.sampler;
    res[b.name] = { smp: device.createSampler({ label: b.name, ...desc }),
      type: type ?? (desc.compare ? 'comparison' : 'filtering') };
    continue;
  }
  let usage = GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  if (b.kind === 'uniform') usage |= GPUBufferUsage.UNIFORM;
  if (b.kind === 'storage' || b.kind === 'read-only-storage') usage |= GPUBufferUsage.STORAGE;
  if (indirect.has(b.name)) usage |= GPUBufferUsage.INDIRECT;
  const size = Math.max(16, Math.ceil(words.length / 4) * 16);
  const buf = device.createBuffer({ label: b.name, size, usage, mappedAtCreation: true });
  new Uint32Array(buf.getMappedRange()).set(words);
  buf.unmap();
  res[b.name] = { buf, size };
}

// ---- explicit layouts: one bind group layout per group, textures included
function layoutEntry(b) {
  const e = { binding: b.binding, visibility: GPUShaderStage.COMPUTE };
  if (b.sampler) e.sampler = { type: res[b.name].type };
  else if (!b.texture) e.buffer = { type: b.kind };
  else {
    const t = res[b.name].t;
    if (t.access === 'sampled') e.texture = { sampleType: t.sampleType, viewDimension: t.viewDimension, multisampled: t.sampleCount > 1 };
    else e.storageTexture = { access: t.access, format: t.format, viewDimension: t.viewDimension };
  }
  return e;
}
function groupEntry(b) {
  if (b.texture) return { binding: b.binding, resource: res[b.name].view };
  if (b.sampler) return { binding: b.binding, resource: res[b.name].smp };
  const offset = b.bindOffset ?? 0;
  return { binding: b.binding, resource: { buffer: res[b.name].buf, offset, size: b.bindSize ?? kit.bufferWordCount(b) * 4 - offset } };
}
const pipelines = {};
for (const [pname, p] of Object.entries(spec.pipelines)) {
  const used = spec.buffers.filter((b) => (b.kind !== 'none' || b.texture || b.sampler) && (!p.buffers || p.buffers.includes(b.name)));
  const groups = 1 + used.reduce((m, b) => Math.max(m, b.group ?? 0), -1);
  const bgls = [], bgs = [];
  for (let g = 0; g < groups; g++) {
    const inGroup = used.filter((b) => (b.group ?? 0) === g);
    const layout = device.createBindGroupLayout({ label: `${pname}/g${g}`, entries: inGroup.map(layoutEntry) });
    bgls.push(layout);
    bgs.push(device.createBindGroup({ label: `${pname}/g${g}`, layout, entries: inGroup.map(groupEntry) }));
  }
  const compute = { module, entryPoint: p.entryPoint };
  if (p.constants) compute.constants = p.constants;
  const layout = device.createPipelineLayout({ label: pname, bindGroupLayouts: bgls });
  pipelines[pname] = { pipeline: device.createComputePipeline({ label: pname, layout, compute }), bgs };
}

// ---- one compute pass with every dispatch, then the copies out
const enc = device.createCommandEncoder();
const pass = enc.beginComputePass();
for (const d of spec.dispatches) {
  const p = pipelines[d.pipeline];
  pass.setPipeline(p.pipeline);
  p.bgs.forEach((bg, g) => pass.setBindGroup(g, bg));
  if (d.indirect) pass.dispatchWorkgroupsIndirect(res[d.indirect.buffer].buf, d.indirect.offset ?? 0);
  else pass.dispatchWorkgroups(d.workgroups[0], d.workgroups[1] ?? 1, d.workgroups[2] ?? 1);
}
pass.end();
const staging = {};
for (const name of spec.readback) {
  const r = res[name];
  if (r.tex) {
    const t = r.t;
    if (t.allLevels) fail(`${name}: reading back a texture with initLevels "all" is not supported`);
    const rowBytes = t.w * t.texelBytes;
    const bytesPerRow = Math.ceil(rowBytes / 256) * 256;
    const size = bytesPerRow * t.h * t.d;
    const st = device.createBuffer({ label: `${name}-staging`, size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    enc.copyTextureToBuffer({ texture: r.tex, mipLevel: 0 }, { buffer: st, offset: 0, bytesPerRow, rowsPerImage: t.h }, [t.w, t.h, t.d]);
    staging[name] = { st, rowBytes, bytesPerRow, rows: t.h * t.d };
  } else {
    const st = device.createBuffer({ label: `${name}-staging`, size: r.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    enc.copyBufferToBuffer(r.buf, 0, st, 0, r.size);
    staging[name] = { st, rowBytes: r.size, bytesPerRow: r.size, rows: 1 };
  }
}
device.queue.submit([enc.finish()]);
await Promise.all(Object.values(staging).map((s) => s.st.mapAsync(GPUMapMode.READ)));
for (const kind of ['validation', 'internal', 'out-of-memory']) {
  const e = await device.popErrorScope();
  if (e) errors.push(`${kind}: ${e.message}`);
}
if (errors.length) fail('\n  ' + errors.join('\n  '));

// ---- tightly packed words of each read-back entry
const buffers = {};
for (const name of spec.readback) {
  const b = spec.buffers.find((x) => x.name === name);
  const s = staging[name];
  const mapped = new Uint8Array(s.st.getMappedRange());
  const packed = new Uint8Array(s.rowBytes * s.rows);
  for (let r = 0; r < s.rows; r++)
    packed.set(mapped.subarray(r * s.bytesPerRow, r * s.bytesPerRow + s.rowBytes), r * s.rowBytes);
  const words = new Uint32Array(packed.buffer, 0, kit.bufferWordCount(b));
  const rec = kit.recordOf(b.type);
  buffers[name] = {
    type: b.type, count: b.count,
    values: Array.from(words, (w, i) => kit.jsonValue(kit.decodeWord(w, rec[i % rec.length]))),
    hex: Array.from(words, kit.hex),
  };
  s.st.unmap();
}

const ai = adapter.info;
const version = JSON.parse(fs.readFileSync(path.join(PEER_DIR, 'node_modules/webgpu/package.json'), 'utf8')).version;
const result = {
  format: kit.RESULT_FORMAT,
  case: spec.name,
  caseSha256: kit.sha256(c.text),
  shaderSha256: kit.sha256(c.shaderCode),
  implementation: {
    name: `Dawn via npm webgpu@${version}`,
    runner: 'tests/tools/dawn_textures.mjs',
    backend: BACKEND,
    featureLevel: FEATURE_LEVEL,
    adapter: { vendor: ai.vendor, architecture: ai.architecture, device: ai.device, description: ai.description },
  },
  compilationMessages: compilationMessages.length ? compilationMessages : undefined,
  buffers,
};
const text = kit.stringify(result) + '\n';
if (outPath) {
  fs.mkdirSync(path.dirname(path.resolve(outPath)), { recursive: true });
  fs.writeFileSync(outPath, text);
} else process.stdout.write(text);
device.destroy();
process.exit(0);
