// The show benchmark: a live input through four effects, a UDP stream and a recording, two MJPEG previews at the
// control page's settings, an events socket, 50 Companion-like pollers and a dimmer fader at 20 Hz; in the second
// half also a take every 5 s and a parameter sweep at 30 Hz. One row per setting, all in one run.
import { createSocket } from 'node:dgram';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectWs, wsUrl } from '../test/helpers/ws.js';
import { req, sleep, startServer, waitUntil } from '../test/helpers/server.js';
import { freeUdpPort, probe } from '../test/outputs/media.js';
import { ptsDrift, videoPts, type PtsArrival } from '../test/outputs/true-time-media.js';
import { FrameReceiver, MjpegReader } from './outputs-lib.js';
import { blackoutProbe, cpuMeter, pct, pollers, rssMiB, steady } from './show-lib.js';

const SHOW_S = Number(process.env.VJD_BENCH_SHOW_SECONDS ?? 60);
const POLLERS = 50;

export interface ShowSetting {
  label: string;
  width: number;
  height: number;
  scale: number | 'auto';
  /** config recordings.shareEncoder: the recording copies the stream's encode (default) or runs its own. */
  share?: boolean;
  /** Length of the show (default VJD_BENCH_SHOW_SECONDS or 60). */
  seconds?: number;
  /** The build: this checkout's (default) or a baseline's cli.js. */
  build?: { name: string; cli: string };
}

export interface ShowRow extends ShowSetting {
  fpsP50: number;
  fpsMin: number;
  scaleP50: number;
  droppedSlots: number;
  /** Frames the stream's receiver decoded per second of the show, and how many of them differed from the last. */
  decodedFps: number;
  distinctFps: number;
  /** Video packets in the recording per wall second it ran. */
  recPacketsPerS: number;
  streamSent: number;
  streamDropped: number;
  recordingRatio: number;
  streamDriftPct: number;
  thumbP99: number;
  missedPct: number;
  paramP50: number;
  paramP99: number;
  takeP50: number;
  blackoutP50: number | null;
  cpu: Record<string, number>;
  rss: [number, number];
  /** vjd's RSS (MiB) once a second, from the start of the show. */
  rssSamples: number[];
  load: number;
}

