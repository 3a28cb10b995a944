'use strict';
// loader.js — loads the binding's JavaScript layer (the other files of lib/)
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
// version and the V8 flags of the process, since V8 refuses code made under
// other flags (node --expose-gc, as the tests run, would otherwise throw
// away the cache of every plain run and back). A module's entry is used only
// while the source file has the size and modification time it had when the
// entry was made and its bytes have their checksum (V8 stops the process on
// damaged code), and V8 checks the rest (its version, the source length);
// anything refused or missing is compiled from source, and the file is
// written again, complete, when the process exits (to a temporary file
// renamed into place, so a concurrent process reads the old file or the new
// one, never half of one). Code V8 compiled lazily during the run is then in
// the cache too. LOCKSTEP_NODE_CACHE=0 turns the cache off;
// LOCKSTEP_NODE_CACHE=DIR puts it in DIR.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const LIB = __dirname;
const MAGIC = 'lockstep-js-cache/1\n';

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
// Loaded here for its checksum; native.js's require gets this same module.
const { checksum } = require(addonPath);

// 32-bit FNV-1a, enough to tell flag sets apart in a file name.
function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function cacheFile() {
  const setting = process.env.LOCKSTEP_NODE_CACHE;
  if (setting === '0' || setting === 'off') return null;
  const dir = setting || path.dirname(addonPath);
  const flags = process.execArgv.join(' ') + '|' + (process.env.NODE_OPTIONS ?? '');
  return path.join(dir, `lockstep-js-${process.version}-${process.arch}-${fnv(flags)}.cache`);
}

// The cache file: MAGIC, the index's length in bytes as a decimal line, the
// index (JSON: module name -> {size, mtimeMs, off, len, sum}), then the code.
function readCache(file) {
  try {
    const buf = fs.readFileSync(file);
    if (buf.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const nl = buf.indexOf(10, MAGIC.length);
    const len = Number(buf.toString('latin1', MAGIC.length, nl));
    const index = JSON.parse(buf.toString('utf8', nl + 1, nl + 1 + len));
    return { index, code: buf.subarray(nl + 1 + len) };
  } catch {
    return null; // absent, unreadable or not ours: compile from source
  }
}

const file = cacheFile();
const cache = file ? readCache(file) : null;
const modules = new Map(); // name -> module
const compiled = []; // {name, stat, script}, in load order
const stats = { modules: 0, fromCache: 0, file };
let stale = false;

function load(name) {
  const known = modules.get(name);
  if (known) return known.exports;
  const filename = path.join(LIB, name);
  const source = fs.readFileSync(filename, 'utf8');
  const st = fs.statSync(filename);
  const entry = cache?.index[name];
  let cachedData;
  if (entry && entry.size === st.size && entry.mtimeMs === st.mtimeMs &&
      entry.off + entry.len <= cache.code.length) {
    const code = cache.code.subarray(entry.off, entry.off + entry.len);
    if (checksum(code) === entry.sum) cachedData = code;
  }
  const script = new vm.Script(
    '(function (exports, require, module, __filename, __dirname) { ' + source + '\n})',
    { filename, cachedData });
  const fresh = cachedData !== undefined;
  const hit = fresh && !script.cachedDataRejected;
  if (!hit) stale = true;
  stats.modules++;
  if (hit) stats.fromCache++;
  compiled.push({ name, stat: st, script });
  const module = { exports: {}, filename, id: filename, loaded: false };
  modules.set(name, module);
  const sibling = (what) =>
    what === './loader.js' ? exports : what.startsWith('./') ? load(what.slice(2)) : require(what);
  script.runInThisContext()(module.exports, sibling, module, filename, LIB);
  module.loaded = true;
  return module.exports;
}

function writeCache() {
  if (!file || !stale) return;
  const index = {};
  const parts = [];
  let off = 0;
  for (const { name, stat, script } of compiled) {
    const code = script.createCachedData();
    index[name] = { size: stat.size, mtimeMs: stat.mtimeMs, off, len: code.length, sum: checksum(code) };
    off += code.length;
    parts.push(code);
  }
  const head = JSON.stringify(index);
  const tmp = `${file}.${process.pid}.${Math.random().toString(16).slice(2)}.tmp`; // workers too
  try {
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${Buffer.byteLength(head)}\n${head}`), ...parts]));
    fs.renameSync(tmp, file);
  } catch {
    // a read-only package or a full disk: the next process compiles again
    try { fs.unlinkSync(tmp); } catch {}
  }
}

process.on('exit', writeCache);

exports.load = load;
exports.addonPath = addonPath;
exports.stats = stats;
