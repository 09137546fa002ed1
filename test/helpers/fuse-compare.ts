// Shared by the fusion equality tests: built-in effects, a busy input, and a comparison of the fused and the
// unfused drawing of a chain on headless-gl (within 2/255 per channel).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { IsfDescriptor, IsfInput } from '../../src/shared/isf-types.js';
import { DEFAULT_PALETTE, paletteUniform } from '../../src/shared/palette.js';
import { analyze } from '../../workers/render/fuse/analyze.js';
import { Fuser, type FuseSlot, type FuseStep } from '../../workers/render/fuse/fuser.js';
import { Quad } from '../../workers/render/gl-util.js';
import { IsfProgram, type IsfFrame } from '../../workers/render/isf-program.js';
import { isfDate } from '../../workers/render/isf-builtins.js';
import { createTarget, setFilter, uploadRgba, type RenderTarget } from '../../workers/render/targets.js';
import { ROOT, createTestGl, loadBuiltin } from './gl.js';

// Small, so the file stays quick on a loaded 2-core machine: the work is compiling, not drawing.
export const W = 64;
export const H = 36;
const TOLERANCE = 2;
export const gl = createTestGl(W, H);
export const quad = new Quad(gl);
const palette = paletteUniform(DEFAULT_PALETTE);
export const started = performance.now();

export const effects: IsfDescriptor[] = [];
for (const f of (await readdir(join(ROOT, 'assets', 'effects'))).filter((n) => n.endsWith('.fs')).sort())
  effects.push(await loadBuiltin('effects', f));
export const byType = (t: string): IsfDescriptor => effects.find((d) => d.type === t)!;
export const fusable = effects.filter((d) => analyze(d).fusable);
const programs = new Map<IsfDescriptor, IsfProgram>();
export const programOf = (d: IsfDescriptor): IsfProgram => {
  let p = programs.get(d);
  if (!p) programs.set(d, (p = IsfProgram.create(gl, d, W, H, quad)));
  return p;
};

// A busy input: gradients, a hard edge and fine stripes, so remaps and colour steps both show.
const input = gl.createTexture()!;
{
  const px = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4;
      px[i] = (x * 255) / (W - 1);
      px[i + 1] = (y * 255) / (H - 1);
      px[i + 2] = x < W / 2 ? ((x >> 1) & 1) * 200 + 30 : 90;
      px[i + 3] = 255;
    }
  }
  uploadRgba(gl, input, W, H, px);
}
const ping: [RenderTarget, RenderTarget] = [createTarget(gl, W, H), createTarget(gl, W, H)];

/**
 * Draws `steps` as the engine does (ping-pong from the input texture) and reads the result back. `filters`: each
 * step's input sampled NEAREST where the step reads only its own pixel, as the engine does; otherwise all LINEAR.
 */
function draw(steps: readonly FuseStep[], time: number, filters = false): Uint8Array {
  let [a, b] = ping;
  let src: WebGLTexture = input;
  const frame: IsfFrame = {
    input: null,
    inputSize: [W, H],
    target: null,
    time,
    timeDelta: 1 / 30,
    frameIndex: 7,
    date: isfDate(),
    palette,
    values: {},
  };
  for (const s of steps) {
    setFilter(gl, src, filters && s.ownPixel);
    frame.input = src;
    frame.target = b.framebuffer;
    s.render(frame);
    src = b.texture;
    [a, b] = [b, a];
  }
  const out = new Uint8Array(W * H * 4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, a.framebuffer);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}

export const unfused = new Fuser(gl, quad, W, H, false);
export const fused = new Fuser(gl, quad, W, H, true);
fused.onLog = (msg, fields) => assert.unreachable(`${msg} ${JSON.stringify(fields)}`);

