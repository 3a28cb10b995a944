'use strict';
// replay.js — runs a version-2 case (docs/case-format.md) through any
// WebGPU implementation with dawn.node's contract (create(flags) -> GPU,
// globals) and returns its result (wgsl-compute-result/1). The case is
// checked whole before a device exists: every name, range and side file;
// a problem is a CaseError naming the JSON path. Textures of color formats
// are replayed (texels set with writeTexture); depth and stencil texels are
// not. What only the device can
// decide (usage, layouts against shaders) comes back as a validation error
// named by the command or object that raised it.

const fs = require('node:fs');
const path = require('node:path');
const W = require('./words.js');
const T = require('./textures.js');

const { CaseError } = W;
const MAX = 2 ** 53;

// Limits a compute case may need that Dawn's compatibility level lowers:
// asked for up to WebGPU core's defaults (or the case's own, if higher).
const CORE_LIMITS = {
  maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256, maxComputeWorkgroupSizeY: 256,
  maxStorageBuffersPerShaderStage: 8, maxUniformBufferBindingSize: 65536,
};

function obj(v, where) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new CaseError(where, 'expected an object');
  return v;
}
function named(table, kind, n, where) {
  if (typeof n !== 'string' || !Object.prototype.hasOwnProperty.call(table, n)) throw new CaseError(where, `no ${kind} named ${JSON.stringify(n)}`);
  return table[n];
}
function aligned(v, where, max) {
  W.whole(v, where, max);
  if (v % 4) throw new CaseError(where, `${v} is not a multiple of 4`);
  return v;
}

// Reads and checks a case file; throws CaseError (path in the message).
function loadCase(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new CaseError(file, `cannot read the case file: ${e.code ?? e.message}`);
  }
  let c;
  try {
    c = JSON.parse(text);
  } catch (e) {
    throw new CaseError(file, `not JSON: ${e.message}`);
  }
  try {
    check(c, path.dirname(path.resolve(file)));
  } catch (e) {
    if (e instanceof CaseError) throw new CaseError(`${path.basename(file)}: ${e.where}`, e.message.slice(e.where.length + 2));
    throw e;
  }
  return { c, text, dir: path.dirname(path.resolve(file)) };
}

function check(c, dir) {
  obj(c, 'the case');
  if (c.format !== W.CASE_FORMAT) throw new CaseError('format', `${JSON.stringify(c.format)}: this replayer reads ${W.CASE_FORMAT}`);
  for (const k of ['modules', 'buffers', 'textures', 'samplers', 'bindGroupLayouts', 'pipelineLayouts', 'pipelines', 'bindGroups']) c[k] = obj(c[k] ?? {}, k);
  if (!Array.isArray(c.commands)) throw new CaseError('commands', 'expected a list of commands');
  for (const [n, t] of Object.entries(c.textures)) checkTexture(n, t, dir);
  for (const [n, smp] of Object.entries(c.samplers)) obj(smp, `samplers.${n}`);
  for (const [n, m] of Object.entries(c.modules)) {
    obj(m, `modules.${n}`);
    if ((m.file === undefined) === (m.code === undefined)) throw new CaseError(`modules.${n}`, 'give either file or code');
    if (m.file !== undefined) {
      try {
        m.code = fs.readFileSync(path.resolve(dir, m.file), 'utf8');
      } catch (e) {
        throw new CaseError(`modules.${n}.file`, `cannot read ${m.file}: ${e.code ?? e.message}`);
      }
      m.label ??= m.file;
    }
    if (typeof m.code !== 'string') throw new CaseError(`modules.${n}.code`, 'expected the WGSL text');
  }
  for (const [n, b] of Object.entries(c.buffers)) {
    const w = `buffers.${n}`;
    obj(b, w);
    aligned(b.size, `${w}.size`, MAX);
    if (b.size < 4) throw new CaseError(`${w}.size`, 'a buffer holds at least 4 bytes');
    b.bits = W.usageBits(b.usage, `${w}.usage`);
    b.record = W.recordOf(b.type, `${w}.type`);
    b.words = new Uint32Array(b.size / 4);
    W.applyInit(b.init, b.words, b.record, `${w}.init`, dir);
  }
  for (const [n, l] of Object.entries(c.bindGroupLayouts)) {
    if (!Array.isArray(obj(l, `bindGroupLayouts.${n}`).entries)) throw new CaseError(`bindGroupLayouts.${n}.entries`, 'expected a list');
  }
  for (const [n, pl] of Object.entries(c.pipelineLayouts)) {
    const w = `pipelineLayouts.${n}.bindGroupLayouts`;
    if (!Array.isArray(obj(pl, `pipelineLayouts.${n}`).bindGroupLayouts)) throw new CaseError(w, 'expected a list of layout names');
    pl.bindGroupLayouts.forEach((l, i) => { if (l !== null) named(c.bindGroupLayouts, 'bind group layout', l, `${w}[${i}]`); });
  }
  for (const [n, p] of Object.entries(c.pipelines)) {
    const w = `pipelines.${n}`;
    obj(p, w);
    named(c.modules, 'module', p.module, `${w}.module`);
    if (p.layout !== undefined && p.layout !== 'auto') named(c.pipelineLayouts, 'pipeline layout', p.layout, `${w}.layout`);
  }
  for (const [n, g] of Object.entries(c.bindGroups)) checkBindGroup(c, n, g);
  let names = new Set();
  c.commands.forEach((cmd, i) => checkCommand(c, obj(cmd, `commands[${i}]`), `commands[${i}]`, names, dir));
  if (c.compare !== undefined) obj(c.compare, 'compare');
}

