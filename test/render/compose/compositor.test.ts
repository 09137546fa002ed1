// GL tests of the layer compositor on headless-gl with the shipped blend files: every mode against its formula at
// full and half opacity, the one-pass composition against one pass per layer, alpha weighting, and the fallback of
// a mode whose functions cannot go into the generated pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseIsf } from '../../../src/catalog/isf-parse.js';
import { blendProblem } from '../../../src/catalog/blend-check.js';
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import { paletteUniform } from '../../../src/shared/palette.js';
import { Compositor, type ComposeLayer } from '../../../workers/render/compose/compositor.js';
import { isfDate } from '../../../workers/render/isf-builtins.js';
import type { IsfFrame } from '../../../workers/render/isf-program.js';
import { Quad } from '../../../workers/render/gl-util.js';
import { glCounts } from '../../../workers/render/gl-tracker.js';
import { createTarget, uploadRgba, type RenderTarget } from '../../../workers/render/targets.js';
import { createTestGl, ROOT } from '../../helpers/gl.js';

const W = 16;
const H = 8;
const gl = createTestGl(W, H);
const quad = new Quad(gl);

async function builtinBlends(): Promise<IsfDescriptor[]> {
  const dir = join(ROOT, 'assets', 'blends');
  const out: IsfDescriptor[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.fs')).sort()) {
    out.push(parseIsf(await readFile(join(dir, name), 'utf8'), { file: `builtin:${name}`, fileName: name }));
  }
  return out;
}

const frame = (): IsfFrame => ({
  input: null,
  inputSize: [W, H],
  target: null,
  time: 0,
  timeDelta: 0,
  frameIndex: 0,
  date: isfDate(),
  palette: paletteUniform([]),
  values: {},
});

/** A texture of one colour (0..255 per channel). */
function solid(rgba: readonly number[]): WebGLTexture {
  const tex = gl.createTexture()!;
  const px = new Uint8Array(W * H * 4);
  for (let i = 0; i < W * H; i++) px.set(rgba, i * 4);
  uploadRgba(gl, tex, W, H, px);
  return tex;
}

/** A texture of pseudo-random pixels (opaque), the same for the same seed. */
function noise(seed: number): WebGLTexture {
  const tex = gl.createTexture()!;
  const px = new Uint8Array(W * H * 4);
  let x = seed * 2654435761;
  for (let i = 0; i < px.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    px[i] = i % 4 === 3 ? 255 : (x >>> 16) & 255;
  }
  uploadRgba(gl, tex, W, H, px);
  return tex;
}

const out: RenderTarget = createTarget(gl, W, H);

function read(): Uint8Array {
  const px = new Uint8Array(W * H * 4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, out.framebuffer);
  gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, px);
  return px;
}

function compose(c: Compositor, base: WebGLTexture | null, layers: ComposeLayer[]): Uint8Array {
  c.draw(out.framebuffer, base, layers, frame());
  return read();
}

const maxDiff = (a: Uint8Array, b: Uint8Array): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
};

// The formulas docs/mixing.md (Blend modes) documents, per channel on normalised values.
const FORMULA: Record<string, (b: number, t: number) => number> = {
  normal: (_b, t) => t,
  add: (b, t) => Math.min(1, b + t),
  screen: (b, t) => 1 - (1 - b) * (1 - t),
  multiply: (b, t) => b * t,
  overlay: (b, t) => (b < 0.5 ? 2 * b * t : 1 - 2 * (1 - b) * (1 - t)),
  difference: (b, t) => Math.abs(b - t),
  lighten: (b, t) => Math.max(b, t),
  darken: (b, t) => Math.min(b, t),
  alpha: (_b, t) => t,
};

let blends: IsfDescriptor[];
let one: Compositor;
let per: Compositor;

test.before(async () => {
  blends = await builtinBlends();
  one = new Compositor(gl, quad, W, H);
  per = new Compositor(gl, quad, W, H, { onePass: false });
  for (const c of [one, per]) {
    const results = c.setBlends(blends);
    assert.ok(
      results.every((r) => r.ok),
      JSON.stringify(results.filter((r) => !r.ok)),
    );
  }
});

test('every shipped blend file follows the convention and is installed', () => {
  for (const d of blends) assert.is(blendProblem(d), null, d.type);
  assert.equal(one.modes().sort(), Object.keys(FORMULA).sort());
});

