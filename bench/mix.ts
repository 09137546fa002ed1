// Mixer benchmark. Over HTTP: a take of a cued (warm) media file until its first program frame (the cut take's
// answer) vs a cold POST /inputs/file/select of the same file, p50 of each and the ratio. In the render engine:
// frame time at 1280×720 of one source vs a running transition (both sources plus the blend).
// Writes bench/results/mix.{md,json}.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import createGL from 'gl';
import { startServer, req, tempDir, waitUntil } from '../test/helpers/server.js';
import { Catalog } from '../src/catalog/catalog.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { log } from '../src/log.js';
import { RenderEngine } from '../workers/render/engine.js';
import { trackGl } from '../workers/render/gl-tracker.js';

const run = promisify(execFile);
const RUNS = Number(process.env.VJD_BENCH_RUNS ?? 20);
const FRAMES = Number(process.env.VJD_BENCH_FRAMES ?? 60);
const WARMUP = 10;

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (v: number): number => Math.round(v * 10) / 10;

export async function takeBench(): Promise<{ takeP50: number; coldSelectP50: number; ratio: number; runs: number }> {
  const dataDir = await tempDir('vjd-bench-mix-');
  const media = join(dataDir, 'media');
  await mkdir(media, { recursive: true });
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30',
    '-t',
    '10',
    '-pix_fmt',
    'yuv420p',
    join(media, 'clip.mp4'),
  ]);
  const s = await startServer({
    dataDir,
    config: { render: { width: 1280, height: 720, fps: 30 }, live: { test: [], v4l2: { enabled: false } } },
  });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const post = async (p: string, body: unknown): Promise<number> => {
    const t0 = performance.now();
    const r = await req('POST', api(p), { body, timeoutMs: 20000 });
    if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${r.text}`);
    return performance.now() - t0;
  };
  try {
    await waitUntil(
      async () => (await req('GET', api('/sources'))).json().items.some((i: { sourceKind: string }) => i.sourceKind === 'file'),
      60000,
      200,
    );
    const file = (await req('GET', api('/sources'))).json().items.find((i: { sourceKind: string }) => i.sourceKind === 'file').id as string;
    const cold: number[] = [];
    const take: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Cold: the file is neither program nor cued, so its reader is closed and the select starts ffmpeg.
      await post('/sources/select', { id: 'source:solid_color' });
      cold.push(await post('/inputs/file/select', { id: file }));
      await post('/sources/select', { id: 'source:solid_color' });
    }
    await post('/mix/cue', { id: file });
    for (let i = 0; i < RUNS; i++) {
      // Warm: the file waits on preview; the cut take answers after the frame that shows it on program.
      take.push(await post('/mix/take', { transition: 'cut' }));
      await post('/mix/take', { transition: 'cut' }); // back: the file waits on preview again
    }
    const takeP50 = round(p50(take));
    const coldSelectP50 = round(p50(cold));
    return { takeP50, coldSelectP50, ratio: round(coldSelectP50 / takeP50), runs: RUNS };
  } finally {
    await s.cleanup();
  }
}

function medianFrameMs(engine: RenderEngine, gl: { finish(): void }): number {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + FRAMES; i++) {
    const t0 = performance.now();
    engine.renderFrame(t0);
    gl.finish();
    if (i >= WARMUP) times.push(performance.now() - t0);
  }
  return p50(times);
}

export async function transitionCost(): Promise<{ renderer: string; oneSourceMs: number; transitionMs: number; idleCuedMs: number }> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  try {
    const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
    await catalog.reload();
    const snap = catalog.snapshot;
    const gl = createGL(1280, 720, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
    if (!gl) throw new Error('no GL context');
    trackGl(gl);
    const renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
    const engine = new RenderEngine(gl, 1280, 720, 30, renderer);
    engine.setCatalog(snap.effects, snap.generators, snap.noSignal);
    engine.mix.setTransitions(snap.transitions);
    engine.requestSource(1, 'a', Number.MAX_SAFE_INTEGER, { kind: 'generator', type: 'plasma', inputs: {} });
    const oneSourceMs = medianFrameMs(engine, gl);
    engine.requestCue(2, 'b', Number.MAX_SAFE_INTEGER, { kind: 'generator', type: 'plasma', inputs: {} });
    // Cued but idle: the preview is not drawn.
    const idleCuedMs = medianFrameMs(engine, gl);
    engine.mixCommand(3, { op: 'position', transition: 'fade', value: 0.5 });
    const transitionMs = medianFrameMs(engine, gl);
    engine.destroy();
    gl.getExtension('STACKGL_destroy_context')?.destroy();
    return { renderer, oneSourceMs: round(oneSourceMs), transitionMs: round(transitionMs), idleCuedMs: round(idleCuedMs) };
  } finally {
    await display.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const takes = await takeBench();
  const cost = await transitionCost();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  const table = [
    `Mixer (machine: ${machine}; renderer: ${cost.renderer}; render 1280×720 at 30 fps; ${takes.runs} runs each, one run).`,
    '',
    '| measure | p50 (ms) |',
    '|---|---:|',
    `| cold \`POST /inputs/file/select\` of a 720p file (ffmpeg starts) | ${takes.coldSelectP50} |`,
    `| \`POST /mix/take\` (cut) of the same file cued on preview, to its first program frame | ${takes.takeP50} |`,
    `| ratio cold / take | ${takes.ratio}× |`,
    `| frame, one source (plasma) at 1280×720 | ${cost.oneSourceMs} |`,
    `| frame, one source with a source cued (idle mixer) | ${cost.idleCuedMs} |`,
    `| frame, running fade (two plasma sources + the blend) | ${cost.transitionMs} |`,
  ].join('\n');
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'mix.md'), `${table}\n`);
  await writeFile(join(dir, 'mix.json'), `${JSON.stringify({ date: new Date().toISOString(), ...takes, ...cost }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
