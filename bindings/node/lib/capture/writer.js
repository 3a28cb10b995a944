'use strict';
// writer.js — turns one recorded span into its files: the version-2 case
// (NAME.json), the reference result of the program's readbacks
// (NAME.result.json, wgsl-compute-result/1) and the side files of large
// contents (NAME.OBJECT.bin, with their sha256 in the case). Only the
// objects the span's commands reach are written, named by kind and number
// (b3, p1, ...), so the names are the same in every file of one capture.

const path = require('node:path');
const { CASE_FORMAT, RESULT_FORMAT, usageNames, initOf, resultEntry, stringify, writeAll } = require('./words.js');
const { textureUsageNames, levelSize } = require('./textures.js');

const PREFIX = { buffer: 'b', module: 'm', pipeline: 'p', layout: 'l', pipelineLayout: 'pl', bindGroup: 'g', texture: 't', sampler: 's' };
const nameOf = (info) => `${PREFIX[info.kind]}${info.id}`;

// What the replayer needs of a buffer: the program's usage without the map
// usages (reads and writes go through copies), with copy-src and copy-dst.
const MODULE_INLINE_CHARS = 2048;
const caseUsage = (usage) => usageNames((usage & ~0x3) | 0x4 | 0x8);

function buildCase(rec, unit) {
  const c = {
    format: CASE_FORMAT, name: unit.caseName,
    title: `captured from ${rec.adapterInfo?.description || rec.adapterInfo?.vendor || 'a WebGPU device'}`,
    notes: [], device: undefined,
    modules: {}, buffers: {}, textures: {}, samplers: {}, bindGroupLayouts: {}, pipelineLayouts: {}, pipelines: {}, bindGroups: {},
    commands: [],
  };
  const notes = new Set(unit.notes);
  const side = [];

  // Long shaders go to files of their own, so findings and profiles name
  // a file and line the user can open.
  const moduleText = {};
  const addModule = (m) => {
    const n = nameOf(m);
    if (c.modules[n]) return n;
    moduleText[n] = { code: m.code };
    if (m.code.length > MODULE_INLINE_CHARS) {
      const file = `${unit.caseName}.${n}.wgsl`;
      side.push([path.join(rec.dir, file), m.code]);
      c.modules[n] = { file, ...(m.label ? { label: m.label } : {}) };
    } else c.modules[n] = { code: m.code, label: m.label ?? n };
    return n;
  };
  const addBuffer = (b) => {
    const n = nameOf(b);
    if (c.buffers[n]) return n;
    const size = Math.max(4, Math.ceil(b.size / 4) * 4);
    const entry = { size, usage: caseUsage(b.usage) };
    if (b.label) entry.label = b.label;
    const bytes = unit.snapshots.get(b);
    if (bytes) {
      const { init, side: data } = initOf(bytes, `${unit.caseName}.${n}.bin`);
      if (init) entry.init = init;
      if (data) side.push([path.join(rec.dir, init.file), data]);
    }
    c.buffers[n] = entry;
    return n;
  };
  // A texture's mip level 0 is its init; the other levels are writeTexture
  // commands before everything else (a write lands before the commands).
  const prelude = [];
  const addTexture = (t) => {
    const n = nameOf(t);
    if (c.textures[n]) return n;
    const entry = { format: t.format, size: t.size };
    if (t.dimension !== '2d') entry.dimension = t.dimension;
    if (t.mipLevelCount !== 1) entry.mipLevelCount = t.mipLevelCount;
    if (t.sampleCount !== 1) entry.sampleCount = t.sampleCount;
    entry.usage = textureUsageNames(t.sampleCount === 1 ? t.usage | 0x1 | 0x2 : t.usage);
    if (t.label) entry.label = t.label;
    (unit.snapshots.get(t) ?? []).forEach((bytes, level) => {
      if (bytes.length % 4) { notes.add(`${n}: level ${level} is not a whole number of words; left as zeros`); return; }
      const { init, side: data } = initOf(bytes, `${unit.caseName}.${n}${level ? `.level${level}` : ''}.bin`);
      if (data) side.push([path.join(rec.dir, init.file), data]);
      if (!init) return;
      if (level === 0) entry.init = init;
      else prelude.push({ op: 'writeTexture', texture: n, mipLevel: level, origin: [0, 0, 0], size: levelSize(t.size, t.dimension, level), data: init });
    });
    c.textures[n] = entry;
    return n;
  };
  const addSampler = (smp) => {
    const n = nameOf(smp);
    c.samplers[n] ??= smp.desc;
    return n;
  };
  const copySide = (x) => (x.texture
    ? { texture: addTexture(x.texture), mipLevel: x.mipLevel, origin: x.origin, aspect: x.aspect }
    : { buffer: addBuffer(x.buffer), offset: x.offset, ...(x.bytesPerRow !== undefined ? { bytesPerRow: x.bytesPerRow } : {}),
      ...(x.rowsPerImage !== undefined ? { rowsPerImage: x.rowsPerImage } : {}) });
  let addPipeline;
  const addLayout = (l) => {
    const n = nameOf(l);
    if (c.bindGroupLayouts[n] || l.pipeline) return l.pipeline ? { pipeline: addPipeline(l.pipeline), group: l.group } : n;
    c.bindGroupLayouts[n] = { entries: l.entries };
    return n;
  };
  addPipeline = (p) => {
    const n = nameOf(p);
    if (c.pipelines[n]) return n;
    c.pipelines[n] = {};    // reserved first: an auto layout refers back to its pipeline
    const entry = { module: addModule(p.module) };
    if (p.entryPoint !== undefined) entry.entryPoint = p.entryPoint;
    if (p.constants) entry.constants = p.constants;
    if (p.layout === 'auto' || !p.layout) entry.layout = 'auto';
    else {
      const pl = nameOf(p.layout);
      c.pipelineLayouts[pl] ??= { bindGroupLayouts: p.layout.layouts.map((l) => (l ? addLayout(l) : null)),
        ...(p.layout.immediateSize ? { immediateSize: p.layout.immediateSize } : {}) };
      entry.layout = pl;
    }
    if (p.label) entry.label = p.label;
    c.pipelines[n] = entry;
    return n;
  };
  const addBindGroup = (g) => {
    const n = nameOf(g);
    if (c.bindGroups[n]) return n;
    const entries = [];
    for (const e of g.entries) {
      if (e.unsupported) { notes.add(`bind group ${n} binding ${e.binding}: ${e.unsupported} is not captured`); continue; }
      if (e.sampler) { entries.push({ binding: e.binding, sampler: addSampler(e.sampler) }); continue; }
      if (e.texture) {
        entries.push({ binding: e.binding, texture: addTexture(e.texture), ...(e.view && Object.keys(e.view).length ? { view: e.view } : {}) });
        continue;
      }
      const x = { binding: e.binding, buffer: addBuffer(e.buffer), offset: e.offset };
      if (e.size !== undefined) x.size = e.size;
      entries.push(x);
    }
    c.bindGroups[n] = { layout: addLayout(g.layout), entries };
    if (g.label) c.bindGroups[n].label = g.label;
    return n;
  };

  const add = { buffer: addBuffer, texture: addTexture, pipeline: addPipeline, bindGroup: addBindGroup, copySide };
  const ctx = { rec, unit, c, notes, side, writes: 0 };
  for (const cmd of unit.cmds) {
    const out = commandOf(cmd, add, ctx);
    if (out) c.commands.push(out);
  }
  c.commands.unshift(...prelude);
  const dev = deviceOf(rec.descriptor, { ...c, modules: moduleText }, notes);
  if (dev) c.device = dev;
  // a trailing submit is implied
  while (c.commands.at(-1)?.op === 'submit') c.commands.pop();
  c.notes = [...notes];
  if (!c.notes.length) delete c.notes;
  if (!c.device) delete c.device;
  for (const k of ['textures', 'samplers', 'bindGroupLayouts', 'pipelineLayouts']) if (!Object.keys(c[k]).length) delete c[k];
  return { c, side };
}

