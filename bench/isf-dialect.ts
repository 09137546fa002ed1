// The ISF compatibility test set (test/fixtures/isf-compat) through vjd's compile path on headless-gl: per file how
// it compiled (as written, after the desktop-GLSL rewrite, or the error), whether it draws, the rewrite's cost at
// load (parse + rewrite, median ms) and, for valid files, the compile time with and without the retry hook.
// Writes bench/results/isf-dialect.{md,json}.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ImportedImages } from '../src/catalog/imported-images.js';
import { parseIsf } from '../src/catalog/isf-parse.js';
import { log } from '../src/log.js';
import type { IsfDescriptor } from '../src/shared/isf-types.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { dialectStats, linkIsf } from '../workers/render/glsl-dialect/retry.js';
import { rewriteDialect } from '../workers/render/glsl-dialect/rewrite.js';
import { buildIsfSources, IsfCompileError, linkProgram } from '../workers/render/isf-glsl.js';
import { createTestGl, renderIsf, ROOT, type Rgba } from '../test/helpers/gl.js';

const DIR = join(ROOT, 'test', 'fixtures', 'isf-compat');
const S = 64;
const RUNS = Number(process.env.VJD_BENCH_RUNS ?? 7);

// What each file exercises (the set is written for this table, so the list is kept by hand beside it).
const FEATURES: Record<string, string> = {
  int_literal: 'habit: `float x = 1;`',
  vector_scale: 'habit: `vec2(1, 2) * 3`, `v * 2 - 1`',
  float_times_int: 'habit: `x * 2`, `/ 3` on floats (filter)',
  builtin_int_args: 'habit: `pow(x, 2)`, `mod`, `max`, `clamp`, `step`, `smoothstep`, `mix` with ints',
  int_float_mix: 'habit: int loop index in float arithmetic',
  loop_bound: 'habit: int index `< 5.5` bound, `i > level` (float input)',
  return_type: 'habit: `return 1;` in a float function, `return ivec2` from vec2',
  ternary_assign: 'habit: `c ? 1 : 0.25`, `w += 1`, `v *= 2`',
  user_fn_args: "habit: int arguments to the file's float functions",
  define_macros: 'habit: `#define SCALE 2` used as a float',
  es3_uvec: 'GLSL ES 3.00: `uvec2`, `8u`',
  es3_array_constructor: 'GLSL ES 3.00: `float[3](…)`',
  es3_version_texture: 'GLSL ES 3.00: `#version 300 es`, `out`, `texture()`',
  es3_bit_ops: 'GLSL ES 3.00: `^`, `&` on ints',
  multi_pass: 'PASSES, TARGET, WIDTH/HEIGHT expressions, PASSINDEX',
  persistent_feedback: 'PERSISTENT buffer, FRAMEINDEX, float input',
  audio_reactive: '`audio` and `audioFFT` inputs, AUDIO_LEVEL, BEAT_PHASE',
  input_types: 'point2D, color, bool, long (VALUES/LABELS), float, event inputs',
  image_macros: 'IMG_PIXEL, IMG_NORM_PIXEL, IMG_SIZE, IMG_THIS_NORM_PIXEL, a second image input',
  palette_bands: "vjd's PALETTE_COLOR, PALETTE_COUNT",
  transition_wipe: 'transition: startImage, endImage, progress (drawn here without its two images: black)',
  imported_image: 'IMPORTED image (PNG beside the file)',
};

const gradient = (x: number, y: number): Rgba => [(x * 255) / (S - 1), (y * 255) / (S - 1), 128, 255];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (v: number): number => Math.round(v * 100) / 100;

interface Row {
  file: string;
  features: string;
  compiled: string;
  draws: boolean | null;
  /** Largest channel difference from the GLSL ES twin (habits only). */
  twinDiff: number | null;
  rewriteMs: number | null;
  /** Valid files: compile + link through the retry hook (IsfProgram's path) vs the plain link, median ms. */
  compileMs: { hook: number; plain: number } | null;
}

