// Output mapping's cost, in one run on one server: plasma at 1280×720, 30 fps, to UDP stream outputs decoded by real
// ffmpeg receivers on loopback, with and without maps, in alternating phases so load drift on the box falls on every
// side alike: 2 outputs as they are, the same 2 mapped (a corner-pin with a soft edge, a slice with one), 4 mapped
// (adding a mesh and a mirrored pin) and the same 4 as they are. Each output has a bitrate of its own, so no two share
// an encoder in any phase and the phases differ by the maps alone. Measured: render frame time and the readback time
// inside it (GET /status; `render.scale` "auto" with `minScale` 1, which never scales but reports the readback), render
// fps, what each receiver decodes, the outputs' dropped and repeated slots, and the CPU of the vjd process and of its
// whole tree (ffmpeg children and Xvfb). Writes bench/results/output-map.{md,json}.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { req, ROOT, sleep, startServer } from '../test/helpers/server.js';
import { cpuTicks } from './audio-cost.js';
import { FrameReceiver, median, TICK, treeCpu, udpSink } from './outputs-lib.js';

const PHASE_S = Number(process.env.VJD_BENCH_SECONDS ?? 15);
const PAIRS = Number(process.env.VJD_BENCH_RUNS ?? 2);
const FPS = 30;
/** The streams' size: the map's pass and readback run at the render size whatever the output's, so a small encode
 * leaves the two cores to what is measured. */
const OUT = { width: 640, height: 360 };
/** GET /status's p99 covers the last 240 frames (8 s at 30 fps): wait them out after a change, however slow the
 * render, within SETTLE_MAX_MS. */
const SETTLE_MS = 9000;
const SETTLE_FRAMES = 240;
const SETTLE_MAX_MS = 60_000;

/** What each of the four outputs gets when mapped. */
const MAPS = [
  {
    corners: [
      [0.03, 0.05],
      [0.98, 0],
      [1, 1],
      [0, 0.96],
    ],
    blend: { right: 0.1818 },
  },
  { slice: { x: 0.45, y: 0, w: 0.55, h: 1 }, blend: { left: 0.1818 } },
  {
    mesh: {
      cols: 4,
      rows: 2,
      points: [0, 0.5, 1].flatMap((y) => [0, 0.25, 0.5, 0.75, 1].map((x) => [x, y + 0.06 * (1 - 4 * (x - 0.5) ** 2) * (y === 1 ? -1 : 1)])),
    },
  },
  {
    corners: [
      [1, 0],
      [0, 0],
      [0, 1],
      [1, 1],
    ],
    testCard: true,
  },
];

interface Phase {
  outputs: number;
  mapped: number;
  frameP50Ms: number;
  frameP99Ms: number;
  readbackMs: number;
  fps: number;
  encodeDropPct: number;
  decodedFps: number[];
  dropped: number;
  repeated: number;
  restarts: number;
  vjdCpuPct: number;
  treeCpuPct: number;
}

const r2 = (v: number): number => Math.round(v * 100) / 100;

// One receiver per output, decoding for the whole run; a phase counts the frames that arrived within it.
const ports: number[] = [];
for (let i = 0; i < MAPS.length; i++) {
  const probe = await udpSink();
  ports.push(probe.port);
  probe.socket.close();
}
const receivers = ports.map((p) => new FrameReceiver(`udp://127.0.0.1:${p}?fifo_size=1000000&overrun_nonfatal=1`));

const s = await startServer({
  env: { VJD_LOG_LEVEL: 'warn' },
  config: {
    render: { width: 1280, height: 720, fps: FPS, scale: 'auto', minScale: 1 },
    sources: { firstRun: 'preset:deep_plasma' },
    live: { test: [], streams: [], v4l2: { enabled: false } },
    outputs: ports.map((p, i) => ({
      id: `out${i + 1}`,
      kind: 'stream',
      enabled: i < 2,
      url: `udp://127.0.0.1:${p}?pkt_size=1316`,
      ...OUT,
      fps: FPS,
      bitrateKbps: 1000 + 10 * i,
    })),
  },
});
const api = (p: string): string => `${s.base}/api/v1${p}`;
async function post(p: string, body: unknown): Promise<void> {
  const r = await req('POST', api(p), { body, timeoutMs: 20_000 });
  if (r.status !== 200) throw new Error(`${p}: ${r.status} ${r.text}`);
}
type OutputItem = { id: string; framesDropped: number; framesRepeated: number; restarts: number };
const listed = async (): Promise<OutputItem[]> => (await req('GET', api('/outputs'))).json().items;

