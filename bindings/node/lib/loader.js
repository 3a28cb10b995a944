'use strict';
// loader.js - loads the binding's JavaScript layer (the other files of lib/)
// with V8's code cache, and finds the addon.
//
// Importing the package is most of a small job's time: compiling 16 modules
// through Node's CommonJS loader (resolution, a read and a compile each)
// took about two thirds of `require('lockstep-webgpu')`. Node 22 can cache
// compiled code itself (module.enableCompileCache); the Node versions this
// package supports (18 and 20) cannot, so this file does what that does for
// lib/ alone: each module is compiled with vm.Script from its source, with
// the code V8 produced for it last time when there is some, and runs in the
// CommonJS wrapper Node would give it (same file name and line numbers in
// stack traces; `require` of './x.js' is the sibling module, anything else
// Node's own require).
//
// The cache is one file beside the addon (which whoever can write there can
// replace anyway, so the cache adds no way in), named after the Node
// version and the options of the process that bear on compiling, since V8
// refuses code made under other flags (node --expose-gc, as the tests run,
// would otherwise throw away the cache of every plain run and back). It
// holds each module's source and code: a module's entry is used only while
// the file has the size and modification time it had when the entry was
// made, the blob has its checksum (V8 stops the process on damaged code),
// and V8 accepts the code (its version, flags, source length); anything
// refused or missing is read and compiled from source, and the file is
// written again, complete, when the process exits (to a temporary file
// renamed into place, so a concurrent process reads the old file or the
// new one, never half of one), as it is by the few processes after (see
// REFRESH). LOCKSTEP_NODE_CACHE=0 turns the cache off;
// LOCKSTEP_NODE_CACHE=DIR puts it in DIR.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const LIB = __dirname;
const MAGIC = 'lockstep-js-cache/2\n';

// The addon: $LOCKSTEP_NODE_ADDON, lockstep.node next to package.json (an
// installed package, or a copy made by `npm pack`), or the repository's
// build tree.
function locateAddon() {
  const here = path.join(LIB, '..');
  const wanted = process.env.LOCKSTEP_NODE_ADDON;
  if (wanted && !fs.existsSync(wanted))
    throw new Error(`lockstep-webgpu: LOCKSTEP_NODE_ADDON=${wanted} does not exist`);
  const candidates = [
    wanted,
    path.join(here, 'lockstep.node'),
    path.join(here, '..', '..', 'build', 'bindings', 'node', 'lockstep.node'),
  ].filter(Boolean);
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(`lockstep-webgpu: lockstep.node not found (looked in ${candidates.join(', ')}); ` +
    'build it with `cmake -S . -B build && cmake --build build` in the lockstep repository, ' +
    'or set LOCKSTEP_NODE_ADDON to its path');
}

const addonPath = locateAddon();
// Loaded here for its checksum, once (native.js takes it from here), with
// process.dlopen: require() would add a resolution of the path already
// resolved, the slowest part of loading it. It goes into require's cache as
// require would put it, so that require(addonPath) gives this same module
// (the addon serves one environment and refuses a second initialisation).
const addon = new (require('node:module'))(addonPath, module);
addon.filename = addonPath;
process.dlopen(addon, addonPath);
addon.loaded = true;
require.cache[addonPath] = addon;
const { checksum } = addon.exports;

// 32-bit FNV-1a, enough to tell flag sets apart in a file name.
function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

// Node's options that name what to run, not how V8 compiles: left out of
// the cache's name, so that `node -e ...` runs and `--import` entries
// share one cache (V8 checks its own flags anyway).
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
  return path.join(dir, `lockstep-js-${process.version}-${process.arch}-${fnv(flags)}.cache`);
}

