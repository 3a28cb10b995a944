'use strict';
// lockstep-webgpu - navigator.gpu for Node.js on lockstep, the WebGPU compute
// model on the CPU, with dawn.node's contract (npm `webgpu`):
//
//   const { create, globals } = require('lockstep-webgpu');
//   Object.assign(globalThis, globals);
//   const gpu = create(['subgroup-size=8', 'check']);
//
// lockstep(device) is lockstep's own channel (findings, warnings, profiles);
// create(['capture=DIR']) records the compute work as case files.
// docs/node.md has it all.
//
// This file also loads lib/: its modules as one script, the bundle, with
// V8's code cache (docs/node.md, "How it is built", says why and how).
// Importing the package is most of a small job's time, and this file's
// own text and every further require are young-generation memory before
// the job starts: short comments here, the design in the docs.
// LOCKSTEP_NODE_CACHE=0 turns the cache off (each module a file of its
// own, for stack frames that name it); =DIR puts it in DIR.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const LIB = path.join(__dirname, 'lib');
const MAGIC = 'lockstep-js-cache/8\n';
const BUNDLE = path.join(LIB, '[bundle]');

// The addon: $LOCKSTEP_NODE_ADDON, lockstep.node beside package.json (an
// installed package) or the repository's build tree.
function locateAddon() {
  const wanted = process.env.LOCKSTEP_NODE_ADDON;
  if (wanted && !fs.existsSync(wanted))
    throw new Error(`lockstep-webgpu: LOCKSTEP_NODE_ADDON=${wanted} does not exist`);
  const candidates = [
    wanted,
    path.join(__dirname, 'lockstep.node'),
    path.join(__dirname, '..', '..', 'build', 'bindings', 'node', 'lockstep.node'),
  ].filter(Boolean);
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(`lockstep-webgpu: lockstep.node not found (looked in ${candidates.join(', ')}); ` +
    'build it with `cmake -S . -B build && cmake --build build` in the lockstep repository, ' +
    'or set LOCKSTEP_NODE_ADDON to its path');
}

const addonPath = locateAddon();
// Loaded with process.dlopen (require would resolve the path again, the
// slowest part of loading it) and put in require's cache as require would.
const addon = new module.constructor(addonPath, module); // Module, without loading node:module
addon.filename = addonPath;
process.dlopen(addon, addonPath);
// The addon exports one native function, call(op, ...args), and its
// exports' names: each export is call bound to its number (src/addon.c).
const { call, names } = addon.exports;
const list = names.split(',');
addon.exports = {};
for (let i = 0; i < list.length; i++) addon.exports[list[i]] = call.bind(undefined, i);
addon.loaded = true;
require.cache[addonPath] = addon;
const { checksum, readCache: readCache_, source: sourceOf, statFiles, usedOps, calls } = addon.exports;

// 32-bit FNV-1a, enough to tell flag sets apart in a file name.
function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

// Options that name what to run, not how V8 compiles: not in the cache's name.
const WHAT_TO_RUN = new Set(['-e', '--eval', '-p', '--print', '-r', '--require', '--import',
  '--loader', '--experimental-loader', '--input-type', '--env-file']);

function compileFlags(args) {
  const kept = [];
  for (let i = 0; i < args.length; i++) {
    const eq = args[i].indexOf('=');
    const name = eq > 0 ? args[i].slice(0, eq) : args[i];
    if (!WHAT_TO_RUN.has(name)) kept.push(args[i]);
    else if (eq < 0) i++; // its value is the next argument
  }
  return kept.join(' ');
}

function cacheFile() {
  const setting = process.env.LOCKSTEP_NODE_CACHE;
  if (setting === '0' || setting === 'off') return null;
  const dir = setting || path.dirname(addonPath);
  const opts = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const flags = compileFlags(process.execArgv) + '|' + compileFlags(opts);
  // the package's folder too: two copies sharing LOCKSTEP_NODE_CACHE=DIR
  // keep a file each instead of replacing each other's
  return path.join(dir, `lockstep-js-${process.version}-${process.arch}-${fnv(flags + '|' + LIB)}.cache`);
}

// The cache file: MAGIC, a line "<index length> <code length> <checksum>",
// the index (JSON: {ops, modules: [[name, size, mtimeMs, ctimeMs, line],
// ...], code: [off, len], src: [off, len], ascii}), then the blob: the
// bundle's code (at a multiple of 16 bytes in the file), which the checksum
// covers, and its source. The addon maps and checks it (src/jscache.c).
function readCache(file) {
  try {
    const found = readCache_(file, MAGIC);
    if (found === undefined) return null;
    const [ab, text, at] = found;
    const index = JSON.parse(text);
    const blob = new Uint8Array(ab, at);
    const { modules } = index;
    const st = statFiles(LIB, modules.map((m) => m[0]));
    for (let i = 0; i < modules.length; i++) // edited, replaced or copied: make again
      if (modules[i][1] !== st[3 * i] || modules[i][2] !== st[3 * i + 1] || modules[i][3] !== st[3 * i + 2]) return null;
    const [srcAt, srcLen] = index.src;
    const [codeAt, codeLen] = index.code;
    return { index, source: sourceOf(blob, srcAt, srcLen, index.ascii === true), code: blob.subarray(codeAt, codeAt + codeLen) };
  } catch {
    return null; // unreadable or not ours: compile from source
  }
}