function checkTexture(n, t, dir) {
  const w = `textures.${n}`;
  obj(t, w);
  if (typeof t.format !== 'string') throw new CaseError(`${w}.format`, 'expected a texture format');
  if (!t.size || typeof t.size !== 'object') throw new CaseError(`${w}.size`, 'expected [width, height, depthOrArrayLayers]');
  t.extent = T.extent(t.size);
  t.extent.forEach((v, i) => W.whole(v, `${w}.size[${i}]`, 65536));
  t.bits = typeof t.usage === 'number' ? t.usage : (Array.isArray(t.usage) ? t.usage : []).reduce((m, u, i) => {
    const e = T.TEXTURE_USAGE.find(([x]) => x === u);
    if (!e) throw new CaseError(`${w}.usage[${i}]`, `unknown texture usage ${JSON.stringify(u)}`);
    return m | e[1];
  }, 0);
  if (t.init !== undefined) {
    const tb = T.TEXEL_BYTES[t.format];
    if (!tb) throw new CaseError(`${w}.init`, `this replayer sets the texels of color formats only, not ${t.format}`);
    const bytes = t.extent[0] * t.extent[1] * t.extent[2] * tb;
    if (bytes % 4) throw new CaseError(`${w}.init`, `level 0 is ${bytes} bytes, not a whole number of words`);
    t.words = new Uint32Array(bytes / 4);
    W.applyInit(t.init, t.words, W.recordOf(t.type, `${w}.type`), `${w}.init`, dir);
  }
}

function checkBindGroup(c, n, g) {
  const w = `bindGroups.${n}`;
  obj(g, w);
  if (typeof g.layout === 'string') named(c.bindGroupLayouts, 'bind group layout', g.layout, `${w}.layout`);
  else {
    obj(g.layout, `${w}.layout`);
    named(c.pipelines, 'pipeline', g.layout.pipeline, `${w}.layout.pipeline`);
    W.whole(g.layout.group, `${w}.layout.group`, 3);
  }
  if (!Array.isArray(g.entries)) throw new CaseError(`${w}.entries`, 'expected a list');
  g.entries.forEach((e, i) => {
    const we = `${w}.entries[${i}]`;
    obj(e, we);
    W.whole(e.binding, `${we}.binding`, 65535);
    const kinds = ['buffer', 'texture', 'sampler'].filter((k) => e[k] !== undefined);
    if (kinds.length !== 1) throw new CaseError(we, 'expected exactly one of "buffer", "texture", "sampler"');
    if (e.texture !== undefined) { named(c.textures, 'texture', e.texture, `${we}.texture`); return; }
    if (e.sampler !== undefined) { named(c.samplers, 'sampler', e.sampler, `${we}.sampler`); return; }
    const b = named(c.buffers, 'buffer', e.buffer, `${we}.buffer`);
    const off = W.whole(e.offset ?? 0, `${we}.offset`, b.size);
    if (e.size !== undefined) W.whole(e.size, `${we}.size`, b.size - off);
  });
}

