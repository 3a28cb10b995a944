'use strict';
// recorder.js — records the compute work of a program as version-2 case
// files (docs/case-format.md), on any WebGPU implementation. It wraps the
// objects the program gets by replacing methods on the objects themselves
// (the real GPUDevice, GPUBuffer, ... stay what they are, so they can be
// handed back to the implementation and `instanceof` still holds), records
// what each call made or encoded, and passes the call on unchanged.
//
// The unit of capture is a span (a case file): by default each submit that
// dispatches opens one (named by a `capture:NAME` debug group in its
// encoder, else capture_NNNN) and the next such submit closes it; copies,
// writes and readbacks in between join it. recorder.begin(NAME) / end()
// mark a span by hand (mode 'span' captures only those and the submits that
// carry a `capture:NAME` debug group). A buffer's contents at the start of
// a span are read when the span first touches it: a copy into a MAP_READ
// staging buffer, submitted just before the program's own submit or write,
// so the program's results do not change. Buffers get COPY_SRC added at
// creation for that (their `usage` still reads what the program asked for),
// except map-read buffers, whose contents the recorder follows on the host.
// The program's readbacks (getMappedRange of a buffer mapped for reading)
// become readback commands and the reference result file.

const fs = require('node:fs');
const path = require('node:path');
const { writeCase } = require('./writer.js');
const { TEXEL_BYTES, extent, origin, levelSize, tighten, align } = require('./textures.js');

const U = { MAP_READ: 0x1, MAP_WRITE: 0x2, COPY_SRC: 0x4, COPY_DST: 0x8 };
const T_COPY_SRC = 0x1;
const MAP_MODE_READ = 0x1;

const kRecorder = Symbol.for('lockstep.capture');

// Replaces obj[name] with fn(original, ...args) on the object itself.
function hook(obj, name, fn) {
  const orig = obj[name];
  if (typeof orig !== 'function') return;
  Object.defineProperty(obj, name, {
    value: function (...args) { return fn.call(this, orig, args); },
    writable: true, configurable: true, enumerable: false,
  });
}

// The bytes a writeBuffer call writes (WebGPU counts elements of a
// TypedArray and bytes of an ArrayBuffer or DataView).
function writtenBytes(data, dataOffset = 0, size = undefined) {
  let bytes, unit = 1;
  if (ArrayBuffer.isView(data)) {
    bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (!(data instanceof DataView)) unit = data.BYTES_PER_ELEMENT;
  } else bytes = new Uint8Array(data);
  const start = dataOffset * unit;
  const end = size === undefined ? bytes.length : start + size * unit;
  return bytes.slice(start, end);
}

class Recorder {
  constructor(device, options = {}) {
    this.device = device;
    this.dir = path.resolve(String(options.dir ?? ''));
    if (!options.dir) throw new Error('lockstep capture: no capture directory given');
    this.mode = options.mode ?? 'submit';
    if (!['submit', 'span'].includes(this.mode)) throw new Error(`lockstep capture: mode "${this.mode}": expected "submit" or "span"`);
    checkWritable(this.dir);
    this.descriptor = options.descriptor ?? {};
    // Dawn's package ends the process when its GPU object is collected
    // while devices are in use (docs/performance.md): the device's recorder
    // keeps it
    this.gpu = options.gpu;
    this.adapterInfo = options.adapterInfo ?? device.adapterInfo ?? {};
    this.implementation = options.implementation;
    this.quiet = !!options.quiet;
    this.info = new WeakMap();      // object -> what it is, as the case writes it
    this.ids = new Map();           // kind -> the next number
    this.lastUnit = new WeakMap();  // buffer info -> the unit that used it last
    this.span = null;               // the explicit span, when one is open
    this.auto = null;               // the automatic span (mode 'submit' or a capture: debug group)
    this.count = 0;
    this.names = new Set();
    this.written = [];              // the case files written, in order
    this.errors = [];
    this.pending = new Set();       // units not yet written
    this.orig = {};
    this.hookDevice();
  }

  id(kind) {
    const n = this.ids.get(kind) ?? 0;
    this.ids.set(kind, n + 1);
    return n;
  }

  // Recording must never break the program: a failure becomes a note.
  safely(unit, what, fn) {
    try {
      return fn();
    } catch (e) {
      (unit ?? this.span ?? this.auto)?.notes.add(`${what}: not recorded (${e.message})`);
      return undefined;
    }
  }

  note(message) { (this.span ?? this.auto)?.notes.add(message); }

