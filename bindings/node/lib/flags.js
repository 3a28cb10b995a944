'use strict';
// flags.js - create(flags) and the register entry's environment: lockstep's
// settings as dawn.node takes its flags, `key=value` strings.
//
//   subgroup-size=8|16|32|64   the subgroup width W of every dispatch
//   profile=NAME               vendor profile (lockstep profiles lists them)
//   threads=N                  worker threads (0 = one per core)
//   check                      the sanitizer: findings to stderr and the lockstep channel
//   prof=FILE.html             the profiler's HTML report, written at exit or destroy()
//   prof-json=FILE             the same as JSON
//   budget=N                   subgroup-instructions a workgroup may run before the
//                              device is lost (a runaway shader); 0 = lockstep's default
//   dispatch-budget=N          subgroup-instructions one dispatch may run (the GPU
//                              timeout's equivalent); 0 = lockstep's default
//   time-limit=MS              wall time one submit may run before the device is lost;
//                              0 = lockstep's default (60 s)
//   capture=DIR                record the compute work as version-2 case files in DIR
//                              (lockstep-webgpu/capture; docs/node.md)
//   capture-mode=submit|span   what a capture file holds: each dispatching submit
//                              (default), or only the spans the program marks

const { native } = require('./native.js');

const FLAGS = {
  'subgroup-size': (o, v) => {
    if (!['8', '16', '32', '64'].includes(v)) throw new Error(`subgroup-size=${v}: the subgroup width is 8, 16, 32 or 64`);
    o.subgroupSize = Number(v);
  },
  profile: (o, v) => {
    const names = native.profiles();
    if (!names.includes(v)) throw new Error(`profile=${v}: unknown profile (lockstep has ${names.join(', ')})`);
    o.profile = v;
  },
  threads: (o, v) => { o.threads = integer('threads', v, 0, 1024); },
  check: (o, v) => {
    if (v !== undefined && !['1', '0', 'true', 'false', 'on', 'off'].includes(v)) throw new Error(`check=${v}: expected check, check=1 or check=0`);
    o.check = v === undefined || ['1', 'true', 'on'].includes(v);
  },
  prof: (o, v) => { o.prof = file('prof', v); },
  'prof-json': (o, v) => { o.profJson = file('prof-json', v); },
  budget: (o, v) => { o.budget = integer('budget', v, 0, Number.MAX_SAFE_INTEGER); },
  'dispatch-budget': (o, v) => { o.dispatchBudget = integer('dispatch-budget', v, 0, Number.MAX_SAFE_INTEGER); },
  'time-limit': (o, v) => { o.timeLimit = integer('time-limit', v, 0, 0xfffffffe); },
  capture: (o, v) => { o.capture = file('capture', v); },
  'capture-mode': (o, v) => {
    if (!['submit', 'span'].includes(v)) throw new Error(`capture-mode=${v ?? ''}: expected submit or span`);
    o.captureMode = v;
  },
};

function integer(key, v, lo, hi) {
  if (v === undefined || !/^[0-9]+$/.test(v) || Number(v) < lo || Number(v) > hi)
    throw new Error(`${key}=${v ?? ''}: expected a whole number from ${lo} to ${hi}`);
  return Number(v);
}

function file(key, v) {
  if (!v) throw new Error(`${key}=: expected a ${key === 'capture' ? 'directory' : 'file'} name`);
  return v;
}

function parseFlags(flags = []) {
  if (!Array.isArray(flags)) throw new TypeError('lockstep-webgpu create(flags): flags is an array of "key=value" strings');
  const o = {};
  for (const f of flags) {
    if (typeof f !== 'string') throw new TypeError(`lockstep-webgpu create(flags): ${String(f)} is not a string`);
    const eq = f.indexOf('=');
    const key = eq < 0 ? f : f.slice(0, eq);
    const value = eq < 0 ? undefined : f.slice(eq + 1);
    const set = FLAGS[key];
    if (!set) throw new Error(`lockstep-webgpu: unknown flag "${f}" (known: ${Object.keys(FLAGS).join(', ')})`);
    try {
      set(o, value);
    } catch (e) {
      throw new Error(`lockstep-webgpu: ${e.message}`);
    }
  }
  return o;
}

// The environment variables of the register entry, as flags.
const ENV = [
  ['LOCKSTEP_SUBGROUP_SIZE', 'subgroup-size'], ['LOCKSTEP_PROFILE', 'profile'],
  ['LOCKSTEP_THREADS', 'threads'], ['LOCKSTEP_CHECK', 'check'], ['LOCKSTEP_PROF', 'prof'],
  ['LOCKSTEP_PROF_JSON', 'prof-json'], ['LOCKSTEP_BUDGET', 'budget'],
  ['LOCKSTEP_DISPATCH_BUDGET', 'dispatch-budget'], ['LOCKSTEP_TIME_LIMIT', 'time-limit'],
  ['LOCKSTEP_CAPTURE', 'capture'], ['LOCKSTEP_CAPTURE_MODE', 'capture-mode'],
];

function flagsFromEnv(env = process.env) {
  const flags = [];
  for (const [variable, key] of ENV) {
    const v = env[variable];
    if (v === undefined || v === '') continue;
    flags.push(`${key}=${v}`);
  }
  return flags;
}

module.exports = { parseFlags, flagsFromEnv, ENV };