/** The catalog's image decoding, so files with IMPORTED images compile and draw as they do in vjd. */
const images = new ImportedImages(log);

async function load(file: string, sub = ''): Promise<IsfDescriptor> {
  const desc = parseIsf(await readFile(join(DIR, sub, file), 'utf8'), { file, fileName: file });
  await images.load(desc, join(DIR, sub));
  return desc;
}

export async function isfDialectBench(): Promise<{ rows: Row[]; renderer: string }> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const gl = createTestGl(S, S);
  const renderer = `${String(gl.getParameter(gl.RENDERER))}`;
  const files = (await readdir(DIR)).filter((f) => f.endsWith('.fs')).sort();
  const twins = new Set(await readdir(join(DIR, 'es')));
  const rows: Row[] = [];
  for (const file of files) {
    const name = file.slice(0, -3);
    const desc = await load(file);
    const row: Row = { file, features: FEATURES[name] ?? '', compiled: '', draws: null, twinDiff: null, rewriteMs: null, compileMs: null };
    const before = { ...dialectStats };
    let pixels: Uint8Array | null = null;
    try {
      pixels = renderIsf(gl, desc, { width: S, height: S, input: gradient, frames: 2 }).pixels;
      row.compiled = dialectStats.rewritten > before.rewritten ? 'after rewrite' : 'as written';
      row.draws = pixels.some((v, i) => i % 4 !== 3 && v > 0);
    } catch (err) {
      row.compiled = `error: ${err instanceof IsfCompileError ? err.log : (err as Error).message}`;
    }
    if (dialectStats.attempts > before.attempts) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        rewriteDialect(desc);
        times.push(performance.now() - t0);
      }
      row.rewriteMs = ms(median(times));
    } else {
      const hook: number[] = [];
      const plain: number[] = [];
      const src = buildIsfSources(desc);
      for (let i = 0; i < RUNS; i++) {
        let t0 = performance.now();
        gl.deleteProgram(linkIsf(gl, desc).program);
        hook.push(performance.now() - t0);
        t0 = performance.now();
        gl.deleteProgram(linkProgram(gl, src.vertex, src.fragment, src.vertexOffset, src.fragmentOffset));
        plain.push(performance.now() - t0);
      }
      row.compileMs = { hook: ms(median(hook)), plain: ms(median(plain)) };
    }
    if (pixels && twins.has(file)) {
      const want = renderIsf(gl, await load(file, 'es'), { width: S, height: S, input: gradient, frames: 2 }).pixels;
      row.twinDiff = pixels.reduce((m, v, i) => Math.max(m, Math.abs(v - want[i]!)), 0);
    }
    rows.push(row);
  }
  return { rows, renderer };
}

function table(rows: Row[], renderer: string): string {
  const ok = rows.filter((r) => r.draws);
  const lines = [
    `${rows.length} files: ${rows.filter((r) => r.compiled === 'as written').length} compile as written, ` +
      `${rows.filter((r) => r.compiled === 'after rewrite').length} after the rewrite, ${rows.length - ok.length} refused; ` +
      `${ok.length} draw. ${renderer}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}.`,
    '',
    '| file | exercises | compiles | draws | vs ES twin | rewrite ms | compile ms (hook / plain) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const compiled = r.compiled.startsWith('error: ') ? `no: ${r.compiled.slice(7).replace(/\|/g, '\\|')}` : r.compiled;
    lines.push(
      `| ${r.file} | ${r.features} | ${compiled} | ${r.draws === null ? '–' : r.draws ? 'yes' : 'black'} | ` +
        `${r.twinDiff === null ? '' : `max diff ${r.twinDiff}/255`} | ${r.rewriteMs ?? ''} | ` +
        `${r.compileMs ? `${r.compileMs.hook} / ${r.compileMs.plain}` : ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, renderer } = await isfDialectBench();
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'isf-dialect.json'), `${JSON.stringify({ renderer, rows }, null, 2)}\n`);
  await writeFile(join(dir, 'isf-dialect.md'), table(rows, renderer));
  process.stdout.write(table(rows, renderer));
  process.exit(0);
}