  // ---- the device and the objects it makes
  hookDevice() {
    const r = this, d = this.device;
    for (const m of ['createBuffer', 'createTexture', 'createCommandEncoder']) this.orig[m] = d[m].bind(d);
    hook(d, 'createBuffer', function (orig, [desc, ...rest]) {
      let asked = desc;
      const usage = desc && typeof desc === 'object' ? desc.usage : undefined;
      const add = typeof usage === 'number' && !(usage & U.MAP_READ) && !(usage & U.COPY_SRC);
      if (add) asked = { label: desc.label, size: desc.size, mappedAtCreation: desc.mappedAtCreation, usage: usage | U.COPY_SRC };
      const b = orig.call(this, asked, ...rest);
      r.safely(null, 'createBuffer', () => r.buffer(b, desc, add));
      return b;
    });
    hook(d, 'createShaderModule', function (orig, args) {
      const m = orig.apply(this, args);
      r.safely(null, 'createShaderModule', () => r.info.set(m, { kind: 'module', id: r.id('m'),
        code: String(args[0].code), label: args[0].label || undefined }));
      return m;
    });
    hook(d, 'createBindGroupLayout', function (orig, args) {
      const l = orig.apply(this, args);
      r.safely(null, 'createBindGroupLayout', () => r.info.set(l, { kind: 'layout', id: r.id('l'),
        entries: [...args[0].entries].map(layoutEntry) }));
      return l;
    });
    hook(d, 'createPipelineLayout', function (orig, args) {
      const pl = orig.apply(this, args);
      r.safely(null, 'createPipelineLayout', () => r.info.set(pl, { kind: 'pipelineLayout', id: r.id('pl'),
        layouts: [...args[0].bindGroupLayouts].map((l) => (l ? r.info.get(l) ?? null : null)),
        immediateSize: args[0].immediateSize ? Number(args[0].immediateSize) : undefined }));
      return pl;
    });
    hook(d, 'createComputePipeline', function (orig, args) {
      const p = orig.apply(this, args);
      r.safely(null, 'createComputePipeline', () => r.pipeline(p, args[0]));
      return p;
    });
    hook(d, 'createComputePipelineAsync', function (orig, args) {
      return orig.apply(this, args).then((p) => {
        r.safely(null, 'createComputePipelineAsync', () => r.pipeline(p, args[0]));
        return p;
      });
    });
    hook(d, 'createBindGroup', function (orig, args) {
      const g = orig.apply(this, args);
      r.safely(null, 'createBindGroup', () => r.bindGroup(g, args[0]));
      return g;
    });
    hook(d, 'createTexture', function (orig, [desc, ...rest]) {
      // COPY_SRC as for buffers, where the format can be read back
      const usage = desc && typeof desc === 'object' ? desc.usage : undefined;
      const add = typeof usage === 'number' && !(usage & T_COPY_SRC) && !!TEXEL_BYTES[desc.format] && (desc.sampleCount ?? 1) === 1;
      const t = orig.call(this, add ? { ...desc, usage: usage | T_COPY_SRC } : desc, ...rest);
      r.safely(null, 'createTexture', () => r.texture(t, desc, add));
      return t;
    });
    hook(d, 'createSampler', function (orig, args) {
      const smp = orig.apply(this, args);
      r.safely(null, 'createSampler', () => {
        const desc = { ...(args[0] ?? {}) };
        delete desc.label;
        r.info.set(smp, { kind: 'sampler', id: r.id('s'), desc });
      });
      return smp;
    });
    hook(d, 'importExternalTexture', function (orig, args) {
      const t = orig.apply(this, args);
      r.info.set(t, { kind: 'external', id: r.id('x') });
      return t;
    });
    hook(d, 'createCommandEncoder', function (orig, args) {
      const e = orig.apply(this, args);
      r.safely(null, 'createCommandEncoder', () => r.encoder(e));
      return e;
    });
    hook(d, 'destroy', function (orig, args) {
      r.safely(null, 'destroy', () => r.close());
      return orig.apply(this, args);
    });
    this.hookQueue(d.queue);
  }

  buffer(b, desc, added) {
    const usage = desc.usage;
    const info = { kind: 'buffer', id: this.id('b'), size: Number(desc.size), usage, label: desc.label || undefined,
      mapRead: !!(usage & U.MAP_READ), destroyed: false, map: null, ref: new WeakRef(b), addedCopySrc: added };
    // A map-read buffer cannot be copied from: its contents are followed
    // on the host (zeros at creation, what each read map showed).
    if (info.mapRead) { info.shadow = new Uint8Array(Math.ceil(info.size / 4) * 4); info.shadowKnown = true; }
    if (desc.mappedAtCreation) info.map = { mode: 'create', ranges: [] };
    this.info.set(b, info);
    if (added) Object.defineProperty(b, 'usage', { get() { return usage; }, configurable: true, enumerable: true });
    const r = this;
    hook(b, 'mapAsync', function (orig, args) {
      const mode = args[0];
      const p = orig.apply(this, args);
      return p.then((v) => { info.map = { mode: mode & MAP_MODE_READ ? 'read' : 'write', ranges: [] }; return v; });
    });
    hook(b, 'getMappedRange', function (orig, args) {
      const ab = orig.apply(this, args);
      r.safely(null, 'getMappedRange', () => r.mappedRange(b, info, args[0] ?? 0, ab));
      return ab;
    });
    hook(b, 'unmap', function (orig, args) {
      r.safely(null, 'unmap', () => r.unmapped(b, info));
      return orig.apply(this, args);
    });
    hook(b, 'destroy', function (orig, args) {
      info.destroyed = true;
      return orig.apply(this, args);
    });
  }

