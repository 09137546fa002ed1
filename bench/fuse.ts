// Fused vs unfused effect chains: frame time of the real render engine (plasma generator → effects → output) with
// render.fuse on and off, side by side in one run; then ten chain edits in a row in the running frame loop, with
// and without the compile helper, on an empty Mesa shader cache. Writes bench/results/fuse.{md,json}.
import { writeFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import createGL from 'gl';
import { Catalog } from '../src/catalog/catalog.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { log } from '../src/log.js';
import type { IsfDescriptor } from '../src/shared/isf-types.js';
import { paletteUniform } from '../src/shared/palette.js';
import { RenderEngine } from '../workers/render/engine.js';
import { Fuser, type FuseSlot, type FuseStep } from '../workers/render/fuse/fuser.js';
import { BLIT_VERTEX, compileProgram, Quad } from '../workers/render/gl-util.js';
import { isfDate } from '../workers/render/isf-builtins.js';
import { IsfProgram, type IsfFrame } from '../workers/render/isf-program.js';
import { createTarget, setFilter } from '../workers/render/targets.js';
import { trackGl } from '../workers/render/gl-tracker.js';
import { req, sleep, startServer } from '../test/helpers/server.js';
import { udpSink } from './outputs-lib.js';

const LIGHT = ['brightness_contrast', 'saturation', 'vignette', 'scanlines'];
// The eight, in its order (geometry between colour work), and geometry first (as a show usually stacks it).
const EIGHT = ['hue_shift', 'saturation', 'vignette', 'scanlines', 'kaleidoscope', 'mirror', 'posterize', 'rotate_zoom'];
const EIGHT_GEOMETRY_FIRST = ['mirror', 'kaleidoscope', 'rotate_zoom', 'hue_shift', 'saturation', 'vignette', 'scanlines', 'posterize'];
const CASES: Array<{ w: number; h: number; name: string; chain: string[] }> = [
  { w: 1280, h: 720, name: '4 (light mix)', chain: LIGHT },
  { w: 1280, h: 720, name: '8 (issue order)', chain: EIGHT },
  { w: 1280, h: 720, name: '8 (geometry first)', chain: EIGHT_GEOMETRY_FIRST },
  { w: 1920, h: 1080, name: '4 (light mix)', chain: LIGHT },
];
const WARMUP = 10;
const FRAMES = Number(process.env.VJD_BENCH_FRAMES ?? 60);

export interface FuseRow {
  size: string;
  chain: string;
  passesFused: number;
  passesUnfused: number;
  unfusedP50: number;
  fusedP50: number;
  speedup: number;
}

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (v: number): number => Math.round(v * 100) / 100;

export async function fuseBench(): Promise<{ renderer: string; rows: FuseRow[] }> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  const snap = catalog.snapshot;
  const rows: FuseRow[] = [];
  let renderer = '';
  try {
    for (const c of CASES) {
      const gl = createGL(c.w, c.h, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
      if (!gl) throw new Error('no GL context');
      trackGl(gl);
      renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
      const result: Record<'on' | 'off', { ms: number; passes: number }> = { on: { ms: 0, passes: 0 }, off: { ms: 0, passes: 0 } };
      // Alternating blocks of frames so a change in machine load hits both modes alike.
      const engines = (['off', 'on'] as const).map((mode) => {
        const engine = new RenderEngine(gl, c.w, c.h, 30, renderer, null, { fuse: mode === 'on' });
        engine.setCatalog(snap.effects, snap.generators, snap.noSignal);
        engine.requestSource(1, 'bench', Number.MAX_SAFE_INTEGER, { kind: 'generator', type: 'plasma', inputs: {} });
        for (const type of c.chain) {
          const r = engine.chain.apply({ op: 'add', type, idempotent: false, ceiling: 128, presetId: '', inputs: {} });
          if (!r.ok) throw new Error(r.message);
        }
        engine.renderFrame();
        while (engine.fuse.compileNext());
        for (let i = 0; i < WARMUP; i++) engine.renderFrame();
        gl.finish();
        return { mode, engine, times: [] as number[] };
      });
      for (let block = 0; block < 6; block++) {
        for (const e of engines) {
          for (let i = 0; i < FRAMES / 6; i++) {
            const t0 = performance.now();
            e.engine.renderFrame(t0);
            gl.finish();
            e.times.push(performance.now() - t0);
          }
        }
      }
      for (const e of engines) {
        result[e.mode] = { ms: p50(e.times), passes: e.engine.snapshotStats().passes };
        e.engine.destroy();
      }
      gl.getExtension('STACKGL_destroy_context')?.destroy();
      const row: FuseRow = {
        size: `${c.w}×${c.h}`,
        chain: c.name,
        passesFused: result.on.passes,
        passesUnfused: result.off.passes,
        unfusedP50: round(result.off.ms),
        fusedP50: round(result.on.ms),
        speedup: round(result.off.ms / result.on.ms),
      };
      rows.push(row);
      process.stdout.write(
        `${row.size} ${row.chain}: unfused ${row.unfusedP50} ms (${row.passesUnfused} passes), fused ${row.fusedP50} ms (${row.passesFused})\n`,
      );
    }
  } finally {
    await display.stop();
  }
  return { renderer, rows };
}

export interface EditRow {
  helper: boolean;
  frames: number;
  /** Start-to-start time of consecutive frames from the first edit on: what a viewer sees as a late frame. */
  intervalP50: number;
  intervalP99: number;
  intervalMax: number;
  ratio: number;
  fusedAtEnd: number;
}

const EDITS = 10;
const EDIT_EVERY_MS = 700;
const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

/**
 * The eight effects at 1280×720 in the engine's own frame loop (30 fps), then ten chain edits 700 ms apart, each
 * moving one effect to another place (new run-type combinations, so new fused programs to compile), with the
 * compile helper on or off. Each mode gets its own moves so neither finds the other's shaders in the cache.
 */
async function editBench(snap: Catalog['snapshot'], helper: boolean, seed: number): Promise<EditRow> {
  const gl = createGL(1280, 720, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('no GL context');
  trackGl(gl);
  const engine = new RenderEngine(gl, 1280, 720, 30, 'bench', null, { fuse: true, compileHelper: helper });
  engine.setCatalog(snap.effects, snap.generators, snap.noSignal);
  engine.requestSource(1, 'bench', Number.MAX_SAFE_INTEGER, { kind: 'generator', type: 'plasma', inputs: {} });
  for (const type of EIGHT) {
    const r = engine.chain.apply({ op: 'add', type, idempotent: false, ceiling: 128, presetId: '', inputs: {} });
    if (!r.ok) throw new Error(r.message);
  }
  const starts: number[] = [];
  const render = engine.renderFrame.bind(engine);
  let recording = false;
  engine.renderFrame = (now?: number): void => {
    if (recording) starts.push(performance.now());
    render(now);
    gl.finish();
  };
  engine.start();
  // Settled: the starting chain drawn fused.
  const settle = Date.now() + 60_000;
  while (engine.snapshotStats().fusedRuns.length === 0 && Date.now() < settle) await sleep(50);
  await sleep(1000);
  let s = seed;
  const rand = (n: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  recording = true;
  for (let i = 0; i < EDITS; i++) {
    const name = EIGHT[rand(EIGHT.length)]!;
    const r = engine.chain.apply({ op: 'move', name, to: 1 + rand(EIGHT.length) });
    if (!r.ok) throw new Error(r.message);
    await sleep(EDIT_EVERY_MS);
  }
  await sleep(1500);
  recording = false;
  engine.stop();
  const fusedAtEnd = engine.snapshotStats().fusedRuns.length;
  engine.destroy();
  gl.getExtension('STACKGL_destroy_context')?.destroy();
  const intervals = starts.slice(1).map((t, i) => t - starts[i]!);
  const row: EditRow = {
    helper,
    frames: starts.length,
    intervalP50: round(pct(intervals, 0.5)),
    intervalP99: round(pct(intervals, 0.99)),
    intervalMax: round(Math.max(...intervals)),
    ratio: round(pct(intervals, 0.99) / pct(intervals, 0.5)),
    fusedAtEnd,
  };
  process.stdout.write(
    `edits, helper ${helper ? 'on' : 'off'}: frame interval p50 ${row.intervalP50} ms, p99 ${row.intervalP99} ms (${row.ratio}×), max ${row.intervalMax} ms over ${row.frames} frames\n`,
  );
  return row;
}

export async function editsBench(): Promise<EditRow[]> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  try {
    return [await editBench(catalog.snapshot, false, 7), await editBench(catalog.snapshot, true, 11)];
  } finally {
    await display.stop();
  }
}

export function editsTable(rows: EditRow[]): string {
  return [
    `Ten chain edits in a row (${EDIT_EVERY_MS} ms apart, each moving one of the eight effects to another place) in the engine's 30 fps frame loop at 1280×720, Mesa's shader cache empty at the start; frame start-to-start interval from the first edit until 1.5 s after the last.`,
    '',
    '| compile helper | frames | interval p50 (ms) | p99 (ms) | p99 / p50 | max (ms) | fused runs at the end |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.helper ? 'on' : 'off'} | ${r.frames} | ${r.intervalP50} | ${r.intervalP99} | ${r.ratio}× | ${r.intervalMax} | ${r.fusedAtEnd} |`,
    ),
  ].join('\n');
}

export interface ProfileRow {
  pass: string;
  passes: number;
  wallMs: number;
  /** CPU time of the whole process (llvmpipe's rasterizer threads included): less sensitive to other load. */
  cpuMs: number;
}

/**
 * Where a 1280×720 frame's time goes on this renderer: each kind of full-screen pass alone (gl.finish after each),
 * every case once per round, round after round, so a change in machine load hits all cases alike; medians.
 */
export async function profileBench(rounds = Number(process.env.VJD_BENCH_ROUNDS ?? 40)): Promise<ProfileRow[]> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  const snap = catalog.snapshot;
  const W = 1280;
  const H = 720;
  const gl = createGL(W, H, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('no GL context');
  try {
    const quad = new Quad(gl);
    const a = createTarget(gl, W, H);
    const b = createTarget(gl, W, H);
    const frame: IsfFrame = {
      input: a.texture,
      inputSize: [W, H],
      target: b.framebuffer,
      time: 1,
      timeDelta: 1 / 30,
      frameIndex: 3,
      date: isfDate(),
      palette: paletteUniform([]),
      values: {},
    };
    const desc = (t: string): IsfDescriptor => [...snap.effects, ...snap.generators].find((d) => d.type === t)!;
    const cases: Array<{ pass: string; passes: number; run: () => void }> = [];
    const blit = (name: string, fragment: string, nearest: boolean | null): void => {
      const program = compileProgram(gl, BLIT_VERTEX, fragment);
      cases.push({
        pass: name,
        passes: 1,
        run: () => {
          if (nearest !== null) setFilter(gl, a.texture, nearest);
          gl.bindFramebuffer(gl.FRAMEBUFFER, b.framebuffer);
          gl.viewport(0, 0, W, H);
          gl.useProgram(program);
          gl.bindTexture(gl.TEXTURE_2D, a.texture);
          quad.draw();
        },
      });
    };
    blit(
      'constant colour (raster + write only)',
      'precision mediump float; varying vec2 uv; void main() { gl_FragColor = vec4(uv, 0.5, 1.0); }',
      null,
    );
    const copy = 'precision mediump float; varying vec2 uv; uniform sampler2D src; void main() { gl_FragColor = texture2D(src, uv); }';
    blit('copy, input LINEAR', copy, false);
    blit('copy, input NEAREST', copy, true);
    const plasma = IsfProgram.create(gl, desc('plasma'), W, H, quad);
    cases.push({ pass: 'source: plasma generator', passes: 1, run: () => plasma.render({ ...frame, input: null, target: a.framebuffer }) });
    const slotOf = (t: string): FuseSlot => ({ inputs: {}, instance: { program: IsfProgram.create(gl, desc(t), W, H, quad) } });
    const unfused = new Fuser(gl, quad, W, H, false);
    const fused = new Fuser(gl, quad, W, H, true);
    const stepsCase = (pass: string, steps: readonly FuseStep[], filters: boolean): void => {
      cases.push({
        pass,
        passes: steps.length,
        run: () => {
          let [x, y] = [a, b];
          for (const s of steps) {
            setFilter(gl, x.texture, filters && s.ownPixel);
            frame.input = x.texture;
            frame.target = y.framebuffer;
            s.render(frame);
            [x, y] = [y, x];
          }
        },
      });
    };
    for (const t of [
      'invert',
      'hue_shift',
      'saturation',
      'brightness_contrast',
      'vignette',
      'scanlines',
      'posterize',
      'kaleidoscope',
      'mirror',
      'rotate_zoom',
    ]) {
      const steps = unfused.plan([slotOf(t)]);
      stepsCase(`${t}, input LINEAR`, steps, false);
      if (steps[0]!.ownPixel) stepsCase(`${t}, input NEAREST`, steps, true);
    }
    const chains: Array<[string, string[]]> = [
      ['invert ×2', ['invert', 'invert']],
      ['invert ×4', ['invert', 'invert', 'invert', 'invert']],
      ['invert ×8', Array(8).fill('invert') as string[]],
      ['hue_shift ×4', Array(4).fill('hue_shift') as string[]],
      ['light mix (4)', LIGHT],
      ['eight, geometry first', EIGHT_GEOMETRY_FIRST],
    ];
    for (const [name, chain] of chains) {
      const slots = chain.map(slotOf);
      fused.plan(slots);
      while (fused.compileNext());
      stepsCase(`${name} unfused`, unfused.plan(slots), true);
      stepsCase(`${name} fused`, fused.plan([...slots]), true);
    }
    const px = new Uint8Array(W * H * 4);
    cases.push({
      pass: 'readPixels (output readback)',
      passes: 0,
      run: () => {
        gl.bindFramebuffer(gl.FRAMEBUFFER, b.framebuffer);
        gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, px);
      },
    });
    const wall = cases.map(() => [] as number[]);
    const cpu = cases.map(() => [] as number[]);
    for (let r = -3; r < rounds; r++) {
      cases.forEach((c, i) => {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        c.run();
        gl.finish();
        const t1 = performance.now();
        const used = process.cpuUsage(c0);
        if (r < 0) return;
        wall[i]!.push(t1 - t0);
        cpu[i]!.push((used.user + used.system) / 1000);
      });
    }
    return cases.map((c, i) => ({ pass: c.pass, passes: c.passes, wallMs: round(p50(wall[i]!)), cpuMs: round(p50(cpu[i]!)) }));
  } finally {
    gl.getExtension('STACKGL_destroy_context')?.destroy();
    await display.stop();
  }
}

