'use strict';
// native.js - loads lockstep.node and routes its events.
//
// The addon is found by the loader, index.js (which needs its folder for
// the code cache); require('./loader.js') here is the loader's state.
//
// Every completion the addon reports (a map, work done, popErrorScope, an
// uncaptured error, device loss, a lockstep warning or sanitizer finding)
// arrives at dispatch() from the event loop, in the order it was posted.
// Requests are numbered; their handlers live in `requests` until the answer
// comes, which also keeps the objects they resolve alive.

const { addonPath, addon: native } = require('./loader.js');

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
