// Render benchmark: frame time and sustainable fps of the real render engine (generator source → N enabled effects →
// output stage) at 640×360, 1280×720 and 1920×1080 with 0, 4, 8 and 16 effects. Writes bench/results/render.{md,json}.
import { writeFile, mkdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import createGL from 'gl';
import { Catalog } from '../src/catalog/catalog.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { log } from '../src/log.js';
import { RenderEngine } from '../workers/render/engine.js';
import { trackGl } from '../workers/render/gl-tracker.js';

const SIZES: Array<[number, number]> = [
  [640, 360],
  [1280, 720],
  [1920, 1080],
];
const COUNTS = [0, 4, 8, 16];
// A show-like mix: colour work, distortion, a two-pass blur, a feedback buffer and a multi-pass bloom.
const MIX = ['hue_shift', 'rgb_split', 'vignette', 'kaleidoscope', 'blur', 'trails', 'bloom', 'pixelate'];
// A light colour-grading chain: the kind of 4-effect chain that holds 30 fps at 720p on Mesa.
const LIGHT = ['brightness_contrast', 'saturation', 'vignette', 'scanlines'];
const WARMUP = 10;
const FRAMES = Number(process.env.VJD_BENCH_FRAMES ?? 60);

export interface RenderRow {
  width: number;
  height: number;
  effects: number;
  mix: 'show' | 'light';
  frameMsP50: number;
  frameMsP99: number;
  fps: number;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export interface EffectCost {
  type: string;
  addedMs: number;
}

function medianFrameMs(engine: RenderEngine, gl: { finish(): void }, frames: number): number {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + frames; i++) {
    const t0 = performance.now();
    engine.renderFrame(t0);
    gl.finish();
    if (i >= WARMUP) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 0.5);
}

export async function renderBench(): Promise<{ renderer: string; rows: RenderRow[]; costs: EffectCost[] }> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  const snap = catalog.snapshot;
  const rows: RenderRow[] = [];
  const costs: EffectCost[] = [];
  let renderer = '';
  try {
    for (const [w, h] of SIZES) {
      const gl = createGL(w, h, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
      if (!gl) throw new Error('no GL context');
      trackGl(gl);
      renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
      const engine = new RenderEngine(gl, w, h, 30, renderer);
      engine.setCatalog(snap.effects, snap.generators, snap.noSignal);
      engine.requestSource(1, 'bench', Number.MAX_SAFE_INTEGER, { kind: 'generator', type: 'plasma', inputs: {} });
      for (const n of COUNTS) {
        while (engine.chain.length < n) {
          const r = engine.chain.apply({
            op: 'add',
            type: MIX[engine.chain.length % MIX.length]!,
            idempotent: false,
            ceiling: 128,
            presetId: '',
            inputs: {},
          });
          if (!r.ok) throw new Error(r.message);
        }
        const times: number[] = [];
        for (let i = 0; i < WARMUP + FRAMES; i++) {
          const t0 = performance.now();
          engine.renderFrame(t0);
          gl.finish();
          if (i >= WARMUP) times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        const p50 = percentile(times, 0.5);
        rows.push({
          width: w,
          height: h,
          effects: n,
          mix: 'show',
          frameMsP50: round(p50),
          frameMsP99: round(percentile(times, 0.99)),
          fps: round(1000 / p50),
        });
        process.stdout.write(`${w}x${h} effects=${n} p50=${p50.toFixed(2)} ms\n`);
      }
      engine.chain.clear();
      for (const type of LIGHT) engine.chain.apply({ op: 'add', type, idempotent: false, ceiling: 128, presetId: '', inputs: {} });
      const light = medianFrameMs(engine, gl, FRAMES);
      rows.push({
        width: w,
        height: h,
        effects: LIGHT.length,
        mix: 'light',
        frameMsP50: round(light),
        frameMsP99: round(light),
        fps: round(1000 / light),
      });
      if (w === 1280) {
        // What one effect adds to a frame at 720p, over a flat source (cheapest possible source stage).
        engine.chain.clear();
        engine.requestSource(2, 'flat', Number.MAX_SAFE_INTEGER, { kind: 'generator', type: 'solid_color', inputs: {} });
        const base = medianFrameMs(engine, gl, FRAMES);
        for (const d of snap.effects) {
          engine.chain.apply({ op: 'add', type: d.type, idempotent: false, ceiling: 128, presetId: '', inputs: {} });
          costs.push({ type: d.type, addedMs: round(Math.max(0, medianFrameMs(engine, gl, FRAMES) - base)) });
          engine.chain.apply({ op: 'remove', index: 1 });
        }
      }
      engine.destroy();
      gl.getExtension('STACKGL_destroy_context')?.destroy();
    }
  } finally {
    await display.stop();
  }
  return { renderer, rows, costs };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

export function costTable(costs: EffectCost[]): string {
  const sorted = [...costs].sort((a, b) => a.addedMs - b.addedMs);
  return [
    'Added frame time per effect at 1280×720 (median, one effect over a flat source):',
    '',
    '| effect | + ms | effect | + ms | effect | + ms | effect | + ms |',
    '|---|---:|---|---:|---|---:|---|---:|',
    ...chunk(sorted, 4).map((row) => `| ${row.map((c) => `${c.type} | ${c.addedMs}`).join(' | ')} |`),
  ].join('\n');
}

function chunk<T>(list: T[], n: number): T[][] {
  const out: T[][] = [];
  const rows = Math.ceil(list.length / n);
  for (let r = 0; r < rows; r++) out.push(Array.from({ length: n }, (_, c) => list[c * rows + r]).filter((x): x is T => x !== undefined));
  return out.map((row) =>
    row.length < n ? [...row, ...Array.from({ length: n - row.length }, () => ({ type: '', addedMs: '' }) as unknown as T)] : row,
  );
}

export function renderTable(renderer: string, rows: RenderRow[]): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  const lines = [
    `Renderer: ${renderer} under ${process.env.VJD_BENCH_DISPLAY_NOTE ?? 'Xvfb (Mesa llvmpipe, CPU)'}; machine: ${machine}; ${FRAMES} frames per row after ${WARMUP} warm-up frames; source: plasma generator. Show mix: effects cycle ${MIX.join(', ')}. Light mix: ${LIGHT.join(', ')} (p99 not sampled).`,
    '',
    '| size | effects | frame p50 (ms) | frame p99 (ms) | sustainable fps (1000 / p50) |',
    '|---|---|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.width}×${r.height} | ${r.effects}${r.mix === 'light' ? ' (light mix)' : ''} | ${r.frameMsP50} | ${r.mix === 'light' ? '–' : r.frameMsP99} | ${r.fps} |`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { renderer, rows, costs } = await renderBench();
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const table = `${renderTable(renderer, rows)}\n\n${costTable(costs)}`;
  await writeFile(join(dir, 'render.md'), `${table}\n`);
  await writeFile(join(dir, 'render.json'), `${JSON.stringify({ date: new Date().toISOString(), renderer, rows, costs }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
