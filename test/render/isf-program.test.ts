// GL tests of the ISF runner on headless-gl: orientation, IMG_* macros, passes, persistence, uniforms, errors, leaks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseIsf } from '../../src/catalog/isf-parse.js';
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { glCounts } from '../../workers/render/gl-tracker.js';
import { IsfCompileError, IsfProgram } from '../../workers/render/isf-program.js';
import { isfDate } from '../../workers/render/isf-builtins.js';
import { createTarget, uploadRgba } from '../../workers/render/targets.js';
import { Quad } from '../../workers/render/gl-util.js';
import { createTestGl, renderIsf, type Rgba } from '../helpers/gl.js';

const gl = createTestGl(64, 64);
const start = glCounts(gl);

const isf = (header: object, body: string, fileName = 't.fs', vertex?: string): IsfDescriptor =>
  parseIsf(`/*${JSON.stringify(header)}*/\n${body}`, { file: fileName, fileName, ...(vertex ? { vertex } : {}) });

const IMAGE = { NAME: 'inputImage', TYPE: 'image' };
// 4×4 quadrants, top-down: red top-left, green top-right, white bottom-left, blue bottom-right.
const quadrants = (x: number, y: number, w = 4, h = 4): Rgba =>
  y < h / 2 ? (x < w / 2 ? [255, 0, 0, 255] : [0, 255, 0, 255]) : x < w / 2 ? [255, 255, 255, 255] : [0, 0, 255, 255];

const near = (actual: readonly number[], expected: readonly number[], tol = 2, msg = ''): void => {
  const ok = actual.length === expected.length && actual.every((v, i) => Math.abs(v - expected[i]!) <= tol);
  assert.ok(ok, `${msg} expected ≈ [${expected.join(', ')}], got [${actual.join(', ')}]`);
};

test('pass-through keeps colors and orientation (top-left stays top-left)', () => {
  const d = isf({ INPUTS: [IMAGE] }, 'void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage); }');
  const r = renderIsf(gl, d, { width: 4, height: 4, input: (x, y) => quadrants(x, y) });
  near(r.at(0, 0), [255, 0, 0, 255], 0, 'top-left');
  near(r.at(3, 0), [0, 255, 0, 255], 0, 'top-right');
  near(r.at(0, 3), [255, 255, 255, 255], 0, 'bottom-left');
  near(r.at(3, 3), [0, 0, 255, 255], 0, 'bottom-right');
  // Pixel-array form of the input, and isf_FragNormCoord.y = 0 at the bottom.
  const px = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < 16; i++) px.set(quadrants(i % 4, Math.floor(i / 4)), i * 4);
  const g = isf(
    { INPUTS: [IMAGE] },
    'void main() { gl_FragColor = vec4(IMG_THIS_NORM_PIXEL(inputImage).rgb, 1.0) * step(0.5, isf_FragNormCoord.y); }',
  );
  const r2 = renderIsf(gl, g, { width: 4, height: 4, input: { width: 4, height: 4, pixels: px } });
  near(r2.at(0, 0), [255, 0, 0, 255], 0, 'top half kept');
  near(r2.at(3, 3), [0, 0, 0, 0], 0, 'bottom half zeroed');
});

test('IMG_PIXEL, IMG_NORM_PIXEL and IMG_SIZE', () => {
  // Pixel coords are GL (y up): pixel (0.5, 0.5) is the bottom-left pixel of the input.
  const d = isf(
    { INPUTS: [IMAGE] },
    `void main() {
  vec2 size = IMG_SIZE(inputImage);
  vec4 bl = IMG_PIXEL(inputImage, vec2(0.5, 0.5));
  vec4 tr = IMG_NORM_PIXEL(inputImage, vec2(0.99, 0.99));
  vec4 nested = IMG_NORM_PIXEL(inputImage, IMG_PIXEL(inputImage, vec2(size.x - 0.5, (0.5))).xy * 0.0 + vec2(0.9, 0.1));
  if (isf_FragNormCoord.x < 0.25) gl_FragColor = bl;
  else if (isf_FragNormCoord.x < 0.5) gl_FragColor = tr;
  else if (isf_FragNormCoord.x < 0.75) gl_FragColor = nested;
  else gl_FragColor = vec4(size / 255.0, 0.0, 1.0);
}`,
  );
  const r = renderIsf(gl, d, {
    width: 8,
    height: 2,
    input: { width: 6, height: 4, pixels: pixelsOf(6, 4, (x, y) => quadrants(x, y, 6, 4)) },
  });
  near(r.at(0, 0), [255, 255, 255, 255], 0, 'IMG_PIXEL bottom-left');
  near(r.at(2, 0), [0, 255, 0, 255], 0, 'IMG_NORM_PIXEL top-right');
  near(r.at(4, 0), [0, 0, 255, 255], 0, 'nested call, bottom-right');
  near(r.at(7, 1), [6, 4, 0, 255], 0, 'IMG_SIZE');
});