/** Renders the chain both ways; returns the fused runs used. Fails on any channel differing by more than 2. */
export function compare(chain: ReadonlyArray<{ desc: IsfDescriptor; inputs: Record<string, unknown> }>, time = 1.25): string[][] {
  const slots: FuseSlot[] = chain.map((c) => ({ inputs: c.inputs, instance: { program: programOf(c.desc) } }));
  const unfusedSteps = unfused.plan(slots);
  const expected = draw(unfusedSteps, time);
  fused.plan(slots);
  while (fused.compileNext());
  const copy = [...slots]; // a new array is a new chain for the planner, which picks the compiled programs up
  const steps = fused.plan(copy);
  const what = chain.map((c) => `${c.desc.type}${JSON.stringify(c.inputs)}`).join(' → ');
  const check = (actual: Uint8Array, tolerance: number, label: string): void => {
    for (let i = 0; i < expected.length; i++) {
      if (Math.abs(expected[i]! - actual[i]!) > tolerance) {
        const p = i >> 2;
        assert.unreachable(`${what}: pixel ${p % W},${Math.floor(p / W)} channel ${i & 3}: unfused ${expected[i]}, ${label} ${actual[i]}`);
      }
    }
  };
  check(draw(steps, time), TOLERANCE, 'fused');
  // The engine samples own-pixel reads NEAREST: exactly the same picture, unfused and fused.
  check(draw(unfusedSteps, time, true), 0, 'unfused with NEAREST own-pixel reads');
  check(draw(steps, time, true), TOLERANCE, 'fused with NEAREST own-pixel reads');
  return fused.stats().fusedRuns;
}

export const countCopies = (chain: ReadonlyArray<{ desc: IsfDescriptor }>): number =>
  chain.filter((c) => c.desc.passes[c.desc.passes.length - 1]?.target !== undefined).length;

// Deterministic random numbers: the same chains and values on every run.
let seed = 0x2f6b1d;
/** Restarts the random sequence (each test file draws the same values on every run). */
export function reseed(s: number): void {
  seed = s;
}
export const rand = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
export const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

export function randomValue(i: IsfInput): unknown {
  const lo = i.min;
  const hi = i.max;
  switch (i.type) {
    case 'float':
      return typeof lo === 'number' && typeof hi === 'number' ? lo + rand() * (hi - lo) : (i.default as number) * (0.5 + rand());
    case 'long':
      return i.values ? pick(i.values) : Math.round(typeof lo === 'number' && typeof hi === 'number' ? lo + rand() * (hi - lo) : 0);
    case 'bool':
    case 'event':
      return rand() < 0.5;
    case 'color':
      return [rand(), rand(), rand(), 1];
    case 'point2D':
      return Array.isArray(lo) && Array.isArray(hi)
        ? [lo[0]! + rand() * (hi[0]! - lo[0]!), lo[1]! + rand() * (hi[1]! - lo[1]!)]
        : [rand(), rand()];
    default:
      return undefined;
  }
}

export const randomInputs = (d: IsfDescriptor): Record<string, unknown> =>
  Object.fromEntries(d.inputs.filter((i) => i.type !== 'image').map((i) => [i.name, randomValue(i)]));

/** Frees what the comparisons made (the process's GL context stays). */
export function releaseAll(): void {
  unfused.destroy();
  fused.destroy();
  for (const p of programs.values()) p.destroy();
  for (const t of ping) t.destroy();
  gl.deleteTexture(input);
  quad.destroy();
}

/**
 * The ordered-pairs test, run by the two fuse-pairs files on one half each (`half` 1 or 2: the pairs whose first
 * effect is in that half of the fusable built-ins), so each file stays short with a cold shader cache.
 */
export function pairsTest(half: 1 | 2, seed: number): void {
  reseed(seed);
  const t0 = performance.now();
  let fusedPairs = 0;
  const middle = Math.ceil(fusable.length / 2);
  const firsts = half === 1 ? fusable.slice(0, middle) : fusable.slice(middle);
  for (const a of firsts) {
    for (const b of fusable) {
      const runs = compare([
        { desc: a, inputs: randomInputs(a) },
        { desc: b, inputs: randomInputs(b) },
      ]);
      if (runs.length === 1) fusedPairs++;
    }
  }
  const pixelReads = fusable.filter((d) => (analyze(d) as { read: string }).read === 'pixel').length;
  assert.is(fusedPairs, firsts.length * pixelReads, 'every pair ending in a pixel-read effect is drawn fused');
  process.stdout.write(`pairs: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}
