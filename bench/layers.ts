// Layer composition benchmark in the render engine's GL stack at the default render size: one, two and four layers
// of generator textures (no effects) composed with the shipped blend modes, in one generated pass vs one pass per layer.
// Reports the median of the composition alone and of a whole frame (the generators drawn, then composed).
// Writes bench/results/layers.{md,json}.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createGL from 'gl';
import { Catalog } from '../src/catalog/catalog.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { log } from '../src/log.js';
import { paletteUniform } from '../src/shared/palette.js';
import { Compositor, type ComposeLayer } from '../workers/render/compose/compositor.js';
import { Quad } from '../workers/render/gl-util.js';
import { isfDate } from '../workers/render/isf-builtins.js';
import { IsfProgram, type IsfFrame } from '../workers/render/isf-program.js';
import { createTarget, type RenderTarget } from '../workers/render/targets.js';

const W = 1280;
const H = 720;
const FRAMES = Number(process.env.VJD_BENCH_FRAMES ?? 60);
const WARMUP = 10;
const GENERATORS = ['plasma', 'gradient', 'rings', 'checkerboard'];
const MODES = ['normal', 'screen', 'multiply', 'add'];

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (v: number): number => Math.round(v * 100) / 100;

interface Row {
  layers: number;
  composeOnePassMs: number;
  composePerPassMs: number;
  composeRatio: number;
  frameOnePassMs: number;
  framePerPassMs: number;
  frameRatio: number;
}

const display = await ensureDisplay(log);
process.env.DISPLAY = display.name;
try {
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  const snap = catalog.snapshot;
  const gl = createGL(W, H, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('no GL context');
  const renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
  const quad = new Quad(gl);
  const one = new Compositor(gl, quad, W, H);
  const per = new Compositor(gl, quad, W, H, { onePass: false });
  for (const c of [one, per]) {
    const failed = c.setBlends(snap.blends).filter((r) => !r.ok);
    if (failed.length > 0) throw new Error(`blends do not compile: ${JSON.stringify(failed)}`);
  }
  const programs = GENERATORS.map((type) => {
    const desc = snap.generators.find((d) => d.type === type);
    if (!desc) throw new Error(`generator ${type} missing`);
    return IsfProgram.create(gl, desc, W, H, quad);
  });
  const targets: RenderTarget[] = GENERATORS.map(() => createTarget(gl, W, H));
  const out = createTarget(gl, W, H);
  const ctx: IsfFrame = {
    input: null,
    inputSize: [W, H],
    target: null,
    time: 0,
    timeDelta: 1 / 30,
    frameIndex: 0,
    date: isfDate(),
    palette: paletteUniform([]),
    values: {},
  };
  const drawSources = (n: number): void => {
    for (let i = 0; i < n; i++) {
      ctx.target = targets[i]!.framebuffer;
      ctx.input = null;
      ctx.values = {};
      programs[i]!.render(ctx);
    }
  };
  const median = (work: () => void): number => {
    const times: number[] = [];
    for (let i = 0; i < WARMUP + FRAMES; i++) {
      ctx.frameIndex = i;
      ctx.time = i / 30;
      const t0 = performance.now();
      work();
      gl.finish();
      if (i >= WARMUP) times.push(performance.now() - t0);
    }
    return p50(times);
  };
  const rows: Row[] = [];
  for (const n of [1, 2, 4]) {
    const layers: ComposeLayer[] = targets.slice(0, n).map((t, i) => ({ texture: t.texture, opacity: 0.8, blend: MODES[i]! }));
    drawSources(n);
    // Composition alone (sources drawn once), then whole frames; the two compositors interleave per measure.
    const composeOne = median(() => one.draw(out.framebuffer, null, layers, ctx));
    const composePer = median(() => per.draw(out.framebuffer, null, layers, ctx));
    const frameOne = median(() => {
      drawSources(n);
      one.draw(out.framebuffer, null, layers, ctx);
    });
    const framePer = median(() => {
      drawSources(n);
      per.draw(out.framebuffer, null, layers, ctx);
    });
    if (one.lastPasses() !== 1 || per.lastPasses() !== n) throw new Error(`passes ${one.lastPasses()} / ${per.lastPasses()}`);
    rows.push({
      layers: n,
      composeOnePassMs: round(composeOne),
      composePerPassMs: round(composePer),
      composeRatio: round(composePer / composeOne),
      frameOnePassMs: round(frameOne),
      framePerPassMs: round(framePer),
      frameRatio: round(framePer / frameOne),
    });
  }
  one.destroy();
  per.destroy();
  for (const p of programs) p.destroy();
  for (const t of [...targets, out]) t.destroy();
  quad.destroy();
  gl.getExtension('STACKGL_destroy_context')?.destroy();

  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  const table = [
    `Layer composition (machine: ${machine}; renderer: ${renderer}; ${W}×${H}; generators ${GENERATORS.slice(0, 4).join(', ')} bottom to top, blends ${MODES.join(', ')} at opacity 0.8, no effects; median of ${FRAMES} frames, one run).`,
    '',
    '| layers | compose, one pass (ms) | compose, pass per layer (ms) | ratio | frame, one pass (ms) | frame, pass per layer (ms) | ratio |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.layers} | ${r.composeOnePassMs} | ${r.composePerPassMs} | ${r.composeRatio}× | ${r.frameOnePassMs} | ${r.framePerPassMs} | ${r.frameRatio}× |`,
    ),
  ].join('\n');
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'layers.md'), `${table}\n`);
  await writeFile(join(dir, 'layers.json'), `${JSON.stringify({ date: new Date().toISOString(), renderer, rows }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
} finally {
  await display.stop();
}
process.exit(0);
