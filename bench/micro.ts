// Micro benchmarks (tinybench) of per-request main-thread work beside baselines: key check, validation, query parsing, name matching, browse tree build, thumbnail ETags.
import { Bench } from 'tinybench';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cpus } from 'node:os';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { ApiKeyGuard } from '../src/http/auth.js';
import { conditional } from '../src/http/dispatch.js';
import { ROOT } from '../test/helpers/server.js';
import { matchName } from '../src/shared/names.js';
import { buildBrowseTree } from '../src/browse/tree.js';
import { mediaFolders } from '../src/browse/folders.js';
import { fileKind } from '../src/sources/kinds/file.js';
import { freezeSnapshot, mediaId, type MediaFile } from '../src/library/scan.js';
import { etagOf, shortHash } from '../src/thumbnails/params.js';
import { etagMatches } from '../src/util/etag.js';

const KEY = 'a-reasonably-long-api-key-0123456789';
const guard = new ApiKeyGuard();
guard.setKey(KEY);
const Body = Type.Object({ value: Type.Number({ minimum: 0, maximum: 1 }) });
const validator = Compile(Body);
const body = JSON.parse('{"value":0.5}') as unknown;
let sink = 0;

// 500 catalog-like items; the query differs in case and separators and hits item 490, so nearly the whole list is scanned.
const NAMED = Array.from({ length: 500 }, (_, i) => ({ name: `Effect Number ${i}`, type: `effect_number_${i}` }));
const NAME_KEYS = [(x: { name: string }) => x.name, (x: { type: string }) => x.type];

// 5000 media files in 10 folders of one root, as the library hands them to the browse tree (see bench/browse.ts for listing costs).
const BROWSE_NODES = 5000;
function mediaSnapshot(nodes: number) {
  const rootPath = '/bench/media';
  const folders = 10;
  const per = Math.floor(nodes / folders);
  const file = (rel: string, name: string): MediaFile => ({
    id: mediaId(rootPath, rel),
    name,
    type: 'video',
    path: `${rootPath}/${rel}`,
    relPath: rel,
    rootIndex: 0,
    width: 1280,
    height: 720,
    durationSec: 5,
    fps: 30,
    size: 1,
    mtimeMs: 1,
  });
  const sub = Array.from({ length: folders }, (_, f) => ({
    name: `Set ${f}`,
    path: `${rootPath}/set ${f}`,
    relPath: `set ${f}`,
    folders: [],
    files: Array.from({ length: per }, (_, i) => file(`set ${f}/clip ${i}.mp4`, `Clip ${String(i).padStart(5, '0')}`)),
  }));
  return freezeSnapshot(1, [{ name: 'media', path: rootPath, relPath: '', folders: sub, files: [], index: 0, exists: true }]);
}
const snapshot = mediaSnapshot(BROWSE_NODES);

const ETAG = etagOf('live', 192, 108, 'png', 'fa1b2c3.1k2');
const ETAG_LIST = `"live-192x108-png-fa1b2c3.1k0", "live-192x108-png-fa1b2c3.1k1", W/${ETAG}`;

const bench = new Bench({ time: 500, warmupTime: 100 });
bench
  .add('baseline: key === key', () => {
    sink += KEY === `${KEY}` ? 1 : 0;
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
  })
  .add('baseline: indexOf over 500 names (exact)', () => {
    sink += NAMED.findIndex((x) => x.name === 'Effect Number 490');
  })
  .add('matchName over 500 items (hit at 490, name key)', () => {
    sink += matchName(NAMED, '  effect_NUMBER-490 ', NAME_KEYS) ? 1 : 0;
  })
  .add('matchName over 500 items (hit at 490, type key)', () => {
    sink += matchName(NAMED, 'EFFECT NUMBER 490', [(x) => x.type]) ? 1 : 0;
  })
  .add('matchName over 500 items (miss, both keys)', () => {
    sink += matchName(NAMED, 'no such effect', NAME_KEYS) ? 1 : 0;
  })
  .add(`buildBrowseTree ${BROWSE_NODES} media files (10 folders)`, () => {
    sink += buildBrowseTree([{ ...mediaFolders(snapshot), ...fileKind.folder }]).nodeCount;
  })
  .add('thumbnail etagOf', () => {
    sink += etagOf('current', 192, 108, 'jpg', `f1a2b3c.${(sink & 1023).toString(36)}`).length;
  })
  .add('thumbnail shortHash (sha256, 6 parts)', () => {
    sink += shortHash('live', 'cam-1', 'Stage Cam', 'v4l2', 192, 108).length;
  })
  .add('thumbnail matchesEtag (exact)', () => {
    sink += etagMatches(ETAG, ETAG) ? 1 : 0;
  })
  .add('thumbnail matchesEtag (3-entry list, weak hit last)', () => {
    sink += etagMatches(ETAG_LIST, ETAG) ? 1 : 0;
  })
  .add('thumbnail matchesEtag (miss)', () => {
    sink += etagMatches('"live-192x108-png-fa1b2c3.1k0"', ETAG) ? 1 : 0;
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
  `flexible name matching over 500 items costs ${(base('matchName over 500 items (hit at 490, name') / base('baseline: indexOf')).toFixed(0)}× an exact scan (${(base('matchName over 500 items (hit at 490, name') / 1000).toFixed(1)} µs); building the browse tree for ${BROWSE_NODES} files takes ${(base('buildBrowseTree') / 1e6).toFixed(2)} ms (once per library change; GET /browse listing costs are in bench/results/browse.md); a thumbnail 304 decision (etagOf + matchesEtag) costs about ${base('thumbnail etagOf') + base('thumbnail matchesEtag (exact)')} ns.`,
];
const md = lines.join('\n');
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
await writeFile(join(ROOT, 'bench', 'results', 'micro.md'), `${md}\n`);
await writeFile(join(ROOT, 'bench', 'results', 'micro.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
process.stdout.write(`${md}\n`);
if (sink === -1) process.stdout.write('unreachable\n');
