// Analysis cost of one audio input, in one run on one server: CPU of the audio worker thread and of its ffmpeg (from
// /proc, as % of one core), then the main thread's event-loop delay and the render frame time with the default click
// input on and with no input, alternating phases so load drift on the box falls on both sides alike.
// Writes bench/results/audio-cost.{md,json}.
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { req, sleep, startServer, waitUntil, type TestServer } from '../test/helpers/server.js';

const PHASE_S = Number(process.env.VJD_BENCH_SECONDS ?? 15);
const PAIRS = Number(process.env.VJD_BENCH_RUNS ?? 2);
/** Kernel clock ticks per second (USER_HZ) in /proc stat times. */
const TICKS = 100;

/** utime + stime of a process or thread, in ticks; null when it is gone. */
export async function cpuTicks(path: string): Promise<number | null> {
  try {
    const stat = await readFile(path, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

interface Phase {
  audio: boolean;
  workerPct: number | null;
  ffmpegPct: number | null;
  loopMeanMs: number;
  loopP99Ms: number;
  frameP50Ms: number;
  frameP99Ms: number;
  hopMs: number;
}

const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

async function phase(s: TestServer, audio: boolean): Promise<Phase> {
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  await req('POST', api('/audio/select'), { body: { id: audio ? 'click' : 'none' } });
  if (audio) await waitUntil(async () => (await req('GET', api('/audio'))).json().state === 'running', 30_000);
  // Settle after the switch, then start the histogram and the CPU counters together.
  await sleep(2000);
  const probe = (await req('POST', api('/_test/audio-probe'), { body: {} })).json();
  const worker = audio && probe.tid ? `/proc/${probe.pid}/task/${probe.tid}/stat` : null;
  const ffmpeg = audio && probe.ffmpegPid ? `/proc/${probe.ffmpegPid}/stat` : null;
  const w0 = worker ? await cpuTicks(worker) : null;
  const f0 = ffmpeg ? await cpuTicks(ffmpeg) : null;
  const t0 = Date.now();
  const frames: Array<[number, number]> = [];
  while (Date.now() - t0 < PHASE_S * 1000) {
    await sleep(1000);
    const r = (await req('GET', api('/status'))).json().render;
    frames.push([r.frameMsP50, r.frameMsP99]);
  }
  const seconds = (Date.now() - t0) / 1000;
  const w1 = worker ? await cpuTicks(worker) : null;
  const f1 = ffmpeg ? await cpuTicks(ffmpeg) : null;
  const end = (await req('POST', api('/_test/audio-probe'), { body: {} })).json();
  const pct = (a: number | null, b: number | null): number | null =>
    a === null || b === null ? null : round(((b - a) / TICKS / seconds) * 100);
  return {
    audio,
    workerPct: pct(w0, w1),
    ffmpegPct: pct(f0, f1),
    loopMeanMs: end.loopDelayMs.mean,
    loopP99Ms: end.loopDelayMs.p99,
    frameP50Ms: mean(frames.map((f) => f[0])),
    frameP99Ms: mean(frames.map((f) => f[1])),
    hopMs: (await req('GET', api('/audio/levels'))).json().hopMs,
  };
}

export async function audioCostBench(): Promise<{ on: Phase; off: Phase; phases: Phase[] }> {
  const s = await startServer({
    config: {
      render: { width: 1280, height: 720, fps: 30 },
      sources: { firstRun: 'preset:deep_plasma' },
      audio: { input: null },
    },
  });
  try {
    const phases: Phase[] = [];
    for (let i = 0; i < PAIRS; i++) phases.push(await phase(s, true), await phase(s, false));
    const avg = (audio: boolean): Phase => {
      const ps = phases.filter((p) => p.audio === audio);
      const m = (k: keyof Phase): number | null => {
        const xs = ps.map((p) => p[k]).filter((v): v is number => typeof v === 'number');
        return xs.length ? round(mean(xs)) : null;
      };
      return {
        audio,
        workerPct: m('workerPct'),
        ffmpegPct: m('ffmpegPct'),
        loopMeanMs: m('loopMeanMs')!,
        loopP99Ms: m('loopP99Ms')!,
        frameP50Ms: m('frameP50Ms')!,
        frameP99Ms: m('frameP99Ms')!,
        hopMs: m('hopMs')!,
      };
    };
    return { on: avg(true), off: avg(false), phases };
  } finally {
    await s.cleanup();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await audioCostBench();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, no GPU (Mesa)`;
  // Ratios as "off over on": 1 means audio costs the picture and the main thread nothing.
  const ratio = (off: number, on: number): string => (on > 0 ? `${round(off / on)}` : 'n/a');
  const table = [
    `Audio analysis cost (machine: ${machine}; the default 120 BPM click input, 48 kHz, 512-sample hops; plasma at 1280×720, 30 fps; ${PAIRS} × ${PHASE_S} s with audio on and off, alternating, one server, one run).`,
    '',
    '| measure | audio on | audio off | off / on |',
    '|---|---:|---:|---:|',
    `| audio worker thread CPU (% of one core) | ${r.on.workerPct ?? 'n/a'} | – | – |`,
    `| its ffmpeg child CPU (% of one core) | ${r.on.ffmpegPct ?? 'n/a'} | – | – |`,
    `| analysis time per hop (ms) | ${r.on.hopMs} | – | – |`,
    `| main-thread event-loop delay, mean (ms) | ${r.on.loopMeanMs} | ${r.off.loopMeanMs} | ${ratio(r.off.loopMeanMs, r.on.loopMeanMs)} |`,
    `| main-thread event-loop delay, p99 (ms) | ${r.on.loopP99Ms} | ${r.off.loopP99Ms} | ${ratio(r.off.loopP99Ms, r.on.loopP99Ms)} |`,
    `| render frame time p50 (ms) | ${r.on.frameP50Ms} | ${r.off.frameP50Ms} | ${ratio(r.off.frameP50Ms, r.on.frameP50Ms)} |`,
    `| render frame time p99 (ms) | ${r.on.frameP99Ms} | ${r.off.frameP99Ms} | ${ratio(r.off.frameP99Ms, r.on.frameP99Ms)} |`,
  ].join('\n');
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'audio-cost.md'), `${table}\n`);
  await writeFile(join(dir, 'audio-cost.json'), `${JSON.stringify({ date: new Date().toISOString(), ...r }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
