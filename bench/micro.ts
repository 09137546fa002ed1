// Micro benchmarks (tinybench) of the per-request work on the main thread, each beside a baseline
// in the same run: constant-time key check vs plain ===, compiled TypeBox validation vs a hand check,
// query parsing, and ETag matching.
import { Bench } from 'tinybench';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cpus } from 'node:os';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { ApiKeyGuard } from '../src/http/auth.js';
import { conditional } from '../src/http/adapter.js';
import { ROOT } from '../test/helpers/server.js';

const KEY = 'a-reasonably-long-api-key-0123456789';
const guard = new ApiKeyGuard();
guard.setKey(KEY);
const Body = Type.Object({ value: Type.Number({ minimum: 0, maximum: 1 }) });
const validator = Compile(Body);
const body = JSON.parse('{"value":0.5}') as unknown;
let sink = 0;

const bench = new Bench({ time: 500, warmupTime: 100 });
bench
  .add('baseline: key === key', () => {
    sink += (KEY === `${KEY}`) ? 1 : 0;
  })
  .add('ApiKeyGuard.check (sha256 + timingSafeEqual)', () => {
    sink += guard.check(KEY, '') ? 1 : 0;
  })
  .add('baseline: hand-written body check', () => {
    const b = body as { value?: unknown };
    sink += typeof b.value === 'number' && b.value >= 0 && b.value <= 1 ? 1 : 0;
  })
  .add('TypeBox compiled Check', () => {
    sink += validator.Check(body) ? 1 : 0;
  })
  .add('URLSearchParams query parse (3 keys)', () => {
    for (const [k] of new URLSearchParams('path=/live/test&depth=2&x=1')) sink += k.length;
  })
  .add('ETag match -> 304 reply', () => {
    sink += conditional({ body: 'x', etag: '"abc"' }, '"abc"').status ?? 0;
  });

await bench.run();
const rows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency?: { p50?: number }; throughput?: { mean?: number } } | undefined;
  return { name: t.name, medianNs: Math.round((r?.latency?.p50 ?? NaN) * 1e6), opsPerSec: Math.round(r?.throughput?.mean ?? NaN) };
});
const base = (name: string): number => rows.find((r) => r.name.startsWith(name))?.medianNs ?? NaN;
const lines = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. tinybench, 500 ms per task; median latency.`,
  '',
  '| task | median ns | ops/s |',
  '|---|---:|---:|',
  ...rows.map((r) => `| ${r.name} | ${r.medianNs} | ${r.opsPerSec} |`),
  '',
  `constant-time key check costs ${(base('ApiKeyGuard') / base('baseline: key')).toFixed(0)}× a plain comparison (${base('ApiKeyGuard')} ns per request); compiled TypeBox check is ${(base('TypeBox') / base('baseline: hand')).toFixed(1)}× a hand-written check.`,
];
const md = lines.join('\n');
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
await writeFile(join(ROOT, 'bench', 'results', 'micro.md'), `${md}\n`);
await writeFile(join(ROOT, 'bench', 'results', 'micro.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
process.stdout.write(`${md}\n`);
if (sink === -1) process.stdout.write('unreachable\n');
