// The timecode benchmark, on real servers: (1) timecode in → cue action on the output: a cue list of blackout
// switches on timecode, driven by Art-Net timecode on loopback and by MTC quarter frames through the raw MIDI entry,
// each cue's operations applied on a frame whose due time is compared with the instant the sender showed the cue's
// label; (2) the LTC reader's cost in the audio worker thread (% of one core, /proc) beside the same server shape
// without timecode, in one run; (3) a clip locked to Art-Net timecode: the frame it shows (the clip numbers its
// frames) against the sender's label. Writes bench/results/timecode.{md,json}.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeUdpPort } from '../test/helpers/osc.js';
import { ltcSamples, writeWav } from '../test/helpers/ltc-signal.js';
import { makeNumberedClip, shownNumber } from '../test/helpers/numbered-clip.js';
import { req, sleep, startServer, tempDir, waitUntil, type TestServer } from '../test/helpers/server.js';
import { artnetTimecode } from '../test/helpers/tc-sender.js';
import { mtcQuarterFrames } from '../test/helpers/timecode-packets.js';
import { fromFrames, formatTimecode, toFrames, type Timecode } from '../src/shared/smpte.js';
import { cpuTicks } from './audio-cost.js';
import { pct } from './show-lib.js';

const RATE = 25;
const FPS = 30;
/** At most the 16 fired cues GET /cues keeps. */
const CUES = Math.min(16, Number(process.env.VJD_BENCH_TC_CUES ?? 16));
const COST_S = Number(process.env.VJD_BENCH_SECONDS ?? 15);
const SAMPLES = Number(process.env.VJD_BENCH_TC_SAMPLES ?? 100);
const tc = (hours: number, minutes: number, seconds: number, frames: number): Timecode => ({ hours, minutes, seconds, frames });
const api = (s: TestServer, p: string) => `${s.base}/api/v1${p}`;
const get = async (s: TestServer, p: string) => (await req('GET', api(s, p), { timeoutMs: 20_000 })).json();
const post = (s: TestServer, p: string, body: unknown) => req('POST', api(s, p), { body, timeoutMs: 20_000 });
const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

/** Cues every second from `first`: blackout on, off, on… Returns their labels' frame counts. */
async function addCues(s: TestServer, first: number): Promise<number[]> {
  const labels: number[] = [];
  for (let k = 0; k < CUES; k++) {
    const f = first + k * RATE;
    labels.push(f);
    const at = formatTimecode(fromFrames(f, RATE), RATE);
    const r = await post(s, '/cues/add', {
      name: `Cue ${k}`,
      trigger: { kind: 'timecode', at },
      actions: [{ op: '/global/blackout', body: { enabled: k % 2 === 0 } }],
    });
    if (r.status !== 200) throw new Error(r.text);
  }
  return labels;
}

/** Each fired cue's applied frame due time minus the sender's instant of its label (ms). */
async function cueLatency(s: TestServer, labels: number[], wallOf: (frames: number) => number): Promise<number[]> {
  await waitUntil(async () => (await get(s, '/cues')).current?.name === `Cue ${CUES - 1}`, 60_000 + CUES * 1500);
  await sleep(500);
  const { recent } = await get(s, '/cues');
  const sched = (await get(s, '/show/scheduled')).recent as Array<{ at: string; state: string; appliedDueAt: string | null }>;
  const out: number[] = [];
  for (const f of recent as Array<{ name: string; at: string }>) {
    const k = Number(f.name.slice(4));
    const rec = sched.find((r) => r.at === f.at && r.state === 'applied' && r.appliedDueAt);
    if (rec) out.push(Date.parse(rec.appliedDueAt!) - wallOf(labels[k]!));
  }
  return out;
}

async function artnetCues(): Promise<number[]> {
  const dmxPort = await freeUdpPort();
  const s = await startServer({
    config: { render: { width: 160, height: 90, fps: FPS }, dmx: { port: dmxPort }, timecode: { source: 'artnet' } },
  });
  const start = tc(1, 0, 0, 0);
  const sender = await artnetTimecode(dmxPort, start, RATE);
  try {
    const labels = await addCues(s, toFrames(start, RATE) + 3 * RATE);
    return await cueLatency(s, labels, (f) => sender.wallOf(f));
  } finally {
    sender.stop();
    await s.cleanup();
  }
}

async function mtcCues(): Promise<number[]> {
  const s = await startServer({
    config: { render: { width: 160, height: 90, fps: FPS }, midi: { enabled: true }, timecode: { source: 'mtc' } },
  });
  const start = tc(1, 0, 0, 0);
  const frames = (CUES + 5) * RATE;
  const all = mtcQuarterFrames(start, RATE, frames);
  try {
    const labels = await addCues(s, toFrames(start, RATE) + 3 * RATE);
    const t0 = Date.now();
    // One request a frame with its four quarter frames; after them the sender is at the next frame's start.
    const sending = (async () => {
      for (let f = 0; f < frames; f++) {
        const due = t0 + f * 40 - Date.now();
        if (due > 0) await sleep(due);
        await post(s, '/_test/midi', { port: 'bench', messages: all.slice(4 * f, 4 * f + 4) });
      }
    })();
    const lat = await cueLatency(s, labels, (f) => t0 + (f - toFrames(start, RATE) - 1) * 40);
    await sending;
    return lat;
  } finally {
    await s.cleanup();
  }
}