  mappedRange(b, info, offset, ab) {
    if (!info.map) return;
    info.map.ranges.push({ offset, ab });
    if (info.map.mode !== 'read') return;
    const bytes = new Uint8Array(ab.slice(0));
    if (info.mapRead) {
      info.shadow.set(bytes.subarray(0, info.shadow.length - offset), offset);
      if (offset === 0 && bytes.length >= info.size) info.shadowKnown = true;
    }
    // The program reads results: a readback of the span that used the
    // buffer last, if nothing outside a span used it since.
    const unit = this.lastUnit.get(info);
    if (unit) this.readback(unit, info, offset, bytes);
  }

  unmapped(b, info) {
    const map = info.map;
    info.map = null;
    if (!map || map.mode === 'read') return;
    // The host wrote the buffer: to a span that already read the buffer's
    // contents, that is a writeBuffer.
    for (const { offset, ab } of map.ranges) {
      if (ab.byteLength === 0) continue;
      const bytes = new Uint8Array(ab.slice(0));
      if (info.mapRead) info.shadow.set(bytes.subarray(0, info.shadow.length - offset), offset);
      const unit = this.span ?? this.auto;
      if (unit && unit.snapshots.has(info)) unit.cmds.push({ op: 'writeBuffer', buffer: info, offset, bytes });
      else if (!unit) this.lastUnit.delete(info);
    }
  }

  texture(t, desc, added) {
    const usage = desc.usage;
    const info = { kind: 'texture', id: this.id('t'), format: desc.format, size: extent(desc.size),
      dimension: desc.dimension ?? '2d', mipLevelCount: Number(desc.mipLevelCount ?? 1), sampleCount: Number(desc.sampleCount ?? 1),
      usage, label: desc.label || undefined, destroyed: false, ref: new WeakRef(t), addedCopySrc: added,
      copyable: !!TEXEL_BYTES[desc.format] && Number(desc.sampleCount ?? 1) === 1 && !!((usage | (added ? T_COPY_SRC : 0)) & T_COPY_SRC) };
    this.info.set(t, info);
    if (added) Object.defineProperty(t, 'usage', { get() { return usage; }, configurable: true, enumerable: true });
    const r = this;
    hook(t, 'createView', function (orig, args) {
      const v = orig.apply(this, args);
      r.safely(null, 'createView', () => {
        const view = {};
        for (const k of ['format', 'dimension', 'baseMipLevel', 'mipLevelCount', 'baseArrayLayer', 'arrayLayerCount', 'aspect']) {
          if (args[0]?.[k] !== undefined) view[k] = args[0][k];
        }
        r.info.set(v, { kind: 'view', texture: info, view });
      });
      return v;
    });
    hook(t, 'destroy', function (orig, args) {
      info.destroyed = true;
      return orig.apply(this, args);
    });
  }

  pipeline(p, desc) {
    const c = desc.compute;
    const layout = desc.layout === 'auto' ? 'auto' : this.info.get(desc.layout);
    const info = { kind: 'pipeline', id: this.id('p'), module: this.info.get(c.module), entryPoint: c.entryPoint,
      constants: c.constants ? { ...c.constants } : undefined, layout, label: desc.label || undefined };
    this.info.set(p, info);
    const r = this;
    hook(p, 'getBindGroupLayout', function (orig, args) {
      const l = orig.apply(this, args);
      r.safely(null, 'getBindGroupLayout', () => {
        if (!r.info.has(l)) r.info.set(l, { kind: 'layout', id: r.id('l'), pipeline: info, group: Number(args[0]) });
      });
      return l;
    });
  }

  bindGroup(g, desc) {
    const entries = [...desc.entries].map((e) => {
      const res = e.resource;
      const direct = this.info.get(res);
      if (direct?.kind === 'buffer') return { binding: e.binding, buffer: direct, offset: 0 };
      const buf = res && typeof res === 'object' ? this.info.get(res.buffer) : undefined;
      if (buf?.kind === 'buffer') return { binding: e.binding, buffer: buf, offset: Number(res.offset ?? 0), size: res.size === undefined ? undefined : Number(res.size) };
      if (direct?.kind === 'view') return { binding: e.binding, texture: direct.texture, view: direct.view };
      if (direct?.kind === 'texture') return { binding: e.binding, texture: direct };
      if (direct?.kind === 'sampler') return { binding: e.binding, sampler: direct };
      return { binding: e.binding, unsupported: direct?.kind === 'external' ? 'an external texture' : 'an object made before the recorder' };
    });
    this.info.set(g, { kind: 'bindGroup', id: this.id('g'), layout: this.info.get(desc.layout), entries, label: desc.label || undefined });
  }