// The bundle from lib/'s files: each module a function handed to define().
function makeBundle() {
  const names = fs.readdirSync(LIB).filter((n) => n.endsWith('.js')).sort();
  const st = statFiles(LIB, names);
  let source = '(function (define) { // lockstep-webgpu: lib/*.js as one script (index.js)\n';
  let line = 2;
  const modules = names.map((name, i) => {
    const text = fs.readFileSync(path.join(LIB, name), 'utf8');
    source += `// ---- ${name}\ndefine(${JSON.stringify(name)}, function (exports, require, module, __filename, __dirname) {${text}\n});\n`;
    const first = line + 1; // the module's first line
    line += 3 + (text.match(/\n/g) ?? []).length;
    return [name, st[3 * i], st[3 * i + 1], st[3 * i + 2], first];
  });
  return { index: { modules }, source: source + '})\n' };
}

// V8 caches the functions a process compiled, which are those it ran: a
// process that called a native export none of the cache's writers called
// (usedOps; the index's `ops`) ran code they did not, and writes the cache
// again at exit. But V8 also keeps in it how hot each function ran, and
// code a process ran many times is compiled further at its first call in
// every later process (1.5 ms more on a small job): a process that made
// more than HOT calls into the addon (a small job makes 90) writes no
// cache (docs/node.md). Compiling everything up front (--no-lazy) measured
// 1.6 ms slower on a small job.
const HOT = 150;

const file = cacheFile();
const stats = { modules: 0, fromCache: 0, file, lines: null };
const modules = new Map(); // name -> module
const factories = new Map(); // name -> its CommonJS wrapper, from the bundle
let bundle = null; // {index, source, script, stale}

const wrap = (source) => '(function (exports, require, module, __filename, __dirname) { ' + source + '\n})';

function openBundle() {
  const cache = readCache(file);
  bundle = cache ?? makeBundle();
  bundle.script = new vm.Script(bundle.source, cache ? { filename: BUNDLE, cachedData: cache.code } : { filename: BUNDLE });
  bundle.stale = !cache || bundle.script.cachedDataRejected === true;
  stats.lines = Object.fromEntries(bundle.index.modules.map((m) => [m[0], m[4]]));
  if (!bundle.stale) stats.fromCache = bundle.index.modules.length;
  bundle.script.runInThisContext()((name, fn) => factories.set(name, fn));
}

function load(name) {
  const known = modules.get(name);
  if (known) return known.exports;
  if (file && !bundle) openBundle();
  const filename = LIB + path.sep + name;
  // a module the bundle lacks (none, unless lib/ changed under a running
  // process) or no cache: the module's own file
  const fn = factories.get(name) ??
    new vm.Script(wrap(fs.readFileSync(filename, 'utf8')), { filename }).runInThisContext();
  stats.modules++;
  const module = { exports: {}, filename, id: filename, loaded: false };
  modules.set(name, module);
  const sibling = (what) =>
    what === './loader.js' ? loader : what.startsWith('./') ? load(what.slice(2)) : require(what);
  fn(module.exports, sibling, module, filename, LIB);
  module.loaded = true;
  // after native.js's exit handler, so that the code written includes it
  if (bundle && !bundle.hooked) {
    bundle.hooked = true;
    process.on('exit', writeCache);
  }
  return module.exports;
}

function writeCache() {
  if (calls() > HOT) return;
  const ops = usedOps(bundle.stale ? undefined : bundle.index.ops);
  if (!bundle.stale && ops === undefined) return; // nothing ran that the cache lacks
  const code = bundle.script.createCachedData();
  // V8 drops the code of functions a long process has not run for a while
  // (bytecode flushing): a cache that shrank would lose what others added
  // (by more than the few bytes V8's output varies from one process to
  // the next)
  if (!bundle.stale && code.length < bundle.index.code[1] * 0.99) return;
  const src = Buffer.from(bundle.source, 'utf8');
  const blob = Buffer.concat([code, src]);
  let index = JSON.stringify({ ops, modules: bundle.index.modules, code: [0, code.length],
    src: [code.length, src.length], ascii: src.length === bundle.source.length });
  // V8 copies code that does not start at a multiple of 8 bytes: the blob
  // starts at a multiple of 16, the index padded with spaces to get there
  const sum = checksum(code);
  let head;
  for (;;) {
    head = `${MAGIC}${Buffer.byteLength(index)} ${code.length} ${sum}\n${index}`;
    const pad = -Buffer.byteLength(head) & 15;
    if (pad === 0) break;
    index += ' '.repeat(pad);
  }
  const tmp = `${file}.${process.pid}.${Math.random().toString(16).slice(2)}.tmp`; // workers too
  try {
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(head), blob]));
    fs.renameSync(tmp, file);
  } catch {
    // a read-only package or a full disk: the next process compiles again
    try { fs.unlinkSync(tmp); } catch {}
  }
}

// What lib/native.js gets for require('./loader.js'), and the tests.
const loader = { load, addonPath, addon: addon.exports, stats };

const { native } = load('native.js');
const { parseFlags, flagsFromEnv } = load('flags.js');
const { globals } = load('globals.js');
const { kToken } = load('base.js');

function create(flags = []) {
  const options = parseFlags(flags);
  const gpu = new globals.GPU(kToken, options);
  if (options.capture === undefined) return gpu;
  // capture=DIR: the recorder of lockstep-webgpu/capture on every device
  const { wrapGPU } = require('./lib/capture/recorder.js');
  return wrapGPU(gpu, { dir: options.capture, mode: options.captureMode, implementation: `lockstep ${native.version()}` });
}

function lockstep(device) {
  if (!(device instanceof globals.GPUDevice)) throw new TypeError('lockstep(device): not a GPUDevice');
  return device[Symbol.for('lockstep')];
}

module.exports = { create, globals, lockstep, flagsFromEnv, version: native.version(), addonPath };
// the loader's state, for the tests
Object.defineProperty(module.exports, Symbol.for('lockstep.loader'), { value: loader });