/** The audio worker thread's CPU (% of one core) over COST_S, with or without the LTC reader. */
async function workerCpu(ltc: boolean, wav: string): Promise<number | null> {
  const s = await startServer({
    config: {
      render: { width: 160, height: 90, fps: FPS },
      audio: { inputs: [{ id: 'deck', name: 'Deck', kind: 'stream', url: wav }], input: null },
      timecode: ltc ? { source: 'ltc', ltc: { input: 'deck', channel: 1 } } : { source: 'none' },
    },
  });
  try {
    if (ltc) await waitUntil(async () => (await get(s, '/timecode')).state === 'locked', 30_000);
    await sleep(2000);
    const probe = (await post(s, '/_test/audio-probe', {})).json();
    const path = probe.tid ? `/proc/${probe.pid}/task/${probe.tid}/stat` : null;
    const a = path ? await cpuTicks(path) : null;
    const t0 = Date.now();
    await sleep(COST_S * 1000);
    const b = path ? await cpuTicks(path) : null;
    return a === null || b === null ? null : round(((b - a) / 100 / ((Date.now() - t0) / 1000)) * 100, 2);
  } finally {
    await s.cleanup();
  }
}

/** Frames between the number shown and the sender's labels read just before and after the sample (0 inside). */
async function chaseError(): Promise<{ frames: number[]; signed: number[]; stats: unknown }> {
  const dir = await tempDir();
  await makeNumberedClip(dir, 'Counter', RATE, 120);
  const dmxPort = await freeUdpPort();
  const s = await startServer({
    config: {
      render: { width: 160, height: 90, fps: FPS },
      media: { roots: [dir] },
      dmx: { port: dmxPort },
      timecode: { source: 'artnet' },
    },
  });
  const sender = await artnetTimecode(dmxPort, tc(2, 0, 0, 0), RATE);
  try {
    await post(s, '/inputs/file/select', { name: 'Counter' });
    await post(s, '/transport/chase', { start: '01:59:58:00' });
    await sleep(3000);
    const base = toFrames(tc(1, 59, 58, 0), RATE);
    const errors: number[] = [];
    const signed: number[] = [];
    for (let k = 0; k < SAMPLES; k++) {
      const lo = sender.framesAt(Date.now()) - base;
      const n = await shownNumber(s.base);
      const hi = sender.framesAt(Date.now()) - base;
      if (n !== null) {
        errors.push(n < lo ? lo - n : n > hi ? n - hi : 0);
        signed.push(n - (lo + hi) / 2);
      }
      await sleep(100);
    }
    return { frames: errors, signed, stats: (await get(s, '/timecode')).chase };
  } finally {
    sender.stop();
    await s.cleanup();
  }
}

if (process.env.VJD_BENCH_TC_ONLY === 'chase') {
  const c = await chaseError();
  console.log(JSON.stringify({ p50: pct(c.frames, 0.5), signed: pct(c.signed, 0.5), stats: c.stats }));
  process.exit(0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const load0 = loadavg()[0]!;
  const artnet = await artnetCues();
  const mtc = await mtcCues();
  const dir = await tempDir();
  const wav = join(dir, 'ltc.wav');
  await writeWav(wav, [ltcSamples({ start: tc(10, 0, 0, 0), rate: 25, frames: 25 * 60, sampleRate: 48_000 })], 48_000);
  const ltcOn = await workerCpu(true, wav);
  const ltcOff = await workerCpu(false, wav);
  const chase = await chaseError();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, no GPU (Mesa); load ${round(load0)} → ${round(loadavg()[0]!)}`;
  const row = (name: string, xs: number[]) => `| ${name} | ${xs.length} | ${pct(xs, 0.5)} | ${pct(xs, 0.99)} | ${round(Math.min(...xs))} |`;
  const table = [
    `Timecode (machine: ${machine}; ${RATE} fps timecode, render ${FPS} fps at 160×90; one run).`,
    '',
    'Timecode in → cue action on the output: the due time of the output frame that applied a cue’s blackout switch, minus the instant the sender showed the cue’s label (ms; negative: early).',
    '',
    '| source | cues | p50 | p99 | min |',
    '|---|---:|---:|---:|---:|',
    row('Art-Net timecode (UDP, loopback)', artnet),
    row('MTC quarter frames (raw MIDI entry over HTTP)', mtc),
    '',
    `LTC reader in the audio worker thread (a 25 fps LTC WAV as a stream input, no analysed input), ${COST_S} s each: ${ltcOn ?? 'n/a'} % of one core with the reader, ${ltcOff ?? 'n/a'} % without (the decoder alone: bench/ltc-decode.ts).`,
    '',
    `Clip locked to Art-Net timecode (${SAMPLES} samples of the frame shown, 100 ms apart): frames outside the sender's labels read just before and after each sample, p50 ${pct(chase.frames, 0.5)}, p99 ${pct(chase.frames, 0.99)}, max ${Math.max(...chase.frames)}; shown minus the sender's label, p50 ${pct(chase.signed, 0.5)} frames (negative: the clip is behind); the chaser's own drift estimate and seeks: ${JSON.stringify(chase.stats)}.`,
  ].join('\n');
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'timecode.md'), `${table}\n`);
  await writeFile(
    join(out, 'timecode.json'),
    `${JSON.stringify({ date: new Date().toISOString(), machine, artnet, mtc, ltcOn, ltcOff, chase }, null, 2)}\n`,
  );
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
