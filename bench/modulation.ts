// What modulation costs and how exactly it keeps time: render frame time at 1280×720 with eight effects and four
// modulated inputs each against the same static chain (one process, one GL context, alternating blocks); the phase
// error of a tempo-synced LFO against the beat clock over five simulated minutes; the server's main-thread CPU with
// 32 modulators running against none. Writes bench/results/modulation.{md,json}.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createGL from 'gl';
import { Catalog } from '../src/catalog/catalog.js';
import { log } from '../src/log.js';
import { componentsOf, divisionBeats, modKey, type Modulator } from '../src/shared/modulation.js';
import type { IsfDescriptor } from '../src/shared/isf-types.js';
import { beatAt, type TempoClock } from '../src/shared/tempo-block.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { RenderEngine } from '../workers/render/engine.js';
import { trackGl } from '../workers/render/gl-tracker.js';
import type { ModContext } from '../workers/render/modulation/context.js';
import { signal, stateFor } from '../workers/render/modulation/signal.js';
import { req, sleep, startServer } from '../test/helpers/server.js';

// Eight effects with at least four inputs (or components) a modulator can take each.
const EIGHT = ['levels', 'color_tint', 'vignette', 'scanlines', 'kaleidoscope', 'swirl', 'tile', 'rotate_zoom'];
const FRAMES = Number(process.env.VJD_BENCH_FRAMES ?? 120);
const CPU_S = Number(process.env.VJD_BENCH_CPU_S ?? 15);
const TICKS = 100;
const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (v: number, d = 3): number => Math.round(v * 10 ** d) / 10 ** d;

const MODS: Modulator[] = [
  { kind: 'lfo', shape: 'sine', rate: '1/4', amount: 0.3 },
  { kind: 'lfo', shape: 'smooth', rate: 0.5, amount: 0.2 },
  { kind: 'beat', every: 1, amount: 0.4 },
  { kind: 'steps', values: [0, 0.5, 1, 0.25], rate: '1/8', glide: 0.2, amount: 0.3 },
];

/** Up to four modulatable keys of an effect (components of point2D and color count one each). */
function keysOf(desc: IsfDescriptor): string[] {
  const keys: string[] = [];
  for (const i of desc.inputs) {
    const comps = componentsOf(i.type);
    if (comps === null) continue;
    if (comps.length === 0) keys.push(i.name);
    else for (const c of comps) keys.push(modKey(i.name, c));
  }
  return keys.slice(0, 4);
}

async function frameTime(): Promise<{
  staticMs: number;
  modulatedMs: number;
  ratio: number;
  modulators: number;
  passes: [number, number];
}> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  const snap = catalog.snapshot;
  const gl = createGL(1280, 720, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('no GL context');
  trackGl(gl);
  let modulators = 0;
  try {
    const engines = [false, true].map((modulated) => {
      const engine = new RenderEngine(gl, 1280, 720, 30, 'bench', null, { fuse: true });
      engine.setCatalog(snap.effects, snap.generators, snap.noSignal);
      engine.requestSource(1, 'bench', Number.MAX_SAFE_INTEGER, { kind: 'generator', type: 'plasma', inputs: {} });
      for (const type of EIGHT) {
        const desc = snap.effects.find((d) => d.type === type)!;
        const mods: Record<string, Modulator> = {};
        if (modulated) keysOf(desc).forEach((k, n) => (mods[k] = MODS[n % MODS.length]!));
        if (modulated) modulators += Object.keys(mods).length;
        const r = engine.chain.apply({ op: 'add', type, idempotent: false, ceiling: 128, presetId: '', inputs: {}, modulators: mods });
        if (!r.ok) throw new Error(r.message);
      }
      engine.renderFrame();
      while (engine.fuse.compileNext());
      for (let i = 0; i < 10; i++) engine.renderFrame();
      gl.finish();
      return { engine, times: [] as number[] };
    });
    // Alternating blocks so a change in machine load hits both alike.
    for (let block = 0; block < 8; block++) {
      for (const e of engines) {
        for (let i = 0; i < FRAMES / 8; i++) {
          const t0 = performance.now();
          e.engine.renderFrame(t0);
          gl.finish();
          e.times.push(performance.now() - t0);
        }
      }
    }
    const [a, b] = engines.map((e) => p50(e.times)) as [number, number];
    const passes = engines.map((e) => e.engine.snapshotStats().passes) as [number, number];
    for (const e of engines) e.engine.destroy();
    return { staticMs: round(a, 2), modulatedMs: round(b, 2), ratio: round(b / a), modulators, passes };
  } finally {
    gl.getExtension('STACKGL_destroy_context')?.destroy();
    await display.stop();
  }
}