export async function runShow(set: ShowSetting): Promise<ShowRow> {
  const { width, height } = set;
  const seconds = set.seconds ?? SHOW_S;
  const s = await startServer({
    ...(set.build ? { cli: set.build.cli } : {}),
    env: { VJD_LOG_LEVEL: 'warn' },
    config: {
      render: { width, height, fps: 30, scale: set.scale },
      live: {
        test: [{ id: 'cam', name: 'cam', pattern: `testsrc2=size=${width}x${height}:rate=30` }],
        streams: [],
        v4l2: { enabled: false },
      },
      outputs: [{ id: 'rec', kind: 'record', enabled: false }],
      recordings: { shareEncoder: set.share ?? true },
    },
  });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
  const status = async () => (await req('GET', api('/status'))).json();
  const streamCounts = async (): Promise<{ sent: number; dropped: number }> => {
    const o = (await req('GET', api('/outputs'))).json().items.find((i: any) => i.kind === 'stream');
    return { sent: o?.framesSent ?? 0, dropped: o?.framesDropped ?? 0 };
  };
  // The stream lands on a relay that reads each frame's timestamp and passes the datagram on to a decoder.
  const [inPort, decPort] = [await freeUdpPort(), await freeUdpPort()];
  const pts: PtsArrival[] = [];
  const relay = createSocket('udp4');
  relay.on('message', (m) => {
    const at = performance.now();
    for (const p of videoPts(m)) pts.push({ at, pts: p / 90 });
    relay.send(m, decPort, '127.0.0.1');
  });
  await new Promise<void>((r) => relay.bind(inPort, '127.0.0.1', r));
  const decoder = new FrameReceiver(`udp://127.0.0.1:${decPort}?overrun_nonfatal=1&fifo_size=50000`);
  const closers: Array<() => void> = [() => decoder.close(), () => relay.close()];
  try {
    const generator = (await req('GET', api('/sources'))).json().items.find((i: any) => i.sourceKind === 'generator').id;
    await post('/sources/select', { id: 'cam' });
    for (const type of ['hue_shift', 'vignette', 'kaleidoscope', 'scanlines']) await post('/effects/add', { type });
    await post('/outputs/add', { kind: 'stream', name: 'lan', url: `udp://127.0.0.1:${inPort}?pkt_size=1316` });
    for (let i = 0; i < 2; i++) {
      const m = new MjpegReader(api('/output/preview.mjpeg?size=480&fps=15'), false);
      closers.push(() => m.close());
    }
    const ws = await connectWs(wsUrl(s.base));
    closers.push(() => ws.close());
    await post('/outputs/enabled', { id: 'rec', enabled: true });
    let startedAt = NaN;
    await waitUntil(
      async () =>
        Number.isFinite(
          (startedAt = Date.parse((await req('GET', api('/outputs'))).json().items.find((o: any) => o.id === 'rec')?.startedAt ?? '')),
        ),
      30000,
    );
    await sleep(3000);

    const t0 = performance.now();
    const end = t0 + seconds * 1000;
    const done = (): boolean => performance.now() >= end;
    const half = (): boolean => performance.now() >= t0 + (seconds * 1000) / 2;
    const cpu = await cpuMeter(s.proc.pid!);
    const rss0 = await rssMiB(s.proc.pid!);
    const first = (await status()).render;
    const stream0 = await streamCounts();
    const fps: number[] = [];
    const scales: number[] = [];
    const rssSamples: number[] = [];
    const sampler = setInterval(() => {
      void status().then(
        (st) => {
          fps.push(st.render.fps);
          scales.push(st.render.scale);
        },
        () => undefined,
      );
      void rssMiB(s.proc.pid!).then((m) => rssSamples.push(m));
    }, 1000);
    const polls = pollers(api, POLLERS, 100, done);
    const fader = steady(api('/global/dimmer'), 50, (k) => ({ value: 0.75 + 0.25 * Math.sin(k / 10) }), done);
    const second = (async () => {
      while (!half()) await sleep(100);
      const sweep = steady(api('/effects/params'), 33, (k) => ({ index: 1, values: { shift: (k % 100) / 100 } }), done);
      const takes = (async () => {
        const ms: number[] = [];
        for (let k = 0; !done(); k++) {
          await post('/mix/cue', { id: k % 2 ? 'cam' : generator });
          const t = performance.now();
          await post('/mix/take', {});
          ms.push(performance.now() - t);
          await sleep(5000);
        }
        return ms;
      })();
      return { sweep: await sweep, takes: await takes };
    })();
    const blackouts: number[] = [];
    for (const at of [0.15, 0.35, 0.65, 0.85]) {
      await sleep(Math.max(0, t0 + seconds * 1000 * at - performance.now()));
      const ms = await blackoutProbe(api, decoder.frames);
      if (ms !== null) blackouts.push(ms);
    }
    const [pollStats, , late] = await Promise.all([polls, fader, second]);
    clearInterval(sampler);
    const usage = await cpu.stop();
    const rss1 = await rssMiB(s.proc.pid!);
    const last = (await status()).render;
    const stream1 = await streamCounts();
    const shown = decoder.frames.filter((f) => f.at >= t0 && f.at < end);
    const distinct = shown.filter((f, i) => i === 0 || f.sig !== shown[i - 1]!.sig).length;
    const sentAt = Date.now();
    await post('/outputs/enabled', { id: 'rec', enabled: false });
    const wall = (sentAt + Date.now()) / 2 - startedAt;
    await waitUntil(
      async () => (await req('GET', api('/outputs'))).json().items.find((o: any) => o.id === 'rec')?.state === 'stopped',
      30000,
    );
    const rec = (await req('GET', api('/outputs'))).json().items.find((o: any) => o.id === 'rec');
    const { duration, frames: recFrames } = await probe(join(s.dataDir, 'recordings', rec.target));
    const loadAvg = Math.round(loadavg()[0]! * 10) / 10;
    return {
      ...set,
      fpsP50: pct(fps.slice(2), 0.5),
      fpsMin: Math.min(...fps.slice(2)),
      scaleP50: pct(scales, 0.5),
      droppedSlots: last.droppedFrames - first.droppedFrames,
      decodedFps: Math.round((shown.length / seconds) * 10) / 10,
      distinctFps: Math.round((distinct / seconds) * 10) / 10,
      recPacketsPerS: Math.round((recFrames / (wall / 1000)) * 10) / 10,
      streamSent: stream1.sent - stream0.sent,
      streamDropped: stream1.dropped - stream0.dropped,
      recordingRatio: Math.round((duration * 1e6) / wall) / 1000,
      streamDriftPct: Math.round(ptsDrift(pts).drift * 1000) / 10,
      thumbP99: pct(pollStats.thumbMs, 0.99),
      missedPct: Math.round((pollStats.missed / Math.max(1, pollStats.ticks)) * 1000) / 10,
      paramP50: pct(late.sweep, 0.5),
      paramP99: pct(late.sweep, 0.99),
      takeP50: pct(late.takes, 0.5),
      blackoutP50: blackouts.length ? pct(blackouts, 0.5) : null,
      cpu: usage,
      rss: [rss0, rss1],
      rssSamples,
      load: loadAvg,
    };
  } finally {
    for (const c of closers) c();
    await s.cleanup();
  }
}

