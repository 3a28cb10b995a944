#!/usr/bin/env node
// The independent model of a version-2 case (wgsl-compute-case/2): its
// "check" module (tests/checks/) returns, per readback name, the words the
// readback must hold (numbers of the readback's type, or {type, values}).
//
//   node tests/tools/v2_model.mjs CASE.json --emit OUT.json [--notes TEXT]
//                                                            write the model's
//                                                            result file
//   node tests/tools/v2_model.mjs CASE.json RESULT.json       compare a result
//                                                            (hex word by word)
// Exit 0 when they agree, 1 when they do not, 2 on bad input.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
let extraNotes = '';
const ni = argv.indexOf('--notes');
if (ni >= 0) { extraNotes = ' ' + argv[ni + 1]; argv.splice(ni, 2); }
const emit = argv[1] === '--emit' ? argv[2] : null;
if (argv.length !== (emit ? 3 : 2)) {
  console.error('usage: v2_model.mjs CASE.json --emit OUT.json | v2_model.mjs CASE.json RESULT.json');
  process.exit(2);
}
const casePath = argv[0];
const text = fs.readFileSync(casePath);
const spec = JSON.parse(text);
if (spec.format !== 'wgsl-compute-case/2' || !spec.check) {
  console.error(`${casePath}: not a version-2 case with a "check" module`);
  process.exit(2);
}
const dir = path.dirname(casePath);
const check = (await import(pathToFileURL(path.resolve(dir, spec.check)).href)).default;
const model = check({ spec, dir });

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer), i32 = new Int32Array(f32.buffer);
function word(v, type) {
  if (type === 'f32') { f32[0] = v; return u32[0]; }
  if (type === 'i32') { i32[0] = v; return u32[0]; }
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new Error(`${v} is not a u32`);
  return v >>> 0;
}
const hex = (w) => '0x' + w.toString(16).padStart(8, '0');

const buffers = {};
for (const c of spec.commands) {
  if (c.op !== 'readback') continue;
  const b = spec.buffers[c.buffer];
  let m = model[c.name];
  if (m === undefined) throw new Error(`the check gives nothing for readback ${c.name}`);
  const type = (Array.isArray(m) ? null : m.type) ?? c.type ?? b.type ?? 'u32';
  if (!Array.isArray(m)) m = m.values;
  const words = (c.size ?? b.size - (c.offset ?? 0)) / 4;
  if (m.length !== words) throw new Error(`the check gives ${m.length} words for ${c.name}, the readback has ${words}`);
  const hx = m.map((v) => hex(word(v, type)));
  buffers[c.name] = { type, count: words, values: m, hex: hx };
}

if (emit) {
  const out = {
    format: 'wgsl-compute-result/1',
    case: spec.name,
    caseSha256: crypto.createHash('sha256').update(text).digest('hex'),
    implementation: { name: `model ${spec.check}` },
    notes: `The closed forms of ${spec.check}, written by tests/tools/v2_model.mjs --emit; no WebGPU implementation produced these words.${extraNotes}`,
    buffers,
  };
  // one line per buffer field, as the other result files
  const json = JSON.stringify(out, null, 2).replace(/\[\n\s*([^\]{}]*?)\n\s*\]/g,
    (m, body) => '[' + body.split(/,\n\s*/).join(', ') + ']');
  fs.writeFileSync(emit, json + "\n");
  process.exit(0);
}
const res = JSON.parse(fs.readFileSync(argv[1], 'utf8'));
let bad = 0;
for (const [name, want] of Object.entries(buffers)) {
  const got = res.buffers?.[name];
  if (!got) { console.log(`${name}: missing`); bad++; continue; }
  const n = want.hex.filter((h, i) => h !== got.hex?.[i]).length;
  console.log(`${name}: ${want.hex.length - n}/${want.hex.length} words agree`);
  bad += n;
}
process.exit(bad ? 1 : 0);
