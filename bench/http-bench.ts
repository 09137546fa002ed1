// HTTP benchmark: wrk against vjd and two reference servers (bare uWS, node:http) replaying vjd's own answers per endpoint; Markdown + JSON.
// With VJD_BENCH_BASELINE=<checkout with dist/>[,<another>…] a vjd from each build (same config, its own data dir) joins
// the interleaved rounds as `vjd @<folder name>`, so a refactor's cost on the same routes shows side by side in one run.
// VJD_BENCH_LAYOUT=pinned,split adds the `split` thread layout (see LAYOUTS) beside the default one, in the same rounds;
// VJD_BENCH_RENDER=<w>x<h>@<fps> sets vjd's render (default the test harness's 320x180@30), e.g. 16x16@1 to shrink
// the share of CPU 0 that vjd's render loop takes from whichever server is being measured.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startServer, req, freePort, tempDir, waitUntil, ROOT, type TestServer, type Res } from '../test/helpers/server.js';
import type { ReferenceRoute } from './reference/servers.js';

const run = promisify(execFile);
const DURATION = process.env.VJD_BENCH_DURATION ?? '8s';
const CONNECTIONS = Number(process.env.VJD_BENCH_CONNECTIONS ?? 64);
const ROUNDS = Number(process.env.VJD_BENCH_ROUNDS ?? 3);
/** Media files in the browse tree (one folder, listed at depth 1). */
const TREE_FILES = Number(process.env.VJD_BENCH_TREE_FILES ?? 5000);
/** Server on core 0, wrk on core 1, so the load generator does not steal the server's CPU. */
const SERVER_CPU = '0';
const LOAD_CPU = '1';
const EFFECTS = ['invert', 'hue_shift', 'vignette'];
const BASELINES = (process.env.VJD_BENCH_BASELINE ?? '')
  .split(',')
  .filter((p) => p !== '')
  .map((p) => ({ dir: resolve(p), name: `vjd @${basename(resolve(p))}` }));
const TARGETS = ['bare uWS', 'node:http', 'vjd', ...BASELINES.map((b) => b.name)];
type Target = string;
/**
 * Where the servers' threads run. `pinned` (the reported layout): all on CPU 0, so vjd's render worker and llvmpipe
 * threads, which keep drawing while the other servers are measured, share that core with whichever server is measured.
 * `split`: each main thread on CPU 0 and every other thread on CPU 1 beside wrk, as the scheduler of a 2-core box
 * serving remote clients would spread them; the same rule for every server (their V8 and libuv helpers move too).
 */
const LAYOUT_NOTES = {
  pinned: `servers pinned to CPU ${SERVER_CPU}, wrk to CPU ${LOAD_CPU}`,
  split: `each server's main thread pinned to CPU ${SERVER_CPU} and its other threads (vjd: the render worker, llvmpipe and pools) to CPU ${LOAD_CPU} beside wrk`,
} as const;
type Layout = keyof typeof LAYOUT_NOTES;
const LAYOUTS = [...new Set(['pinned', ...(process.env.VJD_BENCH_LAYOUT ?? '').split(',').filter((l) => l !== '')])] as Layout[];
for (const l of LAYOUTS) if (!(l in LAYOUT_NOTES)) throw new Error(`VJD_BENCH_LAYOUT: unknown layout ${l} (known: pinned, split)`);
const RENDER = renderSetting(process.env.VJD_BENCH_RENDER);

interface WrkResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  /**
   * The server's main-thread CPU time per answer (µs), background work included. On a shared machine it moves less
   * than req/s, which also depends on how much of the core the server got from other processes.
   */
  cpuUs: number;
}

interface Row {
  layout: Layout;
  target: Target;
  endpoint: string;
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  cpuUs: number;
  /** req/s of this target / bare uWS on the same endpoint. */
  vsUws: number;
  /** req/s of this target / node:http on the same endpoint. */
  vsNode: number;
  /** Main-thread CPU per answer of this target / bare uWS's on the same endpoint (above 1: costlier). */
  cpuVsUws: number;
}

