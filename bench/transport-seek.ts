// Transport: seek to the first frame at the new position on a 720p H.264 clip with 1 s keyframes (p50 / p99 over
// random targets) against a cold select of the same file, play and pause to the output reacting, and the position
// reported against the frame shown. Each frame of the clip carries its number in ten black or white cells, read back
// from the output through the test sample route.
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { req, sampleOutput, sleep, startServer, tempDir, waitUntil } from '../test/helpers/server.js';

const exec = promisify(execFile);
const FPS = 30;
const SECONDS = 30;
const SEEKS = 30;
const COLD = 10;
const TOGGLES = 12;
const BITS = 10;
/** Cells of the coded row; the rest of the picture is mid grey. */
const CELLS_X = 16;
const CELLS_Y = 9;
const ROW = 4;
const POINTS: Array<[number, number]> = [
  ...Array.from({ length: BITS }, (_, x): [number, number] => [(x + 0.5) / CELLS_X, (ROW + 0.5) / CELLS_Y]),
  [(12 + 0.5) / CELLS_X, (ROW + 0.5) / CELLS_Y],
  [0.5 / CELLS_X, 0.5 / CELLS_Y],
];

interface Result {
  seekMs: { p50: number; p99: number; answerP50: number; n: number };
  coldMs: { p50: number; p99: number; n: number };
  playMs: { p50: number; n: number };
  pauseMs: { p50: number; n: number };
  /** Reported position minus the shown frame's start, in frames. */
  accuracyFrames: { mean: number; maxAbs: number; n: number };
  sampleMs: number;
  render: string;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const round = (x: number): number => Math.round(x * 10) / 10;

async function makeClip(file: string): Promise<void> {
  // A 16×9 picture coded per frame, scaled up without smoothing: each cell is 80 px of flat black, white or grey.
  const lum = `if(eq(Y,${ROW})*lt(X,${BITS}),255*mod(floor(N/pow(2,X)),2),128)`;
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=black:s=${CELLS_X}x${CELLS_Y}:r=${FPS}:d=${SECONDS},format=gray,geq=lum='${lum}',scale=1280:720:flags=neighbor,format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '18',
    '-g',
    String(FPS),
    '-keyint_min',
    String(FPS),
    '-sc_threshold',
    '0',
    file,
  ]);
}

