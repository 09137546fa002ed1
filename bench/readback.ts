// Program readback cost on the render thread per layout: the GPU packing into I420 (1.5 bytes a pixel, no
// conversion left for ffmpeg) and reading, beside the plain RGBA read (what render.readback "auto" weighs).
// Run under an X display: `xvfb-run -a node dist/bench/readback.js`.
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { createFrameRing, type PixelLayout } from '../src/shared/frame-ring.js';
import { ROOT } from '../test/helpers/server.js';
import { Quad } from '../workers/render/gl-util.js';
import { ProgramReadback } from '../workers/render/program-readback.js';
import { createTarget } from '../workers/render/targets.js';

const createGL = createRequire(import.meta.url)('gl') as (w: number, h: number, o: object) => WebGLRenderingContext;
const gl = createGL(16, 16, { preserveDrawingBuffer: false });
const quad = new Quad(gl);
const rows: string[] = [];

for (const [w, h] of [
  [1280, 720],
  [640, 360],
] as const) {
  const source = createTarget(gl, w, h);
  const reads: Array<[string, PixelLayout]> = [
    ['RGBA read (bottom-up)', 'rgba'],
    ['I420 pack + read', 'i420'],
  ];
  // Every read follows a change to the picture, as in the render loop (a read of an unchanged target costs nothing).
  let k = 0;
  const touch = (): void => {
    gl.bindFramebuffer(gl.FRAMEBUFFER, source.framebuffer);
    gl.viewport(0, 0, w, h);
    gl.clearColor((k++ % 100) / 100, 0.5, 0.8, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
  };
  const bench = new Bench({ time: 2000, warmupTime: 300 });
  for (const [name, layout] of reads) {
    const r = new ProgramReadback(gl, quad, createFrameRing(w, h, 3, layout));
    bench.add(`clear, then ${name}`, () => {
      touch();
      r.read(source, w, h);
      gl.finish();
    });
  }
  await bench.run();
  const p50Of = (t: (typeof bench.tasks)[number]): number => (t.result as unknown as { latency: { p50: number } }).latency.p50;
  const base = p50Of(bench.tasks[0]!);
  for (const t of bench.tasks) {
    const p50 = p50Of(t);
    rows.push(`| ${w}×${h} | ${t.name} | ${p50.toFixed(2)} ms | ${(p50 / base).toFixed(2)} |`);
  }
  source.destroy();
}

const table = [
  `Render-thread readback per frame (tinybench p50), ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, renderer ${String(gl.getParameter(gl.RENDERER))}:`,
  '',
  '| size | readback | p50 | ÷ RGBA |',
  '|---|---|---:|---:|',
  ...rows,
].join('\n');
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
await writeFile(join(ROOT, 'bench', 'results', 'readback.md'), `${table}\n`);
process.stdout.write(`${table}\n`);
