// Fused effect runs against the unfused chain on headless-gl: every ordered pair of fusable built-in effects and
// seeded random runs of 3-8 with random parameter values give the same picture within 2/255 per channel.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IsfDescriptor, IsfInput } from '../../src/shared/isf-types.js';
import { DEFAULT_PALETTE, paletteUniform } from '../../src/shared/palette.js';
import { analyze } from '../../workers/render/fuse/analyze.js';
import { Fuser, fusableRuns, type FuseSlot } from '../../workers/render/fuse/fuser.js';
import { Quad } from '../../workers/render/gl-util.js';
import { IsfProgram, type IsfFrame } from '../../workers/render/isf-program.js';
import { createTarget, uploadRgba, type RenderTarget } from '../../workers/render/targets.js';
import { ROOT, createTestGl, loadBuiltin } from '../helpers/gl.js';

// Small, so the file stays quick on a loaded 2-core machine: the work is compiling, not drawing.
const W = 64;
const H = 36;
const TOLERANCE = 2;
const gl = createTestGl(W, H);
const quad = new Quad(gl);
const palette = paletteUniform(DEFAULT_PALETTE);
const started = performance.now();

const effects: IsfDescriptor[] = [];
for (const f of (await readdir(join(ROOT, 'assets', 'effects'))).filter((n) => n.endsWith('.fs')).sort()) effects.push(await loadBuiltin('effects', f));
const byType = (t: string): IsfDescriptor => effects.find((d) => d.type === t)!;
const fusable = effects.filter((d) => analyze(d).fusable);
const programs = new Map<IsfDescriptor, IsfProgram>();
const programOf = (d: IsfDescriptor): IsfProgram => {
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

/** Draws `steps` as the engine does (ping-pong from the input texture) and reads the result back. */
function draw(steps: ReadonlyArray<{ render(f: IsfFrame): void }>, time: number): Uint8Array {
  let [a, b] = ping;
  let src: WebGLTexture = input;
  const frame: IsfFrame = { input: null, inputSize: [W, H], target: null, time, timeDelta: 1 / 30, frameIndex: 7, palette, values: {} };
  for (const s of steps) {
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

const unfused = new Fuser(gl, quad, W, H, false);
const fused = new Fuser(gl, quad, W, H, true);
fused.onLog = (msg, fields) => assert.unreachable(`${msg} ${JSON.stringify(fields)}`);

/** Renders the chain both ways; returns the fused runs used. Fails on any channel differing by more than 2. */
function compare(chain: ReadonlyArray<{ desc: IsfDescriptor; inputs: Record<string, unknown> }>, time = 1.25): string[][] {
  const slots: FuseSlot[] = chain.map((c) => ({ inputs: c.inputs, instance: { program: programOf(c.desc) } }));
  const expected = draw(unfused.plan(slots), time);
  fused.plan(slots);
  while (fused.compileNext());
  const copy = [...slots]; // a new array is a new chain for the planner, which picks the compiled programs up
  const steps = fused.plan(copy);
  const actual = draw(steps, time);
  const what = chain.map((c) => `${c.desc.type}${JSON.stringify(c.inputs)}`).join(' → ');
  for (let i = 0; i < expected.length; i++) {
    if (Math.abs(expected[i]! - actual[i]!) > TOLERANCE) {
      const p = i >> 2;
      assert.unreachable(`${what}: pixel ${p % W},${Math.floor(p / W)} channel ${i & 3}: unfused ${expected[i]}, fused ${actual[i]}`);
    }
  }
  return fused.stats().fusedRuns;
}

const countCopies = (chain: ReadonlyArray<{ desc: IsfDescriptor }>): number => chain.filter((c) => c.desc.passes[c.desc.passes.length - 1]?.target !== undefined).length;

// Deterministic random numbers: the same chains and values on every run.
let seed = 0x2f6b1d;
const rand = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function randomValue(i: IsfInput): unknown {
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
      return Array.isArray(lo) && Array.isArray(hi) ? [lo[0]! + rand() * (hi[0]! - lo[0]!), lo[1]! + rand() * (hi[1]! - lo[1]!)] : [rand(), rand()];
    default:
      return undefined;
  }
}

const randomInputs = (d: IsfDescriptor): Record<string, unknown> => Object.fromEntries(d.inputs.filter((i) => i.type !== 'image').map((i) => [i.name, randomValue(i)]));

test('the analysis fuses the single-read, single-pass built-ins and refuses the others', () => {
  const names = fusable.map((d) => d.type);
  for (const t of ['hue_shift', 'saturation', 'levels', 'posterize', 'invert', 'mirror', 'kaleidoscope', 'rotate_zoom', 'swirl', 'wave_distort', 'pixelate', 'tile', 'vignette', 'scanlines']) {
    assert.ok(names.includes(t), `${t} should fuse`);
  }
  // Several reads (rgb_split, sharpen, edge_detect, glitch, halftone), PASSES (blur, bloom, trails, feedback).
  for (const t of ['rgb_split', 'sharpen', 'edge_detect', 'glitch', 'halftone', 'blur', 'bloom', 'trails', 'feedback']) {
    assert.not.ok(names.includes(t), `${t} must not fuse`);
  }
  assert.is(analyze(byType('hue_shift')).fusable && (analyze(byType('hue_shift')) as { read: string }).read, 'pixel');
  assert.is(analyze(byType('kaleidoscope')).fusable && (analyze(byType('kaleidoscope')) as { read: string }).read, 'remap');
  // Unsure means no: a read in a loop, a second image, a read outside main.
  const variant = (fragment: string, extra: IsfInput[] = []): IsfDescriptor => ({ ...byType('invert'), fragment, inputs: [...byType('invert').inputs, ...extra] });
  assert.not.ok(analyze(variant('void main() { vec4 c = vec4(0.0); for (int i = 0; i < 2; i++) c += IMG_THIS_PIXEL(inputImage); gl_FragColor = c; }')).fusable);
  assert.not.ok(analyze(variant('void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage); }', [{ name: 'other', type: 'image' }])).fusable);
  assert.not.ok(analyze(variant('vec4 f() { return IMG_THIS_PIXEL(inputImage); }\nvoid main() { gl_FragColor = f(); }')).fusable);
  assert.not.ok(analyze(variant('void main() { gl_FragColor = texture2D(inputImage, isf_FragNormCoord); }')).fusable);
  assert.ok(analyze(variant('void main() { if (TIME > 1.0) { gl_FragColor = IMG_THIS_PIXEL(inputImage); return; } gl_FragColor = vec4(1.0); }')).fusable);
});

test('an operator-style effect: helpers after main, a macro, an early return, a global shared name', () => {
  const custom: IsfDescriptor = {
    ...byType('invert'),
    type: 'custom_op',
    inputs: [{ name: 'inputImage', type: 'image' }, { name: 'gain', type: 'float', default: 1.5, min: 0, max: 4 }],
    fragment: [
      '#define TAU 6.2831853',
      'const float amount = 0.25;',
      'vec3 shape(vec3 c);',
      'void main() {',
      '  vec4 c = IMG_NORM_PIXEL(inputImage, isf_FragNormCoord);',
      '  if (gl_FragCoord.x < 8.0) { gl_FragColor = vec4(c.bgr, 1.0); return; }',
      '  gl_FragColor = vec4(shape(c.rgb), c.a);',
      '}',
      'vec3 shape(vec3 c) { return clamp(c * gain + amount * sin(TAU * isf_FragNormCoord.x), 0.0, 1.0); }',
    ].join('\n'),
  };
  assert.ok(analyze(custom).fusable);
  const runs = compare([
    { desc: byType('invert'), inputs: { amount: 0.7 } },
    { desc: custom, inputs: { gain: 0.8 } },
    // Gains of 2 and more turn a 1/255 difference in how the GPU rounds to 8 bits (it is not exactly
    // floor(x * 255 + 0.5) at every value) into more than the 2/255 tolerance; the built-ins stay within it.
    { desc: custom, inputs: { gain: 1.5 } },
  ]);
  assert.equal(runs, [['invert', 'custom_op', 'custom_op']]);
});

test('runs: a remap starts a run, pixel reads extend it, non-fusable effects split the chain', () => {
  const t = (...types: string[]): IsfDescriptor[] => types.map(byType);
  assert.equal(fusableRuns(t('hue_shift', 'saturation', 'blur', 'invert', 'posterize')), [[0, 2], [3, 5]]);
  assert.equal(fusableRuns(t('hue_shift', 'kaleidoscope', 'invert')), [[1, 3]]);
  assert.equal(fusableRuns(t('mirror', 'kaleidoscope')), []);
});

test('every ordered pair of fusable built-ins: fused equals unfused within 2/255', () => {
  const t0 = performance.now();
  let fusedPairs = 0;
  for (const a of fusable) {
    for (const b of fusable) {
      const runs = compare([
        { desc: a, inputs: randomInputs(a) },
        { desc: b, inputs: randomInputs(b) },
      ]);
      if (runs.length === 1) fusedPairs++;
    }
  }
  const pixelReads = fusable.filter((d) => (analyze(d) as { read: string }).read === 'pixel').length;
  assert.is(fusedPairs, fusable.length * pixelReads, 'every pair ending in a pixel-read effect is drawn fused');
  process.stdout.write(`pairs: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
});

test('random runs of 3-8 fusable effects with random values: fused equals unfused', () => {
  const pixel = fusable.filter((d) => (analyze(d) as { read: string }).read === 'pixel');
  for (let n = 0; n < 24; n++) {
    const len = 3 + Math.floor(rand() * 6);
    // Mostly one long run (a random first effect, then pixel reads); sometimes any fusable effect anywhere.
    const mixed = n % 3 === 2;
    const chain = Array.from({ length: len }, (_, i) => {
      const d = i === 0 || mixed ? pick(fusable) : pick(pixel);
      return { desc: d, inputs: randomInputs(d) };
    });
    const runs = compare(chain, rand() * 10);
    if (!mixed) assert.equal(runs, [chain.map((c) => c.desc.type)], 'drawn as one fused pass');
  }
});

test('two copies of one type keep their own values; a value change needs no recompile', () => {
  const hue = byType('hue_shift');
  const runs = compare([
    { desc: byType('levels'), inputs: { gamma: 1.4 } },
    { desc: hue, inputs: { shift: 0.1 } },
    { desc: hue, inputs: { shift: 0.55 } },
  ]);
  assert.equal(runs, [['levels', 'hue_shift', 'hue_shift']]);
  // Same chain, other values: the fused program of the first comparison serves (the planner queues nothing).
  compare([
    { desc: byType('levels'), inputs: { gamma: 0.7 } },
    { desc: hue, inputs: { shift: 0.8 } },
    { desc: hue, inputs: { shift: 0.05, speed: 0.3 } },
  ]);
  assert.not.ok(fused.compileNext(), 'no compile work for new values');
});

test('a fused run between two non-fusable effects', () => {
  const runs = compare([
    { desc: byType('blur'), inputs: { radius: 5 } },
    { desc: byType('kaleidoscope'), inputs: { segments: 5, zoom: 1.3 } },
    { desc: byType('posterize'), inputs: { levels: 5 } },
    { desc: byType('vignette'), inputs: {} },
    { desc: byType('scanlines'), inputs: { spacing: 3 } },
    { desc: byType('rgb_split'), inputs: { amount: 0.03 } },
  ]);
  assert.equal(runs, [['kaleidoscope', 'posterize', 'vignette', 'scanlines']]);
  assert.is(fused.stats().passes, 1 + byType('blur').passes.length + countCopies([{ desc: byType('blur') }]) + 1);
});

test('a run that does not compile is logged once and drawn unfused', () => {
  const broken: IsfDescriptor = { ...byType('invert'), type: 'broken_fuse', fragment: 'void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) * undefinedThing; }' };
  const logs: unknown[] = [];
  const f = new Fuser(gl, quad, W, H, true);
  f.onLog = (msg, fields) => logs.push({ msg, fields });
  // The unfused program of the broken type cannot compile either; a stand-in draws it (the planner never calls it).
  const slots: FuseSlot[] = [
    { inputs: {}, instance: { program: programOf(byType('invert')) } },
    { inputs: {}, instance: { program: { desc: broken, render: () => {} } as unknown as IsfProgram } },
  ];
  f.plan(slots);
  while (f.compileNext());
  f.plan([...slots]);
  f.plan([...slots]);
  while (f.compileNext());
  assert.is(logs.length, 1);
  assert.match(JSON.stringify(logs[0]), /broken_fuse/);
  assert.equal(f.stats().fusedRuns, []);
  assert.is(f.stats().passes, 2);
  f.destroy();
});

test.after(() => {
  process.stdout.write(`fuse test: ${fusable.length} fusable built-ins, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  unfused.destroy();
  fused.destroy();
  for (const p of programs.values()) p.destroy();
  for (const t of ping) t.destroy();
  gl.deleteTexture(input);
  quad.destroy();
});

test.run();
