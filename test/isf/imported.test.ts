// ISF IMPORTED images over real HTTP and GL: PNG and JPEG files beside a filter show in its output, a rewritten
// file shows after the folder's rescan, bad images fail the add naming them, and one decode serves every user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let effects = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });

// The imported image stretched over the frame: what IMG_NORM_PIXEL reads at each output point.
const SHOW = `/*{ "NAME": "Show Image", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ],
  "IMPORTED": { "tex": { "PATH": "tex.png" } } }*/
void main() { gl_FragColor = vec4(IMG_NORM_PIXEL(tex, isf_FragNormCoord).rgb, 1.0); }`;
// The same file by another shader: IMG_SIZE in red and green, IMG_PIXEL at the image's top-left pixel in blue.
const SIZE = `/*{ "NAME": "Image Size", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ],
  "IMPORTED": [ { "NAME": "pic", "PATH": "tex.png" } ] }*/
void main() {
  vec2 s = IMG_SIZE(pic);
  gl_FragColor = vec4(s.x / 255.0, s.y / 255.0, IMG_PIXEL(pic, vec2(0.5, s.y - 0.5)).r, 1.0);
}`;
const JPEG = `/*{ "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ], "IMPORTED": [ { "NAME": "photo", "PATH": "sub/photo.jpg" } ] }*/
void main() { gl_FragColor = vec4(IMG_THIS_PIXEL(photo).rgb, 1.0); }`;
const importing = (path: string, extra = ''): string =>
  `/*{ "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ], "IMPORTED": { "img": { "PATH": "${path}"${extra} } } }*/
void main() { gl_FragColor = IMG_THIS_PIXEL(img); }`;

type Rgb = [number, number, number];
/** A 2×2 PNG: top-left, top-right, bottom-left, bottom-right. */
function png(colors: [Rgb, Rgb, Rgb, Rgb]): Promise<Buffer> {
  const raw = Buffer.from(colors.flatMap((c) => [...c, 255]));
  return sharp(raw, { raw: { width: 2, height: 2, channels: 4 } })
    .png()
    .toBuffer();
}

/** Writes beside, then renames: the watcher sees one complete file. */
async function put(name: string, data: Buffer | string): Promise<void> {
  await writeFile(join(effects, `${name}.tmp`), data);
  await rename(join(effects, `${name}.tmp`), join(effects, name));
}

const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const WHITE: Rgb = [255, 255, 255];
const YELLOW: Rgb = [255, 255, 0];
const near = (px: number[], c: Rgb, tol = 12): boolean => c.every((v, i) => Math.abs(px[i]! - v) <= tol);
const decodes = (file: string): number =>
  s
    .logs()
    .split('\n')
    .filter((l) => l.includes('imported image decoded') && l.includes(file)).length;

async function outputBecomes(what: string, points: Array<[number, number]>, ok: (px: number[][]) => boolean): Promise<void> {
  let last: number[][] = [];
  try {
    await waitUntil(async () => ok((last = await sampleOutput(s.base, points))), 30_000, 100);
  } catch {
    assert.unreachable(`output never became ${what}; last ${JSON.stringify(last)}`);
  }
}

async function clear(): Promise<void> {
  while ((await req('GET', api('/effects'))).json().count > 0) assert.is((await post('/effects/remove', { index: 1 })).status, 200);
}

async function only(type: string): Promise<void> {
  await clear();
  const r = await post('/effects/add', { type });
  assert.is(r.status, 200, r.text);
}

const QUADRANTS: Array<[number, number]> = [
  [0.25, 0.25],
  [0.75, 0.25],
  [0.25, 0.75],
  [0.75, 0.75],
];