export async function transportSeekBench(): Promise<Result> {
  const work = await tempDir('vjd-bench-transport-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeClip(join(media, 'Counter.mp4'));
  const render = { width: 640, height: 360, fps: 30 };
  const s = await startServer({ config: { render, media: { roots: [media] }, live: { test: [], streams: [], v4l2: { enabled: false } } } });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const post = async (p: string, body: unknown = {}): Promise<any> => {
    const r = await req('POST', api(p), { body, timeoutMs: 20000 });
    if (r.status !== 200) throw new Error(`${p}: ${r.status} ${r.text}`);
    return r.json();
  };
  const clip = async (): Promise<any> => (await req('GET', api('/transport'))).json().program;
  let samples = 0;
  let sampleTime = 0;
  /** The frame number the output shows; null when it shows something other than the clip. */
  const shown = async (): Promise<number | null> => {
    const t = performance.now();
    const px = await sampleOutput(s.base, POINTS);
    sampleTime += performance.now() - t;
    samples++;
    const grey = px.slice(BITS).every(([r]) => Math.abs(r! - 128) < 40);
    if (!grey || px.slice(0, BITS).some(([r]) => r! > 70 && r! < 185)) return null;
    return px.slice(0, BITS).reduce((n, [r], i) => n + (r! > 128 ? 1 << i : 0), 0);
  };
  /** Milliseconds from `t0` until the output shows a frame `ok` accepts. */
  const until = async (t0: number, ok: (f: number | null) => boolean): Promise<number> => {
    const deadline = t0 + 15_000;
    while (performance.now() < deadline) if (ok(await shown())) return performance.now() - t0;
    throw new Error('the output did not show the expected frame');
  };
  try {
    await waitUntil(async () => (await req('GET', api('/sources'))).json().items.some((i: any) => i.sourceKind === 'file'), 30000);
    // Cold: from a generator to the clip's first frame on the output, the reader started anew each time.
    const cold: number[] = [];
    for (let i = 0; i < COLD; i++) {
      await post('/sources/select', { id: 'source:plasma' });
      await until(performance.now(), (f) => f === null);
      const t0 = performance.now();
      await post('/inputs/file/select', { name: 'Counter' });
      cold.push(await until(t0, (f) => f !== null));
    }
    await waitUntil(async () => (await clip())?.state === 'playing', 15000);
    // Seeks while playing, each at least 2 s from where the clip is; the frame in the middle of the target.
    const seek: number[] = [];
    const answers: number[] = [];
    const lastFrame = SECONDS * FPS - FPS;
    for (let i = 0; i < SEEKS; i++) {
      const now = (await shown()) ?? 0;
      let target = 0;
      do target = FPS + Math.floor(Math.random() * (lastFrame - FPS));
      while (Math.abs(target - now) < 2 * FPS);
      const t0 = performance.now();
      const answered = post('/transport/seek', { positionS: (target + 0.5) / FPS }).then(() => answers.push(performance.now() - t0));
      seek.push(await until(t0, (f) => f !== null && f >= target - 1 && f <= target + FPS));
      await answered;
    }
    // Play and pause: play reacts when a new frame shows; pause when the last new frame showed (then held 0.5 s).
    const play: number[] = [];
    const pause: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < TOGGLES; i++) {
      await sleep(300);
      const t0 = performance.now();
      await post('/transport/pause');
      let last = await shown();
      let lastAt = performance.now();
      while (performance.now() - lastAt < 500) {
        const f = await shown();
        if (f !== last) {
          last = f;
          lastAt = performance.now();
        }
      }
      pause.push(Math.max(0, lastAt - t0));
      // Paused: the reported position against the start of the held frame, in frames (0 up to 1: within that frame).
      const reported = (await clip()).positionS;
      if (last !== null) off.push(reported * FPS - last);
      const t1 = performance.now();
      await post('/transport/play');
      play.push(await until(t1, (f) => f !== null && f !== last));
    }
    return {
      seekMs: { p50: round(pct(seek, 50)), p99: round(pct(seek, 99)), answerP50: round(pct(answers, 50)), n: seek.length },
      coldMs: { p50: round(pct(cold, 50)), p99: round(pct(cold, 99)), n: cold.length },
      playMs: { p50: round(pct(play, 50)), n: play.length },
      pauseMs: { p50: round(pct(pause, 50)), n: pause.length },
      accuracyFrames: {
        maxAbs: Math.round(Math.max(...off.map(Math.abs)) * 100) / 100,
        mean: Math.round((off.reduce((a, b) => a + b, 0) / Math.max(1, off.length)) * 100) / 100,
        n: off.length,
      },
      sampleMs: round(sampleTime / Math.max(1, samples)),
      render: `${render.width}×${render.height} @ ${render.fps}`,
    };
  } finally {
    await s.cleanup();
    await rm(work, { recursive: true, force: true });
  }
}

export function transportSeekTable(r: Result): string {
  return [
    `1280×720 H.264 clip (${FPS} fps, 1 s keyframes, ${SECONDS} s), output ${r.render}; frames read back from the output (one read ≈ ${r.sampleMs} ms):`,
    '',
    '| measure | p50 | p99 | n |',
    '|---|---:|---:|---:|',
    `| seek to the target frame on the output | ${r.seekMs.p50} ms | ${r.seekMs.p99} ms | ${r.seekMs.n} |`,
    `| seek answered | ${r.seekMs.answerP50} ms | | ${r.seekMs.n} |`,
    `| cold select of the same file to its first frame | ${r.coldMs.p50} ms | ${r.coldMs.p99} ms | ${r.coldMs.n} |`,
    `| seek ÷ cold select (p50) | ${(r.seekMs.p50 / r.coldMs.p50).toFixed(2)} | | |`,
    `| play to a new frame on the output | ${r.playMs.p50} ms | | ${r.playMs.n} |`,
    `| pause to the last new frame on the output | ${r.pauseMs.p50} ms | | ${r.pauseMs.n} |`,
    `| paused: reported positionS − start of the frame shown | mean ${r.accuracyFrames.mean} frames | largest off by ${r.accuracyFrames.maxAbs} frames | ${r.accuracyFrames.n} |`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await transportSeekBench();
  const table = transportSeekTable(r);
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'transport-seek.md'), `${table}\n`);
  await writeFile(join(out, 'transport-seek.json'), `${JSON.stringify({ date: new Date().toISOString(), ...r }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
}
