#!/usr/bin/env node
// Check that 006_subgroup_reduce's float rules accept what WGSL allows and
// nothing far beyond it. WGSL does not fix the order in which a subgroup
// reduction or scan combines f32 lanes, so another implementation may
// differ from the lane-order model; this tool writes the result of another
// valid order (a butterfly reduction and a Hillis-Steele scan, from
// subgroup_model.mjs) and then:
//   1. verify.mjs must accept it;
//   2. with one `sums` word in each of the case's float ranges set 0.9 times
//      that range's rel bound away from the lane-order model, it must still
//      accept it; at 1.5 times the bound, reject it (one file each);
//   3. with --lockstep BIN, `BIN run CASE --expect FILE -W W` must do the
//      same for both (lockstep's comparison reads the same rules).
// Exit 0 when every verdict is as expected.
//
//   node tests/tools/other_order.mjs [--width W] [--lockstep build/lockstep] [--keep DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { importPeer } from './peer.mjs';
import laneOrder, { modelWith } from '../checks/006_subgroup_reduce.mjs';
import { reduceTree, scanTree } from '../checks/subgroup_model.mjs';

const kit = await importPeer('lib/kit.mjs');
const TOOLS = path.dirname(fileURLToPath(import.meta.url));
const CASE = path.join(TOOLS, '..', 'cases', '006_subgroup_reduce.json');

const argv = process.argv.slice(2);
let width = 32, lockstep = null, keep = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--width') width = Number(argv[++i]);
  else if (argv[i] === '--lockstep') lockstep = path.resolve(argv[++i]);
  else if (argv[i] === '--keep') keep = argv[++i];
  else { console.error('usage: other_order.mjs [--width W] [--lockstep BIN] [--keep DIR]'); process.exit(2); }
}
const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'other_order-'));
fs.mkdirSync(dir, { recursive: true });

const c = kit.loadCase(CASE);
const spec = c.spec;
const init = {};
for (const b of spec.buffers) init[b.name] = kit.views(kit.buildInit(b));
const model = modelWith({ spec, init, width }, { reduce: reduceTree, scan: scanTree });
const lane = laneOrder({ spec, init, width });

// A full result file, as verify.mjs --emit writes it.
function resultOf(wordsByName, name) {
  const buffers = {};
  for (const [bn, words] of Object.entries(wordsByName)) {
    const b = spec.buffers.find((x) => x.name === bn);
    const t = kit.recordOf(b.type);
    buffers[bn] = {
      type: b.type, count: b.count,
      values: words.map((w, i) => kit.jsonValue(kit.decodeWord(w, t[i % t.length]))),
      hex: words.map(kit.hex),
    };
  }
  return {
    format: kit.RESULT_FORMAT, case: spec.name,
    caseSha256: kit.sha256(c.text), shaderSha256: kit.sha256(c.shaderCode),
    implementation: { name, subgroupSize: width }, buffers,
  };
}
const words = {};
for (const name of spec.readback) {
  const b = spec.buffers.find((x) => x.name === name);
  words[name] = kit.expectedToWords(Array.from(model[name]), b.type, name);
}

let ok = true;
function expectVerdict(file, want, what) {
  const v = spawnSync(process.execPath, [path.join(TOOLS, 'verify.mjs'), CASE, file, '--width', String(width)], { encoding: 'utf8' });
  const verdicts = [[`verify.mjs`, v.status]];
  if (lockstep) {
    const l = spawnSync(lockstep, ['run', CASE, '--expect', file, '-W', String(width), '--quiet'], { encoding: 'utf8' });
    verdicts.push(['lockstep', l.status]);
  }
  for (const [who, rc] of verdicts) {
    const good = rc === want;
    if (!good) ok = false;
    console.log(`${good ? 'ok  ' : 'FAIL'} ${who}: ${what}: exit ${rc} (want ${want})`);
  }
  if (verdicts.some(([, rc]) => rc !== want)) console.log(v.stdout);
}

const other = path.join(dir, `other_order.W${width}.json`);
fs.writeFileSync(other, kit.stringify(resultOf(words, 'other order (butterfly reduce, Hillis-Steele scan)')) + '\n');
expectVerdict(other, 0, `another valid order at W = ${width}`);

// One word per float range, set near the range's bound from the lane-order value.
for (const r of spec.compare.sums) {
  const i = r.range[0];
  for (const [k, want] of [[0.9, 0], [1.5, 1]]) {
    const moved = { ...words, sums: words.sums.slice() };
    moved.sums[i] = kit.f32ToBits(Math.fround(lane.sums[i]) * (1 + k * r.rel));
    const file = path.join(dir, `moved_${i}_${k}.W${width}.json`);
    fs.writeFileSync(file, kit.stringify(resultOf(moved, 'other order, one word moved')) + '\n');
    expectVerdict(file, want, `sums[${i}] ${k} x rel ${r.rel} from the lane-order value`);
  }
}
if (!keep) fs.rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
