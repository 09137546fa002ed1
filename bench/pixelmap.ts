// Pixel mapping's cost, in one run on one server: 64 strips of 170 RGB pixels (one Art-Net universe each, the patch's
// universe limit) sampled from plasma at 1280×720 and sent at 40 Hz to a receiver on loopback, beside the same server
// with the patch emptied (no sampling pass, the sender idle), in alternating phases so load drift on the box falls on
// both sides alike: render frame time (GET /status), the main thread's event-loop delay (POST /_test/audio-probe), the
// server's CPU (and, on Mesa, its rasterizer threads' alone) and the packets the receiver counted. Writes
// bench/results/pixelmap.{md,json}.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { req, ROOT, sleep, startServer, type TestServer } from '../test/helpers/server.js';
import { cpuTicks } from './audio-cost.js';
import { median, TICK, treeCpu, udpSink } from './outputs-lib.js';

const PHASE_S = Number(process.env.VJD_BENCH_SECONDS ?? 15);
const PAIRS = Number(process.env.VJD_BENCH_RUNS ?? 2);
const STRIPS = 64;
const PIXELS = 170;
const RATE_HZ = 40;
const FPS = 30;
/** GET /status's frame percentiles cover the last 240 frames (8 s at 30 fps): wait them out after a patch change. */
const SETTLE_MS = 9000;

interface Phase {
  on: boolean;
  frameP50Ms: number;
  frameP99Ms: number;
  fps: number;
  loopP50Ms: number;
  loopP99Ms: number;
  cpuPct: number;
  rasterPct: number | null;
  packetsPerSecond: number;
  senderPacketsPerSecond: number;
  universesSeen: number;
}

const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

// The receiver: counts every datagram and the Art-Net universes it saw (the port-address at bytes 14-15).
const sink = await udpSink();
let packets = 0;
const universes = new Set<number>();
sink.socket.on('message', (m: Buffer) => {
  packets++;
  if (m.length >= 18) universes.add(m.readUInt16LE(14));
});

const s = await startServer({
  env: { VJD_LOG_LEVEL: 'warn' },
  config: {
    render: { width: 1280, height: 720, fps: FPS },
    sources: { firstRun: 'preset:deep_plasma' },
    live: { test: [], streams: [], v4l2: { enabled: false } },
    pixelmap: { enabled: true, destinations: ['127.0.0.1'], artnetPort: sink.port, rateHz: RATE_HZ },
  },
});
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = async (p: string, body: unknown): Promise<void> => {
  const r = await req('POST', api(p), { body, timeoutMs: 20_000 });
  if (r.status !== 200) throw new Error(`${p}: ${r.status} ${r.text}`);
};

/** Strip k across the program at row k, in Art-Net universe k from channel 1. */
const strip = (k: number) => ({
  name: `Strip ${k}`,
  geometry: { kind: 'strip', x1: 0.02, y1: (k + 0.5) / STRIPS, x2: 0.98, y2: (k + 0.5) / STRIPS, pixels: PIXELS },
  destination: '127.0.0.1',
  universe: k,
});

/** CPU ticks of the server's Mesa rasterizer threads (llvmpipe-N): the drawing itself; null on a GPU. */
async function rasterTicks(pid: number): Promise<number | null> {
  let sum: number | null = null;
  for (const t of await readdir(`/proc/${pid}/task`)) {
    const comm = await readFile(`/proc/${pid}/task/${t}/comm`, 'utf8').catch(() => '');
    if (comm.startsWith('llvmpipe')) sum = (sum ?? 0) + ((await cpuTicks(`/proc/${pid}/task/${t}/stat`)) ?? 0);
  }
  return sum;
}

