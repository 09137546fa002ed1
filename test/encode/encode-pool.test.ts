// The thumbnail encode pool end to end: real piscina threads, real sharp, outputs decoded with pngjs and jpeg-js.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { EncodePool, defaultEncodeThreads } from '../../src/workers/encode-pool.js';
import type { ImageFormat } from '../../src/shared/protocol/encode.js';

const pool = new EncodePool({ threads: 2 });
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const CARD_BG = [0x14, 0x16, 0x1c];

interface Image {
  width: number;
  height: number;
  data: Uint8Array;
}

function decode(bytes: Uint8Array, format: ImageFormat): Image {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') {
    assert.equal([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'PNG signature');
    return PNG.sync.read(buf);
  }
  assert.equal([...bytes.subarray(0, 2)], [0xff, 0xd8], 'JPEG SOI marker');
  return jpeg.decode(buf, { useTArray: true, formatAsRGBA: true });
}

function rgbAt(img: Image, x: number, y: number): number[] {
  const i = (y * img.width + x) * 4;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

function near(actual: number[], expected: number[], tolerance: number, what: string): void {
  const ok = actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);
  assert.ok(ok, `${what}: got ${actual.join(',')}, expected ${expected.join(',')} ±${tolerance}`);
}

/** Left half red, right half blue, alpha 0 everywhere so a kept alpha channel would show. */
function halves(width: number, height: number): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(width * height * 4);
  const px = new Uint8Array(sab);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) px.set(x < width / 2 ? [255, 0, 0, 0] : [0, 0, 255, 0], (y * width + x) * 4);
  }
  return sab;
}

function countPixels(img: Image, rows: [number, number], pred: (rgb: number[]) => boolean): number {
  let n = 0;
  for (let y = rows[0]; y < rows[1]; y++) for (let x = 0; x < img.width; x++) if (pred(rgbAt(img, x, y))) n++;
  return n;
}

/** uvu has no async throws: resolves when `p` rejects with a message matching `re`. */
async function rejects(p: Promise<unknown>, re: RegExp = /./): Promise<void> {
  try {
    await p;
  } catch (err) {
    assert.match(String((err as Error).message), re);
    return;
  }
  assert.unreachable(`expected a rejection matching ${re}`);
}

const bright = (rgb: number[]): boolean => rgb.every((v) => v > 170);

for (const [w, h] of [
  [192, 108],
  [512, 288],
] as const) {
  for (const format of ['png', 'jpg'] as const) {
    test(`encode ${format} ${w}x${h}: size, colors, opaque`, async () => {
      const { bytes, ms } = await pool.run({ op: 'encode', pixels: halves(w, h), width: w, height: h, format });
      assert.ok(ms > 0 && ms < 5000, `worker ms ${ms}`);
      assert.is(bytes.byteLength, bytes.buffer.byteLength, 'bytes own their buffer');
      const img = decode(bytes, format);
      assert.is(img.width, w);
      assert.is(img.height, h);
      const tol = format === 'png' ? 0 : 12;
      for (const y of [0, h >> 1, h - 1]) {
        near(rgbAt(img, w >> 2, y), RED, tol, `left quarter row ${y}`);
        near(rgbAt(img, (3 * w) >> 2, y), BLUE, tol, `right quarter row ${y}`);
      }
      if (format === 'png') {
        near(rgbAt(img, w / 2 - 1, 3), RED, 0, 'last red column');
        near(rgbAt(img, w / 2, 3), BLUE, 0, 'first blue column');
        assert.is(img.data[3], 255, 'alpha dropped, not kept');
      }
    });
  }
}

/** Seeded noise over a gradient: few repeated pixels, so the PNG writer takes its Huffman-only path. */
function noisy(width: number, height: number): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(width * height * 4);
  const px = new Uint8Array(sab);
  let seed = 12345;
  for (let i = 0; i < px.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    px[i] = (i & 3) === 3 ? 255 : ((i >> 2) % width) + (seed >>> 27);
  }
  return sab;
}

