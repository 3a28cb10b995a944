'use strict';
// words.js — the data side of case format version 2 (docs/case-format.md)
// that the recorder writes and the replayer reads: usage names, word types
// and records, initial contents (inline parts and sha256-checked side
// files), and the result file's values. No WebGPU here, so the recorder can
// wrap any implementation and the replayer can check a case before it makes
// a device.

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const CASE_FORMAT = 'wgsl-compute-case/2';
const RESULT_FORMAT = 'wgsl-compute-result/1';

// GPUBufferUsage bits by the names the case format uses.
const BUFFER_USAGE = [
  ['map-read', 0x1], ['map-write', 0x2], ['copy-src', 0x4], ['copy-dst', 0x8], ['index', 0x10],
  ['vertex', 0x20], ['uniform', 0x40], ['storage', 0x80], ['indirect', 0x100], ['query-resolve', 0x200],
];

function usageNames(bits) {
  return BUFFER_USAGE.filter(([, b]) => bits & b).map(([n]) => n);
}

// A usage list (or number) to bits; `where` names the field in errors.
function usageBits(usage, where) {
  if (typeof usage === 'number' && Number.isInteger(usage) && usage >= 0) return usage;
  if (!Array.isArray(usage)) throw new CaseError(where, 'expected a list of usage names or a number');
  let bits = 0;
  usage.forEach((n, i) => {
    const e = BUFFER_USAGE.find(([name]) => name === n);
    if (!e) throw new CaseError(`${where}[${i}]`, `unknown usage ${JSON.stringify(n)} (known: ${BUFFER_USAGE.map(([x]) => x).join(', ')})`);
    bits |= e[1];
  });
  return bits;
}