  // ---- encoders and passes: commands are kept per encoder until submit
  encoder(e) {
    const rec = { cmds: [], notes: new Set(), name: null };
    this.info.set(e, { kind: 'encoder', rec });
    const r = this;
    const buf = (x) => r.info.get(x);
    hook(e, 'beginComputePass', function (orig, args) {
      const pass = orig.apply(this, args);
      r.safely(null, 'beginComputePass', () => {
        if (args[0]?.timestampWrites) rec.notes.add('timestamp writes of a compute pass are not captured');
        r.pass(pass, rec);
      });
      return pass;
    });
    hook(e, 'copyBufferToBuffer', function (orig, args) {
      const out = orig.apply(this, r.keepError(args, 0));
      r.safely(null, 'copyBufferToBuffer', () => {
        const short = buf(args[1])?.kind === 'buffer';
        const [src, srcOffset, dst, dstOffset, size] = short ? [args[0], 0, args[1], 0, args[2]] : args;
        const s = buf(src), t = buf(dst);
        rec.cmds.push({ op: 'copyBufferToBuffer', src: s, srcOffset: Number(srcOffset), dst: t, dstOffset: Number(dstOffset),
          size: size === undefined ? s.size - Number(srcOffset) : Number(size) });
      });
      return out;
    });
    hook(e, 'clearBuffer', function (orig, args) {
      const out = orig.apply(this, args);
      r.safely(null, 'clearBuffer', () => {
        const b = buf(args[0]);
        const offset = Number(args[1] ?? 0);
        rec.cmds.push({ op: 'clearBuffer', buffer: b, offset, size: args[2] === undefined ? b.size - offset : Number(args[2]) });
      });
      return out;
    });
    const side = (x) => (x.texture !== undefined
      ? { texture: buf(x.texture), mipLevel: Number(x.mipLevel ?? 0), origin: origin(x.origin), aspect: x.aspect ?? 'all' }
      : { buffer: buf(x.buffer), offset: Number(x.offset ?? 0), bytesPerRow: x.bytesPerRow, rowsPerImage: x.rowsPerImage });
    for (const m of ['copyBufferToTexture', 'copyTextureToBuffer', 'copyTextureToTexture']) {
      hook(e, m, function (orig, args) {
        const out = orig.apply(this, r.keepError(args, 0));
        r.safely(null, m, () => {
          const c = { op: m, source: side(args[0]), destination: side(args[1]), copySize: extent(args[2]) };
          const bad = [c.source, c.destination].find((x) => x.texture !== undefined && !x.texture?.copyable);
          if (!bad) { rec.cmds.push(c); return; }
          rec.notes.add(`${m}: a texture whose texels are not recorded (${bad.texture?.format ?? 'made before the recorder'}) is not captured`);
          if (c.destination.buffer) rec.cmds.push({ op: 'unknownWrite', buffer: c.destination.buffer });
        });
        return out;
      });
    }
    hook(e, 'beginRenderPass', function (orig, args) {
      rec.notes.add('render passes are not captured (compute only)');
      return orig.apply(this, args);
    });
    hook(e, 'resolveQuerySet', function (orig, args) {
      rec.notes.add('resolveQuerySet is not captured');
      rec.cmds.push({ op: 'unknownWrite', buffer: buf(args[3]) });
      return orig.apply(this, args);
    });
    hook(e, 'pushDebugGroup', function (orig, args) {
      const label = String(args[0]);
      if (label.startsWith('capture:') && rec.name === null) rec.name = label.slice(8);
      return orig.apply(this, args);
    });
    hook(e, 'finish', function (orig, args) {
      const cb = orig.apply(this, args);
      r.info.set(cb, { kind: 'commandBuffer', rec });
      return cb;
    });
  }

