// GL tests of the thumbnail stage: area averaging without aliasing, orientation, ring/generator subjects, expiry, leaks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseIsf } from '../../src/catalog/isf-parse.js';
import { createFrameRing, FrameRingWriter } from '../../src/shared/frame-ring.js';
import type { ThumbJob, ThumbReply, ThumbSubject } from '../../src/shared/protocol/render.js';
import { RenderEngine } from '../../workers/render/engine.js';
import { glCounts } from '../../workers/render/gl-tracker.js';
import { Quad } from '../../workers/render/gl-util.js';
import { createTarget } from '../../workers/render/targets.js';
import { ProgramPool } from '../../workers/render/program-pool.js';
import { ThumbStage } from '../../workers/render/thumb-stage.js';
import { createTestGl, loadBuiltin, type Rgba } from '../helpers/gl.js';

const gl = createTestGl(16, 16);
const start = glCounts(gl);
const RED: Rgba = [255, 0, 0, 255];
const BLUE: Rgba = [0, 0, 255, 255];
const GREEN: Rgba = [0, 255, 0, 255];

let nextId = 1;
function job(subject: ThumbSubject, width: number, height: number, deadline = Date.now() + 10_000): ThumbJob {
  return { id: nextId++, subject, width, height, slot: new SharedArrayBuffer(width * height * 4), deadline };
}

/** Top-down pixel (x, y) of a slot. */
function at(j: ThumbJob, x: number, y: number): Rgba {
  const px = new Uint8Array(j.slot, (y * j.width + x) * 4, 4);
  return [px[0]!, px[1]!, px[2]!, px[3]!];
}

const near = (actual: readonly number[], expected: readonly number[], tol = 2, msg = ''): void => {
  const ok = actual.length === expected.length && actual.every((v, i) => Math.abs(v - expected[i]!) <= tol);
  assert.ok(ok, `${msg} expected ≈ [${expected.join(', ')}], got [${actual.join(', ')}]`);
};

const okFrame = (r: ThumbReply): number => {
  if (!r.ok) throw new Error(`thumb failed: ${r.reason} ${r.message}`);
  return r.frame;
};

/** A ring holding one committed w×h frame drawn by `fn` (top-down), in a box of maxW×maxH. */
function ringWith(maxW: number, maxH: number, w: number, h: number, fn: (x: number, y: number) => Rgba): SharedArrayBuffer {
  const ring = createFrameRing(maxW, maxH);
  const writer = new FrameRingWriter(ring);
  const px = writer.begin(w, h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) px.set(fn(x, y), (y * w + x) * 4);
  writer.commit();
  return ring;
}

// Left half red, right half blue, top 10 % green: tells left from right and top from bottom.
const halves =
  (w: number, h: number) =>
  (x: number, y: number): Rgba =>
    y < h / 10 ? GREEN : x < w / 2 ? RED : BLUE;
const checker = (x: number, y: number): Rgba => ((x + y) & 1 ? [255, 255, 255, 255] : [0, 0, 0, 255]);

/** Checks every pixel of a checkerboard thumbnail is mid-grey (no stripes, no moiré). */
function assertGrey(j: ThumbJob, what: string): void {
  let worst = 0;
  for (let y = 0; y < j.height; y++) {
    for (let x = 0; x < j.width; x++) {
      const p = at(j, x, y);
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(p[c]! - 127.5));
    }
  }
  assert.ok(worst <= 12.5, `${what}: worst channel is ${worst} away from 127.5`);
}

/** An engine at w×h whose output shows `fn` (via a ring source drawn by one frame). */
function engineShowing(w: number, h: number, fn: (x: number, y: number) => Rgba): RenderEngine {
  const e = new RenderEngine(gl, w, h, 30, 'test');
  e.requestSource(1, 'pic', Date.now() + 10_000, { kind: 'ring', ring: ringWith(w, h, w, h, fn), live: false });
  e.renderFrame();
  return e;
}

