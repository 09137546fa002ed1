// Fused vs unfused effect chains: frame time of the real render engine (plasma generator → effects → output) with
// render.fuse on and off, side by side in one run. Writes bench/results/fuse.{md,json}.
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
      process.stdout.write(`${row.size} ${row.chain}: unfused ${row.unfusedP50} ms (${row.passesUnfused} passes), fused ${row.fusedP50} ms (${row.passesFused})\n`);
    }
  } finally {
    await display.stop();
  }
  return { renderer, rows };
}

export function fuseTable(renderer: string, rows: FuseRow[]): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  return [
    `Renderer: ${renderer}; machine: ${machine}; frame p50 over ${FRAMES} frames per mode (alternating blocks, after ${WARMUP} warm-up frames); source: plasma generator. Light mix: ${LIGHT.join(', ')}. Eight: ${EIGHT.join(', ')}.`,
    '',
    '| size | effects | passes unfused → fused | unfused p50 (ms) | fused p50 (ms) | speed-up | fused fps (1000 / p50) |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.size} | ${r.chain} | ${r.passesUnfused} → ${r.passesFused} | ${r.unfusedP50} | ${r.fusedP50} | ${r.speedup}× | ${round(1000 / r.fusedP50)} |`),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { renderer, rows } = await fuseBench();
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const table = fuseTable(renderer, rows);
  await writeFile(join(dir, 'fuse.md'), `${table}\n`);
  await writeFile(join(dir, 'fuse.json'), `${JSON.stringify({ date: new Date().toISOString(), renderer, rows }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