  pass(pass, rec) {
    const state = { pipeline: null, groups: [], immediates: new Uint8Array(0) };
    const r = this;
    hook(pass, 'setPipeline', function (orig, args) {
      const out = orig.apply(this, args);
      state.pipeline = r.info.get(args[0]) ?? null;
      return out;
    });
    hook(pass, 'setBindGroup', function (orig, args) {
      const out = orig.apply(this, args);
      r.safely(null, 'setBindGroup', () => {
        const [index, g, offsets, start, length] = args;
        let dyn = [];
        if (offsets !== undefined && offsets !== null) {
          dyn = start === undefined ? [...offsets] : [...offsets.subarray(Number(start), Number(start) + Number(length))];
        }
        state.groups[Number(index)] = g ? { group: Number(index), bindGroup: r.info.get(g), dynamicOffsets: dyn.map(Number) } : undefined;
      });
      return out;
    });
    const dispatch = (extra) => ({ pipeline: state.pipeline, bindGroups: state.groups.filter(Boolean).map((x) => ({ ...x })),
      ...(state.immediates.length ? { immediates: Array.from(new Uint32Array(state.immediates.slice().buffer)) } : {}), ...extra });
    hook(pass, 'dispatchWorkgroups', function (orig, args) {
      const out = orig.apply(this, args);
      const [x, y = 1, z = 1] = args.map((v) => (v === undefined ? 1 : Number(v)));
      rec.cmds.push(dispatch({ op: 'dispatch', workgroups: [x, y, z] }));
      return out;
    });
    hook(pass, 'dispatchWorkgroupsIndirect', function (orig, args) {
      const out = orig.apply(this, args);
      rec.cmds.push(dispatch({ op: 'dispatchIndirect', buffer: r.info.get(args[0]), offset: Number(args[1]) }));
      return out;
    });
    // immediate data: the pass's bytes so far, as words for each dispatch
    hook(pass, 'setImmediates', function (orig, args) {
      const out = orig.apply(this, args);
      r.safely(null, 'setImmediates', () => {
        const [rangeOffset, data, dataOffset, dataSize] = args;
        const bytes = writtenBytes(data, dataOffset ?? 0, dataSize);
        const end = Number(rangeOffset) + bytes.length;
        if (state.immediates.length < end) { const grown = new Uint8Array(Math.ceil(end / 4) * 4); grown.set(state.immediates); state.immediates = grown; }
        state.immediates.set(bytes, Number(rangeOffset));
      });
      return out;
    });
  }

  // The program's error stays its own: a copy out of a buffer or texture
  // to which only the recorder gave COPY_SRC is a validation error without
  // the recorder, so the copy is handed an object like it, made without
  // COPY_SRC and under its label, and WebGPU raises the error it would have.
  keepError(args, at) {
    const x = args[at];
    const obj = this.info.get(x?.texture ?? x);
    if (!obj?.addedCopySrc) return args;
    const stand = obj.kind === 'buffer'
      ? this.orig.createBuffer({ label: obj.label ?? '', size: obj.size, usage: obj.usage })
      : this.orig.createTexture({ label: obj.label ?? '', size: obj.size, format: obj.format, dimension: obj.dimension,
        mipLevelCount: obj.mipLevelCount, usage: obj.usage });
    const out = [...args];
    out[at] = obj.kind === 'buffer' ? stand : { ...x, texture: stand };
    return out;
  }

  // ---- the queue
  hookQueue(q) {
    const r = this;
    this.orig.submit = q.submit.bind(q);
    hook(q, 'submit', function (orig, args) {
      r.safely(null, 'submit', () => r.submitted([...args[0]]));
      return orig.apply(this, args);
    });
    hook(q, 'writeBuffer', function (orig, args) {
      const info = r.info.get(args[0]);
      const unit = r.span ?? r.auto;
      let bytes;
      if (info && unit) r.safely(unit, 'writeBuffer', () => { bytes = writtenBytes(args[2], args[3], args[4]); r.snapshot(unit, [info]); });
      const out = orig.apply(this, args);
      if (info && unit && bytes) unit.cmds.push({ op: 'writeBuffer', buffer: info, offset: Number(args[1]), bytes });
      else if (info && !unit) r.lastUnit.delete(info);
      return out;
    });
    hook(q, 'writeTexture', function (orig, args) {
      const t = r.info.get(args[0]?.texture);
      const unit = r.span ?? r.auto;
      let cmd;
      if (t && unit) {
        r.safely(unit, 'writeTexture', () => {
          if (!t.copyable) { unit.notes.add(`writeTexture: the texels of ${t.format} textures are not recorded`); return; }
          cmd = writeTextureCmd(t, args);
          r.snapshot(unit, [t]);
        });
      }
      const out = orig.apply(this, args);
      if (cmd) unit.cmds.push(cmd);
      return out;
    });
    hook(q, 'copyExternalImageToTexture', function (orig, args) {
      r.note('copyExternalImageToTexture: external images are not captured');
      return orig.apply(this, args);
    });
  }

  submitted(cbs) {
    const recs = cbs.map((cb) => this.info.get(cb)?.rec ?? { cmds: [], notes: new Set(['a command buffer from outside the recorder']), name: null });
    const dispatches = recs.some((x) => x.cmds.some((c) => c.op.startsWith('dispatch')));
    const named = recs.find((x) => x.name !== null)?.name ?? null;
    let unit = this.span;
    if (!unit && dispatches && (this.mode === 'submit' || named !== null)) {
      this.closeAuto();
      unit = this.auto = this.openUnit(named);
    } else if (!unit) unit = this.auto;
    const used = [];
    for (const x of recs) for (const c of x.cmds) used.push(...objectsOf(c));
    if (!unit) {
      for (const b of used) this.lastUnit.delete(b);
      return;
    }
    this.snapshot(unit, used);
    for (const x of recs) {
      for (const n of x.notes) unit.notes.add(n);
      unit.cmds.push(...x.cmds.filter((c) => c.op !== 'unknownWrite'));
      unit.cmds.push({ op: 'submit' });
      if (x.cmds.some((c) => c.op.startsWith('dispatch'))) unit.dispatches = true;
    }
    for (const b of used) {
      if (b.kind !== 'buffer') continue;
      this.lastUnit.set(b, unit);
      if (b.mapRead) b.shadowKnown = false;
    }
    for (const x of recs) for (const c of x.cmds) if (c.op === 'unknownWrite' && c.buffer) this.lastUnit.delete(c.buffer);
  }

