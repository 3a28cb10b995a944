#!/usr/bin/env node
// Rewrite a result file (wgsl-compute-result/1) so that it stays small:
// every buffer over --threshold words (default 4096) loses its "values" and
// "hex" arrays and carries instead
//   "words": N,
//   "sha256": SHA-256 over the buffer's bytes (the 32-bit words, little-endian),
//   "samples": { "<word index>": "0x........", ... }
// The samples are the first 32 and the last 96 words, 64 words spread evenly
// over the buffer, and, when --case is given, 8 words on each side of every
// place (up to 16) where the result switches between "still the initial
// value" and "changed" -- e.g. around the guard's count. Everything else in
// the file (format, case, hashes, implementation) is kept; --notes adds a
// "notes" string.
//
//   node tests/tools/compact_result.mjs FULL.json --out OUT.json [--case CASE.json] [--notes TEXT] [--threshold N]
import fs from 'node:fs';
import crypto from 'node:crypto';
import { importPeer } from './peer.mjs';

const argv = process.argv.slice(2);
const opt = { threshold: 4096 };
const pos = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--out') opt.out = argv[++i];
  else if (a === '--case') opt.case = argv[++i];
  else if (a === '--notes') opt.notes = argv[++i];
  else if (a === '--threshold') opt.threshold = Number(argv[++i]);
  else pos.push(a);
}
if (pos.length !== 1 || !opt.out) {
  console.error('usage: compact_result.mjs FULL.json --out OUT.json [--case CASE.json] [--notes TEXT] [--threshold N]');
  process.exit(2);
}

const res = JSON.parse(fs.readFileSync(pos[0], 'utf8'));
let initial = null, rules = {};
if (opt.case) {
  const kit = await importPeer('lib/kit.mjs');
  const { spec } = kit.loadCase(opt.case);
  initial = Object.fromEntries(spec.buffers.map((b) => [b.name, kit.buildInit(b)]));
  rules = spec.compare ?? {};
}
// A hash only stands for the buffer when the comparison is exact.
const isExact = (r) => r === undefined || r === 'exact' || (r && !Array.isArray(r) && r.mode === 'exact');

function sha256Words(words) {
  const bytes = Buffer.alloc(words.length * 4);
  for (let i = 0; i < words.length; i++) bytes.writeUInt32LE(words[i], i * 4);
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

function sampleIndices(words, init) {
  const n = words.length, set = new Set();
  const add = (i) => { if (i >= 0 && i < n) set.add(i); };
  for (let i = 0; i < 32; i++) add(i);
  for (let i = n - 96; i < n; i++) add(i);
  for (let k = 0; k < 64; k++) add(Math.round((k * (n - 1)) / 63));
  if (init) {
    let found = 0;
    for (let i = 1; i < n && found < 16; i++) {
      if ((words[i] === init[i]) !== (words[i - 1] === init[i - 1])) {
        for (let j = i - 8; j < i + 8; j++) add(j);
        found++;
      }
    }
  }
  return [...set].sort((a, b) => a - b);
}

const hex = (w) => '0x' + (w >>> 0).toString(16).padStart(8, '0');
const compacted = [];
for (const [name, b] of Object.entries(res.buffers)) {
  if (!b.hex) continue;                       // already compact
  const words = Uint32Array.from(b.hex, (h) => parseInt(h, 16) >>> 0);
  if (words.length <= opt.threshold) continue;
  if (!isExact(rules[name])) {
    console.error(`${name}: its compare rule is not exact, so a hash cannot stand for it; kept in full`);
    continue;
  }
  const samples = {};
  for (const i of sampleIndices(words, initial?.[name])) samples[i] = hex(words[i]);
  res.buffers[name] = { type: b.type, count: b.count, words: words.length, sha256: sha256Words(words), samples };
  compacted.push(`${name} (${words.length} words, ${Object.keys(samples).length} samples)`);
}
if (opt.notes) res.notes = opt.notes;

// Key order: notes right after implementation.
const order = ['format', 'case', 'caseSha256', 'shaderSha256', 'implementation', 'notes'];
const out = {};
for (const k of order) if (k in res) out[k] = res[k];
for (const k of Object.keys(res)) if (!(k in out)) out[k] = res[k];

// JSON with one line per scalar array and eight samples per line.
function fmt(v, ind) {
  const pad = ' '.repeat(ind);
  if (v === null || typeof v !== 'object') return Object.is(v, -0) ? '-0' : JSON.stringify(v);
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return '[' + v.map((x) => fmt(x, 0)).join(', ') + ']';
    return '[\n' + v.map((x) => pad + '  ' + fmt(x, ind + 2)).join(',\n') + '\n' + pad + ']';
  }
  const keys = Object.keys(v).filter((k) => v[k] !== undefined);
  if (keys.length && keys.every((k) => /^\d+$/.test(k) && typeof v[k] === 'string')) {
    const rows = [];
    for (let i = 0; i < keys.length; i += 8)
      rows.push(pad + '  ' + keys.slice(i, i + 8).map((k) => `${JSON.stringify(k)}: ${JSON.stringify(v[k])}`).join(', '));
    return '{\n' + rows.join(',\n') + '\n' + pad + '}';
  }
  const flat = keys.every((k) => v[k] === null || typeof v[k] !== 'object');
  if (flat) {
    const one = '{ ' + keys.map((k) => `${JSON.stringify(k)}: ${fmt(v[k], 0)}`).join(', ') + ' }';
    if (one.length <= 100) return one;
  }
  return '{\n' + keys.map((k) => `${pad}  ${JSON.stringify(k)}: ${fmt(v[k], ind + 2)}`).join(',\n') + '\n' + pad + '}';
}
fs.writeFileSync(opt.out, fmt(out, 0) + '\n');
console.log(`${res.case}: ${compacted.length ? 'compacted ' + compacted.join(', ') : 'nothing to compact'} -> ${opt.out}`);
