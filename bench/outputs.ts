// Outputs benchmark (issue 15): the CPU one UDP stream adds to vjd against plain ffmpeg encoding the same picture
// size with the same x264 settings; blackout-to-black latency through a UDP stream and through the MJPEG preview;
// and 60 s with a stream, a recording and two preview clients at once. Writes bench/results/outputs.{md,json}.
// Heavy: run it on a quiet machine (VJD_BENCH_RUNS, VJD_BENCH_SOAK_S and VJD_BENCH_CPU_MS shorten it).
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, req, sleep, type TestServer } from '../test/helpers/server.js';
import { buildOutputArgs } from '../workers/output/ffmpeg-args.js';
import { FrameReceiver, MjpegReader, median, percentiles, treeCpu, udpSink, type Arrival } from './outputs-lib.js';

const RUNS = Number(process.env.VJD_BENCH_RUNS ?? 20);
const SOAK_S = Number(process.env.VJD_BENCH_SOAK_S ?? 60);
const CPU_MS = Number(process.env.VJD_BENCH_CPU_MS ?? 8000);
const CPU_REPEATS = 3;
const SIZES: Array<[number, number]> = [
  [640, 360],
  [1280, 720],
];

/** vjd rendering a live testsrc2 input of its own size: the picture the reference ffmpeg encodes. */
async function server(width: number, height: number): Promise<TestServer> {
  const s = await startServer({
    config: {
      render: { width, height, fps: 30 },
      live: {
        test: [{ id: 'cam', name: 'testsrc2', pattern: `testsrc2=size=${width}x${height}:rate=30` }],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
  const r = await req('POST', `${s.base}/api/v1/sources/select`, { body: { id: 'cam' }, timeoutMs: 20000 });
  if (r.status !== 200) throw new Error(`select: ${r.status} ${r.text}`);
  return s;
}

async function until(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(50);
  }
}

const outputs = async (s: TestServer): Promise<Array<Record<string, any>>> => (await req('GET', `${s.base}/api/v1/outputs`)).json().items;

function kbpsFor(width: number, height: number): number {
  return Math.max(500, Math.round((4000 * width * height * 30) / (1280 * 720 * 30)));
}

export interface CpuRow {
  size: string;
  vjdBase: number;
  vjdWithStream: number;
  added: number;
  plainFfmpeg: number;
  ratio: number;
  /** The same with the lavfi source in RGBA, so ffmpeg converts colours as it does for vjd's frames. */
  plainRgba: number;
  ratioRgba: number;
}

async function cpuRow(width: number, height: number): Promise<CpuRow> {
  const sink = await udpSink();
  const bitrateKbps = kbpsFor(width, height);
  const s = await server(width, height);
  const base: number[] = [];
  const withStream: number[] = [];
  try {
    const api = (p: string): string => `${s.base}/api/v1${p}`;
    await sleep(2000);
    for (let i = 0; i < CPU_REPEATS; i++) {
      base.push(await treeCpu(s.proc.pid!, CPU_MS));
      const added = await req('POST', api('/outputs/add'), {
        body: { kind: 'stream', url: `udp://127.0.0.1:${sink.port}`, width, height, fps: 30, bitrateKbps },
      });
      if (added.status !== 200) throw new Error(`add: ${added.text}`);
      const id = added.json().current.id as string;
      await until('stream running', async () => (await outputs(s)).find((o) => o.id === id)?.state === 'running');
      await sleep(2000);
      withStream.push(await treeCpu(s.proc.pid!, CPU_MS));
      await req('POST', api('/outputs/remove'), { body: { id } });
      await sleep(3000);
    }
  } finally {
    await s.cleanup();
  }
  // The references: ffmpeg with vjd's own output arguments, its stdin input swapped for a paced lavfi testsrc2,
  // once as lavfi makes it (it negotiates yuv420p, so no colour conversion) and once as RGBA like vjd's frames.
  const spec = {
    kind: 'stream' as const,
    width,
    height,
    fps: 30,
    bitrateKbps,
    encoder: 'libx264' as const,
    url: `udp://127.0.0.1:${sink.port}`,
    secrets: [],
  };
  const reference = async (source: string): Promise<number> => {
    const args = buildOutputArgs('ref', spec, 'rgba').args;
    const i = args.indexOf('-f');
    args.splice(i, args.indexOf('pipe:0') - i + 1, '-re', '-f', 'lavfi', '-i', source);
    const ref = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'ignore'] });
    const plain: number[] = [];
    try {
      await sleep(3000);
      for (let k = 0; k < CPU_REPEATS; k++) plain.push(await treeCpu(ref.pid!, CPU_MS));
    } finally {
      ref.kill('SIGKILL');
    }
    return median(plain);
  };
  let plainFfmpeg: number;
  let plainRgba: number;
  try {
    plainFfmpeg = await reference(`testsrc2=size=${width}x${height}:rate=30`);
    plainRgba = await reference(`testsrc2=size=${width}x${height}:rate=30,format=rgba`);
  } finally {
    sink.socket.close();
  }
  const vjdBase = median(base);
  const vjdWithStream = median(withStream);
  const added = Math.round(median(withStream.map((w, k) => w - base[k]!)) * 10) / 10;
  const ratio = (x: number): number => Math.round((added / x) * 100) / 100;
  return {
    size: `${width}×${height}@30 (${bitrateKbps} kb/s)`,
    vjdBase,
    vjdWithStream,
    added,
    plainFfmpeg,
    ratio: ratio(plainFfmpeg),
    plainRgba,
    ratioRgba: ratio(plainRgba),
  };
}

