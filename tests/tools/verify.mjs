#!/usr/bin/env node
// Check a result file against the case's independent JS model (the case's
// "check" module, see tests/checks/).
//
//   node tests/tools/verify.mjs CASE.json RESULT.json        compare
//   node tests/tools/verify.mjs CASE.json --emit OUT.json     write the model's
//                                                            own result file
//   --width W   the subgroup width the model assumes (for cases whose output
//               depends on it, e.g. the subgroup built-ins); when comparing,
//               the default is the result's implementation.subgroupSize.
//               The check module receives it as `width`.
//
// Full results (hex per word) are compared word by word with the check's own
// rule or else the case's "compare" rule. Compact results (sha256 + samples,
// see compact_result.mjs) are compared on their samples, and on the SHA-256
// when the model fixes every word and the rule is exact.
// Exit 0 when they agree, 1 when they do not, 2 on bad input.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { importPeer } from './peer.mjs';

const kit = await importPeer('lib/kit.mjs');

const argv = process.argv.slice(2);
let emit = null, width = null;
const pos = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--emit') emit = argv[++i];
  else if (argv[i] === '--width') width = Number(argv[++i]);
  else pos.push(argv[i]);
}
if (pos.length !== (emit ? 1 : 2)) {
  console.error('usage: verify.mjs CASE.json RESULT.json | verify.mjs CASE.json --emit OUT.json');
  process.exit(2);
}

const c = kit.loadCase(pos[0]);
const spec = c.spec;
if (!spec.check) { console.error(`${spec.name}: the case names no check module`); process.exit(2); }

const init = {};
for (const b of spec.buffers) init[b.name] = kit.views(kit.buildInit(b));
const check = (await import(pathToFileURL(path.resolve(c.dir, spec.check)).href)).default;
const res = emit ? null : JSON.parse(fs.readFileSync(pos[1], 'utf8'));
if (width === null && res?.implementation?.subgroupSize) width = res.implementation.subgroupSize;
const model = check({ spec, init, width });

function modelOf(name) {
  const b = spec.buffers.find((x) => x.name === name);
  let m = model[name];
  if (m === undefined) throw new Error(`check gives nothing for read-back buffer ${name}`);
  let rule = (spec.compare ?? {})[name];
  if (!Array.isArray(m) && m.values) { rule = m.compare ?? rule; m = m.values; }
  const words = kit.expectedToWords(Array.from(m), b.type, name);
  if (words.length !== kit.bufferWordCount(b)) throw new Error(`check gives ${words.length} words for ${name}, buffer has ${kit.bufferWordCount(b)}`);
  return { b, words, rule };
}

export function wordsSha256(words) {
  const u = Uint32Array.from(words);
  const bytes = Buffer.from(u.buffer, u.byteOffset, u.byteLength);   // little-endian hosts only
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

if (emit) {
  const buffers = {};
  for (const name of spec.readback) {
    const { b, words } = modelOf(name);
    if (words.some((w) => w === null)) { console.error(`${name}: the model leaves words open; cannot emit`); process.exit(2); }
    buffers[name] = {
      type: b.type, count: b.count,
      values: words.map((w, i) => kit.jsonValue(kit.decodeWord(w, kit.recordOf(b.type)[i % kit.recordOf(b.type).length]))),
      hex: words.map(kit.hex),
    };
  }
  const result = {
    format: kit.RESULT_FORMAT, case: spec.name,
    caseSha256: kit.sha256(c.text), shaderSha256: kit.sha256(c.shaderCode),
    implementation: { name: 'lockstep check model (JS)', model: spec.check, ...(width ? { subgroupSize: width } : {}) },
    buffers,
  };
  fs.writeFileSync(emit, kit.stringify(result) + '\n');
  console.log(`${spec.name}: model result written to ${emit}`);
  process.exit(0);
}

let ok = true;
const lines = [];
if (res.caseSha256 && res.caseSha256 !== kit.sha256(c.text)) { ok = false; lines.push('  the case file changed since this result was made (caseSha256)'); }
if (res.shaderSha256 && res.shaderSha256 !== kit.sha256(c.shaderCode)) { ok = false; lines.push('  the shader changed since this result was made (shaderSha256)'); }
for (const name of spec.readback) {
  const rb = res.buffers?.[name];
  if (!rb) { ok = false; lines.push(`  ${name}: absent from the result`); continue; }
  const { b, words, rule } = modelOf(name);
  if (rb.hex) {
    const got = kit.resultWords(rb);
    const r = kit.compareWords(words, got, b.type, rule);
    lines.push(`  ${name}: ${r.checked - r.bad}/${r.checked} words agree` +
      kit.errorStats(words, got, b.type, rule).map((s) => `\n    ${s}`).join(''));
    for (const m of r.mismatches) lines.push(m.error ? `    ${m.error}` : `    [${m.index}] model ${m.expected} result ${m.got}`);
    if (!r.ok) ok = false;
  } else if (rb.sha256) {
    if (rb.words !== words.length) { ok = false; lines.push(`  ${name}: ${rb.words} words, model has ${words.length}`); continue; }
    const idx = Object.keys(rb.samples).map(Number);
    const exp = idx.map((i) => words[i]);
    const got = idx.map((i) => parseInt(rb.samples[i], 16) >>> 0);
    // Compare the samples one by one, each with the rule at its own index.
    let bad = 0;
    idx.forEach((i, k) => {
      const r = kit.compareWords([exp[k]], [got[k]], kit.recordOf(b.type)[i % kit.recordOf(b.type).length], ruleAt(rule, i));
      if (!r.ok) { bad++; if (bad <= 10) lines.push(`    [${i}] model ${kit.fmtWord(exp[k] >>> 0, 'u32')} result ${rb.samples[i]}`); }
    });
    let hashNote = 'hash not comparable (model leaves words open or rule not exact)';
    const exactRule = rule === undefined || rule === 'exact' || rule?.mode === 'exact';
    if (exactRule && !words.includes(null)) {
      const h = wordsSha256(words);
      if (h === rb.sha256) hashNote = 'sha256 agrees';
      else { hashNote = `sha256 differs (model ${h})`; ok = false; }
    }
    lines.push(`  ${name}: ${idx.length - bad}/${idx.length} samples agree; ${hashNote}`);
    if (bad) ok = false;
  } else { ok = false; lines.push(`  ${name}: neither hex nor sha256`); }
}

function ruleAt(rule, i) {
  if (!Array.isArray(rule)) return rule;
  for (const r of rule) if (r.range && i >= r.range[0] && i < r.range[1]) return r;
  return 'exact';
}

console.log(`${spec.name}: ${ok ? 'model and result agree' : 'MODEL AND RESULT DISAGREE'} (${res.implementation?.name ?? '?'})`);
for (const l of lines) console.log(l);
process.exit(ok ? 0 : 1);