function range(b, offset, size, w) {
  const off = aligned(offset ?? 0, `${w}.offset`, b.size);
  const sz = size === undefined ? b.size - off : aligned(size, `${w}.size`, b.size - off);
  return [off, sz];
}

function checkCommand(c, cmd, w, names, dir) {
  switch (cmd.op) {
    case 'dispatch': case 'dispatchIndirect': {
      named(c.pipelines, 'pipeline', cmd.pipeline, `${w}.pipeline`);
      if (!Array.isArray(cmd.bindGroups ?? [])) throw new CaseError(`${w}.bindGroups`, 'expected a list');
      (cmd.bindGroups ?? []).forEach((g, k) => {
        obj(g, `${w}.bindGroups[${k}]`);
        W.whole(g.group, `${w}.bindGroups[${k}].group`, 3);
        named(c.bindGroups, 'bind group', g.bindGroup, `${w}.bindGroups[${k}].bindGroup`);
        (g.dynamicOffsets ?? []).forEach((o, j) => W.whole(o, `${w}.bindGroups[${k}].dynamicOffsets[${j}]`, 2 ** 32 - 1));
      });
      if (cmd.immediates !== undefined) {
        if (!Array.isArray(cmd.immediates)) throw new CaseError(`${w}.immediates`, 'expected a list of u32 words');
        cmd.immediates.forEach((v, j) => W.whole(v, `${w}.immediates[${j}]`, 2 ** 32 - 1));
      }
      if (cmd.op === 'dispatch') {
        if (!Array.isArray(cmd.workgroups) || !cmd.workgroups.length || cmd.workgroups.length > 3) throw new CaseError(`${w}.workgroups`, 'expected [x, y, z]');
        cmd.workgroups.forEach((v, j) => W.whole(v, `${w}.workgroups[${j}]`, 2 ** 32 - 1));
      } else {
        const b = named(c.buffers, 'buffer', cmd.buffer, `${w}.buffer`);
        const off = aligned(cmd.offset ?? 0, `${w}.offset`, b.size);
        if (off + 12 > b.size) throw new CaseError(`${w}.offset`, `three words at ${off} run past the ${b.size} bytes of ${cmd.buffer}`);
      }
      return;
    }
    case 'copyBufferToBuffer': {
      const s = named(c.buffers, 'buffer', cmd.src, `${w}.src`);
      const d = named(c.buffers, 'buffer', cmd.dst, `${w}.dst`);
      const so = aligned(cmd.srcOffset ?? 0, `${w}.srcOffset`, s.size);
      const size = cmd.size === undefined ? s.size - so : aligned(cmd.size, `${w}.size`, s.size - so);
      const dOff = aligned(cmd.dstOffset ?? 0, `${w}.dstOffset`, d.size);
      if (dOff + size > d.size) throw new CaseError(`${w}.size`, `${size} bytes at ${dOff} run past the ${d.size} bytes of ${cmd.dst}`);
      cmd.size = size;
      return;
    }
    case 'clearBuffer': {
      const b = named(c.buffers, 'buffer', cmd.buffer, `${w}.buffer`);
      [cmd.offset, cmd.size] = range(b, cmd.offset, cmd.size, w);
      return;
    }
    case 'writeBuffer': {
      const b = named(c.buffers, 'buffer', cmd.buffer, `${w}.buffer`);
      const off = aligned(cmd.offset ?? 0, `${w}.offset`, b.size);
      if (cmd.data === undefined) throw new CaseError(`${w}.data`, 'missing (an init)');
      const first = off / 4;
      const words = new Uint32Array((b.size - off) / 4);
      const record = b.record.map((_, i) => b.record[(first + i) % b.record.length]);
      const end = W.applyInit(cmd.data, words, record, `${w}.data`, dir);
      const size = cmd.size === undefined ? end * 4 : aligned(cmd.size, `${w}.size`, b.size - off);
      cmd.bytes = new Uint8Array(words.buffer, 0, size);
      cmd.offset = off;
      return;
    }
    case 'readback': {
      if (typeof cmd.name !== 'string' || !cmd.name) throw new CaseError(`${w}.name`, 'expected a name');
      if (names.has(cmd.name)) throw new CaseError(`${w}.name`, `a second readback named ${JSON.stringify(cmd.name)}`);
      names.add(cmd.name);
      const b = named(c.buffers, 'buffer', cmd.buffer, `${w}.buffer`);
      [cmd.offset, cmd.size] = range(b, cmd.offset, cmd.size, w);
      if (!cmd.size) throw new CaseError(`${w}.size`, 'reads nothing');
      cmd.type ??= b.type;
      W.recordOf(cmd.type, `${w}.type`);
      return;
    }
    case 'submit':
      return;
    case 'writeTexture': {
      const t = named(c.textures, 'texture', cmd.texture, `${w}.texture`);
      const tb = T.TEXEL_BYTES[t.format];
      if (!tb) throw new CaseError(`${w}.texture`, `this replayer writes the texels of color formats only, not ${t.format}`);
      if (!cmd.size || typeof cmd.size !== 'object') throw new CaseError(`${w}.size`, 'expected [w, h, d]');
      cmd.extent = T.extent(cmd.size);
      cmd.extent.forEach((v, j) => W.whole(v, `${w}.size[${j}]`, 65536));
      const bytes = cmd.extent[0] * cmd.extent[1] * cmd.extent[2] * tb;
      if (bytes % 4) throw new CaseError(`${w}.size`, `${bytes} bytes of texels are not a whole number of words`);
      const words = new Uint32Array(bytes / 4);
      if (cmd.data === undefined) throw new CaseError(`${w}.data`, 'missing (an init)');
      W.applyInit(cmd.data, words, W.recordOf(t.type, `${w}.type`), `${w}.data`, dir);
      cmd.bytes = new Uint8Array(words.buffer);
      cmd.rowBytes = cmd.extent[0] * tb;
      return;
    }
    case 'copyBufferToTexture': case 'copyTextureToBuffer': case 'copyTextureToTexture':
      for (const k of ['source', 'destination']) {
        const x = obj(cmd[k], `${w}.${k}`);
        if (x.texture !== undefined) named(c.textures, 'texture', x.texture, `${w}.${k}.texture`);
        else named(c.buffers, 'buffer', x.buffer, `${w}.${k}.buffer`);
      }
      if (!cmd.copySize || typeof cmd.copySize !== 'object') throw new CaseError(`${w}.copySize`, 'expected [w, h, d] or {width, height, depthOrArrayLayers}');
      return;
    default:
      throw new CaseError(`${w}.op`, `unknown command ${JSON.stringify(cmd.op)}`);
  }
}