interface Endpoint {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** Headers per baseline vjd where its own differ (its thumbnails' ETags). */
  baselineHeaders?: Record<string, Record<string, string>>;
  /** The answer vjd gave when captured; the references replay it. */
  route: ReferenceRoute;
}

/** Nanoseconds a process's main thread has run (schedstat's first field); NaN where the kernel does not keep it. */
async function mainThreadNs(pid: number): Promise<number> {
  try {
    return Number((await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')).split(' ')[0]);
  } catch {
    return NaN;
  }
}

async function wrk(url: string, headers: Record<string, string>, serverPid: number): Promise<WrkResult> {
  const args = ['-c', String(LOAD_CPU), 'wrk', '-t1', `-c${CONNECTIONS}`, `-d${DURATION}`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const cpuBefore = await mainThreadNs(serverPid);
  const { stdout } = await run('taskset', args, { maxBuffer: 1 << 20 });
  const cpuNs = (await mainThreadNs(serverPid)) - cpuBefore;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
  const pct = (p: string): number => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(stdout);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const answers = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
  return { rps, p50ms: pct('50'), p99ms: pct('99'), non2xx, cpuUs: cpuNs / 1000 / answers };
}

/** `<w>x<h>@<fps>` as a render config; null keeps the test harness's default. */
function renderSetting(value: string | undefined): { width: number; height: number; fps: number } | null {
  if (value === undefined || value === '') return null;
  const m = /^(\d+)x(\d+)@(\d+)$/.exec(value);
  if (!m) throw new Error(`VJD_BENCH_RENDER=${value}: expected <width>x<height>@<fps>, e.g. 16x16@1`);
  return { width: Number(m[1]), height: Number(m[2]), fps: Number(m[3]) };
}

/** Puts a server's threads where the layout says; run before each measurement, so threads started since are placed too. */
async function place(pid: number, layout: Layout): Promise<void> {
  if (layout === 'pinned') {
    await run('taskset', ['-a', '-p', '-c', SERVER_CPU, String(pid)]);
    return;
  }
  const tids = await readdir(`/proc/${pid}/task`);
  // A thread that ended since the listing has nothing to place.
  await Promise.all(
    tids.map((tid) => run('taskset', ['-p', '-c', tid === String(pid) ? SERVER_CPU : LOAD_CPU, tid]).catch(() => undefined)),
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function startReference(kind: 'uws' | 'node', routesFile: string): Promise<{ port: number; proc: ChildProcess }> {
  const port = await freePort();
  const script = join(ROOT, 'dist', 'bench', 'reference', 'servers.js');
  const proc = spawn('taskset', ['-c', SERVER_CPU, process.execPath, script, kind, String(port), routesFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    proc.on('exit', (code) => reject(new Error(`${kind} reference exited ${code}`)));
  });
  return { port, proc };
}

/**
 * A media root of `count` one-byte files plus a probe cache that already knows them as 1280×720 videos: vjd's
 * persistent ffprobe cache (keyed by path, size and mtime) lets the library list them without running ffprobe 5000 times.
 */
async function seedMediaTree(dataDir: string, count: number): Promise<string> {
  const root = join(dataDir, 'library');
  await mkdir(root, { recursive: true });
  const entries: Record<string, { size: number; mtimeMs: number; result: unknown }> = {};
  const result = { type: 'video', width: 1280, height: 720, durationSec: 5, fps: 30, codec: 'h264', format: 'mov,mp4,m4a,3gp,3g2,mj2' };
  for (let i = 0; i < count; i += 250) {
    const batch = Array.from({ length: Math.min(250, count - i) }, (_, k) => join(root, `clip ${String(i + k).padStart(5, '0')}.mp4`));
    await Promise.all(batch.map((p) => writeFile(p, 'x')));
    const stats = await Promise.all(batch.map((p) => stat(p)));
    batch.forEach((p, k) => (entries[p] = { size: stats[k]!.size, mtimeMs: stats[k]!.mtimeMs, result }));
  }
  await mkdir(join(dataDir, 'cache'), { recursive: true });
  await writeFile(join(dataDir, 'cache', 'probe-cache.json'), JSON.stringify({ version: 1, entries }));
  return root;
}

const REPLAYED_HEADERS = new Set(['content-type', 'etag', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers']);

function captured(url: string, r: Res, etag?: string): ReferenceRoute {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (REPLAYED_HEADERS.has(k) && typeof v === 'string') headers[k] = v;
  return { url, status: r.status, headers, body: r.body.toString('base64'), ...(etag !== undefined ? { etag } : {}) };
}

/** One vjd (this build, or the baseline's cli.js) with the media tree, the dead input and the effects chain. */
async function startVjd(cli?: string): Promise<{ vjd: TestServer; dataDir: string }> {
  const dataDir = await tempDir('vjd-http-bench-');
  const mediaRoot = await seedMediaTree(dataDir, TREE_FILES);
  const deadPort = await freePort();
  const vjd: TestServer = await startServer({
    dataDir,
    ...(cli ? { cli } : {}),
    env: { VJD_LOG_LEVEL: 'warn' },
    config: {
      ...(RENDER ? { render: RENDER } : {}),
      media: { roots: [mediaRoot] },
      // A network input nobody sends to: its thumbnail stays the placeholder card with a stable ETag.
      live: { test: [], streams: [{ id: 'dead', name: 'Dead Cam', url: `tcp://127.0.0.1:${deadPort}` }], v4l2: { enabled: false } },
    },
  });
  const api = (p: string): string => `${vjd.base}/api/v1${p}`;
  // Pin the already-running server (every thread) to the server core; threads and children started later inherit it.
  await run('taskset', ['-a', '-p', '-c', SERVER_CPU, String(vjd.proc.pid)]);
  await waitUntil(async () => (await req('GET', api('/browse?path=/files'))).json().count === TREE_FILES, 60000, 250);
  for (const type of EFFECTS) {
    const r = await req('POST', api('/effects/add'), { body: { type } });
    if (r.status !== 200) throw new Error(`effects/add ${type}: ${r.status} ${r.text}`);
  }
  return { vjd, dataDir };
}

async function main(): Promise<void> {
  const { vjd, dataDir } = await startVjd();
  const bases: Array<{ name: string; dir: string; vjd: TestServer; dataDir: string }> = [];
  for (const b of BASELINES) bases.push({ ...b, ...(await startVjd(join(b.dir, 'dist', 'src', 'cli.js'))) });
  const api = (p: string): string => `${vjd.base}/api/v1${p}`;
  try {
    const browsePath = '/api/v1/browse?path=/files&depth=1';
    const sourcePath = '/api/v1/thumbnails/source/source:plasma';
    const livePath = '/api/v1/thumbnails/live/dead';
    const sourceEtag = String((await req('GET', `${vjd.base}${sourcePath}`, { timeoutMs: 15000 })).headers.etag);
    const liveEtag = String((await req('GET', `${vjd.base}${livePath}`, { timeoutMs: 15000 })).headers.etag);
    if (!/^"live-\d+x\d+-png-p/.test(liveEtag)) throw new Error(`live/dead is not a placeholder: ${liveEtag}`);
    const get = async (path: string, headers: Record<string, string> = {}): Promise<Res> => {
      const r = await req('GET', `${vjd.base}${path}`, { headers, timeoutMs: 15000 });
      if (r.status !== 200 && r.status !== 304) throw new Error(`GET ${path}: ${r.status} ${r.text.slice(0, 200)}`);
      return r;
    };
    const browse = await get(browsePath);
    const browseBytes = browse.body.length;
    const baseEtag = async (path: string): Promise<Record<string, Record<string, string>>> => {
      const out: Record<string, Record<string, string>> = {};
      for (const b of bases)
        out[b.name] = { 'If-None-Match': String((await req('GET', `${b.vjd.base}${path}`, { timeoutMs: 15000 })).headers.etag) };
      return out;
    };
    const endpoints: Endpoint[] = [
      { name: 'GET /status', url: '/api/v1/status', route: captured('/api/v1/status', await get('/api/v1/status')) },
      {
        name: `GET /effects (${EFFECTS.length} in chain)`,
        url: '/api/v1/effects',
        route: captured('/api/v1/effects', await get('/api/v1/effects')),
      },
      { name: `GET /browse /files depth 1 (${TREE_FILES} files)`, url: browsePath, route: captured(browsePath, browse) },
      {
        name: 'GET /thumbnails/source/source:plasma (304)',
        url: sourcePath,
        headers: { 'If-None-Match': sourceEtag },
        baselineHeaders: await baseEtag(sourcePath),
        route: captured(sourcePath, await get(sourcePath, { 'If-None-Match': sourceEtag }), sourceEtag),
      },
      {
        name: 'GET /thumbnails/live/dead placeholder (304)',
        url: livePath,
        headers: { 'If-None-Match': liveEtag },
        baselineHeaders: await baseEtag(livePath),
        route: captured(livePath, await get(livePath, { 'If-None-Match': liveEtag }), liveEtag),
      },
    ];
    for (const e of endpoints.slice(3)) if (e.route.status !== 304) throw new Error(`${e.name} answered ${e.route.status}, not 304`);
    const effectsBody = JSON.parse(Buffer.from(endpoints[1]!.route.body, 'base64').toString()) as { count: number };
    if (effectsBody.count !== EFFECTS.length) throw new Error(`effects chain holds ${effectsBody.count}`);

    const routesFile = join(dataDir, 'reference-routes.json');
    await writeFile(routesFile, JSON.stringify(endpoints.map((e) => e.route)));
    const uws = await startReference('uws', routesFile);
    const node = await startReference('node', routesFile);
    const baseOf: Record<Target, string> = {
      'bare uWS': `http://127.0.0.1:${uws.port}`,
      'node:http': `http://127.0.0.1:${node.port}`,
      vjd: vjd.base,
      ...Object.fromEntries(bases.map((b) => [b.name, b.vjd.base])),
    };
    const thumbsBefore = (await req('GET', api('/status'))).json().thumbnails as { requests: number; notModified: number };

    const pidOf: Record<Target, number> = {
      'bare uWS': uws.proc.pid!,
      'node:http': node.proc.pid!,
      vjd: vjd.proc.pid!,
      ...Object.fromEntries(bases.map((b) => [b.name, b.vjd.proc.pid!])),
    };
    const pids = Object.values(pidOf);

    const samples = new Map<string, WrkResult[]>();
    const add = (key: string, r: WrkResult): void => void samples.set(key, [...(samples.get(key) ?? []), r]);
    // Interleave targets and endpoints round by round so drift on a shared machine hits all of them alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const layout of LAYOUTS) {
        for (const e of endpoints) {
          for (const t of TARGETS) {
            // Every server, measured or idle, in the layout: an idle vjd's render loop shares a core too.
            if (LAYOUTS.length > 1) for (const pid of pids) await place(pid, layout);
            add(`${layout}|${t}|${e.name}`, await wrk(`${baseOf[t]}${e.url}`, e.baselineHeaders?.[t] ?? e.headers ?? {}, pidOf[t]!));
          }
        }
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
    const thumbsAfter = (await req('GET', api('/status'))).json().thumbnails as { requests: number; notModified: number };
    uws.proc.kill();
    node.proc.kill();

    const summarize = (layout: Layout) => {
      const rows: Row[] = [];
      for (const e of endpoints) {
        const agg = (t: Target) => {
          const rs = samples.get(`${layout}|${t}|${e.name}`) ?? [];
          return {
            rps: Math.round(median(rs.map((r) => r.rps))),
            p50ms: median(rs.map((r) => r.p50ms)),
            p99ms: median(rs.map((r) => r.p99ms)),
            non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
            cpuUs: median(rs.map((r) => r.cpuUs)),
          };
        };
        const u = agg('bare uWS');
        const n = agg('node:http');
        for (const t of TARGETS) {
          const a = agg(t);
          rows.push({
            layout,
            target: t,
            endpoint: e.name,
            ...a,
            vsUws: a.rps / u.rps,
            vsNode: a.rps / n.rps,
            cpuVsUws: a.cpuUs / u.cpuUs,
          });
        }
      }
      const rpsOf = (t: Target, e: string): number => rows.find((r) => r.target === t && r.endpoint === e)?.rps ?? NaN;
      const vjdStatus = rpsOf('vjd', endpoints[0]!.name);
      const ratio304 = {
        source: rpsOf('vjd', endpoints[3]!.name) / vjdStatus,
        livePlaceholder: rpsOf('vjd', endpoints[4]!.name) / vjdStatus,
      };
      const baseline304 = bases.map((b) => {
        const st = rpsOf(b.name, endpoints[0]!.name);
        return {
          name: b.name,
          dir: b.dir,
          source: rpsOf(b.name, endpoints[3]!.name) / st,
          livePlaceholder: rpsOf(b.name, endpoints[4]!.name) / st,
        };
      });
      return { layout, rows, ratio304, baseline304 };
    };
    const [main, ...others] = LAYOUTS.map(summarize);
    const { rows, ratio304, baseline304 } = main!;
    const thumbRequests = thumbsAfter.requests - thumbsBefore.requests;
    const thumb304 = thumbsAfter.notModified - thumbsBefore.notModified;
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
    const f2 = (v: number): string => v.toFixed(2);
    const table = (rs: Row[]): string[] => [
      '| endpoint | target | req/s | p50 ms | p99 ms | vs bare uWS | vs node:http | main-thread µs/answer | µs vs bare uWS |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rs.map(
        (r) =>
          `| ${r.endpoint} | ${r.target} | ${r.rps} | ${f2(r.p50ms)} | ${f2(r.p99ms)} | ${f2(r.vsUws)} | ${f2(r.vsNode)} | ${f2(r.cpuUs)} | ${f2(r.cpuVsUws)} |`,
      ),
    ];
    const render = RENDER ? `vjd renders ${RENDER.width}×${RENDER.height} at ${RENDER.fps} fps. ` : '';
    const lines = [
      `Machine: ${machine}. wrk -t1 -c${CONNECTIONS} -d${DURATION}, median of ${ROUNDS} interleaved rounds; ${LAYOUT_NOTES.pinned}. ${render}The reference servers replay the exact status, headers and body vjd answered on each path (captured before the run), so every ratio compares the same bytes on the same endpoint.`,
      '',
      ...table(rows),
      '',
      "Main-thread µs/answer: CPU time of the server process's main thread during the measurement (its background work included) divided by the answers wrk counted; it depends less than req/s on how much of the core other processes took, so compare it where req/s drift.",
      '',
      `Browse tree: one media folder of ${TREE_FILES} files (1-byte files made known to the library through its probe cache as 1280×720 videos), listed at \`/files\` depth 1: ${TREE_FILES} nodes, ${(browseBytes / 2 ** 20).toFixed(2)} MiB of JSON per answer. Effects chain: ${EFFECTS.join(', ')}. \`live/dead\` is a stream input with no sender (placeholder card).`,
      '',
      `304 path req/s / GET /status req/s on vjd (target ≥ 1.0): source thumbnail ${f2(ratio304.source)}, live placeholder ${f2(ratio304.livePlaceholder)}. vjd counted ${thumb304} of ${thumbRequests} thumbnail requests as 304.`,
      ...baseline304.flatMap((b) => [
        '',
        `\`${b.name}\` is the build at ${b.dir} (same config, its own data dir and media tree), measured in the same interleaved rounds; its 304 paths / its GET /status: source ${f2(b.source)}, live placeholder ${f2(b.livePlaceholder)}.`,
      ]),
      ...others.flatMap((o) => [
        '',
        `Layout \`${o.layout}\`, measured in the same rounds (not the layout of the table above): ${LAYOUT_NOTES[o.layout]}.`,
        '',
        ...table(o.rows),
        '',
        `In this layout, 304 path req/s / GET /status req/s on vjd: source thumbnail ${f2(o.ratio304.source)}, live placeholder ${f2(o.ratio304.livePlaceholder)}.`,
        ...o.baseline304.map((b) => `\`${b.name}\`: source ${f2(b.source)}, live placeholder ${f2(b.livePlaceholder)}.`),
      ]),
    ];
    const md = lines.join('\n');
    const outDir = join(ROOT, 'bench', 'results');
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, 'http.md'), `${md}\n`);
    const json = {
      machine,
      date: new Date().toISOString(),
      duration: DURATION,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      tree: { files: TREE_FILES, depth: 1, bytes: browseBytes },
      effects: EFFECTS,
      render: RENDER,
      ratio304,
      baselines: baseline304,
      thumbnailCounters: { requests: thumbRequests, notModified: thumb304 },
      rows,
      otherLayouts: others,
    };
    await writeFile(join(outDir, 'http.json'), `${JSON.stringify(json, null, 2)}\n`);
    process.stdout.write(`${md}\n`);
    if ([main!, ...others].some((o) => o.rows.some((r) => r.non2xx > 0))) {
      process.stderr.write('unexpected non-2xx/3xx responses during the benchmark\n');
      process.exitCode = 1;
    }
    if (thumb304 !== thumbRequests) {
      process.stderr.write(`only ${thumb304} of ${thumbRequests} thumbnail requests were answered 304\n`);
      process.exitCode = 1;
    }
  } finally {
    await vjd.cleanup();
    await rm(dataDir, { recursive: true, force: true });
    for (const b of bases) {
      await b.vjd.cleanup();
      await rm(b.dataDir, { recursive: true, force: true });
    }
  }
}

await main();