export const SETTINGS: ShowSetting[] = [
  { label: '1280×720, scale 1, shared encoder', width: 1280, height: 720, scale: 1 },
  { label: '1280×720, scale "auto", shared encoder', width: 1280, height: 720, scale: 'auto' },
  { label: '1280×720, scale "auto", separate encoders', width: 1280, height: 720, scale: 'auto', share: false },
  { label: '640×360, scale 1, shared encoder', width: 640, height: 360, scale: 1 },
];

export function showTable(rows: ShowRow[]): string {
  const c = (r: ShowRow): string => `${r.cpu.vjd} / ${r.cpu.encoders} / ${r.cpu.remux} / ${r.cpu.inputs}`;
  return [
    `${SHOW_S} s of show per row; CPU in % of one core (vjd process / encoders / stream remuxers / input), load = the 1-minute load average at the end:`,
    '',
    '| setting | build | fps p50 / min | scale p50 | dropped slots | receiver decodes / s (distinct) | recording frames / wall s | stream sent / dropped | recording ÷ wall | stream drift | thumb poll p99 (missed) | param POST p50 / p99 | take p50 | blackout → decoded p50 | CPU | RSS start → end | load |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.build?.name ?? 'this'} | ${r.fpsP50} / ${r.fpsMin} | ${r.scaleP50} | ${r.droppedSlots} | ${r.decodedFps} (${r.distinctFps}) | ${r.recPacketsPerS} | ${r.streamSent} / ${r.streamDropped} | ${r.recordingRatio.toFixed(3)} | ${r.streamDriftPct.toFixed(1)} % | ${r.thumbP99} ms (${r.missedPct} %) | ${r.paramP50} / ${r.paramP99} ms | ${r.takeP50} ms | ${r.blackoutP50 ?? '—'} ms | ${c(r)} | ${r.rss[0]} → ${r.rss[1]} MiB | ${r.load} |`,
    ),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.env.VJD_BENCH_SHOW_ROWS?.split(',').map(Number);
  const rows: ShowRow[] = [];
  // VJD_BENCH_BASELINE: a checkout of the previous build (built); each row then runs on it first, then on this one.
  const base = process.env.VJD_BENCH_BASELINE;
  // VJD_BENCH_THIS: a copy of this build to run instead of the checkout's dist (so a rebuild meanwhile changes nothing).
  const here = process.env.VJD_BENCH_THIS;
  const self = here ? { name: 'this', cli: join(here, 'dist', 'src', 'cli.js') } : undefined;
  const builds = base
    ? [{ name: process.env.VJD_BENCH_BASELINE_NAME ?? 'baseline', cli: join(base, 'dist', 'src', 'cli.js') }, self]
    : [self];
  for (const [i, set] of SETTINGS.entries()) {
    if (only && !only.includes(i)) continue;
    for (const build of builds) {
      process.stdout.write(`show: ${set.label} (${build?.name ?? 'this build'})\n`);
      rows.push(await runShow(build ? { ...set, build } : set));
    }
  }
  const table = showTable(rows);
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'show.md'), `${table}\n`);
  await writeFile(join(out, 'show.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
}