// The case's device asks for what the captured program asked for, which is
// often all its adapter offered (TensorFlow.js asks for the largest
// limits): on another adapter, features it lacks are left out and limits
// are lowered to what it offers, each said in `adjusted`; what the work
// really needs then fails as a validation error.
async function makeDevice(gpu, c, featureLevel) {
  const adapter = await gpu.requestAdapter(featureLevel ? { featureLevel } : {});
  if (!adapter) throw new Error('the implementation gave no adapter');
  const adjusted = [];
  const requiredLimits = {};
  for (const [k, v] of Object.entries(CORE_LIMITS)) {
    const offered = adapter.limits[k];
    if (offered !== undefined) requiredLimits[k] = Math.min(offered, v);
  }
  for (const [k, v] of Object.entries(c.device?.requiredLimits ?? {})) {
    const offered = adapter.limits[k];
    if (offered === undefined) { adjusted.push(`limit ${k} is not known to the adapter: left out`); continue; }
    const better = /^min.*Alignment$/.test(k) ? v < offered : v > offered;
    if (better) adjusted.push(`limit ${k} = ${v} lowered to the adapter's ${offered}`);
    requiredLimits[k] = better ? offered : v;
  }
  const requiredFeatures = [];
  for (const f of c.device?.requiredFeatures ?? []) {
    if (adapter.features.has(f)) requiredFeatures.push(f);
    else adjusted.push(`feature ${f} is not offered by the adapter: left out`);
  }
  const device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
  return { adapter, device, adjusted };
}