// The cache file: MAGIC, the index's length in bytes as a decimal line, the
// index (JSON: {sum, modules: name -> {size, mtimeMs, src: [off, len],
// code: [off, len]}}), then the blob its offsets count in: each module's
// source (so that a hit reads one file, not one per module) and its code.
// `sum` is the blob's checksum.
function readCache(file) {
  try {
    const buf = fs.readFileSync(file);
    if (buf.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const nl = buf.indexOf(10, MAGIC.length);
    const len = Number(buf.toString('latin1', MAGIC.length, nl));
    const index = JSON.parse(buf.toString('utf8', nl + 1, nl + 1 + len));
    const blob = buf.subarray(nl + 1 + len);
    if (checksum(blob) !== index.sum) return null;
    return { modules: index.modules, blob, gen: Number.isInteger(index.gen) ? index.gen : REFRESH };
  } catch {
    return null; // absent, unreadable, damaged or not ours: compile from source
  }
}

// V8 compiles a function when it first runs, and the code written at exit
// is what this process compiled: after the first process, a program that
// calls functions the first did not would compile them every time. So the
// first REFRESH processes that find the cache whole write it again at exit,
// each adding what it compiled (a few milliseconds at exit, those times
// only); `gen` in the index counts them. Compiling every function up front
// instead (V8's --no-lazy) measured 1.6 ms slower on the small job: a
// larger cache to read and take in, for functions a job mostly never runs.
const REFRESH = 3;

const file = cacheFile();
const cache = file ? readCache(file) : null;
const modules = new Map(); // name -> module
const compiled = []; // {name, stat, source, script}, in load order
const stats = { modules: 0, fromCache: 0, file };
let stale = false; // a module missed the cache
const refresh = cache !== null && cache.gen < REFRESH;
let hooked = false;

const wrap = (source) => '(function (exports, require, module, __filename, __dirname) { ' + source + '\n})';

function load(name) {
  const known = modules.get(name);
  if (known) return known.exports;
  const filename = path.join(LIB, name);
  const st = fs.statSync(filename);
  const entry = cache?.modules[name];
  let script;
  let source;
  if (entry && entry.size === st.size && entry.mtimeMs === st.mtimeMs) {
    const { blob } = cache;
    source = blob.toString('utf8', entry.src[0], entry.src[0] + entry.src[1]);
    script = new vm.Script(wrap(source), { filename, cachedData: blob.subarray(entry.code[0], entry.code[0] + entry.code[1]) });
    if (script.cachedDataRejected) stale = true;
    else stats.fromCache++;
  } else {
    source = fs.readFileSync(filename, 'utf8');
    script = new vm.Script(wrap(source), { filename });
    stale = true;
  }
  stats.modules++;
  compiled.push({ name, stat: st, source, script });
  const module = { exports: {}, filename, id: filename, loaded: false };
  modules.set(name, module);
  const sibling = (what) =>
    what === './loader.js' ? exports : what.startsWith('./') ? load(what.slice(2)) : require(what);
  script.runInThisContext()(module.exports, sibling, module, filename, LIB);
  module.loaded = true;
  // after the modules' own exit handlers (native.js has one), so that the
  // code written includes theirs
  if (!hooked) {
    hooked = true;
    process.on('exit', writeCache);
  }
  return module.exports;
}

function writeCache() {
  if (!file || !(stale || refresh)) return;
  const index = {};
  const parts = [];
  let off = 0;
  const put = (bytes) => {
    parts.push(bytes);
    off += bytes.length;
    return [off - bytes.length, bytes.length];
  };
  for (const { name, stat, source, script } of compiled) {
    const src = put(Buffer.from(source, 'utf8'));
    index[name] = { size: stat.size, mtimeMs: stat.mtimeMs, src, code: put(script.createCachedData()) };
  }
  // modules this process did not load keep their entries
  for (const [name, e] of Object.entries(cache?.modules ?? {})) {
    if (index[name]) continue;
    const at = (r) => put(cache.blob.subarray(r[0], r[0] + r[1]));
    index[name] = { size: e.size, mtimeMs: e.mtimeMs, src: at(e.src), code: at(e.code) };
  }
  const blob = Buffer.concat(parts);
  const head = JSON.stringify({ sum: checksum(blob), gen: stale ? 1 : cache.gen + 1, modules: index });
  const tmp = `${file}.${process.pid}.${Math.random().toString(16).slice(2)}.tmp`; // workers too
  try {
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${Buffer.byteLength(head)}\n${head}`), blob]));
    fs.renameSync(tmp, file);
  } catch {
    // a read-only package or a full disk: the next process compiles again
    try { fs.unlinkSync(tmp); } catch {}
  }
}

exports.load = load;
exports.addonPath = addonPath;
exports.addon = addon.exports;
exports.stats = stats;