test('output: halves and top rows land where they are in the picture; frame number counts output frames', () => {
  const e = engineShowing(320, 180, halves(320, 180));
  try {
    const j = job({ kind: 'output' }, 32, 18);
    assert.is(okFrame(e.thumb(j)), 1);
    near(at(j, 0, 0), GREEN, 2, 'top-left is the green band');
    near(at(j, 31, 0), GREEN, 2, 'top-right is the green band');
    near(at(j, 2, 10), RED, 2, 'left half');
    near(at(j, 29, 17), BLUE, 2, 'right half, bottom row');
    near(at(j, 15, 9), RED, 2, 'last column of the left half');
    near(at(j, 16, 9), BLUE, 2, 'first column of the right half');
    e.renderFrame();
    const j2 = job({ kind: 'output' }, 320, 180);
    assert.is(okFrame(e.thumb(j2)), 2, 'same size as the output: a copy');
    near(at(j2, 5, 0), GREEN, 0);
    near(at(j2, 159, 100), RED, 0);
    near(at(j2, 160, 179), BLUE, 0);
  } finally {
    e.destroy();
  }
});

test('the output frame number goes to the counters SAB after each frame and continues in a new engine', () => {
  const counters = new Int32Array(new SharedArrayBuffer(16));
  let e = new RenderEngine(gl, 64, 36, 30, 'test', counters);
  e.renderFrame();
  e.renderFrame();
  e.renderFrame();
  assert.is(Atomics.load(counters, 0), 3);
  e.destroy();
  e = new RenderEngine(gl, 64, 36, 30, 'test', counters);
  e.renderFrame();
  assert.is(Atomics.load(counters, 0), 4, 'a rebuilt context keeps counting');
  assert.is(okFrame(e.thumb(job({ kind: 'output' }, 16, 9))), 4);
  e.destroy();
});

test('a 1-px checkerboard averages to grey: 1280×720 → 192×108 (one pass)', () => {
  const e = engineShowing(1280, 720, checker);
  try {
    const j = job({ kind: 'output' }, 192, 108);
    okFrame(e.thumb(j));
    assertGrey(j, '192x108');
    const k = job({ kind: 'output' }, 512, 288);
    okFrame(e.thumb(k));
    assertGrey(k, '512x288');
  } finally {
    e.destroy();
  }
});

test('a 1-px checkerboard averages to grey: 1920×1080 → 32×18 (two passes, ring subject)', () => {
  const e = new RenderEngine(gl, 64, 36, 30, 'test');
  try {
    const ring = ringWith(1920, 1080, 1920, 1080, checker);
    const j = job({ kind: 'ring', ring }, 32, 18);
    assert.is(okFrame(e.thumb(j)), 1, 'ring frame number');
    assertGrey(j, '32x18');
  } finally {
    e.destroy();
  }
});

test('ring: a frame smaller than the ring box, top-down; no-frame on an empty ring', () => {
  const e = new RenderEngine(gl, 64, 36, 30, 'test');
  try {
    const ring = ringWith(640, 480, 320, 240, halves(320, 240));
    const j = job({ kind: 'ring', ring }, 40, 30);
    assert.is(okFrame(e.thumb(j)), 1);
    near(at(j, 0, 0), GREEN, 2, 'top rows');
    near(at(j, 39, 2), GREEN, 2, 'top rows, right');
    near(at(j, 1, 15), RED, 2, 'left');
    near(at(j, 19, 29), RED, 2, 'left, bottom');
    near(at(j, 20, 29), BLUE, 2, 'right, bottom');
    // A newer, different frame on the same ring (cached reader): the stage sees it.
    const writer = new FrameRingWriter(ring);
    writer.begin(4, 2).fill(200);
    writer.commit();
    const k = job({ kind: 'ring', ring }, 8, 4);
    okFrame(e.thumb(k));
    near(at(k, 3, 3), [200, 200, 200, 200], 1, 'newest frame, stretched up');
    const empty = e.thumb(job({ kind: 'ring', ring: createFrameRing(64, 64) }, 8, 8));
    assert.is(empty.ok, false);
    assert.is(!empty.ok && empty.reason, 'no-frame');
  } finally {
    e.destroy();
  }
});