/** `count` outputs enabled, the first `mapped` of them with their maps, the rest with none. */
async function arrange(count: number, mapped: number): Promise<void> {
  for (let i = 0; i < MAPS.length; i++) {
    await post(`/outputs/out${i + 1}/map`, { map: i < mapped ? MAPS[i] : null });
    await post('/outputs/enabled', { id: `out${i + 1}`, enabled: i < count });
  }
}

const renderStatus = async () => (await req('GET', api('/status'))).json().render;

async function phase(count: number, mapped: number): Promise<Phase> {
  await arrange(count, mapped);
  const from = (await renderStatus()).frames as number;
  const t = performance.now();
  await sleep(SETTLE_MS);
  while ((await renderStatus()).frames - from < SETTLE_FRAMES && performance.now() - t < SETTLE_MAX_MS) await sleep(1000);
  const pid = s.proc.pid!;
  const before = await listed();
  const vjd0 = (await cpuTicks(`/proc/${pid}/stat`)) ?? 0;
  const tree = treeCpu(pid, PHASE_S * 1000);
  const t0 = performance.now();
  const seen = receivers.map((r) => r.frames.length);
  const samples: Array<{ p50: number; p99: number; fps: number; readback: number; drop: number }> = [];
  while (performance.now() - t0 < PHASE_S * 1000) {
    await sleep(1000);
    // The median frame and readback of the last 30 frames (the scaler's window); p99 of the last 240.
    const r = await renderStatus();
    samples.push({
      p50: r.scaleLimit.frameMs,
      p99: r.frameMsP99,
      fps: r.fps,
      readback: r.scaleLimit.readbackMs,
      drop: r.scaleLimit.encodeDropPct,
    });
  }
  const seconds = (performance.now() - t0) / 1000;
  const vjd1 = (await cpuTicks(`/proc/${pid}/stat`)) ?? 0;
  const after = await listed();
  const delta = (k: 'framesDropped' | 'framesRepeated' | 'restarts'): number =>
    after.slice(0, count).reduce((sum, o, i) => sum + o[k] - before[i]![k], 0);
  const med = (k: keyof (typeof samples)[number]): number => r2(median(samples.map((x) => x[k])));
  return {
    outputs: count,
    mapped,
    frameP50Ms: med('p50'),
    frameP99Ms: med('p99'),
    readbackMs: med('readback'),
    fps: med('fps'),
    encodeDropPct: med('drop'),
    decodedFps: receivers.slice(0, count).map((r, i) => Math.round(((r.frames.length - seen[i]!) / seconds) * 10) / 10),
    dropped: delta('framesDropped'),
    repeated: delta('framesRepeated'),
    restarts: delta('restarts'),
    vjdCpuPct: Math.round(((vjd1 - vjd0) / TICK / seconds) * 1000) / 10,
    treeCpuPct: await tree,
  };
}

const ORDER: Array<[number, number]> = [
  [2, 0],
  [2, 2],
  [4, 4],
  [4, 0],
];
const load0 = loadavg();
const phases: Phase[] = [];
try {
  for (let i = 0; i < PAIRS; i++) for (const [count, mapped] of ORDER) phases.push(await phase(count, mapped));
} finally {
  await s.cleanup();
  for (const r of receivers) r.close();
}
const load1 = loadavg();