test('two passes: a TARGET at $WIDTH/2 feeds the last pass', () => {
  const d = isf(
    {
      INPUTS: [IMAGE],
      PASSES: [{ TARGET: 'halfBuf', WIDTH: '$WIDTH/2', HEIGHT: '$HEIGHT' }, {}],
    },
    `void main() {
  if (PASSINDEX == 0) {
    gl_FragColor = vec4(RENDERSIZE / 255.0, 0.0, 1.0) + IMG_THIS_PIXEL(inputImage) * 0.0;
  } else {
    vec4 h = IMG_NORM_PIXEL(halfBuf, isf_FragNormCoord);
    gl_FragColor = isf_FragNormCoord.x < 0.5 ? h : vec4(IMG_SIZE(halfBuf) / 255.0, RENDERSIZE.x / 255.0, 1.0);
  }
}`,
  );
  const r = renderIsf(gl, d, { width: 16, height: 4, input: () => [0, 0, 0, 255] });
  near(r.at(1, 1), [8, 4, 0, 255], 0, 'pass 0 RENDERSIZE = buffer size');
  near(r.at(12, 1), [8, 4, 16, 255], 0, 'IMG_SIZE of the buffer and RENDERSIZE of the output');
});

test('a PERSISTENT buffer accumulates across frames (starts transparent black)', () => {
  const d = isf(
    { PASSES: [{ TARGET: 'acc', PERSISTENT: true }, {}] },
    `void main() {
  vec4 prev = IMG_THIS_PIXEL(acc);
  if (PASSINDEX == 0) gl_FragColor = prev + vec4(10.0 / 255.0, 0.0, 0.0, 1.0);
  else gl_FragColor = vec4(prev.r, float(FRAMEINDEX) / 255.0, TIME * 30.0 / 255.0, 1.0);
}`,
  );
  near(renderIsf(gl, d, { width: 4, height: 4, frames: 1 }).at(1, 1), [10, 0, 0, 255], 1, 'one frame');
  near(renderIsf(gl, d, { width: 4, height: 4, frames: 5 }).at(1, 1), [50, 4, 4, 255], 1, 'five frames');
  // A single persistent pass that is also the last pass (feedback): output = its buffer.
  const fb = isf(
    { PASSES: [{ TARGET: 'fb', PERSISTENT: true }] },
    'void main() { gl_FragColor = IMG_THIS_PIXEL(fb) + vec4(0.1, 0.0, 0.0, 1.0); }',
  );
  near(renderIsf(gl, fb, { width: 4, height: 4, frames: 3 }).at(2, 2), [77, 0, 0, 255], 2, 'feedback last pass');
  // FLOAT buffers keep fractions that 8 bits would round away.
  const fl = isf(
    { PASSES: [{ TARGET: 'f', PERSISTENT: true, FLOAT: true }, {}] },
    `void main() {
  if (PASSINDEX == 0) gl_FragColor = IMG_THIS_PIXEL(f) + vec4(0.3 / 255.0);
  else gl_FragColor = IMG_THIS_PIXEL(f);
}`,
  );
  near(renderIsf(gl, fl, { width: 2, height: 2, frames: 10 }).at(0, 0), [3, 3, 3, 3], 1, 'float accumulation');
});

test('uniforms of each input type reach the shader, with defaults, clamping and coercion', () => {
  const d = isf(
    {
      INPUTS: [
        { NAME: 'amount', TYPE: 'float', DEFAULT: 0.5, MIN: 0, MAX: 1 },
        { NAME: 'count', TYPE: 'long', VALUES: [1, 2, 3], DEFAULT: 2 },
        { NAME: 'on', TYPE: 'bool', DEFAULT: false },
        { NAME: 'tint', TYPE: 'color', DEFAULT: [0, 0, 0, 1] },
        { NAME: 'pos', TYPE: 'point2D', DEFAULT: [0, 0] },
        { NAME: 'fire', TYPE: 'event' },
      ],
    },
    `void main() {
  if (isf_FragNormCoord.x < 0.5) gl_FragColor = vec4(amount, float(count) / 10.0, on ? 1.0 : 0.0, fire ? 1.0 : 0.5);
  else gl_FragColor = vec4(tint.rgb, 1.0) + vec4(0.0, 0.0, 0.0, 0.0) * pos.x + vec4(pos / 100.0, 0.0, 0.0) * 0.0;
  if (isf_FragNormCoord.y < 0.5 && isf_FragNormCoord.x >= 0.5) gl_FragColor = vec4(pos / 100.0, 0.0, 1.0);
}`,
  );
  const defaults = renderIsf(gl, d, { width: 2, height: 2 });
  near(defaults.at(0, 0), [128, 51, 0, 128], 1, 'defaults');
  const set = renderIsf(gl, d, {
    width: 2,
    height: 2,
    values: { amount: 7, count: '3', on: true, tint: [1, 0.5, 0.25], pos: { x: 20, y: 40 }, fire: 1 },
  });
  near(set.at(0, 0), [255, 77, 255, 255], 1, 'float clamped, long from string, bool, event');
  near(set.at(1, 0), [255, 128, 64, 255], 1, 'color (alpha defaults)');
  near(set.at(1, 1), [51, 102, 0, 255], 1, 'point2D from {x,y}');
  const bad = renderIsf(gl, d, { width: 2, height: 2, values: { amount: 'x', count: 7, tint: '#00ff00' } });
  near(bad.at(0, 0), [128, 51, 0, 128], 1, 'junk → defaults; long outside VALUES → default');
  near(bad.at(1, 0), [0, 255, 0, 255], 1, 'hex color');
});

