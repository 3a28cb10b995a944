'use strict';
// native.js — loads lockstep.node and routes its events.
//
// The addon is looked for, in order: $LOCKSTEP_NODE_ADDON; lockstep.node next
// to package.json (an installed package, or a copy made by `npm pack`); the
// build tree of the repository, ../../build/bindings/node/lockstep.node.
//
// Every completion the addon reports (a map, work done, popErrorScope, an
// uncaptured error, device loss, a lockstep warning or sanitizer finding)
// arrives at dispatch() from the event loop, in the order it was posted.
// Requests are numbered; their handlers live in `requests` until the answer
// comes, which also keeps the objects they resolve alive.

const path = require('node:path');
const fs = require('node:fs');

function locate() {
  const here = path.join(__dirname, '..');
  const wanted = process.env.LOCKSTEP_NODE_ADDON;
  if (wanted && !fs.existsSync(wanted))
    throw new Error(`lockstep-webgpu: LOCKSTEP_NODE_ADDON=${wanted} does not exist`);
  const candidates = [
    process.env.LOCKSTEP_NODE_ADDON,
    path.join(here, 'lockstep.node'),
    path.join(here, '..', '..', 'build', 'bindings', 'node', 'lockstep.node'),
  ].filter(Boolean);
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(`lockstep-webgpu: lockstep.node not found (looked in ${candidates.join(', ')}); ` +
    'build it with `cmake -S . -B build && cmake --build build` in the lockstep repository, ' +
    'or set LOCKSTEP_NODE_ADDON to its path');
}

const addonPath = locate();
const native = require(addonPath);

const EV = { RESOLVE: 1, MAP: 2, DONE: 3, ERROR: 4, LOG: 5, LOST: 6, FINDING: 7, POP: 8, INTERNAL_DONE: 9 };

let nextRequest = 1;
const requests = new Map(); // id -> (status, message) => void
const devices = new Map(); // device id -> WeakRef(GPUDevice internals)
// a collected device's entry goes too
const forget = new FinalizationRegistry((id) => devices.delete(id));
function trackDevice(id, internals) {
  devices.set(id, new WeakRef(internals));
  forget.register(internals, id);
}

function request(handler) {
  const id = nextRequest++;
  if (nextRequest > 0xffffffff) nextRequest = 1;
  requests.set(id, handler);
  return id;
}

// A handler that throws must not take the event channel down: the error
// goes to the process as an uncaught exception, after this event.
function safely(fn, ...args) {
  try {
    fn(...args);
  } catch (e) {
    process.nextTick(() => { throw e; });
  }
}

function dispatch(kind, id, status, message) {
  switch (kind) {
    case EV.RESOLVE: case EV.MAP: case EV.DONE: case EV.POP: {
      const h = requests.get(id);
      requests.delete(id);
      if (h) safely(h, status, message);
      return;
    }
    case EV.INTERNAL_DONE:
      return;
    default: {
      const dev = devices.get(id)?.deref();
      if (dev) safely(dev.onEvent.bind(dev), kind, status, message);
    }
  }
}

native.setDispatcher(dispatch);
process.on('exit', () => native.finishAll());

module.exports = { native, addonPath, EV, request, devices, trackDevice };