// Replays a loaded case on `impl` ({ create, globals, flags, featureLevel,
// name }); returns { result, errors, adjusted } (errors: validation errors,
// each named by the object or command that raised it; adjusted: what of
// the case's device the adapter could not give).
async function replay(loaded, impl) {
  const { c } = loaded;
  const G = impl.globals;
  const gpu = impl.create(impl.flags ?? []);
  const { adapter, device, adjusted } = await makeDevice(gpu, c, impl.featureLevel);
  const scopes = [];
  // an exception (a TypeError of the implementation, a missing method) is
  // reported like a validation error, named by where it came from
  const thrown = [];
  const scoped = (where, fn) => {
    device.pushErrorScope('validation');
    let out;
    try {
      out = fn();
    } catch (e) {
      thrown.push(`${where}: ${e.message}`);
    } finally {
      scopes.push(device.popErrorScope().then((e) => (e ? `${where}: ${e.message}` : null)));
    }
    return out;
  };
  const obj = { modules: {}, buffers: {}, textures: {}, samplers: {}, layouts: {}, pipelineLayouts: {}, pipelines: {}, bindGroups: {} };
  const compile = [];
  for (const [n, m] of Object.entries(c.modules)) {
    const sm = scoped(`modules.${n}`, () => device.createShaderModule({ code: m.code, label: m.label ?? n }));
    obj.modules[n] = sm;
    compile.push(sm.getCompilationInfo().then((info) => info.messages.filter((x) => x.type === 'error')
      .map((x) => `modules.${n} (${m.label ?? n}) ${x.lineNum}:${x.linePos}: ${x.message}`)));
  }
  const U = G.GPUBufferUsage;
  for (const [n, b] of Object.entries(c.buffers)) {
    let usage = b.bits;
    if (usage & U.MAP_READ) usage |= U.COPY_DST;
    else if (!(usage & U.MAP_WRITE)) usage |= U.COPY_SRC | U.COPY_DST;
    const buf = scoped(`buffers.${n}`, () => device.createBuffer({ label: b.label ?? n, size: b.size, usage, mappedAtCreation: true }));
    new Uint32Array(buf.getMappedRange()).set(b.words);
    buf.unmap();
    obj.buffers[n] = buf;
  }
  for (const [n, t] of Object.entries(c.textures)) {
    obj.textures[n] = scoped(`textures.${n}`, () => {
      const tex = device.createTexture({ label: t.label ?? n, format: t.format, size: t.extent, dimension: t.dimension ?? '2d',
        mipLevelCount: t.mipLevelCount ?? 1, sampleCount: t.sampleCount ?? 1, usage: t.bits | (t.words ? G.GPUTextureUsage.COPY_DST : 0) });
      if (t.words) {
        const tb = T.TEXEL_BYTES[t.format];
        device.queue.writeTexture({ texture: tex }, t.words, { bytesPerRow: t.extent[0] * tb, rowsPerImage: t.extent[1] }, t.extent);
      }
      return tex;
    });
  }
  for (const [n, smp] of Object.entries(c.samplers)) obj.samplers[n] = scoped(`samplers.${n}`, () => device.createSampler({ label: n, ...smp }));
  for (const [n, l] of Object.entries(c.bindGroupLayouts)) {
    obj.layouts[n] = scoped(`bindGroupLayouts.${n}`, () => device.createBindGroupLayout({ label: n,
      entries: l.entries.map((e) => ({ ...e, visibility: stageBits(G, e.visibility) })) }));
  }
  for (const [n, pl] of Object.entries(c.pipelineLayouts)) {
    obj.pipelineLayouts[n] = scoped(`pipelineLayouts.${n}`, () => device.createPipelineLayout({ label: n,
      bindGroupLayouts: pl.bindGroupLayouts.map((l) => (l === null ? null : obj.layouts[l])),
      ...(pl.immediateSize ? { immediateSize: pl.immediateSize } : {}) }));
  }
  for (const [n, p] of Object.entries(c.pipelines)) {
    const compute = { module: obj.modules[p.module] };
    if (p.entryPoint !== undefined) compute.entryPoint = p.entryPoint;
    if (p.constants) compute.constants = p.constants;
    const layout = p.layout === undefined || p.layout === 'auto' ? 'auto' : obj.pipelineLayouts[p.layout];
    obj.pipelines[n] = scoped(`pipelines.${n}`, () => device.createComputePipeline({ label: p.label ?? n, layout, compute }));
  }
  for (const [n, g] of Object.entries(c.bindGroups)) {
    const layout = typeof g.layout === 'string' ? obj.layouts[g.layout] : obj.pipelines[g.layout.pipeline].getBindGroupLayout(g.layout.group);
    obj.bindGroups[n] = scoped(`bindGroups.${n}`, () => device.createBindGroup({ label: g.label ?? n, layout,
      entries: g.entries.map((e) => ({ binding: e.binding, resource: resourceOf(obj, e) })) }));
  }
  const read = await runCommands(c, device, G, obj, scoped);
  await device.queue.onSubmittedWorkDone();
  const errors = [...(await Promise.all(compile)).flat(), ...thrown, ...(await Promise.all(scopes)).filter(Boolean)];
  const buffers = {};
  for (const [name, { words, type }] of read) buffers[name] = W.resultEntry(words, type);
  const info = adapter.info ?? {};
  const result = {
    format: W.RESULT_FORMAT, case: c.name, caseSha256: W.sha256(loaded.text),
    implementation: { name: impl.name ?? 'WebGPU', featureLevel: impl.featureLevel ?? 'core',
      adapter: { vendor: info.vendor ?? '', architecture: info.architecture ?? '', device: info.device ?? '', description: info.description ?? '' } },
    buffers,
  };
  if (adjusted.length) result.implementation.deviceAdjusted = adjusted;
  device.destroy();
  // the GPU object stays referenced until its device is done (Dawn's
  // package ends the process when it is collected earlier)
  keep(gpu);
  return { result, errors, adjusted };
}