test.before(async () => {
  const dataDir = await tempDir();
  effects = join(dataDir, 'fx');
  await mkdir(join(effects, 'sub'), { recursive: true });
  await writeFile(join(effects, 'tex.png'), await png([RED, GREEN, BLUE, WHITE]));
  await writeFile(
    join(effects, 'sub', 'photo.jpg'),
    await sharp({ create: { width: 16, height: 8, channels: 3, background: { r: 230, g: 120, b: 20 } } })
      .jpeg({ quality: 95 })
      .toBuffer(),
  );
  await writeFile(join(dataDir, 'outside.png'), await png([RED, RED, RED, RED]));
  await symlink(join(dataDir, 'outside.png'), join(effects, 'link.png'));
  await writeFile(join(effects, 'show_image.fs'), SHOW);
  await writeFile(join(effects, 'image_size.fs'), SIZE);
  await writeFile(join(effects, 'jpeg_image.fs'), JPEG);
  await writeFile(join(effects, 'missing_image.fs'), importing('nothere.png'));
  await writeFile(join(effects, 'escaping_image.fs'), importing('../outside.png'));
  await writeFile(join(effects, 'absolute_image.fs'), importing(join(dataDir, 'outside.png')));
  await writeFile(join(effects, 'linked_image.fs'), importing('link.png'));
  await writeFile(join(effects, 'cube_image.fs'), importing('tex.png', ', "TYPE": "cube"'));
  await writeFile(join(effects, 'not_image.fs'), importing('show_image.fs'));
  s = await startServer({ dataDir, config: { effects: { dirs: [effects] }, live: { test: [], streams: [], v4l2: { enabled: false } } } });
  const r = await post('/sources/select', { id: 'source:plasma' });
  assert.is(r.status, 200, r.text);
});
test.after(async () => {
  await s?.cleanup();
});

test('a PNG beside the filter shows in its output, right way up', async () => {
  await only('show_image');
  await outputBecomes('red, green / blue, white', QUADRANTS, (px) => [RED, GREEN, BLUE, WHITE].every((c, i) => near(px[i]!, c, 40)));
});

test('IMG_SIZE and IMG_PIXEL read the imported image; two shaders and two instances share one decode', async () => {
  await only('image_size');
  // 2×2 image; the top-left pixel is red.
  await outputBecomes('size 2×2 with red at the top-left', [[0.5, 0.5]], (px) => near(px[0]!, [2, 2, 255], 2));
  assert.is((await post('/effects/add', { type: 'show_image' })).status, 200);
  assert.is((await post('/effects/add', { type: 'show_image' })).status, 200);
  await outputBecomes('the image again', QUADRANTS, (px) => near(px[0]!, RED, 40) && near(px[3]!, WHITE, 40));
  assert.is(decodes(join(effects, 'tex.png')), 1, 'tex.png decoded once for both shaders and all three instances');
});

test('a JPEG in a subfolder, named by the array form, shows its colour', async () => {
  await only('jpeg_image');
  await outputBecomes('orange', [[0.5, 0.5]], (px) => near(px[0]!, [230, 120, 20], 16));
});

test('rewriting the PNG on disk changes the running effect', async () => {
  await only('show_image');
  await outputBecomes('the first image', QUADRANTS, (px) => near(px[0]!, RED, 40));
  await put('tex.png', await png([YELLOW, YELLOW, YELLOW, YELLOW]));
  await outputBecomes('yellow everywhere', QUADRANTS, (px) => px.every((p) => near(p, YELLOW, 12)));
  await waitUntil(() => decodes(join(effects, 'tex.png')) === 2, 10_000);
  // A new instance of the other shader naming the file gets the new image too.
  await only('image_size');
  await outputBecomes('yellow top-left pixel', [[0.5, 0.5]], (px) => near(px[0]!, [2, 2, 255], 2));
});

for (const [type, words] of [
  ['missing_image', ['nothere.png', 'not found']],
  ['escaping_image', ['../outside.png', "leaves the shader's folder"]],
  ['absolute_image', ['outside.png', 'absolute']],
  ['linked_image', ['link.png', "leaves the shader's folder"]],
  ['cube_image', ['"img"', 'cube maps are not supported']],
  ['not_image', ['show_image.fs', 'could not be decoded']],
] as const) {
  test(`${type}: the add fails with EFFECT_LOAD_FAILED naming the image`, async () => {
    await clear();
    const r = await post('/effects/add', { type });
    assert.is(r.status, 500, r.text);
    assert.is(r.json().code, 'EFFECT_LOAD_FAILED');
    for (const w of words) assert.ok(r.json().message.includes(w), `"${w}" in ${r.json().message}`);
  });
}

test('the missing image appearing later makes the effect load', async () => {
  await put('nothere.png', await png([GREEN, GREEN, GREEN, GREEN]));
  await waitUntil(async () => (await post('/effects/add', { type: 'missing_image' })).status === 200, 20_000, 300);
  await only('missing_image');
  await outputBecomes('green', [[0.5, 0.5]], (px) => near(px[0]!, GREEN, 12));
});

test.run();