test('each mode at opacity 1 and 0.5 gives the formula, in one pass and pass by pass', () => {
  const B = [204, 77, 153, 255];
  const T = [102, 179, 51, 255];
  const base = solid(B);
  const top = solid(T);
  for (const mode of Object.keys(FORMULA)) {
    for (const opacity of [1, 0.5]) {
      const expected = [0, 1, 2].map((i) => {
        const b = B[i]! / 255;
        return Math.round((b + (FORMULA[mode]!(b, T[i]! / 255) - b) * opacity) * 255);
      });
      for (const [name, c] of [
        ['one pass', one],
        ['per pass', per],
      ] as const) {
        const px = compose(c, base, [{ texture: top, opacity, blend: mode }]);
        const got = [px[0]!, px[1]!, px[2]!];
        assert.ok(
          got.every((v, i) => Math.abs(v - expected[i]!) <= 1),
          `${mode} at ${opacity} (${name}): expected ≈ ${expected}, got ${got}`,
        );
        assert.is(px[3], 255, `${mode} alpha`);
      }
    }
  }
  gl.deleteTexture(base);
  gl.deleteTexture(top);
});

test('normal at opacity 1 over black is exactly the layer; opacity 0 is exactly the base', () => {
  const layer = noise(7);
  const base = noise(8);
  for (const c of [one, per]) {
    const alone = compose(c, null, [{ texture: layer, opacity: 1, blend: 'normal' }]);
    const ref = compose(c, layer, []);
    assert.is(maxDiff(alone, ref), 0, 'the layer itself');
    const zero = compose(c, base, [{ texture: layer, opacity: 0, blend: 'screen' }]);
    assert.is(maxDiff(zero, compose(c, base, [])), 0, 'opacity 0 keeps the base');
  }
  gl.deleteTexture(layer);
  gl.deleteTexture(base);
});

test('alpha weights the layer by its own alpha; normal ignores it', () => {
  const base = solid([200, 0, 0, 255]);
  const half = solid([0, 0, 200, 128]);
  const clear = solid([0, 200, 0, 0]);
  for (const c of [one, per]) {
    const k = 128 / 255;
    const px = compose(c, base, [{ texture: half, opacity: 1, blend: 'alpha' }]);
    assert.ok(Math.abs(px[0]! - 200 * (1 - k)) <= 1 && Math.abs(px[2]! - 200 * k) <= 1, `half alpha: ${px.slice(0, 4)}`);
    const none = compose(c, base, [{ texture: clear, opacity: 1, blend: 'alpha' }]);
    assert.equal([...none.slice(0, 4)], [200, 0, 0, 255], 'a transparent layer shows the base');
    const normal = compose(c, base, [{ texture: half, opacity: 1, blend: 'normal' }]);
    assert.equal([...normal.slice(0, 3)], [0, 0, 200], 'normal takes the colour whatever its alpha');
  }
  for (const t of [base, half, clear]) gl.deleteTexture(t);
});

test('a four-layer mixed stack: one pass equals one pass per layer (±2/255)', () => {
  const base = noise(1);
  const layers: ComposeLayer[] = [
    { texture: noise(2), opacity: 0.7, blend: 'screen' },
    { texture: noise(3), opacity: 1, blend: 'multiply' },
    { texture: noise(4), opacity: 0.4, blend: 'overlay' },
    { texture: noise(5), opacity: 0.9, blend: 'difference' },
  ];
  const a = compose(one, base, layers);
  assert.is(one.lastPasses(), 1, 'the whole stack in one pass');
  const b = compose(per, base, layers);
  assert.is(per.lastPasses(), 4, 'one pass per layer');
  assert.ok(maxDiff(a, b) <= 2, `max difference ${maxDiff(a, b)}`);
  // Not trivially equal to the base: the stack did something.
  assert.ok(maxDiff(a, compose(one, base, [])) > 20);
  gl.deleteTexture(base);
  for (const l of layers) gl.deleteTexture(l.texture);
});

test('a mode whose functions cannot go into the generated pass draws pass by pass, with the same pixels', () => {
  // Valid standalone, but its helper reads the opacity uniform, which only main may use in the one-pass form.
  const odd = parseIsf(
    `/*{ "INPUTS": [ { "NAME": "baseImage", "TYPE": "image" }, { "NAME": "layerImage", "TYPE": "image" },
  { "NAME": "opacity", "TYPE": "float", "DEFAULT": 1.0, "MIN": 0.0, "MAX": 1.0 } ] }*/
float gain() { return opacity > 2.0 ? 0.0 : 1.0; }
vec3 vjdBlend(vec3 base, vec3 top) { return base * gain() * 0.5 + top * 0.5; }
void main() {
  vec4 base = IMG_THIS_NORM_PIXEL(baseImage);
  vec4 top = IMG_THIS_NORM_PIXEL(layerImage);
  gl_FragColor = vec4(mix(base.rgb, vjdBlend(base.rgb, top.rgb), opacity), base.a + (1.0 - base.a) * opacity);
}`,
    { file: '/ops/halfway.fs', fileName: 'halfway.fs' },
  );
  assert.is(blendProblem(odd), null);
  const c = new Compositor(gl, quad, W, H);
  assert.ok(c.setBlends([...blends, odd]).every((r) => r.ok));
  const base = solid([200, 100, 0, 255]);
  const top = solid([0, 100, 200, 255]);
  const px = compose(c, base, [
    { texture: top, opacity: 1, blend: 'halfway' },
    { texture: top, opacity: 0.5, blend: 'normal' },
  ]);
  assert.is(c.lastPasses(), 2, 'drawn pass by pass');
  // halfway averages the two colours; normal at half opacity then goes half the rest of the way to the layer.
  assert.ok(
    [50, 100, 150].every((v, i) => Math.abs(px[i]! - v) <= 1),
    `got ${px.slice(0, 3)}`,
  );
  c.destroy();
  gl.deleteTexture(base);
  gl.deleteTexture(top);
});

