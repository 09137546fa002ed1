// Pixel tests for every built-in generator (assets/generators), the no-signal card, and the source presets.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseIsf } from '../../src/catalog/isf-parse.js';
import type { IsfDescriptor, IsfInput } from '../../src/shared/isf-types.js';
import { DEFAULT_PALETTE } from '../../src/shared/palette.js';
import { createTestGl, loadBuiltin, renderIsf } from '../helpers/gl.js';
import { testAudioFrame, type TestAudio } from '../helpers/audio-frame.js';
import { checkIsfFolder } from '../helpers/isf-assets.js';

type Rgba = [number, number, number, number];

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GEN_DIR = join(ROOT, 'assets', 'generators');
const PRESET_DIR = join(ROOT, 'assets', 'presets');
const S = 64;
const gl = createTestGl(S, S);
const covered = new Set<string>();

async function generator(type: string): Promise<IsfDescriptor> {
  covered.add(type);
  return loadBuiltin('generators', `${type}.fs`);
}

function run(
  desc: IsfDescriptor,
  opts: { values?: Record<string, unknown>; time?: number; palette?: string[]; size?: number; audio?: TestAudio } = {},
) {
  const { audio, ...rest } = opts;
  const size = rest.size ?? S;
  const frameAudio = audio ? testAudioFrame(gl, audio) : undefined;
  try {
    return renderIsf(gl, desc, { width: size, height: size, ...rest, ...(frameAudio ? { audio: frameAudio } : {}) });
  } finally {
    frameAudio?.textures?.destroy();
  }
}

type Result = ReturnType<typeof run>;

function near(actual: readonly number[], expected: readonly number[], tol: number, what: string): void {
  for (let i = 0; i < expected.length; i++) {
    if (Math.abs(actual[i]! - expected[i]!) > tol) {
      assert.unreachable(`${what}: got (${actual.join(',')}), expected (${expected.join(',')}) ±${tol}`);
    }
  }
}