// An error in a case file: the replayer prefixes the file name.
class CaseError extends Error {
  constructor(where, message) {
    super(`${where}: ${message}`);
    this.where = where;
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const i32 = new Int32Array(f32.buffer);
const hex = (w) => '0x' + (w >>> 0).toString(16).padStart(8, '0');

// A word type (`u32`, `i32`, `f32`, or a record such as ["f32*3", "pad"])
// as the list of the word types of one record.
function recordOf(type, where = 'type') {
  const list = type === undefined ? ['u32'] : Array.isArray(type) ? type : [type];
  const out = [];
  for (const t of list) {
    const m = typeof t === 'string' && /^(u32|i32|f32|pad)(?:\*([1-9][0-9]*))?$/.exec(t);
    if (!m) throw new CaseError(where, `unknown word type ${JSON.stringify(t)} (u32, i32, f32, pad, T*N)`);
    for (let k = 0; k < Number(m[2] ?? 1); k++) out.push(m[1]);
  }
  if (!out.length) throw new CaseError(where, 'a record needs at least one word');
  return out;
}

// One JSON value (number or string) as a word of type t.
function encodeWord(v, t, where) {
  if (typeof v === 'string') {
    if (/^0x[0-9a-fA-F]{1,8}$/.test(v)) return parseInt(v, 16) >>> 0;
    if (t === 'f32') {
      const special = { inf: Infinity, '-inf': -Infinity, nan: NaN, '-0': -0 }[v];
      if (special !== undefined) {
        if (Number.isNaN(special)) return 0x7fc00000;
        f32[0] = special;
        return u32[0];
      }
    }
    throw new CaseError(where, `${JSON.stringify(v)} is not a word ("0x…" bits${t === 'f32' ? ', "inf", "-inf", "nan", "-0"' : ''})`);
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new CaseError(where, `${JSON.stringify(v)} is not a number or "0x…" bits`);
  if (t === 'f32') { f32[0] = v; return u32[0]; }
  if (!Number.isInteger(v)) throw new CaseError(where, `${v} is not a whole number (a ${t} word)`);
  if (t === 'i32' ? v < -(2 ** 31) || v >= 2 ** 31 : v < -(2 ** 31) || v >= 2 ** 32)
    throw new CaseError(where, `${v} does not fit a ${t} word`);
  return v >>> 0;
}

function decodeWord(w, t) {
  if (t === 'f32') { u32[0] = w; return f32[0]; }
  if (t === 'i32') { u32[0] = w; return i32[0]; }
  return w >>> 0;
}

// A number as the result format prints it.
function jsonValue(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return x;
}

function whole(v, where, max) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
    throw new CaseError(where, `${JSON.stringify(v)} is not a whole number from 0 to ${max}`);
  return v;
}

// The LCG of version 1: one step before each word.
function lcgWord(state, t, g) {
  if (t === 'f32') {
    const min = g.min ?? 0, max = g.max ?? 1;
    let v = min + (max - min) * Math.floor(state / 256) / 2 ** 24;
    if (g.integer) v = Math.floor(v);
    f32[0] = v;
    return u32[0];
  }
  if (g.max === undefined && g.min === undefined) return state;
  const min = g.min ?? 0, max = g.max;
  return (min + (state % (max - min))) >>> 0;
}

// Fills `words` (a Uint32Array) from an init: one part or a list of parts,
// or a side file { file, bytes, sha256 } beside the case file (caseDir).
// Returns the number of words the init writes (the last word + 1).
function applyInit(init, words, record, where, caseDir) {
  if (init === undefined) return 0;
  if (init && typeof init === 'object' && !Array.isArray(init) && 'file' in init)
    return applyFile(init, words, where, caseDir);
  const parts = Array.isArray(init) ? init : [init];
  let end = 0;
  parts.forEach((p, k) => {
    const w = Array.isArray(init) ? `${where}[${k}]` : where;
    if (!p || typeof p !== 'object' || Array.isArray(p)) throw new CaseError(w, 'an init part is an object (data, fill, iota or lcg)');
    const at = p.at === undefined ? 0 : whole(p.at, `${w}.at`, words.length);
    const kinds = ['data', 'fill', 'iota', 'lcg'].filter((x) => x in p);
    if (kinds.length !== 1) throw new CaseError(w, 'an init part has exactly one of data, fill, iota, lcg');
    const typeAt = (i) => record[i % record.length];
    if (kinds[0] === 'data') {
      if (!Array.isArray(p.data)) throw new CaseError(`${w}.data`, 'expected a list of words');
      if (at + p.data.length > words.length) throw new CaseError(`${w}.data`, `${p.data.length} words at ${at} run past the ${words.length} words of the object`);
      p.data.forEach((v, i) => { words[at + i] = encodeWord(v, typeAt(at + i), `${w}.data[${i}]`); });
      end = Math.max(end, at + p.data.length);
      return;
    }
    const count = p.count === undefined ? words.length - at : whole(p.count, `${w}.count`, words.length - at);
    if (kinds[0] === 'fill') {
      for (let i = 0; i < count; i++) words[at + i] = encodeWord(p.fill, typeAt(at + i), `${w}.fill`);
    } else if (kinds[0] === 'iota') {
      const { start = 0, step = 1 } = p.iota ?? {};
      for (let i = 0; i < count; i++) {
        const t = typeAt(at + i);
        const v = start + i * step;
        if (t === 'f32') { f32[0] = v; words[at + i] = u32[0]; } else words[at + i] = Number(BigInt.asUintN(32, BigInt(Math.trunc(v))));
      }
    } else {
      const g = p.lcg ?? {};
      let state = whole(g.seed ?? 0, `${w}.lcg.seed`, 0xffffffff);
      for (let i = 0; i < count; i++) {
        state = Number((1664525n * BigInt(state) + 1013904223n) % 4294967296n);
        words[at + i] = lcgWord(state, typeAt(at + i), g);
      }
    }
    end = Math.max(end, at + count);
  });
  return end;
}

function applyFile(init, words, where, caseDir) {
  if (typeof init.file !== 'string' || !init.file) throw new CaseError(`${where}.file`, 'expected a file name');
  const bytes = whole(init.bytes, `${where}.bytes`, words.length * 4);
  if (bytes % 4) throw new CaseError(`${where}.bytes`, `${bytes} is not a multiple of 4`);
  if (typeof init.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(init.sha256))
    throw new CaseError(`${where}.sha256`, 'expected 64 hex digits');
  const file = path.resolve(caseDir, init.file);
  let data;
  try {
    data = fs.readFileSync(file);
  } catch (e) {
    throw new CaseError(`${where}.file`, `cannot read ${file}: ${e.code ?? e.message}`);
  }
  if (data.length !== bytes) throw new CaseError(`${where}.file`, `${init.file} holds ${data.length} bytes, not ${bytes}`);
  const digest = sha256(data);
  if (digest !== init.sha256.toLowerCase()) throw new CaseError(`${where}.sha256`, `${init.file} has SHA-256 ${digest}, not ${init.sha256}`);
  new Uint8Array(words.buffer, words.byteOffset, bytes).set(data);
  return bytes / 4;
}

function sha256(data) {
  return crypto.createHash('sha256').update(data).digest('hex');
}

// Bytes as an init, the way a capture writes them: inline "0x…" words up
// to INLINE_WORDS, else a side file (returned in `side` for the caller to
// write) named `file`. A zero run is a fill part.
const INLINE_WORDS = 256;
function initOf(bytes, file) {
  const n = Math.floor(bytes.length / 4);
  const words = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + n * 4));
  if (words.every((w) => w === 0)) return { init: undefined };
  if (n <= INLINE_WORDS) return { init: { data: Array.from(words, hex) } };
  const data = Buffer.from(words.buffer);
  return { init: { file, bytes: data.length, sha256: sha256(data) }, side: data };
}