// One recorded command as the case writes it (null: left out), naming its
// objects through `add`, which declares them in the case.
function commandOf(cmd, add, ctx) {
  const { rec, unit, c, notes, side } = ctx;
  const out = { op: cmd.op };
  const data = (bytes) => {
    const { init, side: file } = initOf(bytes, `${unit.caseName}.w${ctx.writes++}.bin`);
    if (file) side.push([path.join(rec.dir, init.file), file]);
    return init ?? { fill: '0x00000000', count: bytes.length / 4 };
  };
  switch (cmd.op) {
    case 'dispatch': case 'dispatchIndirect':
      if (!cmd.pipeline) { notes.add('a dispatch whose pipeline was made before the recorder: left out'); return null; }
      out.pipeline = add.pipeline(cmd.pipeline);
      out.bindGroups = cmd.bindGroups.filter((g) => g.bindGroup).map((g) => ({
        group: g.group, bindGroup: add.bindGroup(g.bindGroup), ...(g.dynamicOffsets.length ? { dynamicOffsets: g.dynamicOffsets } : {}),
      }));
      if (cmd.immediates) out.immediates = cmd.immediates;
      if (cmd.op === 'dispatch') out.workgroups = cmd.workgroups;
      else Object.assign(out, { buffer: add.buffer(cmd.buffer), offset: cmd.offset });
      return out;
    case 'copyBufferToBuffer':
      return Object.assign(out, { src: add.buffer(cmd.src), srcOffset: cmd.srcOffset, dst: add.buffer(cmd.dst), dstOffset: cmd.dstOffset, size: cmd.size });
    case 'copyBufferToTexture': case 'copyTextureToBuffer': case 'copyTextureToTexture':
      return Object.assign(out, { source: add.copySide(cmd.source), destination: add.copySide(cmd.destination), copySize: cmd.copySize });
    case 'writeTexture':
      if (cmd.bytes.length % 4) { notes.add(`a writeTexture of ${cmd.bytes.length} bytes (not whole words) is left out`); return null; }
      return Object.assign(out, { texture: add.texture(cmd.texture), mipLevel: cmd.mipLevel, origin: cmd.origin, size: cmd.size,
        aspect: cmd.aspect, data: data(cmd.bytes) });
    case 'clearBuffer':
      return Object.assign(out, { buffer: add.buffer(cmd.buffer), offset: cmd.offset, size: cmd.size });
    case 'writeBuffer':
      return Object.assign(out, { buffer: add.buffer(cmd.buffer), offset: cmd.offset, size: cmd.bytes.length, data: data(cmd.bytes) });
    case 'readback':
      // a readback is a submit boundary itself
      if (c.commands.at(-1)?.op === 'submit') c.commands.pop();
      Object.assign(out, { name: cmd.name, buffer: add.buffer(cmd.buffer), offset: cmd.offset, size: cmd.size });
      if (cmd.type) out.type = cmd.type;
      if (cmd.compare) (c.compare ??= {})[cmd.name] = cmd.compare;
      return out;
    case 'submit':
      return out;
    default:
      return null;
  }
}

