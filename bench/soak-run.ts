// Bounded soak/load run against a real vjd: many jittered control-surface pollers, RSS and fps sampled each second, pass/fail verdict.
import { Agent, request as httpRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { startServer, req, tempDir, type TestServer } from '../test/helpers/server.js';

export interface SoakOptions {
  /** Seconds of load (after setup). */
  seconds: number;
  /** Concurrent pollers, each with its own keep-alive connection (a control surface each). */
  pollers: number;
  render?: { width: number; height: number; fps: number };
  /** Wait between one poller's requests: uniform in [min, max] ms. */
  waitMs?: [number, number];
  /** Chance that a poller's next request starts a mutation (an effect cycle adds two follow-ups). */
  mutationChance?: number;
  /**
   * Effect edits in progress at once (operators loading, toggling and unloading an effect); a poller that rolls an
   * effect edit while this many are under way sends palettes/next instead. Infinity: no limit.
   */
  editors?: number;
  /** Relative weights of the read requests (defaults: DEFAULT_WEIGHTS); 0 leaves a kind out. */
  weights?: Partial<Record<ReadKind, number>>;
  /** Progress lines (one per 10 s); silent when absent. */
  log?: (line: string) => void;
}

/** The read requests a poller picks from, with how often a control surface sends each (relative weights). */
export const DEFAULT_WEIGHTS = {
  browseDepth1: 12,
  browseDepth2: 6,
  effects: 12,
  sourcesCurrent: 10,
  palettesCurrent: 10,
  status: 10,
  thumbLive: 14,
  thumbCurrent: 10,
  thumbSource: 8,
  thumbPalette: 6,
};
export type ReadKind = keyof typeof DEFAULT_WEIGHTS;

/** Route groups the latency table is split by. */
export const GROUPS = [
  'browse',
  'effects',
  'sources',
  'palettes',
  'status',
  'thumb:live',
  'thumb:current',
  'thumb:source',
  'thumb:palette',
  'mutation',
] as const;
export type Group = (typeof GROUPS)[number];

export interface LatencyStats {
  count: number;
  p50ms: number;
  p99ms: number;
  maxMs: number;
}

export interface Sample {
  /** Seconds since the load started. */
  t: number;
  rssMiB: number;
  fps: number | null;
  /** Render frame time p50 / p99 (ms) as /status reports them. */
  frameMsP50: number | null;
  frameMsP99: number | null;
  /** Frames rendered and frame slots skipped since the render worker started (null when unreadable). */
  frames: number | null;
  dropped: number | null;
  /** Effects in the chain and live GL objects (textures + framebuffers) in the render worker. */
  chain: number | null;
  glObjects: number | null;
  fds: number;
  threads: number;
  thumbQueueDepth: number | null;
}

export interface SoakResult {
  machine: string;
  date: string;
  config: {
    seconds: number;
    pollers: number;
    render: { width: number; height: number; fps: number };
    waitMs: [number, number];
    mutationChance: number;
    editors: number | null;
    weights: Record<ReadKind, number>;
  };
  elapsedS: number;
  total: number;
  rps: number;
  mutationShare: number;
  overall: LatencyStats;
  groups: Record<string, LatencyStats>;
  /** `200`, `304`, `503 THUMBNAIL_QUEUE_FULL`, `ERR ECONNRESET`, … → count. */
  codes: Record<string, number>;
  unexpected: number;
  /** First unexpected answers (method, path, status/code, message). */
  unexpectedSamples: string[];
  rss: { firstMiB: number; lastMiB: number; maxMiB: number; secondHalfSlopeMiBPerMin: number; secondHalfGrowthPct: number };
  fps: { min: number; median: number; target: number; idleMedian: number; recoveredAfterMs: number | null };
  /**
   * The render clock over the sampled load: frames rendered plus slots skipped, against the slots the elapsed time
   * holds at the target fps. A loop that queues late frames, or skips them without counting, falls short.
   */
  clock: { spanS: number; frames: number; dropped: number; slots: number };
  /** CPU use over the load phase, % of one core: the vjd process (all its threads) and this load generator. */
  cpu: {
    serverPct: number;
    loadGeneratorPct: number;
    cores: number;
    loadGeneratorLoopDelayP99Ms: number;
    loadGeneratorLoopDelayMaxMs: number;
  };
  fds: { first: number; last: number; max: number };
  /** Effects chain length seen by the sampler, render frame time p50 range, GL objects first/last. */
  render: { chainMin: number; chainMax: number; frameMsP50Min: number; frameMsP50Max: number; glFirst: number; glLast: number };
  thumbnails: Record<string, unknown>;
  samples: Sample[];
}

export interface SoakVerdict {
  ok: boolean;
  failures: string[];
}

/**
 * Answers a control surface may legitimately get besides 2xx and 304: the two documented thumbnail overload
 * answers (queue full, with Retry-After; readback not done within 500 ms when the render thread is starved of CPU)
 * and the chain ceiling. They are counted and reported separately in the table.
 */
// The documented overload answers: each says retry, none loses state. CHAIN_BUSY comes when a starved render worker
// cannot answer a chain read or edit within its timeout (seen with the box loaded far past its two cores).
const EXPECTED_ERRORS = new Set(['503 THUMBNAIL_QUEUE_FULL', '503 PREVIEW_TIMEOUT', '503 CHAIN_BUSY', '403 EFFECT_LIMIT_REACHED']);
const CYCLE_EFFECT = 'invert';
const BASE_EFFECTS = ['hue_shift', 'vignette', 'scanlines'];
const REQUEST_TIMEOUT_MS = 10_000;

export function machineLine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

interface Answer {
  status: number;
  code: string | null;
  etag: string | null;
  ms: number;
  /** Network failure (no HTTP answer). */
  error: string | null;
  message: string;
  retryAfter: string | null;
}

/** One request on `agent`; resolves with status, error code, ETag and latency, never rejects. */
function send(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const h: Record<string, string | number> = { ...headers };
    if (payload) {
      h['content-type'] = 'application/json';
      h['content-length'] = payload.length;
    }
    let done = false;
    const finish = (a: Omit<Answer, 'ms'>): void => {
      if (done) return;
      done = true;
      resolve({ ...a, ms: performance.now() - started });
    };
    const r = httpRequest(`${base}${path}`, { method, agent, headers: h, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const status = res.statusCode ?? 0;
      const etag = typeof res.headers.etag === 'string' ? res.headers.etag : null;
      const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
      const chunks: Buffer[] = [];
      const isError = status >= 400;
      res.on('data', (c: Buffer) => {
        if (isError) chunks.push(c);
      });
      res.on('end', () => {
        let code: string | null = null;
        let message = '';
        if (isError) {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            const j = JSON.parse(text) as { code?: unknown; message?: unknown };
            code = typeof j.code === 'string' ? j.code : null;
            message = typeof j.message === 'string' ? j.message : '';
          } catch {
            message = text.slice(0, 200);
          }
        }
        finish({ status, code, etag, error: null, message, retryAfter });
      });
      res.on('error', (err: NodeJS.ErrnoException) =>
        finish({ status: 0, code: null, etag: null, error: err.code ?? err.message, message: err.message, retryAfter: null }),
      );
    });
    r.on('timeout', () => r.destroy(Object.assign(new Error('request timed out'), { code: 'TIMEOUT' })));
    r.on('error', (err: NodeJS.ErrnoException) =>
      finish({ status: 0, code: null, etag: null, error: err.code ?? err.message, message: err.message, retryAfter: null }),
    );
    r.end(payload);
  });
}