/** The medians over the phases of one arrangement. */
function summary(count: number, mapped: number) {
  const ps = phases.filter((p) => p.outputs === count && p.mapped === mapped);
  const m = (f: (p: Phase) => number): number => r2(median(ps.map(f)));
  return {
    outputs: count,
    mapped,
    frameP50Ms: m((p) => p.frameP50Ms),
    frameP99Ms: m((p) => p.frameP99Ms),
    readbackMs: m((p) => p.readbackMs),
    fps: m((p) => p.fps),
    encodeDropPct: m((p) => p.encodeDropPct),
    decodedFpsMin: m((p) => Math.min(...p.decodedFps)),
    decodedFpsMean: m((p) => p.decodedFps.reduce((a, b) => a + b, 0) / p.decodedFps.length),
    droppedPerS: m((p) => p.dropped / PHASE_S),
    repeatedPerS: m((p) => p.repeated / PHASE_S),
    restarts: ps.reduce((sum, p) => sum + p.restarts, 0),
    vjdCpuPct: m((p) => p.vjdCpuPct),
    treeCpuPct: m((p) => p.treeCpuPct),
  };
}
type Side = ReturnType<typeof summary>;
const sides = ORDER.map(([count, mapped]) => summary(count, mapped));
const side = (count: number, mapped: number): Side => sides.find((x) => x.outputs === count && x.mapped === mapped)!;
/** What one mapped output adds: the mapped arrangement minus the same outputs without maps, over the maps. */
const per = (k: 'frameP50Ms' | 'frameP99Ms' | 'readbackMs' | 'vjdCpuPct' | 'treeCpuPct') => ({
  of2: r2((side(2, 2)[k] - side(2, 0)[k]) / 2),
  of4: r2((side(4, 4)[k] - side(4, 0)[k]) / 4),
});
const perOutput = {
  frameP50Ms: per('frameP50Ms'),
  frameP99Ms: per('frameP99Ms'),
  readbackMs: per('readbackMs'),
  vjdCpuPct: per('vjdCpuPct'),
  treeCpuPct: per('treeCpuPct'),
};

const la = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' ');
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, no GPU (Mesa llvmpipe); load average ${la(load0)} at the start, ${la(load1)} at the end`;
const share = (x: Side): string => (x.frameP50Ms > 0 ? `${Math.round((x.readbackMs / x.frameP50Ms) * 100)} %` : 'n/a');
const cells = (f: (x: Side) => string | number): string => sides.map((x) => ` ${f(x)} |`).join('');
const costCell = (k: keyof typeof perOutput): string => `${perOutput[k].of2} / ${perOutput[k].of4}`;
const table = [
  `Output mapping cost (machine: ${machine}; plasma at 1280×720, ${FPS} fps; UDP streams ${OUT.width}×${OUT.height}@${FPS} on loopback, each decoded by an ffmpeg receiver, each with a bitrate of its own so no two share an encoder; ${PAIRS} × ${PHASE_S} s per arrangement after at least ${SETTLE_MS / 1000} s and ${SETTLE_FRAMES} frames to settle, the arrangements in turn, one server, one run; each figure the median over its phases (frame time p50 and the readback: medians of 30 frames sampled each second; p99: of the last 240 frames); maps: a corner-pin with a right soft edge, a slice with a left soft edge, a 4×2 mesh, a mirrored pin with the test card).`,
  '',
  `| measure |${sides.map((x) => ` ${x.outputs} outputs, ${x.mapped ? `${x.mapped} mapped` : 'no maps'} |`).join('')} per mapped output (of 2 / of 4) |`,
  `|---|${sides.map(() => '---:|').join('')}---:|`,
  `| render frame time p50 (ms) |${cells((x) => x.frameP50Ms)} ${costCell('frameP50Ms')} |`,
  `| render frame time p99 (ms) |${cells((x) => x.frameP99Ms)} ${costCell('frameP99Ms')} |`,
  `| readback and map passes in the frame, median (ms) |${cells((x) => x.readbackMs)} ${costCell('readbackMs')} |`,
  `| readback share of the frame p50 |${cells(share)} – |`,
  `| render fps |${cells((x) => x.fps)} – |`,
  `| frames decoded per second per receiver, lowest / mean |${cells((x) => `${x.decodedFpsMin} / ${x.decodedFpsMean}`)} – |`,
  `| output slots dropped / repeated per second, all outputs |${cells((x) => `${x.droppedPerS} / ${x.repeatedPerS}`)} – |`,
  `| encoders' dropped frames (GET /status, %) |${cells((x) => x.encodeDropPct)} – |`,
  `| output restarts |${cells((x) => x.restarts)} – |`,
  `| vjd process CPU (% of one core) |${cells((x) => x.vjdCpuPct)} ${costCell('vjdCpuPct')} |`,
  `| vjd with its ffmpeg children and Xvfb (% of one core) |${cells((x) => x.treeCpuPct)} ${costCell('treeCpuPct')} |`,
].join('\n');
const dir = join(ROOT, 'bench', 'results');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'output-map.md'), `${table}\n`);
await writeFile(
  join(dir, 'output-map.json'),
  `${JSON.stringify({ date: new Date().toISOString(), machine, maps: MAPS, arrangements: sides, perOutput, phases }, null, 2)}\n`,
);
process.stdout.write(`${table}\n`);
process.exit(0);