export function profileTable(rows: ProfileRow[]): string {
  return [
    `Where a 1280×720 frame's time goes: each case drawn alone with gl.finish, every case once per round (${process.env.VJD_BENCH_ROUNDS ?? 40} rounds), medians; CPU is the process's (llvmpipe's threads included). Chains: own-pixel reads sampled NEAREST, as the engine does.`,
    '',
    '| pass | passes | wall p50 (ms) | CPU p50 (ms) |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.pass} | ${r.passes} | ${r.wallMs} | ${r.cpuMs} |`),
  ].join('\n');
}

export interface ServerRow {
  chain: string;
  passes: number;
  samples: number;
  fpsMin: number;
  fpsP50: number;
  fpsMean: number;
  frameMsP50: number;
  droppedFrames: number;
}

const SERVER_S = Number(process.env.VJD_BENCH_SERVER_S ?? 60);

/**
 * A running vjd at 1280×720@30 (a live testsrc2 input as the source) with the eight effects and one UDP stream
 * output (x264): /status render fps once a second for SERVER_S seconds once the chain is fused.
 */
export async function serverBench(chain: readonly string[], name: string): Promise<ServerRow> {
  const sink = await udpSink();
  const s = await startServer({
    config: {
      render: { width: 1280, height: 720, fps: 30 },
      live: { test: [{ id: 'cam', name: 'testsrc2', pattern: 'testsrc2=size=1280x720:rate=30' }], streams: [], v4l2: { enabled: false } },
    },
  });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const status = async (): Promise<Record<string, any>> => (await req('GET', api('/status'))).json().render;
  try {
    const sel = await req('POST', api('/sources/select'), { body: { id: 'cam' }, timeoutMs: 20000 });
    if (sel.status !== 200) throw new Error(`select: ${sel.status} ${sel.text}`);
    for (const type of chain) {
      const r = await req('POST', api('/effects/add'), { body: { type } });
      if (r.status !== 200) throw new Error(`add ${type}: ${r.text}`);
    }
    const out = await req('POST', api('/outputs/add'), {
      body: { kind: 'stream', url: `udp://127.0.0.1:${sink.port}`, width: 1280, height: 720, fps: 30 },
    });
    if (out.status !== 200) throw new Error(`output: ${out.text}`);
    const deadline = Date.now() + 120_000;
    while ((await status()).fusedRuns.length === 0 && Date.now() < deadline) await sleep(200);
    // A few seconds for the stream to start and the fps window to cover fused frames only.
    await sleep(5000);
    const dropped0 = (await status()).droppedFrames as number;
    const fps: number[] = [];
    const ms: number[] = [];
    for (let i = 0; i < SERVER_S; i++) {
      await sleep(1000);
      const r = await status();
      fps.push(r.fps);
      ms.push(r.frameMsP50);
    }
    const last = await status();
    const row: ServerRow = {
      chain: name,
      passes: last.passes,
      samples: fps.length,
      fpsMin: round(Math.min(...fps)),
      fpsP50: round(p50(fps)),
      fpsMean: round(fps.reduce((x, y) => x + y, 0) / fps.length),
      frameMsP50: round(p50(ms)),
      droppedFrames: last.droppedFrames - dropped0,
    };
    process.stdout.write(
      `server ${name}: fps p50 ${row.fpsP50}, min ${row.fpsMin}, mean ${row.fpsMean}; frame p50 ${row.frameMsP50} ms; ${row.passes} passes\n`,
    );
    return row;
  } finally {
    await s.cleanup();
    sink.socket.close();
  }
}

