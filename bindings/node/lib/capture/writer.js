'use strict';
// writer.js — turns one recorded span into its files: the version-2 case
// (NAME.json), the reference result of the program's readbacks
// (NAME.result.json, wgsl-compute-result/1) and the side files of large
// contents (NAME.OBJECT.bin, with their sha256 in the case). Only the
// objects the span's commands reach are written, named by kind and number
// (b3, p1, ...), so the names are the same in every file of one capture.

const path = require('node:path');
const { CASE_FORMAT, RESULT_FORMAT, usageNames, initOf, resultEntry, stringify, writeAll } = require('./words.js');

const PREFIX = { buffer: 'b', module: 'm', pipeline: 'p', layout: 'l', pipelineLayout: 'pl', bindGroup: 'g' };
const nameOf = (info) => `${PREFIX[info.kind]}${info.id}`;

// What the replayer needs of a buffer: the program's usage without the map
// usages (reads and writes go through copies), with copy-src and copy-dst.
const MODULE_INLINE_CHARS = 2048;
const caseUsage = (usage) => usageNames((usage & ~0x3) | 0x4 | 0x8);

function buildCase(rec, unit) {
  const c = {
    format: CASE_FORMAT, name: unit.caseName,
    title: `captured from ${rec.adapterInfo?.description || rec.adapterInfo?.vendor || 'a WebGPU device'}`,
    notes: [],
    modules: {}, buffers: {}, bindGroupLayouts: {}, pipelineLayouts: {}, pipelines: {}, bindGroups: {}, commands: [],
  };
  const notes = new Set(unit.notes);
  const side = [];
  const dev = deviceOf(rec.descriptor);
  if (dev) c.device = dev;

  // Long shaders go to files of their own, so findings and profiles name
  // a file and line the user can open.
  const addModule = (m) => {
    const n = nameOf(m);
    if (c.modules[n]) return n;
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
      c.pipelineLayouts[pl] ??= { bindGroupLayouts: p.layout.layouts.map((l) => (l ? addLayout(l) : null)) };
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
      const x = { binding: e.binding, buffer: addBuffer(e.buffer), offset: e.offset };
      if (e.size !== undefined) x.size = e.size;
      entries.push(x);
    }
    c.bindGroups[n] = { layout: addLayout(g.layout), entries };
    if (g.label) c.bindGroups[n].label = g.label;
    return n;
  };

  let writes = 0;
  for (const cmd of unit.cmds) {
    const out = { op: cmd.op };
    switch (cmd.op) {
      case 'dispatch': case 'dispatchIndirect':
        if (!cmd.pipeline) { notes.add('a dispatch whose pipeline was made before the recorder: left out'); continue; }
        out.pipeline = addPipeline(cmd.pipeline);
        out.bindGroups = cmd.bindGroups.filter((g) => g.bindGroup).map((g) => ({
          group: g.group, bindGroup: addBindGroup(g.bindGroup), ...(g.dynamicOffsets.length ? { dynamicOffsets: g.dynamicOffsets } : {}),
        }));
        if (cmd.op === 'dispatch') out.workgroups = cmd.workgroups;
        else Object.assign(out, { buffer: addBuffer(cmd.buffer), offset: cmd.offset });
        break;
      case 'copyBufferToBuffer':
        Object.assign(out, { src: addBuffer(cmd.src), srcOffset: cmd.srcOffset, dst: addBuffer(cmd.dst), dstOffset: cmd.dstOffset, size: cmd.size });
        break;
      case 'clearBuffer':
        Object.assign(out, { buffer: addBuffer(cmd.buffer), offset: cmd.offset, size: cmd.size });
        break;
      case 'writeBuffer': {
        const { init, side: data } = initOf(cmd.bytes, `${unit.caseName}.w${writes++}.bin`);
        Object.assign(out, { buffer: addBuffer(cmd.buffer), offset: cmd.offset, size: cmd.bytes.length,
          data: init ?? { fill: '0x00000000', count: cmd.bytes.length / 4 } });
        if (data) side.push([path.join(rec.dir, init.file), data]);
        break;
      }
      case 'readback':
        // a readback is a submit boundary itself
        if (c.commands.at(-1)?.op === 'submit') c.commands.pop();
        Object.assign(out, { name: cmd.name, buffer: addBuffer(cmd.buffer), offset: cmd.offset, size: cmd.size });
        break;
      case 'submit':
        break;
      default:
        continue;
    }
    c.commands.push(out);
  }
  // a trailing submit is implied
  while (c.commands.at(-1)?.op === 'submit') c.commands.pop();
  c.notes = [...notes];
  if (!c.notes.length) delete c.notes;
  for (const k of ['bindGroupLayouts', 'pipelineLayouts']) if (!Object.keys(c[k]).length) delete c[k];
  return { c, side };
}

function deviceOf(d) {
  const out = {};
  const features = d?.requiredFeatures ? [...d.requiredFeatures].map(String) : [];
  if (features.length) out.requiredFeatures = features;
  const limits = {};
  for (const [k, v] of Object.entries(d?.requiredLimits ?? {})) if (typeof v === 'number') limits[k] = v;
  if (Object.keys(limits).length) out.requiredLimits = limits;
  return Object.keys(out).length ? out : null;
}

function buildResult(rec, unit) {
  const buffers = {};
  for (const cmd of unit.cmds) {
    if (cmd.op !== 'readback') continue;
    buffers[cmd.name] = resultEntry(new Uint32Array(cmd.bytes.buffer.slice(cmd.bytes.byteOffset, cmd.bytes.byteOffset + cmd.size)));
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
