#!/usr/bin/env node
// capture_program.mjs — records the recorder's test program
// (../program.mjs: several dispatches, ping-pong buffers, writes between
// submits, copies, dynamic offsets) on an implementation, into DIR:
//   node capture_program.mjs --impl lockstep|dawn --out DIR
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { run } from '../program.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.resolve(HERE, '..', '..', '..');
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i < 0 ? d : args[i + 1]; };
const capture = createRequire(import.meta.url)(path.join(PKG, 'capture.js'));
const { loadImpl } = await import(path.join(PKG, 'tools', 'replay.mjs'));
const impl = await loadImpl(opt('--impl', 'lockstep'));
const gpu = capture.wrapGPU(impl.create(impl.flags), { dir: opt('--out', 'captures'), implementation: impl.name });
const device = await (await gpu.requestAdapter(impl.featureLevel ? { featureLevel: impl.featureLevel } : {})).requestDevice();
const out = await run(device, impl.globals);
const files = await capture.recorderOf(device).flush();
console.log(`${impl.name}: the program read ${out.length} words; ${files.map((f) => path.basename(f)).join(', ')}`);
process.exit(0);