test('an audioFFT input is a sampler that reads black while vjd has no audio source', () => {
  const d = isf(
    { INPUTS: [IMAGE, { NAME: 'spectrum', TYPE: 'audioFFT' }] },
    'void main() { gl_FragColor = vec4(IMG_NORM_PIXEL(spectrum, vec2(0.5)).rgb + 0.5 * IMG_THIS_PIXEL(inputImage).rgb, 1.0); }',
  );
  const r = renderIsf(gl, d, { width: 4, height: 4, input: () => [255, 255, 255, 255] });
  near(r.at(1, 1), [128, 128, 128, 255], 2, 'half the input plus a black spectrum');
});

test('PALETTE and PALETTE_COUNT reach the shader', () => {
  const d = isf(
    {},
    `void main() {
  int i = int(floor(isf_FragNormCoord.x * 4.0));
  vec3 c = PALETTE[0];
  if (i == 1) c = PALETTE[1];
  if (i == 2) c = PALETTE[7];
  if (i == 3) c = vec3(float(PALETTE_COUNT) / 255.0);
  gl_FragColor = vec4(c, 1.0);
}`,
  );
  const r = renderIsf(gl, d, { width: 4, height: 1, palette: ['#102030', '#405060', '#708090'] });
  near(r.at(0, 0), [0x10, 0x20, 0x30, 255], 0, 'slot 0');
  near(r.at(1, 0), [0x40, 0x50, 0x60, 255], 0, 'slot 1');
  near(r.at(2, 0), [0x70, 0x80, 0x90, 255], 0, 'unused slots repeat the last color');
  near(r.at(3, 0), [3, 3, 3, 255], 0, 'count');
  const def = renderIsf(gl, d, { width: 4, height: 1 });
  near(def.at(0, 0), [0xff, 0x00, 0x55, 255], 0, 'default palette');
  near(def.at(3, 0), [6, 6, 6, 255], 0, 'default palette count');
});

test('a custom vertex shader with isf_vertShaderInit()', () => {
  const vs = 'varying vec2 shifted;\nvoid main() {\n  isf_vertShaderInit();\n  shifted = isf_FragNormCoord + vec2(TIME, 0.0);\n}\n';
  const d = isf(
    { INPUTS: [{ NAME: 'k', TYPE: 'float', DEFAULT: 1 }] },
    'varying vec2 shifted;\nvoid main() { gl_FragColor = vec4(fract(shifted.x) * k, 0.0, 0.0, 1.0); }',
    't.fs',
    vs,
  );
  near(renderIsf(gl, d, { width: 4, height: 1, time: 0.5 }).at(0, 0), [159, 0, 0, 255], 2, 'vertex uniforms and varyings');
});

test('#extension lines are hoisted above the prelude and the extension is enabled', () => {
  const d = isf(
    { INPUTS: [IMAGE] },
    '#extension GL_OES_standard_derivatives : enable\nvoid main() {\n  float slope = dFdx(isf_FragNormCoord.x) * RENDERSIZE.x;\n  gl_FragColor = vec4(slope, 0.0, 0.0, 1.0) + IMG_THIS_PIXEL(inputImage) * 0.0;\n}',
  );
  // No input given: the effect samples a transparent black stand-in instead of failing.
  near(renderIsf(gl, d, { width: 8, height: 2 }).at(3, 1), [255, 0, 0, 255], 1, 'dFdx of x across one pixel, times width');
});