for (const [w, h] of [
  [192, 108],
  [512, 288],
] as const) {
  test(`png ${w}x${h} is lossless on a noisy frame and run-length small on a flat one`, async () => {
    const sab = noisy(w, h);
    const src = new Uint8Array(sab);
    const { bytes } = await pool.run({ op: 'encode', pixels: sab, width: w, height: h, format: 'png' });
    const img = decode(bytes, 'png');
    assert.is(img.width, w);
    let mismatches = 0;
    for (let i = 0; i < src.length; i += 4) {
      if (img.data[i] !== src[i] || img.data[i + 1] !== src[i + 1] || img.data[i + 2] !== src[i + 2]) mismatches++;
    }
    assert.is(mismatches, 0, 'every pixel decodes to its source value');
    const flat = await pool.run({ op: 'encode', pixels: halves(w, h), width: w, height: h, format: 'png' });
    // Raw RGB is w·h·3 bytes; run-length deflate of the Up-filtered halves is a tiny fraction of it.
    assert.ok(flat.bytes.byteLength < (w * h * 3) / 50, `flat PNG ${flat.bytes.byteLength} bytes`);
  });
}

test('encode rejects a slot smaller than width×height×4', async () => {
  await rejects(
    pool.run({ op: 'encode', pixels: new SharedArrayBuffer(100), width: 192, height: 108, format: 'png' }),
    /at least 82944 bytes/,
  );
});

for (const format of ['png', 'jpg'] as const) {
  test(`placeholder ${format}: dark card with bright text in the middle band`, async () => {
    const img = decode(
      (await pool.run({ op: 'placeholder', width: 192, height: 108, title: 'Camera 1', subtitle: 'test pattern · no signal', format }))
        .bytes,
      format,
    );
    assert.is(img.width, 192);
    assert.is(img.height, 108);
    const bg = countPixels(img, [0, 108], (rgb) => rgb.every((v, i) => Math.abs(v - CARD_BG[i]!) <= (format === 'png' ? 0 : 6)));
    assert.ok(bg > 192 * 108 * 0.7, `background pixels ${bg}`);
    const text = countPixels(img, [27, 81], bright);
    assert.ok(text > 150, `bright text pixels in the middle band: ${text}`);
    assert.is(countPixels(img, [0, 10], bright) + countPixels(img, [98, 108], bright), 0, 'text stays off the edges');
  });
}

test('placeholder without text has no bright pixels', async () => {
  const img = decode(
    (await pool.run({ op: 'placeholder', width: 192, height: 108, title: '', subtitle: ' ', format: 'png' })).bytes,
    'png',
  );
  assert.is(img.width, 192);
  assert.is(countPixels(img, [0, 108], bright), 0);
  near(rgbAt(img, 96, 54), CARD_BG, 0, 'center');
});

test('placeholder text scales with the card', async () => {
  const count = async (w: number, h: number): Promise<number> => {
    const img = decode(
      (await pool.run({ op: 'placeholder', width: w, height: h, title: 'Camera 1', subtitle: '', format: 'png' })).bytes,
      'png',
    );
    return countPixels(img, [0, h], bright);
  };
  const small = await count(192, 108);
  const large = await count(512, 288);
  assert.ok(large > small * 4, `512 px card has ${large} bright pixels, 192 px card ${small}`);
});

test('placeholder: markup characters, long and odd titles do not throw', async () => {
  for (const title of [
    '<b>&',
    '</span><span foreground="red">x',
    'a & b < c > d "e" \'f\'',
    'x'.repeat(500),
    'tab\tnew\nline\u0000nul',
    '😀 emoji ✓',
  ]) {
    const img = decode(
      (await pool.run({ op: 'placeholder', width: 192, height: 108, title, subtitle: '<i>&amp;', format: 'png' })).bytes,
      'png',
    );
    assert.is(img.width, 192, title);
    assert.ok(countPixels(img, [0, 108], bright) > 0, `text drawn for ${JSON.stringify(title.slice(0, 20))}`);
  }
});

test('placeholder: tiny and tall cards keep exact size', async () => {
  for (const [w, h] of [
    [32, 18],
    [1, 1],
    [8, 64],
    [300, 300],
  ] as const) {
    const img = decode(
      (await pool.run({ op: 'placeholder', width: w, height: h, title: 'Camera 1', subtitle: 'test pattern · no signal', format: 'jpg' }))
        .bytes,
      'jpg',
    );
    assert.equal([img.width, img.height], [w, h]);
  }
});