// A result file's entry for words read back, in the given word type.
function resultEntry(words, type) {
  const record = recordOf(type);
  return {
    type: type ?? 'u32',
    count: Math.floor(words.length / record.length),
    values: Array.from(words, (w, i) => jsonValue(decodeWord(w, record[i % record.length]))),
    hex: Array.from(words, hex),
  };
}

// JSON for people: a value whose text is short, or a list of numbers and
// strings, stays on one line; longer objects and lists get a line per member.
function stringify(v, indent = '') {
  const flat = JSON.stringify(v);
  if (flat === undefined || flat.length <= 100 || v === null || typeof v !== 'object') return flat;
  const inner = indent + ' ';
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return flat.replace(/,/g, ', ');
    return `[\n${v.map((x) => inner + stringify(x, inner)).join(',\n')}\n${indent}]`;
  }
  const members = Object.entries(v).filter(([, x]) => x !== undefined);
  return `{\n${members.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${stringify(x, inner)}`).join(',\n')}\n${indent}}`;
}

// Writes files so that either all appear or none does: every file goes to
// a temporary name first, then each is renamed into place, the last one
// (the case file) last. On failure the temporaries and anything renamed
// are removed and the error is thrown.
function writeAll(files) {
  const done = [];
  const temps = [];
  try {
    for (const [file, data] of files) {
      const tmp = `${file}.tmp-${process.pid}`;
      temps.push(tmp);
      fs.writeFileSync(tmp, data);
    }
    files.forEach(([file], i) => { fs.renameSync(temps[i], file); done.push(file); });
  } catch (e) {
    for (const f of [...temps, ...done]) fs.rmSync(f, { force: true });
    throw e;
  }
}

module.exports = {
  CASE_FORMAT, RESULT_FORMAT, BUFFER_USAGE, usageNames, usageBits, CaseError, hex, recordOf, encodeWord,
  decodeWord, jsonValue, whole, applyInit, sha256, initOf, INLINE_WORDS, resultEntry, stringify, writeAll,
};