/** Five minutes at 30 fps with tempo changes along the way: the LFO's phase against the clock's, in ms. */
function phaseError(): { maxMs: number; framePeriodMs: number } {
  const mod: Modulator = { kind: 'lfo', shape: 'ramp', rate: '1/4', amount: 1, polarity: 'up' };
  const st = stateFor('bench', mod);
  const period = divisionBeats('1/4')!;
  const ctx: ModContext = { due: 0, dtMs: 0, beats: 0, bpm: 0, audio: new Float32Array(6), onsetFresh: false, audioFresh: false };
  const t0 = Date.now();
  let clock: TempoClock = {
    bpm: 128,
    refTime: t0,
    refBeat: 0,
    beatsPerBar: 4,
    source: 'manual',
    confidence: 1,
    range: { min: 75, max: 150 },
    offsetMs: 0,
  };
  let maxMs = 0;
  const frame = 1000 / 30;
  for (let k = 0; k < 5 * 60 * 30; k++) {
    const due = t0 + k * frame;
    // A tempo change every 30 s, continuing the beat position (as the clock does).
    if (k > 0 && k % 900 === 0) clock = { ...clock, refBeat: beatAt(clock, due).beats, refTime: due, bpm: 90 + ((k / 900) % 5) * 10 };
    const b = beatAt(clock, due);
    ctx.dtMs = k === 0 ? 0 : frame;
    ctx.due = due;
    ctx.beats = b.beats;
    ctx.bpm = clock.bpm;
    const u = signal(mod, st, ctx, false);
    const want = b.beats / period - Math.floor(b.beats / period);
    let d = Math.abs(u - want);
    d = Math.min(d, 1 - d);
    maxMs = Math.max(maxMs, d * period * (60_000 / clock.bpm));
  }
  return { maxMs: round(maxMs, 6), framePeriodMs: round(frame, 2) };
}

async function mainThreadCpu(): Promise<{ nonePct: number; modulatedPct: number; ratio: number }> {
  const s = await startServer({ config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const ticks = async (): Promise<number> => {
    const stat = await readFile(`/proc/${s.proc.pid}/task/${s.proc.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  const measure = async (): Promise<number> => {
    await sleep(2000);
    const a = await ticks();
    const t = Date.now();
    await sleep(CPU_S * 1000);
    return round((((await ticks()) - a) / TICKS / ((Date.now() - t) / 1000)) * 100, 2);
  };
  try {
    await req('POST', api('/sources/select'), { body: { id: 'source:plasma' }, timeoutMs: 20000 });
    for (const type of EIGHT) await req('POST', api('/effects/add'), { body: { type } });
    const nonePct = await measure();
    const effects = (await req('GET', api('/effects/available'))).json().items as Array<{ type: string; inputs: IsfDescriptor['inputs'] }>;
    for (let i = 0; i < EIGHT.length; i++) {
      const desc = effects.find((e) => e.type === EIGHT[i]) as unknown as IsfDescriptor;
      for (const [n, key] of keysOf(desc).entries()) {
        const [input, component] = key.split('.');
        await req('POST', api('/effects/modulate'), { body: { index: i + 1, input, component, modulator: MODS[n % MODS.length] } });
      }
    }
    const count = (await req('GET', api('/modulation'))).json().count as number;
    process.stdout.write(`${count} modulators running\n`);
    const modulatedPct = await measure();
    return { nonePct, modulatedPct, ratio: round(modulatedPct / Math.max(0.01, nonePct), 2) };
  } finally {
    await s.cleanup();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const frames = await frameTime();
  process.stdout.write(`frame p50: static ${frames.staticMs} ms, modulated ${frames.modulatedMs} ms (ratio ${frames.ratio})\n`);
  const phase = phaseError();
  process.stdout.write(`phase error over 5 min: ${phase.maxMs} ms (frame ${phase.framePeriodMs} ms)\n`);
  const cpu = await mainThreadCpu();
  process.stdout.write(`main thread: ${cpu.nonePct} % without, ${cpu.modulatedPct} % with 32 modulators\n`);
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), no GPU (llvmpipe)`;
  const table = [
    '| measure | without | with modulators | ratio / error | target |',
    '|---|---|---|---|---|',
    `| render frame p50, 1280×720, 8 effects (${frames.modulators} modulated inputs) | ${frames.staticMs} ms (${frames.passes[0]} passes) | ${frames.modulatedMs} ms (${frames.passes[1]} passes) | ${frames.ratio} | ≤ 1.05 |`,
    `| phase error of a "1/4" LFO against the beat clock, 5 min at 30 fps, tempo changes | | | ${phase.maxMs} ms | ≤ ${phase.framePeriodMs} ms (one frame) |`,
    `| main-thread CPU, 8 effects, 32 modulators running | ${cpu.nonePct} % | ${cpu.modulatedPct} % | ${cpu.ratio} | ≤ 1 (noise aside) |`,
    '',
    `Machine: ${machine}.`,
  ].join('\n');
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'modulation.md'), `${table}\n`);
  await writeFile(join(dir, 'modulation.json'), `${JSON.stringify({ date: new Date().toISOString(), frames, phase, cpu }, null, 2)}\n`);
  process.exit(0);
}