test('palette: bars in order, exact colors, integer edges', async () => {
  const colors = ['#FF0055', '#FF8800', '#FFDD00', '#00DD88', '#00AAFF', '#7744FF', '#ffffff'];
  const rgb = colors.map((c) => [1, 3, 5].map((k) => Number.parseInt(c.slice(k, k + 2), 16)));
  for (const [w, h] of [
    [192, 108],
    [100, 7],
  ] as const) {
    const img = decode((await pool.run({ op: 'palette', colors, width: w, height: h, format: 'png' })).bytes, 'png');
    assert.equal([img.width, img.height], [w, h]);
    const n = colors.length;
    for (let i = 0; i < n; i++) {
      const x0 = Math.floor((i * w) / n);
      const x1 = Math.floor(((i + 1) * w) / n) - 1;
      near(rgbAt(img, (x0 + x1) >> 1, h >> 1), rgb[i]!, 0, `bar ${i} center`);
      near(rgbAt(img, x0, 0), rgb[i]!, 0, `bar ${i} first column`);
      near(rgbAt(img, x1, h - 1), rgb[i]!, 0, `bar ${i} last column`);
    }
  }
  const jpg = decode(
    (await pool.run({ op: 'palette', colors: ['#000000', '#FFFFFF'], width: 64, height: 16, format: 'jpg' })).bytes,
    'jpg',
  );
  near(rgbAt(jpg, 12, 8), [0, 0, 0], 8, 'jpeg black bar');
  near(rgbAt(jpg, 52, 8), [255, 255, 255], 8, 'jpeg white bar');
});

test('palette rejects an empty list and a malformed color', async () => {
  await rejects(pool.run({ op: 'palette', colors: [], width: 10, height: 10, format: 'png' }), /at least one/);
  await rejects(pool.run({ op: 'palette', colors: ['red'], width: 10, height: 10, format: 'png' }), /#RRGGBB/);
});

test('file: a PNG on disk is resized to exactly the box', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'vjd-encode-'));
  try {
    const src = new PNG({ width: 160, height: 90 });
    for (let y = 0; y < 90; y++) {
      for (let x = 0; x < 160; x++) {
        // A one-pixel checkerboard on the right half: area averaging must turn it into mid grey, not stripes.
        const c = x < 80 ? [255, 0, 0] : (x + y) % 2 ? [255, 255, 255] : [0, 0, 0];
        src.data.set([c[0]!, c[1]!, c[2]!, 255], (y * 160 + x) * 4);
      }
    }
    const path = join(dir, 'poster.png');
    await writeFile(path, PNG.sync.write(src));
    for (const format of ['png', 'jpg'] as const) {
      const img = decode((await pool.run({ op: 'file', path, width: 40, height: 30, format })).bytes, format);
      assert.equal([img.width, img.height], [40, 30]);
      near(rgbAt(img, 8, 15), RED, format === 'png' ? 2 : 12, `${format} red side`);
      for (const x of [28, 29, 30, 31]) near(rgbAt(img, x, 15), [128, 128, 128], format === 'png' ? 12 : 20, `${format} grey at x=${x}`);
    }
    const wide = decode((await pool.run({ op: 'file', path, width: 300, height: 50, format: 'png' })).bytes, 'png');
    assert.equal([wide.width, wide.height], [300, 50], 'fill ignores the aspect ratio');
    await rejects(pool.run({ op: 'file', path: join(dir, 'missing.png'), width: 40, height: 30, format: 'png' }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('bad sizes are rejected in the worker', async () => {
  for (const [w, h] of [
    [0, 10],
    [10, -1],
    [1.5, 10],
    [100_000, 10],
  ] as const) {
    await rejects(pool.run({ op: 'palette', colors: ['#000000'], width: w, height: h, format: 'png' }), /out of range/);
  }
});

test('stats count tasks and report the worker median', async () => {
  const before = pool.stats();
  assert.is(before.threads, 2);
  const runs = Array.from({ length: 6 }, () => pool.run({ op: 'palette', colors: ['#102030'], width: 64, height: 36, format: 'png' }));
  const busy = pool.stats();
  assert.is(busy.queued + busy.running, 6);
  assert.ok(busy.running <= 2 && busy.queued >= 4, `running ${busy.running}, queued ${busy.queued}`);
  await Promise.all(runs);
  const after = pool.stats();
  assert.is(after.completed, before.completed + 6);
  assert.is(after.queued, 0);
  assert.is(after.running, 0);
  assert.ok(after.encodeMsP50 > 0 && after.encodeMsP50 < 1000, `p50 ${after.encodeMsP50}`);
});

test('default thread count stays within 1..4', () => {
  const n = defaultEncodeThreads();
  assert.ok(n >= 1 && n <= 4, String(n));
});

test('close is idempotent and later runs are refused', async () => {
  await Promise.all([pool.close(), pool.close()]);
  await rejects(pool.run({ op: 'palette', colors: ['#000000'], width: 4, height: 4, format: 'png' }), /closed/);
});

test.run();
