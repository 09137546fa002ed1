// GET /browse cost on the main thread (tinybench): listBrowse + JSON.stringify and the memoised JSON path, 500 and 5000 nodes.
import { mkdir, writeFile } from 'node:fs/promises';
import { Bench } from 'tinybench';
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { buildBrowseTree, type BrowseTree } from '../src/browse/tree.js';
import { mediaFolders } from '../src/browse/folders.js';
import { fileKind } from '../src/sources/kinds/file.js';
import { listBrowse, listBrowseJson } from '../src/browse/listing.js';
import { freezeSnapshot, mediaId, type MediaFile, type MediaFolder } from '../src/library/scan.js';

export interface BrowseBenchRow {
  name: string;
  nodes: number;
  depth: number;
  medianMs: number;
  p99Ms: number;
  opsPerSec: number;
}

function file(rootPath: string, rel: string, name: string): MediaFile {
  return {
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
  };
}

/** `folders` = 0: all files directly in the root (a depth-1 listing of `/files` returns every node). */
function mediaTree(nodes: number, folders: number): BrowseTree {
  const rootPath = '/bench/media';
  const sub: MediaFolder[] = [];
  const files: MediaFile[] = [];
  if (folders === 0) for (let i = 0; i < nodes; i++) files.push(file(rootPath, `clip ${i}.mp4`, `Clip ${String(i).padStart(5, '0')}`));
  else {
    const per = Math.floor((nodes - folders) / folders);
    for (let f = 0; f < folders; f++) {
      const list = Array.from({ length: per }, (_, i) => file(rootPath, `set ${f}/clip ${i}.mp4`, `Clip ${String(i).padStart(5, '0')}`));
      sub.push({ name: `Set ${f}`, path: `${rootPath}/set ${f}`, relPath: `set ${f}`, folders: [], files: list });
    }
  }
  const root = { name: 'media', path: rootPath, relPath: '', folders: sub, files, index: 0, exists: true };
  return buildBrowseTree([{ ...mediaFolders(freezeSnapshot(1, [root])), ...fileKind.folder }]);
}

export async function browseBench(opts: { timeMs?: number } = {}): Promise<BrowseBenchRow[]> {
  const bench = new Bench({ time: opts.timeMs ?? 400, warmupTime: 100 });
  const meta = new Map<string, { nodes: number; depth: number }>();
  let sink = 0;
  for (const nodes of [500, 5000]) {
    const flat = mediaTree(nodes, 0);
    const nested = mediaTree(nodes, 10);
    // listBrowse rebuilds arrays and JSON every call (a cache miss); listBrowseJson shows a repeated request.
    const cases: Array<[string, number, () => string]> = [
      [`listBrowse+stringify ${nodes} nodes depth 1 (/files)`, 1, () => JSON.stringify(listBrowse(flat, '/files', '1', null))],
      [`listBrowse+stringify ${nodes} nodes depth 3 (/)`, 3, () => JSON.stringify(listBrowse(nested, '/', '3', null))],
      [`listBrowseJson memoised ${nodes} nodes depth 1`, 1, () => listBrowseJson(flat, '/files', '1', null)],
      [`listBrowseJson memoised ${nodes} nodes depth 3`, 3, () => listBrowseJson(nested, '/', '3', null)],
    ];
    for (const [name, depth, fn] of cases) {
      meta.set(name, { nodes, depth });
      bench.add(name, () => {
        sink += fn().length;
      });
    }
  }
  await bench.run();
  if (sink === -1) process.stdout.write('unreachable\n');
  return bench.tasks.map((t) => {
    const r = t.result as unknown as { latency?: { p50?: number; p99?: number }; throughput?: { mean?: number } } | undefined;
    const m = meta.get(t.name) ?? { nodes: 0, depth: 0 };
    return {
      name: t.name,
      nodes: m.nodes,
      depth: m.depth,
      medianMs: Number((r?.latency?.p50 ?? NaN).toFixed(4)),
      p99Ms: Number((r?.latency?.p99 ?? NaN).toFixed(4)),
      opsPerSec: Math.round(r?.throughput?.mean ?? NaN),
    };
  });
}

function ratio(rows: BrowseBenchRow[], nodes: number, budgetMs: number): string {
  const row = rows.find((r) => r.nodes === nodes && r.depth === 1 && !r.name.includes('cached'));
  return row ? `${((row.medianMs / budgetMs) * 100).toFixed(2)} %` : 'n/a';
}

export function browseTable(rows: BrowseBenchRow[]): string {
  return [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. tinybench; median and p99 latency per call.`,
    '',
    '| task | median ms | p99 ms | ops/s |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.medianMs} | ${r.p99Ms} | ${r.opsPerSec} |`),
    '',
    `Budget (docs/api.md, Limits; loopback, depth 1): ≤ 500 nodes within 250 ms, 501-5000 nodes within 1000 ms; achieved ${ratio(rows, 500, 250)} and ${ratio(rows, 5000, 1000)} of the budget.`,
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await browseBench();
  const table = browseTable(rows);
  const dir = new URL('../../bench/results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('browse.md', dir), `${table}\n`);
  await writeFile(new URL('browse.json', dir), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
}