  // Reads the contents of the buffers a span touches for the first time,
  // before the work that touches them (queue order).
  snapshot(unit, infos) {
    const fresh = [...new Set(infos)].filter((b) => b && !unit.snapshots.has(b));
    const copies = [];
    for (const b of fresh) {
      if (b.kind === 'texture') {
        if (b.copyable && !b.destroyed && this.bufferOf(b)) copies.push(b);
        else {
          unit.snapshots.set(b, []);
          if (!b.copyable) unit.notes.add(`t${b.id}: the texels of a ${b.format} texture${b.sampleCount > 1 ? ' (multisampled)' : ''} are not recorded; it starts as zeros`);
        }
      } else if (b.mapRead) {
        unit.snapshots.set(b, b.shadow.slice());
        if (!b.shadowKnown) unit.notes.add(`b${b.id}: a map-read buffer whose contents at the start were not all seen by the host; they are what it last showed`);
      } else if (b.destroyed || b.size < 4 || !this.bufferOf(b)) {
        unit.snapshots.set(b, new Uint8Array(Math.ceil(b.size / 4) * 4));
      } else copies.push(b);
    }
    this.copyOut(unit, copies, (b, bytes) => unit.snapshots.set(b, bytes), false);
    for (const b of copies) if (!unit.snapshots.has(b)) unit.snapshots.set(b, null);
  }

  // Copies buffers into staging buffers (a submit of the recorder's own, in
  // queue order) and hands each one's bytes to `take` when mapped. A
  // failure of a start snapshot spoils the case; of an end read, only
  // that reference.
  copyOut(unit, infos, take, optional) {
    if (!infos.length) return;
    const d = this.device;
    d.pushErrorScope('validation');
    const enc = this.orig.createCommandEncoder({ label: 'capture: contents' });
    // one staging buffer per buffer, per texture mip level
    const plans = infos.map((b) => (b.kind === 'texture' ? this.textureCopies(enc, b) : [this.bufferCopy(enc, b)]));
    this.orig.submit([enc.finish()]);
    const wait = (p) => {
      unit.waiting.add(p);
      p.then(() => unit.waiting.delete(p)).then(() => this.settle(unit));
    };
    wait(d.popErrorScope().then((e) => { if (e) unit.notes.add(`reading contents failed: ${e.message}`); }));
    infos.forEach((b, i) => {
      const name = `${b.kind === 'texture' ? 't' : 'b'}${b.id}`;
      wait(Promise.all(plans[i].map(async ({ staging, finish }) => {
        await staging.mapAsync(MAP_MODE_READ);
        const bytes = finish(new Uint8Array(staging.getMappedRange()));
        staging.destroy();
        return bytes;
      })).then((parts) => take(b, b.kind === 'texture' ? parts : parts[0]), (e) => {
        if (optional) unit.notes.add(`${name}: its contents after the work could not be read (${e.message})`);
        else unit.failed = `the contents of ${name} could not be read (${e.message})`;
      }));
    });
  }

  bufferCopy(enc, b) {
    const size = Math.floor(b.size / 4) * 4;
    const staging = this.orig.createBuffer({ label: `capture: b${b.id}`, size, usage: U.MAP_READ | U.COPY_DST });
    enc.copyBufferToBuffer(this.bufferOf(b), 0, staging, 0, size);
    return { staging, finish: (mapped) => { const out = new Uint8Array(Math.ceil(b.size / 4) * 4); out.set(mapped); return out; } };
  }

  // Every mip level, every layer, copied out with rows at WebGPU's 256-byte
  // pitch and read back as tight rows.
  textureCopies(enc, t) {
    const tb = TEXEL_BYTES[t.format];
    const out = [];
    for (let level = 0; level < t.mipLevelCount; level++) {
      const [w, h, d] = levelSize(t.size, t.dimension, level);
      const bytesPerRow = align(w * tb, 256);
      const staging = this.orig.createBuffer({ label: `capture: t${t.id} level ${level}`, size: bytesPerRow * h * d, usage: U.MAP_READ | U.COPY_DST });
      enc.copyTextureToBuffer({ texture: this.bufferOf(t), mipLevel: level }, { buffer: staging, bytesPerRow, rowsPerImage: h }, [w, h, d]);
      out.push({ staging, finish: (mapped) => tighten(mapped, 0, w * tb, h, d, bytesPerRow, h) });
    }
    return out;
  }

