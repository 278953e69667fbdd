// SPDX-License-Identifier: MIT
// run-node.js — the browser's module under node, headless, as
// `steer run --headless --ticks N` runs a scenario: for each NAME:TICKS,
// load /demos/NAME.lua, run TICKS ticks and print "NAME TICKS HASH" (or
// "NAME TICKS failed: ERROR"). tools/web-check.sh compares these hashes
// with the native build's.
//   node web/run-node.js BUILD/web/steer-web.js flock:600 arrive:600 ...
'use strict';
const fs = require('fs');
const path = require('path');
const [modulePath, ...runs] = process.argv.slice(2);
// the .wasm read here: emscripten 3.1.6 would fetch() it, which node 18+
// has but not for file paths
const wasmBinary = fs.readFileSync(path.resolve(modulePath).replace(/\.js$/, '.wasm'));
require(path.resolve(modulePath))({ wasmBinary }).then((m) => {
  const load = m.cwrap('web_load', 'number', ['string']);
  const tick = m.cwrap('web_tick', 'number', ['number']);
  const hash = m.cwrap('web_hash', 'string', []);
  const error = m.cwrap('web_error', 'string', []);
  let failed = 0;
  for (const run of runs) {
    const [name, ticks] = run.split(':');
    if (load(`/demos/${name}.lua`) !== 0 || tick(Number(ticks)) !== 0) {
      console.log(`${name} ${ticks} failed: ${error().split('\n')[0]}`);
      failed++;
    } else {
      console.log(`${name} ${ticks} ${hash()}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
});