test('a stack past the layers one pass takes goes in chunks, with the pixels of one pass per layer', () => {
  const chunked = new Compositor(gl, quad, W, H, { maxPerPass: 2 });
  chunked.setBlends(blends);
  const base = noise(11);
  const modes = ['lighten', 'add', 'darken', 'normal', 'alpha'];
  const layers: ComposeLayer[] = modes.map((blend, i) => ({ texture: noise(20 + i), opacity: 0.3 + i * 0.15, blend }));
  const a = compose(chunked, base, layers);
  assert.is(chunked.lastPasses(), 3, 'two, two and one layers');
  const b = compose(per, base, layers);
  assert.ok(maxDiff(a, b) <= 2, `max difference ${maxDiff(a, b)}`);
  assert.ok(maxDiff(a, compose(one, base, layers)) <= 2, 'the same as one pass');
  chunked.destroy();
  gl.deleteTexture(base);
  for (const l of layers) gl.deleteTexture(l.texture);
});

test('an unknown mode draws as normal; destroy frees every GL object the compositor made', () => {
  const before = glCounts(gl);
  const c = new Compositor(gl, quad, W, H);
  c.setBlends(blends);
  const cp = new Compositor(gl, quad, W, H, { onePass: false });
  cp.setBlends(blends);
  const base = solid([10, 20, 30, 255]);
  const top = solid([200, 150, 100, 255]);
  const stack: ComposeLayer[] = [
    { texture: top, opacity: 0.5, blend: 'no_such_mode' },
    { texture: top, opacity: 0.5, blend: 'screen' },
  ];
  for (const x of [c, cp]) {
    const got = compose(x, base, stack);
    const want = compose(x, base, [{ ...stack[0]!, blend: 'normal' }, stack[1]!]);
    assert.is(maxDiff(got, want), 0);
    compose(x, null, []);
    x.resize(W / 2, H / 2);
    x.draw(out.framebuffer, base, stack, frame());
  }
  c.destroy();
  cp.destroy();
  gl.deleteTexture(base);
  gl.deleteTexture(top);
  assert.equal(glCounts(gl), before);
});

test('many blend files keep a bounded number of GL programs when drawing in one pass', () => {
  const many = Array.from({ length: 30 }, (_, i) =>
    parseIsf(
      `/*{ "INPUTS": [ { "NAME": "baseImage", "TYPE": "image" }, { "NAME": "layerImage", "TYPE": "image" },
  { "NAME": "opacity", "TYPE": "float", "DEFAULT": 1.0 } ] }*/
vec3 vjdBlend(vec3 base, vec3 top) { return mix(base, top, ${(i / 30).toFixed(3)}); }
void main() {
  vec4 base = IMG_THIS_NORM_PIXEL(baseImage);
  vec4 top = IMG_THIS_NORM_PIXEL(layerImage);
  gl_FragColor = vec4(mix(base.rgb, vjdBlend(base.rgb, top.rgb), opacity), base.a + (1.0 - base.a) * opacity);
}`,
      { file: `/ops/m${i}.fs`, fileName: `m${i}.fs` },
    ),
  );
  const before = glCounts(gl).programs;
  const c = new Compositor(gl, quad, W, H);
  assert.ok(
    c.setBlends([...blends, ...many]).every((r) => r.ok),
    'every file compiles',
  );
  assert.is(c.modes().length, blends.length + many.length);
  assert.ok(glCounts(gl).programs - before <= 2, `GL programs held: ${glCounts(gl).programs - before}`);
  c.destroy();
  assert.is(glCounts(gl).programs, before);
});

test.after(() => {
  one.destroy();
  per.destroy();
  out.destroy();
  quad.destroy();
});

test.run();