async function phase(server: TestServer, on: boolean): Promise<Phase> {
  for (let k = 0; k < STRIPS; k++) {
    if (on) await post('/pixelmap/fixtures/add', strip(k));
    else await post('/pixelmap/fixtures/remove', { id: `strip-${k}` });
  }
  // Settle after the patch change, then start the histogram, the CPU counters and the packet count together.
  await sleep(SETTLE_MS);
  await req('POST', api('/_test/audio-probe'), { body: {} });
  packets = 0;
  universes.clear();
  const t0 = Date.now();
  const pid = server.proc.pid!;
  const cpu = treeCpu(pid, PHASE_S * 1000);
  const raster0 = await rasterTicks(pid);
  const frames: Array<{ p50: number; p99: number; fps: number; sent: number }> = [];
  while (Date.now() - t0 < PHASE_S * 1000) {
    await sleep(1000);
    const st = (await req('GET', api('/status'))).json();
    frames.push({ p50: st.render.frameMsP50, p99: st.render.frameMsP99, fps: st.render.fps, sent: st.pixelmap.packetsPerSecond });
  }
  const got = packets;
  const seconds = (Date.now() - t0) / 1000;
  const raster1 = await rasterTicks(pid);
  const loop = (await req('POST', api('/_test/audio-probe'), { body: {} })).json().loopDelayMs;
  return {
    on,
    frameP50Ms: median(frames.map((f) => f.p50)),
    frameP99Ms: median(frames.map((f) => f.p99)),
    fps: round(mean(frames.map((f) => f.fps)), 1),
    loopP50Ms: loop.p50,
    loopP99Ms: loop.p99,
    cpuPct: await cpu,
    rasterPct: raster0 === null || raster1 === null ? null : round(((raster1 - raster0) / TICK / seconds) * 100, 1),
    packetsPerSecond: round(got / seconds, 0),
    senderPacketsPerSecond: round(mean(frames.map((f) => f.sent)), 0),
    universesSeen: universes.size,
  };
}

const load0 = loadavg();
const phases: Phase[] = [];
try {
  for (let i = 0; i < PAIRS; i++) phases.push(await phase(s, true), await phase(s, false));
} finally {
  await s.cleanup();
  sink.socket.close();
}
const load1 = loadavg();

const side = (on: boolean) => {
  const ps = phases.filter((p) => p.on === on);
  const m = (k: keyof Phase): number => round(median(ps.map((p) => p[k] as number)));
  return {
    frameP50Ms: m('frameP50Ms'),
    frameP99Ms: m('frameP99Ms'),
    fps: m('fps'),
    loopP50Ms: m('loopP50Ms'),
    loopP99Ms: m('loopP99Ms'),
    cpuPct: m('cpuPct'),
    rasterPct: ps.some((p) => p.rasterPct === null) ? null : m('rasterPct'),
    packetsPerSecond: m('packetsPerSecond'),
    senderPacketsPerSecond: m('senderPacketsPerSecond'),
    universesSeen: m('universesSeen'),
  };
};
const on = side(true);
const off = side(false);
const la = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, no GPU (Mesa llvmpipe); load average ${la(load0)} at the start, ${la(load1)} at the end`;
const ratio = (a: number | null, b: number | null): string => (a !== null && b !== null && b > 0 ? `${round(a / b)}` : 'n/a');
const row = (name: string, k: keyof typeof on) => `| ${name} | ${on[k] ?? 'n/a'} | ${off[k] ?? 'n/a'} | ${ratio(off[k], on[k])} |`;
const table = [
  `Pixel mapping cost (machine: ${machine}; plasma at 1280×720, ${FPS} fps; ${STRIPS} strips of ${PIXELS} RGB pixels, one Art-Net universe each, ${STRIPS * PIXELS} pixels, point sampling, rateHz ${RATE_HZ}, unicast to a receiver on 127.0.0.1; ${PAIRS} × ${PHASE_S} s with the patch and with it empty, alternating, one server, one run; each figure the median over its phases).`,
  '',
  '| measure | pixel mapping on | off (empty patch) | off / on |',
  '|---|---:|---:|---:|',
  row('render frame time p50 (ms)', 'frameP50Ms'),
  row('render frame time p99 (ms)', 'frameP99Ms'),
  row('render fps', 'fps'),
  row('main-thread event-loop delay p50 (ms)', 'loopP50Ms'),
  row('main-thread event-loop delay p99 (ms)', 'loopP99Ms'),
  row('vjd process CPU, Xvfb included (% of one core)', 'cpuPct'),
  row('of which Mesa rasterizer threads (% of one core)', 'rasterPct'),
  `| packets per second at the receiver | ${on.packetsPerSecond} | ${off.packetsPerSecond} | – |`,
  `| packets per second, the sender's own count (GET /status) | ${on.senderPacketsPerSecond} | ${off.senderPacketsPerSecond} | – |`,
  `| universes received | ${on.universesSeen} | ${off.universesSeen} | – |`,
].join('\n');
const dir = join(ROOT, 'bench', 'results');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'pixelmap.md'), `${table}\n`);
await writeFile(join(dir, 'pixelmap.json'), `${JSON.stringify({ date: new Date().toISOString(), machine, on, off, phases }, null, 2)}\n`);
process.stdout.write(`${table}\n`);
process.exit(0);