export function serverTable(rows: ServerRow[]): string {
  return [
    `A running vjd at 1280×720@30, live testsrc2 input, the eight effects and one UDP stream output (x264): \`/status\` render fps sampled once a second for ${SERVER_S} s.`,
    '',
    '| chain | passes | fps p50 | fps min | fps mean | frame p50 (ms) | frames dropped |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.chain} | ${r.passes} | ${r.fpsP50} | ${r.fpsMin} | ${r.fpsMean} | ${r.frameMsP50} | ${r.droppedFrames} |`),
  ].join('\n');
}

export function fuseTable(renderer: string, rows: FuseRow[]): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  return [
    `Renderer: ${renderer}; machine: ${machine}; frame p50 over ${FRAMES} frames per mode (alternating blocks, after ${WARMUP} warm-up frames); source: plasma generator. Light mix: ${LIGHT.join(', ')}. Eight: ${EIGHT.join(', ')}.`,
    '',
    '| size | effects | passes unfused → fused | unfused p50 (ms) | fused p50 (ms) | speed-up | fused fps (1000 / p50) |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.size} | ${r.chain} | ${r.passesUnfused} → ${r.passesFused} | ${r.unfusedP50} | ${r.fusedP50} | ${r.speedup}× | ${round(1000 / r.fusedP50)} |`,
    ),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // An empty shader cache of its own (Mesa reads this when the first context starts), so compiles are cold.
  const cache = await mkdtemp(join(tmpdir(), 'vjd-bench-mesa-'));
  process.env.MESA_SHADER_CACHE_DIR = cache;
  // One X display for every part (each part's own ensureDisplay then inherits it instead of stopping it).
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const load = loadavg()[0]!.toFixed(2);
  const only = process.env.VJD_BENCH_ONLY;
  const { renderer, rows } = only ? { renderer: '', rows: [] } : await fuseBench();
  const editRows = !only || only === 'edits' ? await editsBench() : [];
  const profile = !only || only === 'profile' ? await profileBench() : [];
  const server =
    !only || only === 'server'
      ? [await serverBench(EIGHT, 'eight, issue order'), await serverBench(EIGHT_GEOMETRY_FIRST, 'eight, geometry first')]
      : [];
  await rm(cache, { recursive: true, force: true });
  await display.stop();
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const table = `${fuseTable(renderer, rows)}\n\n${editsTable(editRows)}\n\n${profileTable(profile)}\n\n${serverTable(server)}\n\nLoad average (1 min) at the start: ${load}, at the end: ${loadavg()[0]!.toFixed(2)}.`;
  await writeFile(join(dir, 'fuse.md'), `${table}\n`);
  await writeFile(
    join(dir, 'fuse.json'),
    `${JSON.stringify({ date: new Date().toISOString(), load: Number(load), renderer, rows, edits: editRows, profile, server }, null, 2)}\n`,
  );
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