  // The GPUBuffer or GPUTexture of an info (held weakly, so the recorder
  // keeps no memory alive).
  bufferOf(info) { return info.ref.deref(); }

  readback(unit, info, offset, bytes) {
    const size = Math.floor(bytes.length / 4) * 4;
    if (!size) return;
    const k = unit.cmds.filter((c) => c.op === 'readback' && !c.final).length;
    unit.cmds.push({ op: 'readback', name: `r${k}_b${info.id}`, buffer: info, offset, size, bytes: bytes.subarray(0, size), k });
    unit.dirty = true;
    if (unit.written) this.write(unit);
  }

  // ---- spans
  openUnit(name) {
    const unit = { name, cmds: [], notes: new Set(), snapshots: new Map(), waiting: new Set(), closed: false,
      written: false, dirty: true, dispatches: false, seq: ++this.count };
    this.pending.add(unit);
    holding.add(this);
    return unit;
  }

  closeAuto(finals = true) {
    if (this.auto) this.closeUnit(this.auto, finals);
    this.auto = null;
  }

  // A span ends: with no readback of the program's yet, the buffers its
  // work wrote are read now (copies queued behind its work), so every case
  // has a reference result.
  closeUnit(unit, finals = true) {
    unit.closed = true;
    if (finals && !unit.cmds.some((c) => c.op === 'readback')) {
      const written = new Set();
      for (const c of unit.cmds) for (const b of writtenBy(c)) if (!b.mapRead && !b.destroyed && b.size >= 4) written.add(b);
      this.copyOut(unit, [...written], (b, bytes) => {
        unit.cmds.push({ op: 'readback', name: `end_b${b.id}`, buffer: b, offset: 0, size: bytes.length, bytes, final: true });
      }, true);
    }
    this.settle(unit);
  }

  begin(name) {
    if (this.span) throw new Error(`lockstep capture: begin("${name}"): the span "${this.span.name}" is still open (end() it first)`);
    this.closeAuto();
    this.span = this.openUnit(name === undefined ? null : String(name));
  }

  // options.readbacks: what the program knows of its reads, in order:
  // [{ type: 'f32', compare: { mode: 'float', ulp: 4 } }, ...], written as
  // each readback's word type and the case's compare rule for it.
  end(options = {}) {
    if (!this.span) throw new Error('lockstep capture: end(): no span is open');
    const unit = this.span;
    this.span = null;
    unit.describe = options.readbacks ?? [];
    this.closeUnit(unit);
    return this.done(unit);
  }

  // A promise for one unit's files (its readbacks may still come later).
  done(unit) {
    return new Promise((resolve) => {
      const check = () => (unit.waiting.size === 0 ? resolve(unit.file ?? null) : Promise.all(unit.waiting).then(check, check));
      check();
    });
  }

  // Writes a unit once it is closed and its contents are in.
  settle(unit) {
    if (!unit.closed || unit.waiting.size || (unit.written && !unit.dirty)) return;
    if (!unit.dispatches && !unit.cmds.some((c) => c.op === 'readback')) { this.release(unit); return; }
    this.write(unit);
  }

  write(unit) {
    for (const c of unit.cmds) {
      const d = c.op === 'readback' && c.k !== undefined ? unit.describe?.[c.k] : undefined;
      if (d) Object.assign(c, { type: d.type, compare: d.compare });
    }
    if (unit.failed) {
      this.fail(`a capture was not written: ${unit.failed}`);
      this.release(unit);
      return;
    }
    if (!unit.file) {
      unit.caseName = this.freeName(unit.name ?? `capture_${String(unit.seq).padStart(4, '0')}`);
      unit.file = path.join(this.dir, `${unit.caseName}.json`);
    }
    try {
      writeCase(this, unit);
      if (!unit.written) this.written.push(unit.file);
      unit.written = true;
      unit.dirty = false;
      this.release(unit);
    } catch (e) {
      this.fail(`cannot write ${unit.file}: ${e.message}`);
      this.release(unit);
    }
  }

  freeName(base) {
    const clean = base.replace(/[^A-Za-z0-9_.-]/g, '_') || 'capture';
    let name = clean;
    for (let k = 2; this.names.has(name) || fs.existsSync(path.join(this.dir, `${name}.json`)); k++) name = `${clean}_${k}`;
    this.names.add(name);
    return name;
  }

  // A unit is done: the recorder is held for the exit only while it has
  // units to write, so a program's dropped devices can be collected.
  release(unit) {
    this.pending.delete(unit);
    if (!this.pending.size) holding.delete(this);
  }

  fail(message) {
    this.errors.push(message);
    if (!this.quiet) process.stderr.write(`lockstep capture: ${message}\n`);
  }

  // Closes every span; the files are written as their contents arrive.
  close(finals = true) {
    if (this.span) { this.closeUnit(this.span, finals); this.span = null; }
    this.closeAuto(finals);
  }

