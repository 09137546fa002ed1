// Pixel tests for every built-in effect in assets/effects: known input in, expected colors out at chosen points.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { DEFAULT_PALETTE, paletteUniform } from '../../src/shared/palette.js';
import { IsfProgram } from '../../workers/render/isf-program.js';
import { isfDate } from '../../workers/render/isf-builtins.js';
import { createTarget, uploadRgba } from '../../workers/render/targets.js';
import { Quad } from '../../workers/render/gl-util.js';
import { createTestGl, loadBuiltin, renderIsf } from '../helpers/gl.js';
import { checkIsfFolder } from '../helpers/isf-assets.js';
import { testAudioFrame, type TestAudio } from '../helpers/audio-frame.js';

type Rgba = [number, number, number, number];
type Pixels = (x: number, y: number) => Rgba;

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EFFECTS_DIR = join(ROOT, 'assets', 'effects');
const S = 64;
const gl = createTestGl(S, S);
const covered = new Set<string>();

async function effect(type: string): Promise<IsfDescriptor> {
  covered.add(type);
  return loadBuiltin('effects', `${type}.fs`);
}

function run(
  desc: IsfDescriptor,
  input: Pixels,
  opts: { values?: Record<string, unknown>; time?: number; frames?: number; palette?: string[]; audio?: TestAudio } = {},
) {
  const { audio, ...rest } = opts;
  const frameAudio = audio ? testAudioFrame(gl, audio) : undefined;
  try {
    return renderIsf(gl, desc, { width: S, height: S, input, ...rest, ...(frameAudio ? { audio: frameAudio } : {}) });
  } finally {
    frameAudio?.textures?.destroy();
  }
}

const solid =
  (r: number, g: number, b: number): Pixels =>
  () => [r, g, b, 255];
/** Left half (x < 32) one color, right half another. */
const split =
  (l: [number, number, number], r: [number, number, number]): Pixels =>
  (x) =>
    x < S / 2 ? [...l, 255] : [...r, 255];
const xRamp: Pixels = (x) => [x * 4, x * 4, x * 4, 255];
const xyRamp: Pixels = (x, y) => [x * 4, y * 4, 0, 255];

function near(actual: readonly number[], expected: readonly number[], tol: number, what: string): void {
  for (let i = 0; i < expected.length; i++) {
    if (Math.abs(actual[i]! - expected[i]!) > tol) {
      assert.unreachable(`${what}: got (${actual.join(',')}), expected (${expected.join(',')}) ±${tol}`);
    }
  }
}