const hex = (h: string): [number, number, number] => {
  const v = Number.parseInt(h.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
};
const to255 = (v: number): number => Math.round(Math.min(1, Math.max(0, v)) * 255);
const def = (desc: IsfDescriptor, name: string): unknown => desc.inputs.find((i) => i.name === name)?.default;

/** Opaque everywhere, and the number of distinct colors (a uniform frame has 1). */
function checkFrame(r: Result, what: string): number {
  const colors = new Set<number>();
  for (let i = 0; i < r.pixels.length; i += 4) {
    if (r.pixels[i + 3] !== 255) assert.unreachable(`${what}: alpha ${r.pixels[i + 3]} at pixel ${i / 4}`);
    colors.add((r.pixels[i]! << 16) | (r.pixels[i + 1]! << 8) | r.pixels[i + 2]!);
  }
  return colors.size;
}

function differingPixels(a: Result, b: Result): number {
  let n = 0;
  for (let i = 0; i < a.pixels.length; i += 4) {
    if (
      Math.abs(a.pixels[i]! - b.pixels[i]!) +
        Math.abs(a.pixels[i + 1]! - b.pixels[i + 1]!) +
        Math.abs(a.pixels[i + 2]! - b.pixels[i + 2]!) >
      6
    )
      n++;
  }
  return n;
}

/** The generic contract of an animated pattern: opaque, not flat, and moving. */
async function animated(type: string, minColors = 20, t0 = 0.5, t1 = 1.7): Promise<[Result, Result]> {
  const d = await generator(type);
  const a = run(d, { time: t0 });
  const b = run(d, { time: t1 });
  const n = checkFrame(a, type);
  assert.ok(n >= minColors, `${type}: only ${n} distinct colors`);
  checkFrame(b, type);
  const moved = differingPixels(a, b);
  assert.ok(moved > (S * S) / 50, `${type}: only ${moved} pixels change between t=${t0} and t=${t1}`);
  return [a, b];
}

// ---------------------------------------------------------------------------------------------------------------
// The folders as a whole.

test('every generator file parses as a generator with NAME, DESCRIPTION, CATEGORIES; at least 9', async () => {
  await checkIsfFolder(GEN_DIR, 'generator', 9);
});

function valueFits(input: IsfInput, v: unknown): boolean {
  switch (input.type) {
    case 'float':
      return typeof v === 'number' && v >= (input.min as number) && v <= (input.max as number);
    case 'long':
      return typeof v === 'number' && (input.values ?? []).includes(v);
    case 'bool':
    case 'event':
      return typeof v === 'boolean';
    case 'color':
      return Array.isArray(v) && v.length === 4 && v.every((c) => typeof c === 'number' && c >= 0 && c <= 1);
    case 'point2D':
      return Array.isArray(v) && v.length === 2 && v.every((c) => typeof c === 'number');
    default:
      return false;
  }
}

test('every preset names an existing generator, only its inputs, with valid values, and renders', async () => {
  const files = (await readdir(PRESET_DIR)).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 6, `only ${files.length} presets`);
  const names = new Set<string>();
  for (const f of files) {
    assert.match(f, /^[a-z0-9_]+\.json$/, `${f}: file name`);
    const preset = JSON.parse(await readFile(join(PRESET_DIR, f), 'utf8')) as { name?: unknown; source?: unknown; inputs?: unknown };
    assert.equal(Object.keys(preset).sort(), ['inputs', 'name', 'source'], `${f}: keys`);
    assert.ok(typeof preset.name === 'string' && preset.name.length > 0, `${f}: name`);
    assert.not.ok(names.has(preset.name as string), `${f}: duplicate preset name`);
    names.add(preset.name as string);
    assert.type(preset.source, 'string', `${f}: source`);
    const desc = await loadBuiltin('generators', `${preset.source as string}.fs`).catch(() => null);
    assert.ok(desc, `${f}: source "${String(preset.source)}" is not a generator`);
    assert.is(desc!.kind, 'generator');
    const inputs = preset.inputs as Record<string, unknown>;
    assert.ok(inputs && typeof inputs === 'object' && Object.keys(inputs).length > 0, `${f}: inputs`);
    for (const [k, v] of Object.entries(inputs)) {
      const input = desc!.inputs.find((i) => i.name === k);
      assert.ok(input, `${f}: "${k}" is not an input of ${desc!.type}`);
      assert.ok(valueFits(input!, v), `${f}: ${k} = ${JSON.stringify(v)} does not fit ${input!.type}`);
    }
    // The preset must render, opaque, and look different from the generator's defaults.
    const r = run(desc!, { values: inputs, time: 1, size: 32 });
    checkFrame(r, f);
    assert.ok(differingPixels(r, run(desc!, { time: 1, size: 32 })) > 0, `${f}: looks like the defaults`);
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Each generator.

test('solid_color: its default color everywhere, opaque', async () => {
  const d = await generator('solid_color');
  const c = (def(d, 'color') as number[]).slice(0, 3).map(to255);
  const r = run(d, { time: 3.3 });
  for (let y = 0; y < S; y += 9) for (let x = 0; x < S; x += 9) near(r.at(x, y), [...c, 255], 1, `${x},${y}`);
  near(run(d, { values: { color: [1, 0, 0, 1] } }).at(40, 40), [255, 0, 0, 255], 1, 'set color');
  const pulsing = run(d, { values: { pulse: 1, pulseRate: 1 }, time: 0.5 }).at(3, 3);
  near(pulsing, [0, 0, 0, 255], 1, 'full pulse at its dark point');
});

test('color_bars: eight bars at 75% over a grey ramp', async () => {
  const d = await generator('color_bars');
  const level = to255(def(d, 'level') as number);
  const r = run(d);
  const bars = [
    [1, 1, 1],
    [1, 1, 0],
    [0, 1, 1],
    [0, 1, 0],
    [1, 0, 1],
    [1, 0, 0],
    [0, 0, 1],
    [0, 0, 0],
  ];
  bars.forEach((b, i) => {
    for (const y of [2, 30, 50]) near(r.at(i * 8 + 4, y), [...b.map((v) => v * level), 255], 1, `bar ${i} at y=${y}`);
  });
  const ramp = [2, 20, 40, 62].map((x) => r.at(x, 62));
  ramp.forEach((p) => assert.ok(p[0] === p[1] && p[1] === p[2], 'ramp is grey'));
  assert.ok(ramp[0]![0] < ramp[1]![0] && ramp[1]![0] < ramp[2]![0] && ramp[2]![0] < ramp[3]![0], 'ramp rises to the right');
  near(run(d, { values: { ramp: false, level: 1 } }).at(4, 62), [255, 255, 255, 255], 1, 'no ramp, full level');
});

test('gradient: from the start color on the left to the end color on the right', async () => {
  const d = await generator('gradient');
  const a = (def(d, 'colorA') as number[]).slice(0, 3).map(to255);
  const b = (def(d, 'colorB') as number[]).slice(0, 3).map(to255);
  const r = run(d);
  near(r.at(0, 32), a, 4, 'left');
  near(r.at(63, 32), b, 4, 'right');
  near(
    r.at(31, 32),
    a.map((v, i) => (v + b[i]!) / 2),
    4,
    'middle',
  );
  near(r.at(20, 0), r.at(20, 63), 0, 'columns are uniform');
  const up = run(d, { values: { angle: 90 } });
  near(up.at(32, 63), a, 4, 'angle 90: start at the bottom');
  near(up.at(32, 0), b, 4, 'angle 90: end at the top');
});

test('palette_sweep: shows one palette color at a time and follows palette changes', async () => {
  const d = await generator('palette_sweep');
  const pal = DEFAULT_PALETTE.map(hex);
  // speed 0.5 colors/s: t=0 is color 0, t=2.1 is color 1 (before its crossfade window).
  const r0 = run(d, { time: 0 });
  const r1 = run(d, { time: 2.1 });
  for (const [x, y] of [
    [0, 0],
    [30, 30],
    [63, 63],
  ] as const) {
    near(r0.at(x, y), [...pal[0]!, 255], 1, `t=0 at ${x},${y}`);
    near(r1.at(x, y), [...pal[1]!, 255], 1, `t=2.1 at ${x},${y}`);
  }
  const custom = ['#102030', '#405060', '#708090'];
  near(run(d, { time: 0, palette: custom }).at(5, 5), hex(custom[0]!), 1, 'custom palette, first color');
  near(run(d, { time: 2.1, palette: custom }).at(5, 5), hex(custom[1]!), 1, 'custom palette, second color');
  near(run(d, { time: 6.1, palette: custom }).at(5, 5), hex(custom[0]!), 1, 'wraps after the last color');
  const mid = run(d, { time: 1.9 }).at(5, 5);
  assert.ok(!pal.some((c) => c.every((v, i) => Math.abs(v - mid[i]!) <= 1)), `crossfading at t=1.9: (${mid.join(',')})`);
});

test('checkerboard: alternating square cells of the two colors', async () => {
  const d = await generator('checkerboard');
  const a = (def(d, 'colorA') as number[]).slice(0, 3).map(to255);
  const b = (def(d, 'colorB') as number[]).slice(0, 3).map(to255);
  const r = run(d);
  const isAB = (p: Rgba): boolean => [a, b].some((c) => c.every((v, i) => Math.abs(v - p[i]!) <= 1));
  for (let y = 0; y < S; y += 5) for (let x = 0; x < S; x += 5) assert.ok(isAB(r.at(x, y)), `${x},${y} is one of the two colors`);
  near(r.at(4, 4), r.at(12, 12), 0, 'diagonal cells match');
  assert.is.not(r.at(4, 4)[0], r.at(12, 4)[0], 'neighbouring cells differ');
  near(r.at(0, 0), r.at(7, 7), 0, 'a cell is uniform');
  assert.ok(differingPixels(r, run(d, { values: { scroll: [0.5, 0] }, time: 1 })) > 1000, 'scroll moves it');
});

test('rings: concentric (mirror-symmetric) palette rings that move', async () => {
  const [a] = await animated('rings', 3);
  const pal = [...DEFAULT_PALETTE.map(hex), [0, 0, 0]];
  for (const [x, y] of [
    [10, 20],
    [5, 40],
    [25, 3],
    [30, 50],
  ] as const) {
    near(a.at(S - 1 - x, y), a.at(x, y), 2, `mirror x at ${x},${y}`);
    near(a.at(x, S - 1 - y), a.at(x, y), 2, `mirror y at ${x},${y}`);
  }
  let onPalette = 0;
  for (let x = 0; x < S; x++) if (pal.some((c) => c.every((v, i) => Math.abs(v - a.at(x, 32)[i]!) <= 1))) onPalette++;
  assert.ok(onPalette > S / 2, 'rings take palette colors');
});

test('plasma: smooth, colorful, moving', async () => {
  const [a] = await animated('plasma', 200);
  // Smooth: neighbouring pixels are close.
  for (const [x, y] of [
    [10, 10],
    [30, 40],
    [50, 20],
  ] as const)
    near(a.at(x + 1, y), a.at(x, y), 40, `smooth at ${x},${y}`);
  // Interference: along a row the color rises and falls again (not a plain ramp).
  const row = Array.from({ length: S }, (_, x) => a.at(x, 32)[0] + a.at(x, 32)[1] + a.at(x, 32)[2]);
  const turns = row.slice(1, -1).filter((v, i) => (v - row[i]!) * (row[i + 2]! - v) < 0).length;
  assert.ok(turns >= 1, 'row is not monotonic');
  // Palette mode blends only palette colors: with red and blue, green stays 0 and red + blue is full.
  const d = await generator('plasma');
  const p = run(d, { values: { usePalette: true }, palette: ['#FF0000', '#0000FF'], time: 0.5 });
  for (let y = 0; y < S; y += 7) {
    for (let x = 0; x < S; x += 7) {
      const px = p.at(x, y);
      assert.ok(px[1] <= 1 && Math.abs(px[0] + px[2] - 255) <= 2, `palette blend at ${x},${y}: (${px.join(',')})`);
    }
  }
});

test('noise: grey by default, varied, drifting', async () => {
  const [a] = await animated('noise', 40);
  for (let i = 0; i < a.pixels.length; i += 4 * 37)
    assert.ok(a.pixels[i] === a.pixels[i + 1] && a.pixels[i + 1] === a.pixels[i + 2], 'grey');
  const d = await generator('noise');
  const color = run(d, { values: { colorMode: 1 } });
  assert.ok(
    Array.from({ length: 40 }, (_, k) => color.at(k, k)).some((p) => p[0] !== p[1] || p[1] !== p[2]),
    'color mode is colored',
  );
});

test('tunnel: dark in the middle, bright walls, flying forward', async () => {
  const [a] = await animated('tunnel', 3);
  const lum = (p: Rgba): number => p[0] + p[1] + p[2];
  assert.ok(lum(a.at(32, 32)) < 60, `center fades out: ${a.at(32, 32).join(',')}`);
  const walls = [
    [2, 2],
    [60, 5],
    [5, 58],
    [58, 58],
    [32, 2],
    [2, 32],
  ].map(([x, y]) => lum(a.at(x!, y!)));
  assert.ok(Math.max(...walls) > 200, 'walls are lit');
});

test('shapes: shapes over a black background, moving', async () => {
  const [a] = await animated('shapes', 3);
  let background = 0;
  for (let i = 0; i < a.pixels.length; i += 4) if (a.pixels[i] === 0 && a.pixels[i + 1] === 0 && a.pixels[i + 2] === 0) background++;
  const share = background / (S * S);
  assert.ok(share > 0.3 && share < 0.97, `background share ${share.toFixed(2)}`);
});

test('starfield: mostly black sky with bright stars that move', async () => {
  const [a] = await animated('starfield', 5);
  const lum = Array.from({ length: S * S }, (_, i) => a.pixels[i * 4]! + a.pixels[i * 4 + 1]! + a.pixels[i * 4 + 2]!).sort((x, y) => x - y);
  assert.ok(lum[Math.floor(lum.length / 2)]! < 30, 'the sky is dark');
  assert.ok(lum[lum.length - 1]! > 300, 'some stars are bright');
});

test('no_signal card: dark grey, drifting diagonal stripes, lighter band in the middle', async () => {
  const text = await readFile(join(ROOT, 'assets', 'internal', 'no_signal.fs'), 'utf8');
  const d = parseIsf(text, { file: 'builtin:no_signal.fs', fileName: 'no_signal.fs' });
  assert.is(d.kind, 'generator');
  const a = run(d, { time: 0 });
  const b = run(d, { time: 2 });
  checkFrame(a, 'no_signal');
  for (let i = 0; i < a.pixels.length; i += 4) {
    assert.ok(a.pixels[i] === a.pixels[i + 1] && a.pixels[i + 1] === a.pixels[i + 2], 'grey only');
    assert.ok(a.pixels[i]! < 110, 'a dark card');
  }
  const top = Array.from({ length: S }, (_, x) => a.at(x, 4)[0]);
  assert.ok(Math.max(...top) - Math.min(...top) >= 5, 'stripes in the background');
  assert.ok(Math.min(...top) >= 15, 'background is grey, not black');
  assert.ok(a.at(32, 32)[0] > Math.max(...top) + 20, 'the middle band is lighter');
  near(a.at(32, 6), a.at(32, 57), 12, 'band is centered: top and bottom look alike');
  assert.ok(differingPixels(a, b) > 50 || top.some((v, x) => Math.abs(v - b.at(x, 4)[0]) >= 3), 'stripes move');
});

test('audio_scope: spectrum bars as high as the bins, the waveform as a line around the middle', async () => {
  const d = await generator('audio_scope');
  const bars = run(d, { values: { mode: 1 }, audio: { spectrum: () => 1 } });
  checkFrame(bars, 'audio_scope');
  // Bottom of a bar: the first palette color; above 90 % of the height: the background.
  near(bars.at(Math.floor(S / 96 / 2 + 0.5), S - 1), hex(DEFAULT_PALETTE[0]!), 24, 'bar bottom');
  near(bars.at(10, 2), [0, 0, 0], 0, 'above the bars');
  near(run(d, { values: { mode: 1 }, audio: {} }).at(10, S - 1), [0, 0, 0], 0, 'silence: no bars');
  const flat = run(d, { values: { mode: 2 }, audio: { level: 1 } });
  near(flat.at(20, S / 2), hex(DEFAULT_PALETTE[2]!), 2, 'a silent wave: the line through the middle');
  near(flat.at(20, 5), [0, 0, 0], 0, 'away from the line');
  // A full-scale positive wave at gain 2 is off the top: the middle row is background.
  const high = run(d, { values: { mode: 2 }, audio: { level: 1, waveform: () => 0.2 } });
  near(high.at(20, S / 2), [0, 0, 0], 0, 'the line moved off the middle');
  near(high.at(20, Math.round(S * (1 - 0.7))), hex(DEFAULT_PALETTE[2]!), 2, 'the line at 0.5 + 0.1 × 2');
});

test('beat_shapes: rings in palette colors that change color on each beat and jump at its start', async () => {
  const d = await generator('beat_shapes');
  const a = run(d, { audio: { beats: 4.0 } });
  const b = run(d, { audio: { beats: 5.0 } });
  const late = run(d, { audio: { beats: 4.9 } });
  assert.ok(checkFrame(a, 'beat_shapes') >= 3, 'several colors');
  assert.ok(differingPixels(a, b) > (S * S) / 50, 'the next beat recolors the rings');
  assert.ok(differingPixels(a, late) > (S * S) / 100, 'the rings settle toward the end of the beat');
  const palette = DEFAULT_PALETTE.map(hex);
  const lit = [...Array(S * S).keys()].map((i) => [a.pixels[i * 4]!, a.pixels[i * 4 + 1]!, a.pixels[i * 4 + 2]!]);
  const exact = lit.filter((p) => palette.some((c) => Math.abs(c[0] - p[0]!) + Math.abs(c[1] - p[1]!) + Math.abs(c[2] - p[2]!) <= 3));
  assert.ok(exact.length > (S * S) / 50, `ring pixels in palette colors: ${exact.length}`);
});

test('every generator file has a pixel test above', async () => {
  const files = (await readdir(GEN_DIR)).filter((f) => f.endsWith('.fs')).map((f) => f.slice(0, -3));
  const missing = files.filter((f) => !covered.has(f));
  assert.equal(missing, [], `generators without a pixel test: ${missing.join(', ')}`);
});

test.run();
