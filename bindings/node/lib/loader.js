'use strict';
// loader.js - loads the binding's JavaScript layer (the other files of lib/)
// with V8's code cache, and finds the addon.
//
// Importing the package is most of a small job's time. Node 22 can cache
// compiled code itself (module.enableCompileCache); the Node versions this
// package supports (18 and 20) cannot, so this file does what that does for
// lib/ alone, and a little more: the modules are compiled as one script, the
// bundle, with the code V8 produced for it last time. Each module runs in
// the CommonJS wrapper Node would give it (its own __filename; `require` of
// './x.js' is the sibling module, anything else Node's own require). One
// script instead of sixteen saves each one's fixed cost in vm.Script and in
// V8 (about 2.5 ms of an import of about 11); the price is that a stack
// frame inside lib/ names the bundle, `lib/[bundle]`, whose source starts
// each module with a `// ---- name.js` line (stats.lines maps a bundle line
// back to the module's). LOCKSTEP_NODE_CACHE=0 loads each module as a file
// of its own, for stack traces that name the file.
//
// The cache is one file beside the addon (which whoever can write there can
// replace anyway, so the cache adds no way in), named after the Node
// version and the options of the process that bear on compiling, since V8
// refuses code made under other flags (node --expose-gc, as the tests run,
// would otherwise throw away the cache of every plain run and back). It
// holds the bundle's source and code, used only while every module has the
// size, modification time and status-change time (ctime, which npm's fixed
// mtimes and copies cannot carry over) it had when the bundle was made, the blob has
// its checksum (V8 stops the process on damaged code) and V8 accepts the
// code (its version, flags, source length); otherwise the bundle is made
// again from the files and compiled, and the cache file is written again,
// complete, when the process exits (to a temporary file renamed into place,
// so a concurrent process reads the old file or the new one, never half of
// one), as it is by the few processes after (see REFRESH).
// LOCKSTEP_NODE_CACHE=0 turns the cache off; LOCKSTEP_NODE_CACHE=DIR puts it
// in DIR.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const LIB = __dirname;
const MAGIC = 'lockstep-js-cache/7\n';
const BUNDLE = path.join(LIB, '[bundle]');

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
const addon = new module.constructor(addonPath, module); // Module, without loading node:module
addon.filename = addonPath;
process.dlopen(addon, addonPath);
addon.loaded = true;
require.cache[addonPath] = addon;
const { checksum, readCache: readCache_, source: sourceOf, statFiles } = addon.exports;

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
  // the package's folder too: two copies sharing LOCKSTEP_NODE_CACHE=DIR
  // keep a file each instead of replacing each other's
  return path.join(dir, `lockstep-js-${process.version}-${process.arch}-${fnv(flags + '|' + LIB)}.cache`);
}

// The cache file: MAGIC, a line "<index length in bytes> <checksum>", the
// index (JSON: {gen, modules: [[name, size, mtimeMs, ctimeMs, line], ...], src: [off,
// len], code: [off, len]}), then the blob the checksum covers and the
// offsets count in: the bundle's code and its source. The addon maps the
// file, checks it, stats the modules and makes the source an external
// string over the mapped bytes (src/jscache.c says why).
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
    return { index, source: sourceOf(blob, srcAt, srcLen), code: blob.subarray(codeAt, codeAt + codeLen) };
  } catch {
    return null; // unreadable or not ours: compile from source
  }
}

// The bundle from lib/'s files: each module a function handed to define().
function makeBundle() {
  const names = fs.readdirSync(LIB).filter((n) => n.endsWith('.js') && n !== 'loader.js').sort();
  const st = statFiles(LIB, names);
  let source = '(function (define) { // lockstep-webgpu: lib/*.js as one script (lib/loader.js)\n';
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

// V8 compiles a function when it first runs, and the code written at exit
// is what this process compiled: after the first process, a program that
// calls functions the first did not would compile them every time. So the
// first REFRESH processes that find the cache whole and run work (create a
// device: native.js sets stats.worked) write it again at exit, each adding
// what it compiled (a few milliseconds at exit, those times only); `gen` in
// the index counts them. A process that only imports the package adds what
// it compiled too, but is not counted: it has not run the functions that
// work needs. Compiling every function up front
// instead (V8's --no-lazy) measured 1.6 ms slower on the small job: a
// larger cache to read and take in, for functions a job mostly never runs.
const REFRESH = 3;

const file = cacheFile();
const stats = { modules: 0, fromCache: 0, file, lines: null, worked: false };
const modules = new Map(); // name -> module
const factories = new Map(); // name -> its CommonJS wrapper, from the bundle
let bundle = null; // {index, source, script, stale, refresh}

const wrap = (source) => '(function (exports, require, module, __filename, __dirname) { ' + source + '\n})';

function openBundle() {
  const cache = readCache(file);
  bundle = cache ?? makeBundle();
  bundle.script = new vm.Script(bundle.source, cache ? { filename: BUNDLE, cachedData: cache.code } : { filename: BUNDLE });
  bundle.stale = !cache || bundle.script.cachedDataRejected === true;
  const gen = Number.isInteger(bundle.index.gen) ? bundle.index.gen : REFRESH;
  bundle.refresh = !bundle.stale && gen < REFRESH;
  stats.lines = Object.fromEntries(bundle.index.modules.map((m) => [m[0], m[4]]));
  if (!bundle.stale) stats.fromCache = bundle.index.modules.length;
  bundle.script.runInThisContext()((name, fn) => factories.set(name, fn));
}

function load(name) {
  const known = modules.get(name);
  if (known) return known.exports;
  if (file && !bundle) openBundle();
  const filename = path.join(LIB, name);
  // a module the bundle lacks (none, unless lib/ changed under a running
  // process) or no cache: the module's own file
  const fn = factories.get(name) ??
    new vm.Script(wrap(fs.readFileSync(filename, 'utf8')), { filename }).runInThisContext();
  stats.modules++;
  const module = { exports: {}, filename, id: filename, loaded: false };
  modules.set(name, module);
  const sibling = (what) =>
    what === './loader.js' ? exports : what.startsWith('./') ? load(what.slice(2)) : require(what);
  fn(module.exports, sibling, module, filename, LIB);
  module.loaded = true;
  // after the modules' own exit handlers (native.js, the first, has one),
  // so that the code written includes theirs
  if (bundle && !bundle.hooked) {
    bundle.hooked = true;
    process.on('exit', writeCache);
  }
  return module.exports;
}

function writeCache() {
  if (!(bundle.stale || bundle.refresh)) return;
  const src = Buffer.from(bundle.source, 'utf8');
  const code = bundle.script.createCachedData();
  const blob = Buffer.concat([code, src]);
  const gen = (bundle.stale ? 0 : bundle.index.gen) + Number(stats.worked);
  let index = JSON.stringify({ gen, modules: bundle.index.modules, code: [0, code.length], src: [code.length, src.length] });
  // V8 copies code that does not start at a multiple of 8 bytes (a copy of
  // the whole cache, into fresh pages): the blob, code first, starts at a
  // multiple of 16 in the file, the index padded with spaces to get there
  const sum = checksum(blob);
  let head;
  for (;;) {
    head = `${MAGIC}${Buffer.byteLength(index)} ${sum}\n${index}`;
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

exports.load = load;
exports.addonPath = addonPath;
exports.addon = addon.exports;
exports.stats = stats;