test('a compile error throws IsfCompileError with the file line number', () => {
  const text = '/*{\n  "NAME": "broken"\n}*/\nvoid main() {\n  gl_FragColor = vec4(notDeclared);\n}\n';
  const d = parseIsf(text, { file: 'b', fileName: 'broken.fs' });
  const before = glCounts(gl);
  const quad = new Quad(gl);
  try {
    IsfProgram.create(gl, d, 8, 8, quad);
    assert.unreachable('should not compile');
  } catch (err) {
    assert.instance(err, IsfCompileError);
    const log = (err as IsfCompileError).log;
    assert.match(log, /^ERROR: 0:5: 'notDeclared' : undeclared identifier/);
    assert.not.match(log, /\n/);
  } finally {
    quad.destroy();
  }
  assert.equal(glCounts(gl), before, 'a failed compile leaks nothing');
  // A multi-line IMG_* call before the error must not shift the line number.
  const multi = parseIsf(
    '/*{"INPUTS":[{"NAME":"inputImage","TYPE":"image"}]}*/\nvoid main() {\n  vec4 a = IMG_PIXEL(inputImage,\n    vec2(1.0,\n         2.0));\n  gl_FragColor = a + missing;\n}\n',
    { file: 'm', fileName: 'm.fs' },
  );
  assert.throws(
    () => renderIsf(gl, multi, { width: 2, height: 2 }),
    (e: unknown) => e instanceof IsfCompileError && /^ERROR: 0:6: 'missing'/.test(e.log),
  );
  const vsBad = isf({}, 'void main() { gl_FragColor = vec4(1.0); }', 'v.fs', 'void main() {\n  isf_vertShaderInit();\n  oops = 1;\n}');
  assert.throws(
    () => renderIsf(gl, vsBad, { width: 2, height: 2 }),
    (e: unknown) => e instanceof IsfCompileError && /^vertex shader: ERROR: 0:3: 'oops'/.test(e.log),
  );
});

test('resize and destroy leave every tracker count where it started', () => {
  const quad = new Quad(gl);
  const d = isf(
    {
      INPUTS: [IMAGE, { NAME: 'second', TYPE: 'image' }],
      PASSES: [{ TARGET: 'a', PERSISTENT: true, WIDTH: '$WIDTH/4' }, { TARGET: 'b', FLOAT: true }, { TARGET: 'a' }],
    },
    'void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) + IMG_THIS_PIXEL(second) + IMG_THIS_PIXEL(a) + IMG_THIS_PIXEL(b); }',
  );
  const p = IsfProgram.create(gl, d, 32, 16, quad);
  const out = createTarget(gl, 64, 32);
  const tex = gl.createTexture()!;
  uploadRgba(gl, tex, 2, 2, new Uint8Array(16).fill(100));
  const frame = {
    input: tex,
    inputSize: [2, 2] as [number, number],
    target: out.framebuffer,
    time: 0,
    timeDelta: 0,
    frameIndex: 0,
    date: isfDate(),
    palette: { rgb: new Float32Array(24), count: 1 },
    values: {},
  };
  p.render(frame);
  const live = glCounts(gl);
  assert.is(live.programs, start.programs + 2, 'the ISF program and the copy program of a last pass with a TARGET');
  assert.is(live.textures, start.textures + 7, '2 buffers × 2 + stand-in + output + input');
  assert.is(live.framebuffers, start.framebuffers + 5);
  p.resize(64, 32);
  p.render(frame);
  assert.is(gl.getError(), gl.NO_ERROR);
  p.destroy();
  p.destroy();
  gl.deleteTexture(tex);
  out.destroy();
  quad.destroy();
  assert.equal(glCounts(gl), start);
});

test('uploads from and readbacks into SharedArrayBuffer views (frame rings and thumbnail slots)', () => {
  const w = 3;
  const h = 2;
  const src = new Uint8Array(new SharedArrayBuffer(w * h * 4 + 16), 16, w * h * 4);
  for (let i = 0; i < src.length; i++) src[i] = (i * 11) & 255;
  const tex = gl.createTexture()!;
  const fb = gl.createFramebuffer();
  try {
    uploadRgba(gl, tex, w, h, src); // texImage2D
    src[0] = 7;
    uploadRgba(gl, tex, w, h, src); // texSubImage2D (same size)
    gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
    const dst = new Uint8Array(new SharedArrayBuffer(w * h * 4 + 8), 8, w * h * 4);
    gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, dst);
    assert.equal(Array.from(dst), Array.from(src));
    assert.is(gl.getError(), gl.NO_ERROR);
  } finally {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(fb);
    gl.deleteTexture(tex);
  }
});

function pixelsOf(w: number, h: number, fn: (x: number, y: number) => Rgba): Uint8Array {
  const px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) px.set(fn(x, y), (y * w + x) * 4);
  return px;
}

test.run();
