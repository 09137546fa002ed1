#!/usr/bin/env node
// `npm run bench`: every benchmark in turn (each writes bench/results/<name>.{md,json}), then the tables of
// docs/performance.md (scripts/readme-bench.mjs).
// A name on the command line runs only those, e.g. `node scripts/bench-all.mjs mix outputs`.
import { spawnSync } from 'node:child_process';

const ALL = [
  'micro',
  'encode',
  'browse',
  'render',
  'fuse',
  'activation',
  'mutations',
  'http-bench',
  'thumbnails',
  'mix',
  'params',
  'outputs',
  'true-time',
  'events',
  'events-soak',
  'osc-flood',
  'audio-latency',
  'bpm',
  'tempo-lock',
  'tempo-lamp',
  'audio-cost',
  'isf-dialect',
  'isf-soak',
  'modulation',
  'show',
  'show-soak',
  'show-link',
  'timecode',
  'pixelmap',
  'output-map',
  'ltc-decode',
  'transport-seek',
  'layers',
  'layers-engine',
  'scenes',
  'clip-start',
  'companion',
];
const names = process.argv.length > 2 ? process.argv.slice(2) : ALL;
for (const name of names) {
  if (!ALL.includes(name)) {
    process.stderr.write(`unknown benchmark "${name}"; known: ${ALL.join(', ')}\n`);
    process.exit(2);
  }
  process.stdout.write(`== bench ${name}\n`);
  const r = spawnSync(process.execPath, [`dist/bench/${name}.js`], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const r = spawnSync(process.execPath, ['scripts/readme-bench.mjs'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