function stats(xs: number[]): LatencyStats {
  if (xs.length === 0) return { count: 0, p50ms: 0, p99ms: 0, maxMs: 0 };
  const s = Float64Array.from(xs).sort();
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  const r2 = (v: number): number => Math.round(v * 100) / 100;
  return { count: s.length, p50ms: r2(at(0.5)), p99ms: r2(at(0.99)), maxMs: r2(s[s.length - 1]!) };
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, v) => a + v, 0) / n;
  const my = ys.reduce((a, v) => a + v, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** CPU seconds (user + system) a process has used so far. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Render fps from GET /status (null when unreadable). */
async function renderFps(base: string): Promise<number | null> {
  const st = await req('GET', `${base}/api/v1/status`, { timeoutMs: 15000 }).then(
    (r) => r.json(),
    () => null,
  );
  return typeof st?.render?.fps === 'number' ? st.render.fps : null;
}

async function procStatus(pid: number): Promise<{ rssMiB: number; threads: number }> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(text)?.[1] ?? NaN);
  const threads = Number(/^Threads:\s+(\d+)/m.exec(text)?.[1] ?? NaN);
  return { rssMiB: Math.round((kb / 1024) * 10) / 10, threads };
}

const nums = (xs: Array<number | null>): number[] => xs.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