const to255 = (v: number): number => Math.round(Math.min(1, Math.max(0, v)) * 255);
const luma = (r: number, g: number, b: number): number => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const hex = (h: string): [number, number, number] => {
  const v = Number.parseInt(h.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
};
const def = (desc: IsfDescriptor, name: string): unknown => desc.inputs.find((i) => i.name === name)?.default;

/**
 * Renders a sequence of different input frames through one program (its persistent buffers survive between
 * frames, unlike separate renderIsf calls), reading back only the last frame.
 */
function renderSequence(desc: IsfDescriptor, frames: Pixels[], values: Record<string, unknown> = {}): (x: number, y: number) => Rgba {
  const quad = new Quad(gl);
  const out = createTarget(gl, S, S);
  const tex = gl.createTexture()!;
  const program = IsfProgram.create(gl, desc, S, S, quad);
  try {
    const palette = paletteUniform(DEFAULT_PALETTE);
    frames.forEach((fn, i) => {
      const px = new Uint8Array(S * S * 4);
      // GL orientation (bottom row first), as the chain hands textures to effects.
      for (let y = 0; y < S; y++) for (let x = 0; x < S; x++) px.set(fn(x, y), ((S - 1 - y) * S + x) * 4);
      uploadRgba(gl, tex, S, S, px);
      program.render({
        input: tex,
        inputSize: [S, S],
        target: out.framebuffer,
        time: i / 30,
        timeDelta: i === 0 ? 0 : 1 / 30,
        frameIndex: i,
        date: isfDate(),
        palette,
        values,
      });
    });
    const raw = new Uint8Array(S * S * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, out.framebuffer);
    gl.readPixels(0, 0, S, S, gl.RGBA, gl.UNSIGNED_BYTE, raw);
    return (x, y) => {
      const i = ((S - 1 - y) * S + x) * 4;
      return [raw[i]!, raw[i + 1]!, raw[i + 2]!, raw[i + 3]!];
    };
  } finally {
    program.destroy();
    gl.deleteTexture(tex);
    out.destroy();
    quad.destroy();
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The folder as a whole.

test('every effect file parses as an effect with NAME, DESCRIPTION, CATEGORIES; at least 24', async () => {
  await checkIsfFolder(EFFECTS_DIR, 'effect', 24);
});

// ---------------------------------------------------------------------------------------------------------------
// Color.

test('invert: (255,0,0) becomes (0,255,255); alpha kept', async () => {
  const d = await effect('invert');
  near(run(d, solid(255, 0, 0)).at(10, 10), [0, 255, 255, 255], 1, 'red');
  near(run(d, solid(10, 100, 200)).at(40, 50), [245, 155, 55, 255], 1, 'mixed');
  near(run(d, solid(10, 100, 200), { values: { amount: 0 } }).at(40, 50), [10, 100, 200, 255], 1, 'amount 0');
});

test('hue_shift: a quarter turn takes red to chartreuse and blue to rose; grey stays grey', async () => {
  const d = await effect('hue_shift');
  assert.is(def(d, 'shift'), 0.25);
  near(run(d, solid(255, 0, 0)).at(5, 5), [128, 255, 0], 2, 'red');
  near(run(d, solid(0, 0, 255)).at(5, 5), [255, 0, 128], 2, 'blue');
  near(run(d, solid(128, 128, 128)).at(5, 5), [128, 128, 128], 1, 'grey');
  near(run(d, solid(255, 0, 0), { values: { shift: 1 / 3 } }).at(5, 5), [0, 255, 0], 2, 'red + 1/3');
});

test('saturation: colors move away from their luminance by the default amount; grey unchanged', async () => {
  const d = await effect('saturation');
  const k = def(d, 'amount') as number;
  assert.ok(k > 1, 'default should boost saturation visibly');
  const [r, g, b] = [200, 100, 50];
  const l = luma(r, g, b) / 255;
  const expect = [r, g, b].map((c) => to255(l + k * (c / 255 - l)));
  near(run(d, solid(r, g, b)).at(20, 20), expect, 2, 'orange');
  near(run(d, solid(90, 90, 90)).at(20, 20), [90, 90, 90], 1, 'grey');
  const l2 = luma(200, 100, 50);
  near(run(d, solid(200, 100, 50), { values: { amount: 0 } }).at(1, 1), [l2, l2, l2], 2, 'amount 0 is greyscale');
});

test('brightness_contrast: default contrast stretches around mid grey', async () => {
  const d = await effect('brightness_contrast');
  const c = def(d, 'contrast') as number;
  for (const v of [64, 128, 200]) {
    const e = to255((v / 255 - 0.5) * c + 0.5);
    near(run(d, solid(v, v, v)).at(30, 30), [e, e, e], 2, `grey ${v}`);
  }
  near(run(d, solid(100, 100, 100), { values: { brightness: 0.2, contrast: 1 } }).at(3, 3), [151, 151, 151], 2, 'brightness +0.2');
});

test('levels: input black/white points clip, the middle is stretched', async () => {
  const d = await effect('levels');
  const lo = def(d, 'inBlack') as number;
  const hi = def(d, 'inWhite') as number;
  near(run(d, solid(10, 10, 10)).at(1, 1), [0, 0, 0], 1, 'below black point');
  near(run(d, solid(245, 245, 245)).at(1, 1), [255, 255, 255], 1, 'above white point');
  const e = to255((64 / 255 - lo) / (hi - lo));
  near(run(d, solid(64, 64, 64)).at(1, 1), [e, e, e], 2, 'grey 64');
  const g = to255(Math.sqrt(128 / 255));
  near(run(d, solid(128, 128, 128), { values: { gamma: 2, inBlack: 0, inWhite: 1 } }).at(1, 1), [g, g, g], 2, 'gamma 2');
});

test('posterize: four steps per channel by default', async () => {
  const d = await effect('posterize');
  assert.is(def(d, 'levels'), 4);
  near(run(d, solid(30, 100, 150)).at(1, 1), [0, 85, 170], 1, 'steps');
  near(run(d, solid(200, 255, 64)).at(1, 1), [255, 255, 85], 1, 'top steps');
});

test('threshold: pure black below the default level, pure white above', async () => {
  const d = await effect('threshold');
  const r = run(d, split([102, 102, 102], [153, 153, 153]));
  near(r.at(10, 10), [0, 0, 0, 255], 0, 'luma 0.4');
  near(r.at(50, 10), [255, 255, 255, 255], 0, 'luma 0.6');
  near(run(d, solid(0, 0, 255)).at(5, 5), [0, 0, 0], 0, 'blue is dark');
  near(run(d, split([102, 102, 102], [153, 153, 153]), { values: { invert: true } }).at(10, 10), [255, 255, 255], 0, 'swapped');
});

test('solarize: channels above the threshold are inverted, the rest kept', async () => {
  const d = await effect('solarize');
  near(run(d, solid(200, 50, 100)).at(2, 2), [55, 50, 100], 1, 'mixed');
  near(run(d, solid(255, 255, 255)).at(2, 2), [0, 0, 0], 1, 'white');
});

test('color_tint: colorize by default; white goes halfway to the tint', async () => {
  const d = await effect('color_tint');
  const t = def(d, 'tint') as number[];
  const a = def(d, 'amount') as number;
  near(
    run(d, solid(255, 255, 255)).at(8, 8),
    t.slice(0, 3).map((c) => to255(1 + (c - 1) * a)),
    2,
    'white',
  );
  const l = luma(128, 128, 128) / 255;
  near(
    run(d, solid(128, 128, 128)).at(8, 8),
    t.slice(0, 3).map((c) => to255(l + (l * c - l) * a)),
    2,
    'grey',
  );
  near(run(d, solid(0, 0, 0)).at(8, 8), [0, 0, 0], 1, 'black');
});

test('palette_map: every output pixel is a palette color, dark to the first and bright to the last', async () => {
  const d = await effect('palette_map');
  const pal = DEFAULT_PALETTE.map(hex);
  const r = run(d, xRamp);
  const seen = new Set<number>();
  for (let x = 0; x < S; x++) {
    const px = r.at(x, 20);
    const k = pal.findIndex((c) => c.every((v, i) => Math.abs(v - px[i]!) <= 1));
    assert.ok(k >= 0, `x=${x}: (${px.join(',')}) is not a palette color`);
    seen.add(k);
  }
  assert.is(seen.size, pal.length, 'every palette color appears along a full ramp');
  near(r.at(0, 20), pal[0]!, 1, 'black → first');
  near(r.at(63, 20), pal[pal.length - 1]!, 1, 'white → last');
  const custom = run(d, xRamp, { palette: ['#112233', '#445566'] });
  near(custom.at(2, 2), [0x11, 0x22, 0x33], 1, 'custom palette dark');
  near(custom.at(60, 2), [0x44, 0x55, 0x66], 1, 'custom palette bright');
});

test('chroma_key: green becomes the background, other colors pass', async () => {
  const d = await effect('chroma_key');
  near(run(d, solid(0, 255, 0)).at(5, 5), [0, 0, 0, 255], 1, 'green keyed');
  near(run(d, solid(0, 200, 20)).at(5, 5), [0, 0, 0, 255], 1, 'darker green keyed');
  near(run(d, solid(255, 0, 0)).at(5, 5), [255, 0, 0, 255], 1, 'red kept');
  near(run(d, solid(255, 255, 255)).at(5, 5), [255, 255, 255, 255], 1, 'white kept');
  near(run(d, solid(0, 255, 0), { values: { background: [0, 0, 1, 1] } }).at(5, 5), [0, 0, 255], 1, 'blue background');
});

// ---------------------------------------------------------------------------------------------------------------
// Geometry and distortion.

test('rgb_split: red and blue are pulled apart horizontally at an edge', async () => {
  const d = await effect('rgb_split');
  const edge = split([255, 255, 255], [0, 0, 0]);
  const r = run(d, edge, { values: { amount: 0.05 } });
  near(r.at(34, 10), [255, 0, 0], 2, 'right of the edge: red only');
  near(r.at(29, 10), [255, 255, 0], 2, 'left of the edge: no blue');
  near(r.at(4, 10), [255, 255, 255], 0, 'far left');
  near(r.at(60, 10), [0, 0, 0], 0, 'far right');
  const byDefault = run(d, edge).at(32, 10);
  assert.ok(byDefault[0] > 100 && byDefault[1] < 5, `default split visible at the edge: (${byDefault.join(',')})`);
});

test('pixelate: every 8x8 cell is uniform and takes the color of its center', async () => {
  const d = await effect('pixelate');
  assert.is(def(d, 'size'), 8);
  const r = run(d, xyRamp);
  for (const [cx, cy] of [
    [0, 0],
    [8, 8],
    [40, 16],
  ] as const) {
    const first = r.at(cx, cy);
    for (let y = cy; y < cy + 8; y++) for (let x = cx; x < cx + 8; x++) near(r.at(x, y), first, 0, `cell ${cx},${cy} at ${x},${y}`);
  }
  near(r.at(0, 0), [14, 14, 0], 2, 'cell center color');
  assert.ok(r.at(8, 0)[0] - r.at(0, 0)[0] >= 30, 'neighbouring cells differ');
});

test('mirror: the left half is reflected onto the right', async () => {
  const d = await effect('mirror');
  const r = run(d, xyRamp);
  for (let x = 0; x < S / 2; x++) near(r.at(S - 1 - x, 17), r.at(x, 17), 1, `x=${x}`);
  near(r.at(10, 17), xyRamp(10, 17), 1, 'left half unchanged');
  const top = run(d, xyRamp, { values: { mode: 2 } });
  near(top.at(5, 60), xyRamp(5, 3), 1, 'top onto bottom');
});

test('mirror_quad: the top-left quarter appears in all four corners', async () => {
  const d = await effect('mirror_quad');
  const r = run(d, xyRamp);
  for (const [x, y] of [
    [3, 5],
    [20, 11],
    [31, 31],
  ] as const) {
    near(r.at(x, y), xyRamp(x, y), 1, `kept ${x},${y}`);
    near(r.at(S - 1 - x, y), r.at(x, y), 1, `right ${x},${y}`);
    near(r.at(x, S - 1 - y), r.at(x, y), 1, `bottom ${x},${y}`);
    near(r.at(S - 1 - x, S - 1 - y), r.at(x, y), 1, `opposite ${x},${y}`);
  }
});

test('kaleidoscope: six mirrored wedges give point symmetry around the center', async () => {
  const d = await effect('kaleidoscope');
  const input: Pixels = (x, y) => [x * 4, y * 4, (x + y) * 2, 255];
  const r = run(d, input);
  let changed = 0;
  for (const [x, y] of [
    [10, 20],
    [40, 8],
    [50, 50],
    [5, 33],
    [28, 60],
  ] as const) {
    near(r.at(S - 1 - x, S - 1 - y), r.at(x, y), 4, `180° at ${x},${y}`);
    near(r.at(x, S - 1 - y), r.at(x, y), 4, `mirror at ${x},${y}`);
    if (Math.abs(r.at(x, y)[0] - input(x, y)[0]) > 10 || Math.abs(r.at(x, y)[1] - input(x, y)[1]) > 10) changed++;
  }
  assert.ok(changed >= 3, 'the picture is folded');
});

test('tile: two tiles across, each a half-size copy', async () => {
  const d = await effect('tile');
  // 2x2 blocks, so the half-size copy samples are exact.
  const blocks: Pixels = (x, y) => [Math.floor(x / 2) * 8, Math.floor(y / 2) * 8, 0, 255];
  const r = run(d, blocks);
  for (const [x, y] of [
    [3, 5],
    [20, 11],
    [31, 30],
    [40, 45],
  ] as const) {
    near(r.at(x, y), [(x % 32) * 8, (y % 32) * 8, 0], 1, `${x},${y}`);
  }
  near(r.at(5, 5), r.at(37, 37), 0, 'periodic');
});

test('rotate_zoom: 180° turns the picture upside down; default zoom magnifies around the center', async () => {
  const d = await effect('rotate_zoom');
  const r = run(d, xyRamp, { values: { angle: 180, zoom: 1 } });
  for (const [x, y] of [
    [3, 5],
    [20, 40],
    [50, 60],
  ] as const)
    near(r.at(x, y), xyRamp(S - 1 - x, S - 1 - y), 2, `${x},${y}`);
  const z = def(d, 'zoom') as number;
  const zr = run(d, xRamp);
  for (const x of [5, 20, 44, 60]) {
    const srcX = S / 2 + (x + 0.5 - S / 2) / z - 0.5;
    near(zr.at(x, 30), [4 * srcX], 3, `zoomed x=${x}`);
  }
});

test('wave_distort: rows shift sideways by at most the amplitude', async () => {
  const d = await effect('wave_distort');
  const r = run(d, xRamp, { values: { amplitude: 0.05 } });
  const col = Array.from({ length: S }, (_, y) => r.at(32, y)[0]);
  const span = Math.max(...col) - Math.min(...col);
  assert.ok(span > 10, `rows should be displaced (span ${span})`);
  for (const v of col) assert.ok(Math.abs(v - 128) <= 0.05 * S * 4 + 4, `displacement ${v - 128} beyond amplitude`);
  const byDefault = run(d, xRamp);
  assert.ok(
    Array.from({ length: S }, (_, y) => Math.abs(byDefault.at(32, y)[0] - 128)).some((v) => v >= 2),
    'default is visible',
  );
});

test('swirl: twists a straight ramp inside the radius, leaves corners and radial patterns alone', async () => {
  const d = await effect('swirl');
  const r = run(d, xRamp);
  near(r.at(1, 1), xRamp(1, 1), 1, 'corner outside the radius');
  assert.ok(Math.abs(r.at(32, 20)[0] - xRamp(32, 20)[0]) > 20, `inside is twisted: ${r.at(32, 20)[0]}`);
  // A pattern that depends only on the distance to the center is unchanged by any rotation around it.
  const radial: Pixels = (x, y) => {
    const v = Math.hypot(x + 0.5 - 32, y + 0.5 - 32) * 5;
    return [v, v, v, 255];
  };
  const rr = run(d, radial);
  for (const [x, y] of [
    [32, 20],
    [40, 40],
    [20, 35],
  ] as const)
    near(rr.at(x, y), radial(x, y), 4, `radial ${x},${y}`);
});

// ---------------------------------------------------------------------------------------------------------------
// Blur and stylize.

test('blur: a hard edge becomes a ramp; far from it nothing changes', async () => {
  const d = await effect('blur');
  const edge = split([0, 0, 0], [255, 255, 255]);
  for (const values of [{}, { radius: 2 }, { radius: 20 }]) {
    const r = run(d, edge, { values });
    const what = `radius ${JSON.stringify(values)}`;
    for (const x of [31, 32]) {
      const v = r.at(x, 30)[0];
      assert.ok(v > 25 && v < 230, `${what}: x=${x} should be in between, got ${v}`);
    }
    assert.ok(
      r.at(29, 30)[0] <= r.at(31, 30)[0] && r.at(31, 30)[0] < r.at(32, 30)[0] && r.at(32, 30)[0] <= r.at(34, 30)[0],
      `${what}: monotonic`,
    );
    near(r.at(1, 30), [0, 0, 0, 255], 1, `${what}: far left`);
    near(r.at(62, 30), [255, 255, 255, 255], 1, `${what}: far right`);
    near(r.at(31, 2), r.at(31, 60), 1, `${what}: vertical edge stays vertical`);
  }
  near(run(d, edge, { values: { radius: 2 } }).at(27, 5), [0, 0, 0], 1, 'radius 2 reaches no further than 2-3 px');
});

test('sharpen: an edge between greys gets an overshoot on both sides', async () => {
  const d = await effect('sharpen');
  const a = def(d, 'amount') as number;
  const r = run(d, split([64, 64, 64], [192, 192, 192]));
  const dark = 64 + a * (64 - (64 * 3 + 192) / 4);
  const light = 192 + a * (192 - (192 * 3 + 64) / 4);
  near(r.at(31, 10), [dark, dark, dark], 2, 'dark side');
  near(r.at(32, 10), [light, light, light], 2, 'light side');
  near(r.at(10, 10), [64, 64, 64], 1, 'flat dark');
  near(r.at(50, 10), [192, 192, 192], 1, 'flat light');
});

test('edge_detect: edges light up in their color, flat areas go black', async () => {
  const d = await effect('edge_detect');
  const r = run(d, split([0, 0, 0], [255, 255, 255]));
  near(r.at(31, 10), [255, 255, 255], 2, 'edge, dark side');
  near(r.at(32, 10), [255, 255, 255], 2, 'edge, light side');
  near(r.at(10, 10), [0, 0, 0], 1, 'flat black');
  near(r.at(50, 10), [0, 0, 0], 1, 'flat white');
  const red = run(d, split([255, 0, 0], [0, 0, 0])).at(31, 10);
  assert.ok(red[0] > 50 && red[1] < 3 && red[2] < 3, `neon edge keeps the red: (${red.join(',')})`);
  near(run(d, split([0, 0, 0], [255, 255, 255]), { values: { mode: 2 } }).at(10, 10), [255, 255, 255], 1, 'sketch paper');
});

test('bloom: bright areas glow onto dark neighbours; dim pictures are unchanged', async () => {
  const d = await effect('bloom');
  const square: Pixels = (x, y) => (x >= 24 && x < 40 && y >= 24 && y < 40 ? [255, 255, 255, 255] : [0, 0, 0, 255]);
  const r = run(d, square);
  near(r.at(32, 32), [255, 255, 255, 255], 0, 'square itself');
  const nearGlow = r.at(20, 32)[0];
  assert.ok(nearGlow > 20, `glow next to the square: ${nearGlow}`);
  assert.ok(r.at(1, 1)[0] < nearGlow, 'glow falls off with distance');
  near(run(d, solid(100, 100, 100)).at(10, 10), [100, 100, 100, 255], 1, 'below threshold');
});

test('vignette: center untouched, corners darkened by the default amount', async () => {
  const d = await effect('vignette');
  const [rad, soft, amt] = ['radius', 'softness', 'amount'].map((n) => def(d, n) as number) as [number, number, number];
  const r = run(d, solid(255, 255, 255));
  const expected = (x: number, y: number): number => {
    const dist = Math.hypot((x + 0.5) / S - 0.5, (y + 0.5) / S - 0.5) * Math.SQRT2;
    const t = Math.min(1, Math.max(0, (dist - (rad - soft)) / soft));
    const keep = 1 - t * t * (3 - 2 * t);
    return to255(1 - amt + amt * keep);
  };
  for (const [x, y] of [
    [32, 32],
    [0, 0],
    [32, 0],
    [63, 40],
    [10, 50],
  ] as const)
    near(r.at(x, y), [expected(x, y)], 3, `${x},${y}`);
  assert.ok(r.at(0, 0)[0] < 60, 'corners clearly dark');
});

test('scanlines: every other pair of rows is darkened, period 4', async () => {
  const d = await effect('scanlines');
  const r = run(d, solid(255, 255, 255));
  const dark = to255(1 - (def(d, 'intensity') as number));
  let darkRows = 0;
  for (let y = 0; y < S; y++) {
    const v = r.at(10, y)[0];
    assert.ok(Math.abs(v - 255) <= 1 || Math.abs(v - dark) <= 1, `row ${y}: ${v}`);
    if (Math.abs(v - dark) <= 1) darkRows++;
    if (y + 4 < S) assert.is(r.at(10, y + 4)[0], v, `period at row ${y}`);
    if (y + 2 < S) assert.is.not(r.at(10, y + 2)[0], v, `alternation at row ${y}`);
    near(r.at(50, y), r.at(10, y), 0, `rows are uniform (${y})`);
  }
  assert.is(darkRows, S / 2);
});

test('film_grain: grey gets small random noise that changes over time', async () => {
  const d = await effect('film_grain');
  const a = run(d, solid(128, 128, 128), { time: 0 });
  const b = run(d, solid(128, 128, 128), { time: 0.5 });
  const values: number[] = [];
  let differs = 0;
  for (let y = 0; y < S; y += 3) {
    for (let x = 0; x < S; x += 3) {
      const p = a.at(x, y);
      assert.ok(p[0] === p[1] && p[1] === p[2], 'mono grain by default');
      values.push(p[0]);
      if (p[0] !== b.at(x, y)[0]) differs++;
    }
  }
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  assert.ok(Math.abs(mean - 128) < 6, `mean ${mean}`);
  assert.ok(Math.max(...values) - Math.min(...values) > 10, 'visible grain');
  assert.ok(
    values.every((v) => Math.abs(v - 128) <= 0.15 * 255 * 0.5 + 2),
    'grain stays within the amount',
  );
  assert.ok(differs > values.length / 2, 'grain moves');
});

test('halftone: white stays white, black stays black, mid grey breaks into dots', async () => {
  const d = await effect('halftone');
  const w = run(d, solid(255, 255, 255));
  const k = run(d, solid(0, 0, 0));
  const g = run(d, solid(128, 128, 128));
  let lo = 255;
  let hi = 0;
  for (let y = 10; y < 40; y++) {
    for (let x = 10; x < 40; x++) {
      assert.ok(w.at(x, y)[0] >= 250, `white at ${x},${y}: ${w.at(x, y)[0]}`);
      assert.is(k.at(x, y)[0], 0);
      lo = Math.min(lo, g.at(x, y)[0]);
      hi = Math.max(hi, g.at(x, y)[0]);
    }
  }
  assert.ok(lo < 20 && hi > 100, `grey is dots and gaps (${lo}..${hi})`);
});

test('glitch: uniform pictures stay intact, a ramp gets displaced bands', async () => {
  const d = await effect('glitch');
  for (const time of [0, 0.3, 1.1]) {
    const u = run(d, solid(40, 90, 200), { time });
    for (const [x, y] of [
      [1, 1],
      [30, 30],
      [60, 10],
      [12, 50],
    ] as const)
      near(u.at(x, y), [40, 90, 200, 255], 1, `uniform at t=${time}`);
  }
  const off = run(d, xRamp, { values: { amount: 0 } });
  for (let y = 0; y < S; y += 7) near(off.at(20, y), xRamp(20, y), 1, 'amount 0 is a pass-through');
  let displaced = 0;
  for (const time of [0, 0.13, 0.26, 0.39, 0.52]) {
    const r = run(d, xRamp, { time });
    for (let y = 0; y < S; y++) if (Math.abs(r.at(20, y)[1] - 80) > 3) displaced++;
  }
  assert.ok(displaced > 0, 'some bands jump at the default amount');
  const burst = run(d, xRamp, { values: { burst: true } });
  const rows = Array.from({ length: S }, (_, y) => Math.abs(burst.at(20, y)[1] - 80) > 3).filter(Boolean).length;
  assert.ok(rows > 8, `burst displaces many rows (${rows})`);
});

// ---------------------------------------------------------------------------------------------------------------
// Time and feedback.

test('strobe: short flashes at the default rate, alternating with the picture', async () => {
  const d = await effect('strobe');
  const red = solid(255, 0, 0);
  assert.is(def(d, 'rate'), 2);
  assert.is(def(d, 'duty'), 0.25);
  // 2 flashes/s, each a quarter of the period: on in [0, 0.125), off in [0.125, 0.5), on again from 0.5.
  near(run(d, red, { time: 0.05 }).at(9, 9), [255, 255, 255], 1, 'flash phase');
  near(run(d, red, { time: 0.2 }).at(9, 9), [255, 0, 0], 1, 'picture phase');
  near(run(d, red, { time: 0.4 }).at(9, 9), [255, 0, 0], 1, 'still the picture');
  near(run(d, red, { time: 0.55 }).at(9, 9), [255, 255, 255], 1, 'next flash');
  near(run(d, red, { time: 0.2, values: { mode: 1 } }).at(9, 9), [0, 0, 0], 1, 'blackout between flashes');
  near(run(d, red, { time: 0.05, values: { running: false } }).at(9, 9), [255, 0, 0], 1, 'stopped');
  near(run(d, red, { time: 0.05, values: { running: false, flash: true } }).at(9, 9), [255, 255, 255], 1, 'single flash event');
});

test('trails: after the input goes black a fading copy stays, then disappears', async () => {
  const d = await effect('trails');
  const decay = def(d, 'decay') as number;
  const square: Pixels = (x, y) => (x >= 24 && x < 40 && y >= 24 && y < 40 ? [255, 255, 255, 255] : [0, 0, 0, 255]);
  const black = solid(0, 0, 0);
  const after3 = renderSequence(d, [square, square, black, black, black]);
  const expected = 255 * decay ** 3;
  near(after3(32, 32), [expected, expected, expected], 6, 'faded copy after 3 black frames');
  near(after3(5, 5), [0, 0, 0], 0, 'nothing outside');
  const later = renderSequence(d, [square, ...Array<Pixels>(60).fill(black)]);
  near(later(32, 32), [0, 0, 0], 1, 'gone after 60 frames');
  const live = renderSequence(d, [black, square]);
  near(live(32, 32), [255, 255, 255], 0, 'the live picture is on top');
});

test('feedback: the echo of a dot grows outward and fades', async () => {
  const d = await effect('feedback');
  const dot: Pixels = (x, y) => (Math.hypot(x + 0.5 - 32, y + 0.5 - 32) < 8 ? [255, 255, 255, 255] : [0, 0, 0, 255]);
  const black = solid(0, 0, 0);
  const r = renderSequence(d, [dot, ...Array<Pixels>(10).fill(black)]);
  const center = r(32, 32)[0];
  assert.ok(center > 40 && center < 200, `faded echo in the middle: ${center}`);
  assert.ok(r(32 + 9, 32)[0] > 20, `echo grew past the original radius: ${r(41, 32)[0]}`);
  near(r(2, 2), [0, 0, 0], 0, 'far corner stays black');
  near(renderSequence(d, [dot])(32 + 9, 32), [0, 0, 0], 0, 'first frame is just the input');
});

test('bass_pump: still without bass, zoomed toward the center at full bass', async () => {
  const d = await effect('bass_pump');
  near(run(d, xRamp, { audio: { bass: 0 } }).at(10, 32), [40, 40, 40], 1, 'no bass: the input');
  // Zoom 1.2 at full bass: pixel 10 shows what lay about a sixth of the way from it to the center.
  const zoomed = run(d, xRamp, { audio: { bass: 1 } }).at(10, 32)[0];
  assert.ok(zoomed > 40 + 12, `full bass pulls the picture in: ${zoomed}`);
  near(run(d, xRamp, { audio: { bass: 1 }, values: { amount: 0 } }).at(10, 32), [40, 40, 40], 1, 'amount 0: still');
});

test('beat_flash: full on the beat, gone by its end; bar and onset triggers', async () => {
  const d = await effect('beat_flash');
  const blue = solid(0, 0, 255);
  near(run(d, blue, { audio: { beats: 8 } }).at(5, 5), [204, 204, 255], 2, 'on the beat: 80 % white');
  near(run(d, blue, { audio: { beats: 8.75 } }).at(5, 5), [0, 0, 255], 1, 'late in the beat: the picture');
  near(run(d, blue, { audio: { beats: 9 }, values: { trigger: 1 } }).at(5, 5), [0, 0, 255], 1, 'bar trigger: beat 2 of a bar is dark');
  near(run(d, blue, { audio: { beats: 8 }, values: { trigger: 1 } }).at(5, 5), [204, 204, 255], 2, 'bar trigger: beat 1 flashes');
  near(run(d, blue, { audio: { beats: 8.9, onset: 1 }, values: { trigger: 2 } }).at(5, 5), [204, 204, 255], 2, 'onset: flashes');
  near(run(d, blue, { audio: { beats: 8, onset: 0 }, values: { trigger: 2 } }).at(5, 5), [0, 0, 255], 1, 'no onset: dark');
});

test('spectrum_overlay: bars from the bottom as high as the spectrum, nothing in silence', async () => {
  const d = await effect('spectrum_overlay');
  const values = { usePalette: false, gap: 0, opacity: 1 };
  const full = run(d, solid(0, 0, 0), { values, audio: { spectrum: () => 1 } });
  near(full.at(20, S - 2), [51, 255, 153], 2, 'a full bin: bar color at the bottom');
  near(full.at(20, 5), [0, 0, 0], 0, 'above the bar height: the picture');
  const silent = run(d, solid(0, 0, 0), { values, audio: {} });
  near(silent.at(20, S - 2), [0, 0, 0], 0, 'silence: no bars');
  // Only the lowest bins loud: bars on the left, none on the right.
  const low = run(d, solid(0, 0, 0), { values, audio: { spectrum: (k) => (k < 32 ? 1 : 0) } });
  near(low.at(0, S - 2), [51, 255, 153], 2, 'low bins on the left');
  near(low.at(S - 1, S - 2), [0, 0, 0], 0, 'no high bins on the right');
});

test('every effect file has a pixel test above', async () => {
  const files = (await readdir(EFFECTS_DIR)).filter((f) => f.endsWith('.fs')).map((f) => f.slice(0, -3));
  const missing = files.filter((f) => !covered.has(f));
  assert.equal(missing, [], `effects without a pixel test: ${missing.join(', ')}`);
});

test.run();