test('generator: a builtin renders off-screen at TIME and inputs; unknown types fail', async () => {
  const solid = await loadBuiltin('generators', 'solid_color.fs');
  const split = parseIsf(
    '/*{"INPUTS":[]}*/\nvoid main() { gl_FragColor = isf_FragNormCoord.y > 0.5 ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(vec3(TIME), 1.0); }',
    { file: 't', fileName: 'split.fs' },
  );
  assert.is(split.kind, 'generator');
  const e = new RenderEngine(gl, 128, 72, 30, 'test');
  try {
    e.setCatalog([], [solid, split], null);
    const j = job({ kind: 'generator', type: solid.type, inputs: {}, time: 0 }, 16, 9);
    assert.is(okFrame(e.thumb(j)), 0);
    near(at(j, 8, 4), [0, 153, 255, 255], 1, 'default color');
    const k = job({ kind: 'generator', type: solid.type, inputs: { color: [1, 0.5, 0, 1] }, time: 3 }, 16, 9);
    okFrame(e.thumb(k));
    near(at(k, 0, 8), [255, 128, 0, 255], 1, 'color input');
    const s = job({ kind: 'generator', type: 'split', inputs: {}, time: 0.5 }, 8, 8);
    okFrame(e.thumb(s));
    near(at(s, 4, 0), RED, 1, 'top half (GL y > 0.5) at the top of the slot');
    near(at(s, 4, 7), [128, 128, 128, 255], 1, 'TIME reaches the generator');
    const missing = e.thumb(job({ kind: 'generator', type: 'nope', inputs: {}, time: 0 }, 8, 8));
    assert.ok(!missing.ok && missing.reason === 'failed' && /not installed/.test(missing.message));
  } finally {
    e.destroy();
  }
});

test('a job past its deadline is answered expired and draws nothing', () => {
  const e = engineShowing(64, 36, () => RED);
  try {
    const j = job({ kind: 'output' }, 8, 8, Date.now() - 1);
    const r = e.thumb(j);
    assert.ok(!r.ok && r.reason === 'expired');
    assert.ok(
      new Uint8Array(j.slot).every((v) => v === 0),
      'slot untouched',
    );
  } finally {
    e.destroy();
  }
  assert.equal(glCounts(gl), start, 'engines leave no GL objects behind');
});

test('no GL objects leak: a stage and 50 varied jobs return counts to baseline', async () => {
  const solid = await loadBuiltin('generators', 'solid_color.fs');
  const quad = new Quad(gl);
  const pool = new ProgramPool(gl, quad, 320, 180);
  pool.setCatalog([solid]);
  const output = createTarget(gl, 320, 180);
  const base = glCounts(gl);
  const stage = new ThumbStage(gl, quad, pool, 320, 180);
  stage.destroy();
  assert.equal(glCounts(gl), base, 'create + destroy');

  const ring = ringWith(640, 480, 640, 480, checker);
  const thumbs = new ThumbStage(gl, quad, pool, 320, 180);
  const ctx = { output, outputFrame: 7, generators: [solid], palette: { rgb: new Float32Array(24), count: 1 } };
  const subjects: ThumbSubject[] = [
    { kind: 'output' },
    { kind: 'ring', ring },
    { kind: 'generator', type: solid.type, inputs: {}, time: 0 },
  ];
  const run = (n: number): void => {
    for (let i = 0; i < n; i++) {
      const w = 4 + ((i * 37) % 300);
      const h = 2 + ((i * 23) % 170);
      assert.ok(thumbs.draw(job(subjects[i % 3]!, w, h), ctx).ok);
      while (pool.refill());
    }
  };
  run(50);
  const after50 = glCounts(gl);
  run(50);
  assert.equal(glCounts(gl), after50, 'a bounded cache: 50 more jobs hold no more objects');
  // The cache's bound, plus the effect thumbnails' test card (one texture drawn once when the stage starts).
  assert.ok(after50.textures - base.textures <= 11, `textures held: ${after50.textures - base.textures}`);
  thumbs.destroy();
  assert.equal(glCounts(gl), base, 'destroy frees everything');
  assert.is(gl.getError(), gl.NO_ERROR);
  output.destroy();
  pool.destroy();
  quad.destroy();
  assert.equal(glCounts(gl), start);
});

test.run();