interface Targets {
  browse1: string[];
  browse2: string[];
  live: string[];
  sources: string[];
  palettes: string[];
}

/** Writes the config pieces (two source presets) and starts vjd with a lavfi input, a second test input and a dead stream. */
async function startSoakServer(dataDir: string, render: { width: number; height: number; fps: number }): Promise<TestServer> {
  const presets = join(dataDir, 'soak-presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'soak_rings.json'), JSON.stringify({ name: 'Soak Rings', source: 'rings', inputs: {} }));
  await writeFile(join(presets, 'soak_tunnel.json'), JSON.stringify({ name: 'Soak Tunnel', source: 'tunnel', inputs: {} }));
  return startServer({
    dataDir,
    env: { VJD_LOG_LEVEL: 'warn' },
    config: {
      render,
      presets: { dirs: [presets] },
      live: {
        test: [
          { id: 'bars', name: 'Color Bars', pattern: `smptehdbars=size=${render.width}x${render.height}:rate=${render.fps}` },
          { id: 'grid', name: 'Test Grid', pattern: 'testsrc2=size=320x180:rate=15' },
        ],
        streams: [{ id: 'dead', name: 'Dead Cam', url: 'tcp://127.0.0.1:9' }],
        v4l2: { enabled: false },
      },
    },
  });
}

/** Selects `bars` as current, loads the base effects and reads what the pollers will ask for. */
async function prepare(s: TestServer): Promise<Targets> {
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const r = await req(method, api(path), { ...(body !== undefined ? { body } : {}), timeoutMs: 15000 });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
    return r.json();
  };
  await ok('POST', '/inputs/live/select', { id: 'bars' });
  for (const type of BASE_EFFECTS) await ok('POST', '/effects/add', { type });
  const root = await ok('GET', '/browse?path=/');
  const browse1: string[] = ['/', ...root.items.filter((n: any) => n.kind === 'folder').map((n: any) => n.browsePath as string)];
  const live = await ok('GET', '/browse?path=/live');
  browse1.push(...live.items.filter((n: any) => n.kind === 'folder').map((n: any) => n.browsePath as string));
  const presets = await ok('GET', '/browse?path=/presets');
  const soakPresets = presets.items.filter((n: any) => String(n.name).startsWith('Soak ')).map((n: any) => n.id as string);
  if (soakPresets.length !== 2) throw new Error(`soak presets not listed: ${JSON.stringify(presets.items.map((n: any) => n.id))}`);
  const palettes = await ok('GET', '/palettes');
  const paletteIds = (palettes.items as Array<{ id: string }>).slice(0, 4).map((p) => p.id);
  return {
    browse1,
    browse2: ['/', '/live', '/presets'],
    live: ['bars', 'grid', 'dead'],
    sources: ['source:plasma', 'source:rings', ...soakPresets],
    palettes: paletteIds,
  };
}