function resourceOf(obj, e) {
  if (e.sampler !== undefined) return obj.samplers[e.sampler];
  if (e.texture !== undefined) return obj.textures[e.texture].createView(e.view ?? undefined);
  return { buffer: obj.buffers[e.buffer], offset: e.offset ?? 0, ...(e.size !== undefined ? { size: e.size } : {}) };
}

// A copy's side as WebGPU's GPUTexelCopyTextureInfo / GPUTexelCopyBufferInfo.
function copySide(obj, x) {
  if (x.texture !== undefined) {
    return { texture: obj.textures[x.texture], mipLevel: x.mipLevel ?? 0, origin: x.origin ?? [0, 0, 0], aspect: x.aspect ?? 'all' };
  }
  return { buffer: obj.buffers[x.buffer], offset: x.offset ?? 0,
    ...(x.bytesPerRow !== undefined ? { bytesPerRow: x.bytesPerRow } : {}), ...(x.rowsPerImage !== undefined ? { rowsPerImage: x.rowsPerImage } : {}) };
}

function keep(x) { return x; }

function stageBits(G, v) {
  if (typeof v === 'number') return v;
  const S = G.GPUShaderStage;
  return (v ?? ['compute']).reduce((m, s) => m | ({ compute: S.COMPUTE, vertex: S.VERTEX, fragment: S.FRAGMENT }[s] ?? 0), 0);
}