/** Blackout on → the first black frame that arrives after the request was sent; then off, back to picture. */
async function blackoutLatency(s: TestServer, arrivals: Arrival[]): Promise<number[]> {
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const samples: number[] = [];
  const firstAfter = async (t: number, black: boolean): Promise<number> => {
    let hit: Arrival | undefined;
    await until('frame', () => (hit = arrivals.find((a) => a.at > t && a.level < 10 === black)) !== undefined, 20000);
    return hit!.at;
  };
  await firstAfter(performance.now(), false);
  for (let i = 0; i < RUNS; i++) {
    // A random phase against the render and output clocks.
    await sleep(200 + Math.random() * 300);
    const t0 = performance.now();
    const on = req('POST', api('/global/blackout'), { body: { enabled: true } });
    samples.push((await firstAfter(t0, true)) - t0);
    await on;
    const t1 = performance.now();
    await req('POST', api('/global/blackout'), { body: { enabled: false } });
    await firstAfter(t1, false);
    arrivals.splice(0, arrivals.length - 1);
  }
  return samples;
}

async function latencyRows(): Promise<Array<{ path: string; runs: number; p50: number; p99: number }>> {
  const s = await server(640, 360);
  try {
    const api = (p: string): string => `${s.base}/api/v1${p}`;
    const rx = await udpSink();
    const port = rx.port;
    rx.socket.close();
    const added = await req('POST', api('/outputs/add'), {
      body: { kind: 'stream', url: `udp://127.0.0.1:${port}?pkt_size=1316`, width: 640, height: 360, fps: 30 },
    });
    if (added.status !== 200) throw new Error(`add: ${added.text}`);
    const udp = new FrameReceiver(`udp://127.0.0.1:${port}?fifo_size=1000000&overrun_nonfatal=1`);
    let udpSamples: number[];
    try {
      udpSamples = await blackoutLatency(s, udp.frames);
    } finally {
      udp.close();
      await req('POST', api('/outputs/remove'), { body: { id: added.json().current.id } });
    }
    await sleep(2000);
    const mjpeg = new MjpegReader(api('/output/preview.mjpeg?size=640&fps=30'));
    let mjpegSamples: number[];
    try {
      mjpegSamples = await blackoutLatency(s, mjpeg.parts);
    } finally {
      mjpeg.close();
    }
    return [
      { path: 'UDP stream 640×360@30 → ffmpeg receiver (low_delay) on loopback', runs: RUNS, ...percentiles(udpSamples) },
      { path: 'MJPEG preview size=640 fps=30 → HTTP client, JPEG decoded', runs: RUNS, ...percentiles(mjpegSamples) },
    ];
  } finally {
    await s.cleanup();
  }
}

export interface SoakResult {
  seconds: number;
  renderFps: number;
  renderDroppedFrames: number;
  outputs: Array<{ id: string; kind: string; framesSent: number; framesDropped: number; framesRepeated: number; restarts: number }>;
  preview: { clients: number; partsPerSecond: number[]; framesSkipped: number; encodes: number };
  http: { requests: number; p50: number; p99: number; max: number };
}

