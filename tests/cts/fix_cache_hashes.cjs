'use strict';
// Part of tests/cts/cts.sh's CTS build: a snapshot may lack some precomputed
// case-cache blobs (src/resources/cache/...). Their entries in hashes.json
// are removed so that the CTS's gen_cache rebuilds those blobs rather than
// reporting them out of date.
const fs = require('fs');
const path = require('path');
const file = process.argv[2];
const hashes = JSON.parse(fs.readFileSync(file, 'utf8'));
const dir = path.dirname(file);
const missing = Object.keys(hashes).filter((k) => !fs.existsSync(path.join(dir, k)));
for (const k of missing) delete hashes[k];
fs.writeFileSync(file, JSON.stringify(hashes, null, 2) + '\n');
if (missing.length) console.error(`cts.sh: rebuilding ${missing.length} missing case-cache blob(s): ${missing.join(', ')}`);
