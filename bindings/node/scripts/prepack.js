// prepack: copies the built addon next to package.json, so that `npm pack`
// puts it in the package (lib/native.js looks there first after
// $LOCKSTEP_NODE_ADDON).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const here = path.join(__dirname, '..');
const built = process.env.LOCKSTEP_NODE_ADDON ?? path.join(here, '..', '..', 'build', 'bindings', 'node', 'lockstep.node');
if (!fs.existsSync(built)) {
  console.error(`prepack: ${built} is missing; build lockstep first (cmake -S . -B build && cmake --build build)`);
  process.exit(1);
}
fs.copyFileSync(built, path.join(here, 'lockstep.node'));
console.error(`prepack: packed ${built}`);