// WebGPU's defaults of the limits a capture lowers to what its work uses.
const DEFAULT_LIMITS = {
  maxBufferSize: 268435456, maxStorageBufferBindingSize: 134217728, maxUniformBufferBindingSize: 65536,
  maxComputeWorkgroupsPerDimension: 65535, maxComputeWorkgroupSizeX: 256, maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupSizeZ: 64, maxComputeInvocationsPerWorkgroup: 256,
};
// Features that concern only what a capture does not record (timestamps,
// render work), or textures when the case has none; a shader feature is
// kept when a module enables it.
const SHADER_FEATURES = { 'shader-f16': /\benable\s+[^;]*\bf16\b/, subgroups: /\benable\s+[^;]*\bsubgroups\b/ };
const UNRECORDED = /^(timestamp-query|dual-source-blending|clip-distances|primitive-index)/;
const TEXTURE_FEATURES = /^(bgra8unorm-storage|float32-filterable|float32-blendable|depth|texture-|rg11b10ufloat-renderable)/;

// The device the case asks for: the program's requiredFeatures and
// requiredLimits (programs often ask for all their adapter offers), less
// what the recorded work cannot need, so the case runs on other adapters:
// size and count limits, and the workgroup sizes when the shaders spell
// them out, come down to what the work uses (never below WebGPU's
// defaults), and features for unrecorded work are left out.
function deviceOf(d, c, notes) {
  const out = {};
  const code = Object.values(c.modules).map((m) => m.code ?? m.text ?? '').join('\n');
  const features = [];
  for (const f of d?.requiredFeatures ? [...d.requiredFeatures].map(String) : []) {
    const unused = SHADER_FEATURES[f] ? !SHADER_FEATURES[f].test(code)
      : UNRECORDED.test(f) || (TEXTURE_FEATURES.test(f) && !Object.keys(c.textures ?? {}).length);
    if (unused) notes.add(`device: requiredFeatures "${f}" left out (the recorded work does not use it)`);
    else features.push(f);
  }
  if (features.length) out.requiredFeatures = features;
  const used = { ...usedLimits(c), ...workgroupLimits(code) };
  const limits = {};
  for (const [k, v] of Object.entries(d?.requiredLimits ?? {})) {
    if (typeof v !== 'number') continue;
    if (k in DEFAULT_LIMITS && (k in used)) {
      const need = Math.max(DEFAULT_LIMITS[k], used[k] ?? 0);
      if (v > need) { if (need > DEFAULT_LIMITS[k]) limits[k] = need; continue; }
    }
    limits[k] = v;
  }
  if (Object.keys(limits).length) out.requiredLimits = limits;
  return Object.keys(out).length ? out : null;
}