async function runCommands(c, device, G, obj, scoped) {
  let enc = device.createCommandEncoder({ label: 'replay' });
  let pass = null;
  let encoded = 0;
  const endPass = () => { if (pass) { pass.end(); pass = null; } };
  const submit = () => {
    endPass();
    if (encoded) device.queue.submit([enc.finish()]);
    enc = device.createCommandEncoder({ label: 'replay' });
    encoded = 0;
  };
  const read = new Map();
  for (const [i, cmd] of c.commands.entries()) {
    const w = `commands[${i}] (${cmd.op})`;
    switch (cmd.op) {
      case 'dispatch': case 'dispatchIndirect':
        scoped(w, () => {
          pass ??= enc.beginComputePass({ label: 'replay' });
          pass.setPipeline(obj.pipelines[cmd.pipeline]);
          for (const g of cmd.bindGroups ?? []) pass.setBindGroup(g.group, obj.bindGroups[g.bindGroup], g.dynamicOffsets ?? []);
          if (cmd.immediates?.length) {
            if (typeof pass.setImmediates !== 'function') throw new Error('this implementation has no setImmediates for the dispatch\'s immediates');
            pass.setImmediates(0, Uint32Array.from(cmd.immediates));
          }
          if (cmd.op === 'dispatch') pass.dispatchWorkgroups(...cmd.workgroups);
          else pass.dispatchWorkgroupsIndirect(obj.buffers[cmd.buffer], cmd.offset ?? 0);
        });
        encoded++;
        break;
      case 'copyBufferToBuffer':
        endPass();
        scoped(w, () => enc.copyBufferToBuffer(obj.buffers[cmd.src], cmd.srcOffset ?? 0, obj.buffers[cmd.dst], cmd.dstOffset ?? 0, cmd.size));
        encoded++;
        break;
      case 'clearBuffer':
        endPass();
        scoped(w, () => enc.clearBuffer(obj.buffers[cmd.buffer], cmd.offset, cmd.size));
        encoded++;
        break;
      case 'writeBuffer':
        // a queue operation: it lands before the commands not yet submitted
        scoped(w, () => device.queue.writeBuffer(obj.buffers[cmd.buffer], cmd.offset, cmd.bytes));
        break;
      case 'writeTexture':
        scoped(w, () => device.queue.writeTexture({ texture: obj.textures[cmd.texture], mipLevel: cmd.mipLevel ?? 0,
          origin: cmd.origin ?? [0, 0, 0], aspect: cmd.aspect ?? 'all' }, cmd.bytes,
        { bytesPerRow: cmd.rowBytes, rowsPerImage: cmd.extent[1] }, cmd.extent));
        break;
      case 'copyBufferToTexture': case 'copyTextureToBuffer': case 'copyTextureToTexture':
        endPass();
        scoped(w, () => enc[cmd.op](copySide(obj, cmd.source), copySide(obj, cmd.destination), cmd.copySize));
        encoded++;
        break;
      case 'submit':
        scoped(w, submit);
        break;
      case 'readback':
        scoped(w, submit);
        read.set(cmd.name, { words: await readRange(device, G, obj.buffers[cmd.buffer], c.buffers[cmd.buffer], cmd), type: cmd.type });
        break;
      default:
        break;
    }
  }
  submit();
  return read;
}

async function readRange(device, G, buf, b, cmd) {
  const M = G.GPUMapMode, U = G.GPUBufferUsage;
  if (b.bits & U.MAP_READ) {
    await buf.mapAsync(M.READ, cmd.offset, cmd.size);
    const words = new Uint32Array(buf.getMappedRange(cmd.offset, cmd.size).slice(0));
    buf.unmap();
    return words;
  }
  const staging = device.createBuffer({ label: `readback ${cmd.name}`, size: cmd.size, usage: U.MAP_READ | U.COPY_DST });
  const enc = device.createCommandEncoder({ label: `readback ${cmd.name}` });
  enc.copyBufferToBuffer(buf, cmd.offset, staging, 0, cmd.size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(M.READ);
  const words = new Uint32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return words;
}

module.exports = { loadCase, replay, CORE_LIMITS };