  // Closes every span and waits until all files are written.
  async flush() {
    this.close();
    while ([...this.pending].some((u) => u.waiting.size)) await Promise.all([...this.pending].flatMap((u) => [...u.waiting]));
    for (const u of [...this.pending]) this.settle(u);
    return this.written.slice();
  }

  // At exit: what is complete is written; what still waits is reported.
  flushSync() {
    this.close(false);
    for (const u of [...this.pending]) {
      if (u.waiting.size) this.fail(`${u.name ?? `capture ${u.seq}`}: not written, the process ended before its buffer contents were read`);
      else this.settle(u);
    }
  }

  // Stops the exit's write of this recorder's files (tests that end devices
  // on purpose use it).
  detach() { holding.delete(this); }
}

// The recorders with units still to write, and the one exit handler that
// writes what is complete when the process ends.
const holding = new Set();
process.on('exit', () => { for (const r of [...holding]) r.flushSync(); });

// The buffers a command may write (storage bindings of any type count:
// an auto layout does not say which are read-only).
function writtenBy(c) {
  if (c.op === 'dispatch' || c.op === 'dispatchIndirect') {
    const out = [];
    for (const g of c.bindGroups) {
      for (const e of g.bindGroup?.entries ?? []) if (e.buffer && (e.buffer.usage & 0x80)) out.push(e.buffer);
    }
    return out;
  }
  if (c.op === 'copyBufferToBuffer') return [c.dst].filter(Boolean);
  if (c.op === 'copyTextureToBuffer') return [c.destination.buffer].filter(Boolean);
  if (c.op === 'clearBuffer' || c.op === 'writeBuffer') return [c.buffer].filter(Boolean);
  return [];
}

// The buffers and textures a command touches.
function objectsOf(c) {
  const out = [];
  if (c.op === 'dispatch' || c.op === 'dispatchIndirect') {
    for (const g of c.bindGroups) for (const e of g.bindGroup?.entries ?? []) out.push(e.buffer ?? e.texture);
    if (c.buffer) out.push(c.buffer);
  } else if (c.op === 'copyBufferToBuffer') out.push(c.src, c.dst);
  else if (c.source) out.push(c.source.buffer ?? c.source.texture, c.destination.buffer ?? c.destination.texture);
  else out.push(c.buffer ?? c.texture);
  return out.filter(Boolean);
}

// queue.writeTexture's texels, tight rows, as a command.
function writeTextureCmd(t, [dst, data, layout, size]) {
  const tb = TEXEL_BYTES[t.format];
  const [w, h, d] = extent(size);
  const src = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
  const bytes = tighten(src, Number(layout?.offset ?? 0), w * tb, h, d, Number(layout?.bytesPerRow ?? w * tb), Number(layout?.rowsPerImage ?? h));
  return { op: 'writeTexture', texture: t, mipLevel: Number(dst.mipLevel ?? 0), origin: origin(dst.origin), size: [w, h, d], aspect: dst.aspect ?? 'all', bytes };
}

const STAGES = [['vertex', 1], ['fragment', 2], ['compute', 4]];
function layoutEntry(e) {
  const out = { binding: Number(e.binding) };
  const v = Number(e.visibility);
  out.visibility = STAGES.filter(([, bit]) => v & bit).map(([n]) => n);
  for (const k of ['buffer', 'sampler', 'texture', 'storageTexture', 'externalTexture']) {
    if (e[k] !== undefined && e[k] !== null) out[k] = { ...e[k] };
  }
  return out;
}

function checkWritable(dir) {
  const probe = path.join(dir, `.capture-probe-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (e) {
    throw new Error(`lockstep capture: cannot write to the capture directory ${dir}: ${e.code ?? e.message} (choose a directory that can be created and written)`);
  }
}

// Records the compute work of `device` into options.dir.
function wrapDevice(device, options) {
  if (device[kRecorder]) return device;
  const r = new Recorder(device, options);
  Object.defineProperty(device, kRecorder, { value: r, configurable: true });
  return device;
}

// Wraps navigator.gpu (or any GPU object): every device its adapters give
// records into options.dir.
function wrapGPU(gpu, options) {
  checkWritable(path.resolve(String(options?.dir ?? '')));
  hook(gpu, 'requestAdapter', function (orig, args) {
    return orig.apply(this, args).then((adapter) => {
      if (!adapter) return adapter;
      hook(adapter, 'requestDevice', function (origDevice, dargs) {
        return origDevice.apply(this, dargs).then((device) => wrapDevice(device, {
          ...options, descriptor: dargs[0] ?? {}, adapterInfo: adapter.info ?? device.adapterInfo, gpu,
        }));
      });
      return adapter;
    });
  });
  return gpu;
}

function recorderOf(device) {
  return device?.[kRecorder] ?? null;
}

module.exports = { Recorder, wrapDevice, wrapGPU, recorderOf, writtenBytes };