// The workgroup sizes the modules declare, when every @workgroup_size is
// written with literals (an override or constant leaves them unknown, and
// the program's request stands).
function workgroupLimits(code) {
  const out = { maxComputeWorkgroupSizeX: 0, maxComputeWorkgroupSizeY: 0, maxComputeWorkgroupSizeZ: 0, maxComputeInvocationsPerWorkgroup: 0 };
  for (const m of code.matchAll(/@workgroup_size\s*\(([^)]*)\)/g)) {
    const dims = m[1].split(',').map((x) => x.trim()).filter(Boolean);
    if (!dims.every((x) => /^[0-9]+[iu]?$/.test(x))) return {};
    const [x, y = 1, z = 1] = dims.map((v) => parseInt(v, 10));
    out.maxComputeWorkgroupSizeX = Math.max(out.maxComputeWorkgroupSizeX, x);
    out.maxComputeWorkgroupSizeY = Math.max(out.maxComputeWorkgroupSizeY, y);
    out.maxComputeWorkgroupSizeZ = Math.max(out.maxComputeWorkgroupSizeZ, z);
    out.maxComputeInvocationsPerWorkgroup = Math.max(out.maxComputeInvocationsPerWorkgroup, x * y * z);
  }
  return out;
}

function usedLimits(c) {
  const used = { maxBufferSize: 0, maxStorageBufferBindingSize: 0, maxUniformBufferBindingSize: 0, maxComputeWorkgroupsPerDimension: 0 };
  for (const b of Object.values(c.buffers)) used.maxBufferSize = Math.max(used.maxBufferSize, b.size);
  for (const g of Object.values(c.bindGroups)) {
    for (const e of g.entries) {
      const b = c.buffers[e.buffer];
      if (!b) continue;
      const size = e.size ?? b.size - (e.offset ?? 0);
      const k = b.usage.includes('uniform') && !b.usage.includes('storage') ? 'maxUniformBufferBindingSize' : 'maxStorageBufferBindingSize';
      used[k] = Math.max(used[k], size);
    }
  }
  for (const cmd of c.commands) if (cmd.workgroups) used.maxComputeWorkgroupsPerDimension = Math.max(used.maxComputeWorkgroupsPerDimension, ...cmd.workgroups);
  return used;
}

function buildResult(rec, unit) {
  const buffers = {};
  for (const cmd of unit.cmds) {
    if (cmd.op !== 'readback') continue;
    buffers[cmd.name] = resultEntry(new Uint32Array(cmd.bytes.buffer.slice(cmd.bytes.byteOffset, cmd.bytes.byteOffset + cmd.size)), cmd.type);
  }
  const info = rec.adapterInfo ?? {};
  return {
    format: RESULT_FORMAT, case: unit.caseName,
    implementation: {
      name: rec.implementation ?? 'captured program',
      adapter: { vendor: info.vendor ?? '', architecture: info.architecture ?? '', device: info.device ?? '', description: info.description ?? '' },
    },
    buffers,
  };
}

// Writes the unit's files, all or none (the case file last).
function writeCase(rec, unit) {
  const { c, side } = buildCase(rec, unit);
  const files = [...side];
  if (unit.cmds.some((x) => x.op === 'readback'))
    files.push([path.join(rec.dir, `${unit.caseName}.result.json`), stringify(buildResult(rec, unit)) + '\n']);
  files.push([unit.file, stringify(c) + '\n']);
  writeAll(files);
}

module.exports = { writeCase, buildCase };