async function soak(): Promise<SoakResult> {
  const sink = await udpSink();
  const s = await server(640, 360);
  try {
    const api = (p: string): string => `${s.base}/api/v1${p}`;
    for (const body of [
      { kind: 'stream', name: 'udp', url: `udp://127.0.0.1:${sink.port}`, width: 640, height: 360, fps: 30 },
      { kind: 'record', name: 'rec', width: 640, height: 360, fps: 30 },
    ]) {
      const r = await req('POST', api('/outputs/add'), { body });
      if (r.status !== 200) throw new Error(`add: ${r.text}`);
    }
    const clients = [new MjpegReader(api('/output/preview.mjpeg'), false), new MjpegReader(api('/output/preview.mjpeg'), false)];
    try {
      await until('outputs running', async () => (await outputs(s)).every((o) => o.state === 'running'));
      await sleep(3000);
      const status = async () => (await req('GET', api('/status'))).json();
      const s0 = await status();
      const o0 = await outputs(s);
      const parts0 = clients.map((c) => c.received);
      const t0 = performance.now();
      const latencies: number[] = [];
      while (performance.now() - t0 < SOAK_S * 1000) {
        const a = performance.now();
        const r = await req('GET', api('/status'));
        latencies.push(performance.now() - a);
        if (r.status !== 200) throw new Error(`status ${r.status}`);
        await sleep(100);
      }
      const seconds = (performance.now() - t0) / 1000;
      const s1 = await status();
      const o1 = await outputs(s);
      const parts = clients.map((c, k) => Math.round(((c.received - parts0[k]!) / seconds) * 10) / 10);
      const lat = [...latencies].sort((x, y) => x - y);
      return {
        seconds: Math.round(seconds),
        renderFps: Math.round(((s1.render.frames - s0.render.frames) / seconds) * 10) / 10,
        renderDroppedFrames: s1.render.droppedFrames - s0.render.droppedFrames,
        outputs: o1.map((o) => {
          const b = o0.find((x) => x.id === o.id)!;
          return {
            id: o.id,
            kind: o.kind,
            framesSent: o.framesSent - b.framesSent,
            framesDropped: o.framesDropped - b.framesDropped,
            framesRepeated: o.framesRepeated - b.framesRepeated,
            restarts: o.restarts - b.restarts,
          };
        }),
        preview: {
          clients: clients.length,
          partsPerSecond: parts,
          framesSkipped: s1.outputs.preview.framesSkipped - s0.outputs.preview.framesSkipped,
          encodes: s1.outputs.preview.encodes - s0.outputs.preview.encodes,
        },
        http: { requests: lat.length, ...percentiles(lat), max: Math.round(lat[lat.length - 1]!) },
      };
    } finally {
      for (const c of clients) c.close();
    }
  } finally {
    await s.cleanup();
    sink.socket.close();
  }
}

export async function outputsBench(): Promise<{ cpu: CpuRow[]; latency: Awaited<ReturnType<typeof latencyRows>>; soak: SoakResult }> {
  const cpu: CpuRow[] = [];
  for (const [w, h] of SIZES) cpu.push(await cpuRow(w, h));
  const latency = await latencyRows();
  return { cpu, latency, soak: await soak() };
}

export function outputsTable(r: Awaited<ReturnType<typeof outputsBench>>): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  const k = r.soak;
  return [
    `Machine: ${machine}; no GPU (Mesa llvmpipe); vjd renders a live testsrc2 input at the stream's size @ 30 fps. CPU in % of one core from /proc/<pid>/stat (vjd plus every descendant: ffmpeg children, Xvfb), medians of ${CPU_REPEATS} paired ${CPU_MS / 1000} s intervals; "added" = with the stream minus without it, measured back to back.`,
    '',
    '| UDP stream | vjd without | vjd with | added | plain ffmpeg (lavfi testsrc2, same x264 args) | added ÷ plain | plain ffmpeg, RGBA source | added ÷ RGBA plain |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...r.cpu.map(
      (x) =>
        `| ${x.size} | ${x.vjdBase} | ${x.vjdWithStream} | ${x.added} | ${x.plainFfmpeg} | ${x.ratio}× | ${x.plainRgba} | ${x.ratioRgba}× |`,
    ),
    '',
    'Blackout latency: `POST /global/blackout` sent → first black frame decoded by the client on loopback (render 640×360 @ 30).',
    '',
    '| path | runs | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    ...r.latency.map((x) => `| ${x.path} | ${x.runs} | ${x.p50} | ${x.p99} |`),
    '',
    `${k.seconds} s at 640×360 @ 30 with a UDP stream, a recording and ${k.preview.clients} MJPEG preview clients (size 640, fps 15): render ${k.renderFps} fps (${k.renderDroppedFrames} render frame slots skipped); GET /status every 100 ms: p50 ${k.http.p50} ms, p99 ${k.http.p99} ms, max ${k.http.max} ms over ${k.http.requests} requests.`,
    '',
    '| output | frames sent | dropped | repeated | restarts |',
    '|---|---:|---:|---:|---:|',
    ...k.outputs.map((o) => `| ${o.kind} ${o.id} | ${o.framesSent} | ${o.framesDropped} | ${o.framesRepeated} | ${o.restarts} |`),
    `| preview (2 clients) | ${k.preview.partsPerSecond.join(' / ')} parts/s | ${k.preview.framesSkipped} skipped | | |`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await outputsBench();
  const table = outputsTable(result);
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'outputs.md'), `${table}\n`);
  await writeFile(join(out, 'outputs.json'), `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
