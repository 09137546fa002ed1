// Layer benchmark through the render engine: frame time (RenderEngine.renderFrame) at 1280×720 with 1, 2 and 4
// layers each showing a generator (no effects), one engine composing in one generated pass and one composing one
// pass per layer, measured alternately in the same run. Writes bench/results/layers-engine.{md,json}.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createGL from 'gl';
import { Catalog } from '../src/catalog/catalog.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { log } from '../src/log.js';
import type { LayerWire } from '../src/shared/protocol/render.js';
import { RenderEngine } from '../workers/render/engine.js';
import { trackGl } from '../workers/render/gl-tracker.js';

const W = 1280;
const H = 720;
const FRAMES = Number(process.env.VJD_BENCH_FRAMES ?? 60);
const WARMUP = 10;
const GENERATORS = ['plasma', 'gradient', 'rings', 'checkerboard'];
/** The cheapest source on every layer: what the stack itself costs besides drawing its sources. */
const FLAT = ['solid_color', 'solid_color', 'solid_color', 'solid_color'];
const MODES = ['normal', 'screen', 'multiply', 'add'];
const OPACITY = 0.8;

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (v: number): number => Math.round(v * 100) / 100;

interface Row {
  sources: 'generators' | 'flat';
  layers: number;
  onePassMs: number;
  perLayerMs: number;
  ratio: number;
  onePassFps: number;
  passesOne: number;
  passesPer: number;
}

interface Bench {
  engine: RenderEngine;
  gl: WebGLRenderingContext;
}

/** An engine of its own GL context, as the render worker builds it, with the catalog's generators and blends. */
function makeEngine(snap: Catalog['snapshot'], onePass: boolean): Bench & { renderer: string } {
  const gl = createGL(W, H, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('no GL context');
  trackGl(gl);
  const renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
  const engine = new RenderEngine(gl, W, H, 30, renderer, null, { compose: { onePass } });
  engine.setCatalog(snap.effects, snap.generators, snap.noSignal);
  const failed = engine.setBlends(snap.blends).filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`blends do not compile: ${JSON.stringify(failed)}`);
  return { engine, gl, renderer };
}

let requestId = 1;
/** Layers 1..n, layer 1 opaque `normal` at the bottom, the others blended at OPACITY; a generator on each. */
function showLayers(b: Bench, n: number, gens: readonly string[]): void {
  const wires: LayerWire[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    opacity: i === 0 ? 1 : OPACITY,
    blend: MODES[i]!,
    mute: false,
    solo: false,
    selected: i === 0,
  }));
  b.engine.setLayers(wires);
  for (let i = 0; i < n; i++) {
    const type = gens[i]!;
    const spec = { kind: 'generator' as const, type, inputs: {} };
    b.engine.requestSource(requestId++, `gen:${type}`, Number.POSITIVE_INFINITY, spec, i + 1);
  }
  // A few frames so every switch commits and the composition's program is built.
  for (let i = 0; i < 3; i++) {
    b.engine.renderFrame(performance.now());
    b.gl.finish();
  }
}

/** Frame times of the two engines, one frame each in turn, so a change of load on the machine lands on both. */
function frameTimes(x: Bench, y: Bench): [number[], number[]] {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < WARMUP + FRAMES; i++) {
    for (const [e, out] of [
      [x, a],
      [y, b],
    ] as const) {
      const t0 = performance.now();
      e.engine.renderFrame(t0);
      e.gl.finish();
      if (i >= WARMUP) out.push(performance.now() - t0);
    }
  }
  return [a, b];
}

const display = await ensureDisplay(log);
process.env.DISPLAY = display.name;
try {
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  const snap = catalog.snapshot;
  const one = makeEngine(snap, true);
  const per = makeEngine(snap, false);
  const rows: Row[] = [];
  for (const [sources, gens] of [
    ['generators', GENERATORS],
    ['flat', FLAT],
  ] as const)
    for (const n of [1, 2, 4]) {
      showLayers(one, n, gens);
      showLayers(per, n, gens);
      const [a, b] = frameTimes(one, per);
      const passesOne = one.engine.compositor.lastPasses();
      const passesPer = per.engine.compositor.lastPasses();
      if (n > 1 && (passesOne !== 1 || passesPer !== n)) throw new Error(`${n} layers drew in ${passesOne} / ${passesPer} passes`);
      const o = p50(a);
      const p = p50(b);
      rows.push({
        sources,
        layers: n,
        onePassMs: round(o),
        perLayerMs: round(p),
        ratio: round(p / o),
        onePassFps: round(1000 / o),
        passesOne: n > 1 ? passesOne : 0,
        passesPer: n > 1 ? passesPer : 0,
      });
      process.stdout.write(`${sources} ${n} layers: one pass ${o.toFixed(2)} ms, per layer ${p.toFixed(2)} ms\n`);
    }
  const renderer = one.renderer;
  for (const b of [one, per]) {
    b.engine.destroy();
    b.gl.getExtension('STACKGL_destroy_context')?.destroy();
  }

  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end`;
  const base = rows[0]!;
  const two = rows[1]!;
  const flatBase = rows[3]!;
  const flatTwo = rows[4]!;
  const table = [
    `Frames through the render engine (machine: ${machine}; renderer: ${renderer}; ${W}×${H} at 30 fps; layers 1..n show ${GENERATORS.join(', ')} bottom to top, blends ${MODES.join(', ')}, layer 1 opaque and the others at opacity ${OPACITY}; no effects; flat: solid_color on every layer, the cheapest source, so what is left is the stack's own cost; median of ${FRAMES} frames of RenderEngine.renderFrame + finish per cell, the two engines drawing a frame each in turn, one run).`,
    '',
    '| sources | layers | frame, one pass (ms) | frame, pass per layer (ms) | per layer ÷ one pass | fps, one pass (1000 / median) | composition passes (one / per layer) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.sources} | ${r.layers}${r.layers === 1 ? ' (one source, no effects)' : ''} | ${r.onePassMs} | ${r.perLayerMs} | ${r.ratio}× | ${r.onePassFps} | ${r.layers === 1 ? 'none (drawn straight through)' : `${r.passesOne} / ${r.passesPer}`} |`,
    ),
    '',
    `Two layers, one pass: ${two.onePassMs} ms (${two.onePassFps} fps) against one source: ${base.onePassMs} ms (${base.onePassFps} fps); 30 fps needs ≤ 33.33 ms: two layers ${two.onePassMs <= 1000 / 30 ? 'hold' : 'do not hold'} it, one source ${base.onePassMs <= 1000 / 30 ? 'holds' : 'does not hold'} it. Flat: two layers ${flatTwo.onePassMs} ms against one ${flatBase.onePassMs} ms.`,
  ].join('\n');
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'layers-engine.md'), `${table}\n`);
  await writeFile(
    join(dir, 'layers-engine.json'),
    `${JSON.stringify({ date: new Date().toISOString(), machine, renderer, width: W, height: H, frames: FRAMES, rows }, null, 2)}\n`,
  );
  process.stdout.write(`${table}\n`);
} finally {
  await display.stop();
}
process.exit(0);