/** Runs the soak: starts vjd, loads it with `pollers` jittered pollers for `seconds`, samples it each second, stops it. */
export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const render = opts.render ?? { width: 640, height: 360, fps: 30 };
  const waitMs = opts.waitMs ?? [100, 500];
  const mutationChance = opts.mutationChance ?? 0.01;
  const editors = opts.editors ?? Infinity;
  const weights = { ...DEFAULT_WEIGHTS, ...(opts.weights ?? {}) };
  const weightList = (Object.entries(weights) as Array<[ReadKind, number]>).filter(([, w]) => w > 0);
  const weightSum = weightList.reduce((a, [, w]) => a + w, 0);
  const dataDir = await tempDir('vjd-soak-');
  const s = await startSoakServer(dataDir, render);
  const pid = s.proc.pid!;
  try {
    const targets = await prepare(s);
    const latencies = new Map<Group, number[]>(GROUPS.map((g) => [g, []]));
    const codes = new Map<string, number>();
    const unexpectedSamples: string[] = [];
    let unexpected = 0;
    let total = 0;
    let mutations = 0;
    let editing = 0;

    const record = (group: Group, method: string, path: string, a: Answer): void => {
      total++;
      if (group === 'mutation') mutations++;
      latencies.get(group)!.push(a.ms);
      const key = a.error !== null ? `ERR ${a.error}` : a.status >= 400 ? `${a.status} ${a.code ?? '?'}` : String(a.status);
      codes.set(key, (codes.get(key) ?? 0) + 1);
      const documented = EXPECTED_ERRORS.has(key) && (key !== '503 THUMBNAIL_QUEUE_FULL' || a.retryAfter !== null);
      const fine = a.error === null && ((a.status >= 200 && a.status < 300) || a.status === 304 || documented);
      if (!fine) {
        unexpected++;
        if (unexpectedSamples.length < 20)
          unexpectedSamples.push(`${method} ${path} -> ${key}${a.message ? `: ${a.message.slice(0, 160)}` : ''} (${Math.round(a.ms)} ms)`);
      }
    };

    // Idle baseline: render fps with the same sources and effects before any poller starts.
    const idleFps: number[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const f = await renderFps(s.base);
      if (f !== null) idleFps.push(f);
    }
    const serverCpu0 = await cpuSeconds(pid);
    const clientCpu0 = process.cpuUsage();
    // Latencies are taken in this process: its own event-loop delay is reported so a stall here is not blamed on vjd.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const started = performance.now();
    const deadline = started + opts.seconds * 1000;
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    const jitter = (): number => waitMs[0] + Math.random() * (waitMs[1] - waitMs[0]);

    const poller = async (): Promise<void> => {
      // Each surface: its own connection, its own thumbnail size and format, and the ETags it last saw.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const size = pick([96, 128, 192, 192]);
      const format = Math.random() < 0.2 ? 'jpg' : 'png';
      const etags = new Map<string, string>();
      let cycle: 'toggle' | 'remove' | null = null;
      const call = async (
        group: Group,
        method: string,
        path: string,
        body?: unknown,
        headers?: Record<string, string>,
      ): Promise<Answer> => {
        const a = await send(agent, s.base, method, path, body, headers);
        record(group, method, path, a);
        return a;
      };
      const thumb = async (group: Group, path: string): Promise<void> => {
        const known = etags.get(path);
        const a = await call(group, 'GET', path, undefined, known ? { 'if-none-match': known } : {});
        if (a.etag && (a.status === 200 || a.status === 304)) etags.set(path, a.etag);
      };
      await sleep(Math.random() * waitMs[1]);
      try {
        while (performance.now() < deadline) {
          const q = `size=${size}&format=${format}`;
          if (cycle === 'toggle') {
            await call('mutation', 'POST', '/api/v1/effects/toggle', { name: CYCLE_EFFECT });
            cycle = 'remove';
          } else if (cycle === 'remove') {
            await call('mutation', 'POST', '/api/v1/effects/remove', { type: CYCLE_EFFECT });
            cycle = null;
            editing--;
          } else if (Math.random() < mutationChance) {
            const m = Math.random();
            if (m < 0.5 && editing < editors) {
              // Load, then (on later turns) toggle and unload one effect: this surface only removes what it added.
              editing++;
              const a = await call('mutation', 'POST', '/api/v1/effects/add', { type: CYCLE_EFFECT });
              if (a.status === 200) cycle = 'toggle';
              else editing--;
            } else if (m < 0.75) await call('mutation', 'POST', '/api/v1/palettes/next', {});
            else await call('mutation', 'POST', '/api/v1/global/dimmer', { value: Math.round((0.5 + Math.random() / 2) * 100) / 100 });
          } else {
            let r = Math.random() * weightSum;
            let kind: ReadKind = 'status';
            for (const [k, w] of weightList) {
              kind = k;
              if ((r -= w) < 0) break;
            }
            switch (kind) {
              case 'browseDepth1':
                await call('browse', 'GET', `/api/v1/browse?path=${pick(targets.browse1)}&depth=1`);
                break;
              case 'browseDepth2':
                await call('browse', 'GET', `/api/v1/browse?path=${pick(targets.browse2)}&depth=2`);
                break;
              case 'effects':
                await call('effects', 'GET', '/api/v1/effects');
                break;
              case 'sourcesCurrent':
                await call('sources', 'GET', '/api/v1/sources/current');
                break;
              case 'palettesCurrent':
                await call('palettes', 'GET', '/api/v1/palettes/current');
                break;
              case 'status':
                await call('status', 'GET', '/api/v1/status');
                break;
              case 'thumbLive':
                await thumb('thumb:live', `/api/v1/thumbnails/live/${pick(targets.live)}?${q}`);
                break;
              case 'thumbCurrent':
                await thumb('thumb:current', `/api/v1/thumbnails/current?${q}`);
                break;
              case 'thumbSource':
                await thumb('thumb:source', `/api/v1/thumbnails/source/${pick(targets.sources)}?${q}`);
                break;
              case 'thumbPalette':
                await thumb('thumb:palette', `/api/v1/thumbnails/palette/${pick(targets.palettes)}?${q}`);
                break;
            }
          }
          await sleep(jitter());
        }
      } finally {
        agent.destroy();
      }
    };

    // Once a second: server RSS, open descriptors, threads, and the render fps and queue depth from /status.
    const samples: Sample[] = [];
    const statusAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    let sampling = true;
    const sampler = (async () => {
      let next = started + 1000;
      while (sampling) {
        await sleep(Math.max(0, next - performance.now()));
        next += 1000;
        if (!sampling) break;
        const t = Math.round((performance.now() - started) / 100) / 10;
        const getJson = (path: string): Promise<any> =>
          new Promise<any>((resolve) => {
            const r = httpRequest(`${s.base}${path}`, { agent: statusAgent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => {
                try {
                  resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
                } catch {
                  resolve(null);
                }
              });
              res.on('error', () => resolve(null));
            });
            r.on('timeout', () => r.destroy());
            r.on('error', () => resolve(null));
            r.end();
          });
        const [proc, fds, st, fx] = await Promise.all([
          procStatus(pid),
          readdir(`/proc/${pid}/fd`).then(
            (l) => l.length,
            () => NaN,
          ),
          getJson('/api/v1/status'),
          getJson('/api/v1/effects'),
        ]);
        const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
        samples.push({
          t,
          rssMiB: proc.rssMiB,
          fps: num(st?.render?.fps),
          frames: num(st?.render?.frames),
          dropped: num(st?.render?.droppedFrames),
          frameMsP50: st?.render?.frameMsP50 ?? null,
          frameMsP99: st?.render?.frameMsP99 ?? null,
          chain: typeof fx?.count === 'number' ? fx.count : null,
          glObjects: st?.render?.gl ? (st.render.gl.textures ?? 0) + (st.render.gl.framebuffers ?? 0) : null,
          fds,
          threads: proc.threads,
          thumbQueueDepth: st?.thumbnails?.queue?.depth ?? null,
        });
        if (opts.log && samples.length % 10 === 0) {
          const last = samples[samples.length - 1]!;
          opts.log(`t=${last.t}s requests=${total} rss=${last.rssMiB} MiB fps=${last.fps} unexpected=${unexpected}`);
        }
      }
    })();

    await Promise.all(Array.from({ length: opts.pollers }, () => poller()));
    const elapsedS = (performance.now() - started) / 1000;
    const serverCpuPct = Math.round((((await cpuSeconds(pid)) - serverCpu0) / elapsedS) * 100);
    const cu = process.cpuUsage(clientCpu0);
    const clientCpuPct = Math.round(((cu.user + cu.system) / 1e6 / elapsedS) * 100);
    loopDelay.disable();
    const loopP99Ms = Math.round(loopDelay.percentile(99) / 1e5) / 10;
    const loopMaxMs = Math.round(loopDelay.max / 1e5) / 10;
    sampling = false;
    await sampler;
    statusAgent.destroy();
    const finalStatus = (await req('GET', `${s.base}/api/v1/status`, { timeoutMs: 15000 })).json();
    // After the load: the time the render rate takes to come back to 80 % of its idle rate (null: not within 30 s).
    const idleMedian = median(idleFps);
    const loadEnded = performance.now();
    let recoveredAfterMs: number | null = null;
    while (performance.now() - loadEnded < 30_000) {
      const f = await renderFps(s.base);
      if (f !== null && f >= 0.8 * idleMedian) {
        recoveredAfterMs = Math.round(performance.now() - loadEnded);
        break;
      }
      await sleep(250);
    }
    const counted = samples.filter((x) => x.frames !== null && x.dropped !== null);
    const c0 = counted[0];
    const c1 = counted[counted.length - 1];
    const spanS = c0 && c1 ? c1.t - c0.t : 0;
    const clock = {
      spanS: Math.round(spanS * 10) / 10,
      frames: c0 && c1 ? c1.frames! - c0.frames! : 0,
      dropped: c0 && c1 ? c1.dropped! - c0.dropped! : 0,
      slots: Math.round(spanS * render.fps),
    };

    // RSS trend over the second half of the run: least-squares line, growth from its start to its end.
    const half = samples.filter((x) => x.t >= opts.seconds / 2);
    const k = slope(
      half.map((x) => x.t),
      half.map((x) => x.rssMiB),
    );
    const halfSpan = half.length > 1 ? half[half.length - 1]!.t - half[0]!.t : 0;
    const meanT = half.reduce((a, x) => a + x.t, 0) / Math.max(1, half.length);
    const meanR = half.reduce((a, x) => a + x.rssMiB, 0) / Math.max(1, half.length);
    const fitStart = meanR + k * ((half[0]?.t ?? 0) - meanT);
    const growthPct = fitStart > 0 ? ((k * halfSpan) / fitStart) * 100 : 0;
    const fpsList = samples.map((x) => x.fps).filter((v): v is number => v !== null);
    const rssList = samples.map((x) => x.rssMiB);
    const fdList = samples.map((x) => x.fds).filter((v) => Number.isFinite(v));
    const all = GROUPS.flatMap((g) => latencies.get(g)!);
    const codeObj = Object.fromEntries([...codes.entries()].sort((a, b) => b[1] - a[1]));
    const th = finalStatus.thumbnails ?? {};
    return {
      machine: machineLine(),
      date: new Date().toISOString(),
      config: {
        seconds: opts.seconds,
        pollers: opts.pollers,
        render,
        waitMs,
        mutationChance,
        editors: Number.isFinite(editors) ? editors : null,
        weights,
      },
      elapsedS: Math.round(elapsedS * 10) / 10,
      total,
      rps: Math.round(total / elapsedS),
      mutationShare: total > 0 ? mutations / total : 0,
      overall: stats(all),
      groups: Object.fromEntries(GROUPS.map((g) => [g, stats(latencies.get(g)!)])),
      codes: codeObj,
      unexpected,
      unexpectedSamples,
      rss: {
        firstMiB: rssList[0] ?? NaN,
        lastMiB: rssList[rssList.length - 1] ?? NaN,
        maxMiB: Math.max(...rssList),
        secondHalfSlopeMiBPerMin: Math.round(k * 60 * 100) / 100,
        secondHalfGrowthPct: Math.round(growthPct * 100) / 100,
      },
      fps: { min: Math.min(...fpsList), median: median(fpsList), target: render.fps, idleMedian, recoveredAfterMs },
      clock,
      cpu: {
        serverPct: serverCpuPct,
        loadGeneratorPct: clientCpuPct,
        cores: cpus().length,
        loadGeneratorLoopDelayP99Ms: loopP99Ms,
        loadGeneratorLoopDelayMaxMs: loopMaxMs,
      },
      fds: { first: fdList[0] ?? NaN, last: fdList[fdList.length - 1] ?? NaN, max: Math.max(...fdList) },
      render: {
        chainMin: Math.min(...nums(samples.map((x) => x.chain))),
        chainMax: Math.max(...nums(samples.map((x) => x.chain))),
        frameMsP50Min: Math.min(...nums(samples.map((x) => x.frameMsP50))),
        frameMsP50Max: Math.max(...nums(samples.map((x) => x.frameMsP50))),
        glFirst: nums(samples.map((x) => x.glObjects))[0] ?? NaN,
        glLast: nums(samples.map((x) => x.glObjects)).at(-1) ?? NaN,
      },
      thumbnails: {
        requests: th.requests,
        notModified: th.notModified,
        cacheHits: th.cacheHits,
        timeouts: th.timeouts,
        placeholders: th.placeholders,
        queue: th.queue,
        previewsOpen: th.previewsOpen,
      },
      samples,
    };
  } finally {
    await s.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Pass criteria: no unexpected answers, median fps ≥ 80 % of the configured fps, RSS growth over the second half ≤ 25 %. */
export function soakVerdict(r: SoakResult): SoakVerdict {
  const failures: string[] = [];
  if (r.unexpected > 0) failures.push(`${r.unexpected} unexpected answers (first: ${r.unexpectedSamples[0] ?? '?'})`);
  if (!(r.fps.median >= 0.8 * r.fps.target)) failures.push(`median render fps ${r.fps.median} is below 80 % of ${r.fps.target}`);
  if (!(r.rss.secondHalfGrowthPct <= 25)) failures.push(`RSS grew ${r.rss.secondHalfGrowthPct} % over the second half`);
  if (r.total === 0) failures.push('no requests were made');
  return { ok: failures.length === 0, failures };
}

export function soakMarkdown(r: SoakResult): string {
  const v = soakVerdict(r);
  const c = r.config;
  const f2 = (x: number): string => x.toFixed(2);
  const lines = [
    `Machine: ${r.machine}. vjd rendering ${c.render.width}×${c.render.height} at ${c.render.fps} fps (lavfi input current, ${BASE_EFFECTS.length} effects loaded); ${c.pollers} pollers on loopback, each with its own keep-alive connection and a ${c.waitMs[0]}-${c.waitMs[1]} ms jittered wait, for ${c.seconds} s (load generator in the same machine).`,
    '',
    `**${r.total} requests in ${r.elapsedS} s = ${r.rps} req/s; latency p50 ${f2(r.overall.p50ms)} ms, p99 ${f2(r.overall.p99ms)} ms, max ${f2(r.overall.maxMs)} ms; mutations ${(r.mutationShare * 100).toFixed(1)} % of requests; unexpected answers: ${r.unexpected}.** Verdict: ${v.ok ? 'pass' : `FAIL (${v.failures.join('; ')})`}.`,
    '',
    '| route group | requests | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    ...Object.entries(r.groups).map(([g, st]) => `| ${g} | ${st.count} | ${f2(st.p50ms)} | ${f2(st.p99ms)} | ${f2(st.maxMs)} |`),
    `| all | ${r.overall.count} | ${f2(r.overall.p50ms)} | ${f2(r.overall.p99ms)} | ${f2(r.overall.maxMs)} |`,
    '',
    '| answer | count |',
    '|---|---:|',
    ...Object.entries(r.codes).map(
      ([k, n]) => `| ${k}${EXPECTED_ERRORS.has(k) || /^(2\d\d|304)$/.test(k) ? '' : ' (unexpected)'} | ${n} |`,
    ),
    '',
    '| server | first | last | max | other |',
    '|---|---:|---:|---:|---|',
    `| RSS MiB | ${r.rss.firstMiB} | ${r.rss.lastMiB} | ${r.rss.maxMiB} | second half: ${f2(r.rss.secondHalfSlopeMiBPerMin)} MiB/min, ${f2(r.rss.secondHalfGrowthPct)} % (limit 25 %) |`,
    `| render fps | – | – | – | min ${r.fps.min}, median ${r.fps.median} (target ${r.fps.target}, limit ${0.8 * r.fps.target}; ${r.fps.idleMedian} before the load; back to 80 % of that ${r.fps.recoveredAfterMs === null ? 'not within 30 s' : `${r.fps.recoveredAfterMs} ms after it`}) |`,
    `| render clock | – | – | – | over ${r.clock.spanS} s: ${r.clock.frames} frames + ${r.clock.dropped} skipped slots of ${r.clock.slots} |`,
    `| CPU % of one core | – | – | – | vjd process ${r.cpu.serverPct} %, load generator ${r.cpu.loadGeneratorPct} % (${r.cpu.cores} cores in all); load generator event-loop delay p99 ${r.cpu.loadGeneratorLoopDelayP99Ms} ms, max ${r.cpu.loadGeneratorLoopDelayMaxMs} ms (includes the 10 ms timer resolution) |`,
    `| open fds | ${r.fds.first} | ${r.fds.last} | ${r.fds.max} | |`,
    `| GL textures + framebuffers | ${r.render.glFirst} | ${r.render.glLast} | – | effects chain ${r.render.chainMin}-${r.render.chainMax} long; render frame p50 ${r.render.frameMsP50Min}-${r.render.frameMsP50Max} ms |`,
    '',
    `Thumbnails at the end: ${JSON.stringify(r.thumbnails)}.`,
  ];
  if (r.unexpectedSamples.length > 0) lines.push('', 'First unexpected answers:', '', ...r.unexpectedSamples.map((x) => `- ${x}`));
  return lines.join('\n');
}
