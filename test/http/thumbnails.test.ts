// Thumbnails over real HTTP with real ffmpeg inputs, the render worker's readback and the encode pool: live frames
// and placeholders, size/format rules, ETag and 304 before any work, the output, generators, media and palettes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, req, tempDir, freePort, waitUntil, type TestServer, type Res } from '../helpers/server.js';
import { decodeImage, near, brightPixels } from '../helpers/images.js';
import { DocumentedAnswers, retryDocumented } from '../helpers/documented.js';

const run = promisify(execFile);
let s: TestServer;
let paletteDir: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const getOnce = (p: string, headers: Record<string, string> = {}): Promise<Res> =>
  req('GET', p.startsWith('/media/') ? `${s.base}${p}` : api(p), { headers, timeoutMs: 15000 });
/** Load answers the spec documents for thumbnails (a loaded machine may give them): counted, reported at the end. */
const documented = new DocumentedAnswers();
/** A thumbnail, asked again after a documented load answer, so every check below runs on a real answer. */
const get = (p: string, headers: Record<string, string> = {}): Promise<Res> => retryDocumented(p, () => getOnce(p, headers), documented);
const status = async (): Promise<any> => (await req('GET', api('/status'))).json();

function etagDigest(r: Res): string {
  const e = String(r.headers.etag);
  const m = /^"([a-z]+)-(\d+)x(\d+)-(png|jpg)-(.+)"$/.exec(e);
  assert.ok(m, `ETag form: ${e}`);
  return m![5]!;
}

function image(r: Res) {
  assert.is(r.status, 200, r.text.slice(0, 200));
  assert.is(r.headers['cache-control'], 'no-cache');
  return decodeImage(r.body, r.headers['content-type'] as string);
}

/** Requests until the image is a live frame (the preview feed needs a moment to open). */
async function liveFrame(path: string): Promise<Res> {
  let last: Res | null = null;
  await waitUntil(
    async () => {
      last = await get(path);
      return last.status === 200 && !etagDigest(last).startsWith('p');
    },
    30000,
    200,
  );
  return last!;
}

function errorOf(r: Res, status: number, code: string): any {
  assert.is(r.status, status, r.text);
  const b = r.json();
  assert.is(b.error, true);
  assert.is(b.code, code);
  assert.type(b.message, 'string');
  return b;
}

test.before(async () => {
  const dataDir = await tempDir();
  const media = join(dataDir, 'library');
  paletteDir = join(dataDir, 'palettes');
  await mkdir(media, { recursive: true });
  await mkdir(paletteDir, { recursive: true });
  const ff = ['-hide_banner', '-loglevel', 'error', '-y'];
  await run('ffmpeg', [...ff, '-f', 'lavfi', '-i', 'color=c=blue:size=800x400', '-frames:v', '1', join(media, 'wide blue.png')]);
  await run('ffmpeg', [
    ...ff,
    '-f',
    'lavfi',
    '-i',
    'color=c=green:size=320x240:rate=25',
    '-t',
    '2',
    '-pix_fmt',
    'yuv420p',
    join(media, 'green clip.mp4'),
  ]);
  await writeFile(join(media, 'broken.mp4'), Buffer.alloc(4096, 7));
  await writeFile(join(paletteDir, 'test-trio.json'), JSON.stringify({ name: 'Test Trio', colors: ['#FF0000', '#00FF00', '#0000FF'] }));
  const deadPort = await freePort();
  s = await startServer({
    dataDir,
    config: {
      media: { roots: [media] },
      palettes: { dirs: [paletteDir] },
      live: {
        test: [
          { id: 'red', name: 'Red Card', pattern: 'color=c=red:size=320x240:rate=10' },
          { id: 'twin-a', name: 'Twin', pattern: 'color=c=yellow:size=160x90:rate=10' },
          { id: 'twin-b', name: 'Twin', pattern: 'color=c=blue:size=160x90:rate=10' },
        ],
        streams: [{ id: 'dead', name: 'Dead Cam', url: `tcp://127.0.0.1:${deadPort}` }],
        v4l2: { enabled: false },
      },
    },
  });
  await waitUntil(async () => (await req('GET', api('/sources'))).json().items.some((i: any) => i.sourceKind === 'file'), 20000);
});

test.after(async () => {
  await s?.cleanup();
});

test('live input: placeholder first, then its frame at 192x144 (4:3 input), red, PNG, no-cache', async () => {
  const first = await get('/thumbnails/live/red');
  assert.is(first.status, 200);
  const r = await liveFrame('/thumbnails/live/red');
  assert.is(r.headers['content-type'], 'image/png');
  assert.match(String(r.headers.etag), /^"live-192x144-png-f/);
  const img = image(r);
  assert.is(img.width, 192);
  assert.is(img.height, 144);
  for (const [x, y] of [
    [2, 2],
    [96, 72],
    [189, 141],
  ] as const)
    assert.ok(near(img.at(x, y), [255, 0, 0], 30), `pixel ${x},${y} ${img.at(x, y)}`);
});

test('size is clamped or defaulted; format jpg gives JPEG, anything else PNG', async () => {
  await liveFrame('/thumbnails/live/red');
  const cases: Array<[string, number, number, string]> = [
    ['size=10', 32, 24, 'image/png'],
    ['size=9999', 512, 384, 'image/png'],
    ['size=100.5', 192, 144, 'image/png'],
    ['size=abc', 192, 144, 'image/png'],
    ['size=64&format=jpg', 64, 48, 'image/jpeg'],
    ['format=gif', 192, 144, 'image/png'],
  ];
  for (const [q, w, h, type] of cases) {
    const r = await get(`/thumbnails/live/red?${q}`);
    assert.is(r.headers['content-type'], type, q);
    const img = image(r);
    assert.is(img.width, w, q);
    assert.is(img.height, h, q);
    if (!etagDigest(r).startsWith('p'))
      assert.ok(near(img.at(img.width >> 1, img.height >> 1), [255, 0, 0], 40), `${q}: ${img.at(w >> 1, h >> 1)}`);
  }
});

test('a live frame gets a new ETag per frame', async () => {
  const a = await liveFrame('/thumbnails/live/red');
  let b = a;
  await waitUntil(
    async () => {
      b = await get('/thumbnails/live/red');
      return etagDigest(b) !== etagDigest(a);
    },
    15000,
    150,
  );
  assert.not.ok(etagDigest(b).startsWith('p'));
});

test('flexible name matching; a tie goes to the first input in enumeration order', async () => {
  for (const id of ['Red Card', '  red_card ', 'RED-CARD', 'liveInput:red']) {
    const r = await get(`/thumbnails/live/${encodeURIComponent(id)}`);
    assert.is(r.status, 200, id);
  }
  const r = await liveFrame('/thumbnails/live/twin');
  const img = image(r);
  assert.ok(
    near(img.at(img.width >> 1, img.height >> 1), [255, 255, 0], 40),
    `tie picks twin-a (yellow): ${img.at(img.width >> 1, img.height >> 1)}`,
  );
});

test('DEVICE_NOT_FOUND: unknown, empty and over-256 ids', async () => {
  errorOf(await get('/thumbnails/live/nope'), 404, 'DEVICE_NOT_FOUND');
  errorOf(await get('/thumbnails/live/'), 404, 'DEVICE_NOT_FOUND');
  errorOf(await get('/thumbnails/live'), 404, 'DEVICE_NOT_FOUND');
  errorOf(await get(`/thumbnails/live/${'r'.repeat(257)}`), 404, 'DEVICE_NOT_FOUND');
  errorOf(await get(`/thumbnails/live/${'r'.repeat(256)}`), 404, 'DEVICE_NOT_FOUND');
});

test('a disconnected input shows a placeholder with text; its ETag starts with p and stays stable', async () => {
  const a = await get('/thumbnails/live/dead');
  const img = image(a);
  assert.is(img.width, 192);
  assert.is(img.height, 108);
  assert.ok(etagDigest(a).startsWith('p'));
  assert.ok(brightPixels(img) > 40, `text pixels: ${brightPixels(img)}`);
  await new Promise((r) => setTimeout(r, 1200));
  const b = await get('/thumbnails/live/dead');
  assert.is(b.headers.etag, a.headers.etag);
});

test('If-None-Match with the current ETag: 304, no body, ETag and Cache-Control, and no job created', async () => {
  for (const path of ['/thumbnails/live/dead', '/thumbnails/source/source:plasma?size=96', '/thumbnails/palette/test-trio']) {
    const first = await get(path);
    assert.is(first.status, 200, path);
    const before = (await status()).thumbnails;
    const r = await get(path, { 'If-None-Match': String(first.headers.etag) });
    assert.is(r.status, 304, path);
    assert.is(r.body.length, 0);
    assert.is(r.headers.etag, first.headers.etag);
    assert.is(r.headers['cache-control'], 'no-cache');
    const after = (await status()).thumbnails;
    assert.is(after.queue.jobs, before.queue.jobs, `${path}: no job`);
    assert.is(after.encoder.completed, before.encoder.completed, `${path}: nothing encoded`);
    assert.is(after.notModified, before.notModified + 1);
  }
  // A stale ETag gets the image.
  const r = await get('/thumbnails/palette/test-trio', { 'If-None-Match': '"palette-192x48-png-v0.000000000000"' });
  assert.is(r.status, 200);
});

test('current output: the selected source after effects, at the render aspect', async () => {
  const sel = await req('POST', api('/inputs/live/select'), { body: { id: 'red' }, timeoutMs: 15000 });
  assert.is(sel.status, 200, sel.text);
  const r = await get('/thumbnails/current?size=160');
  assert.match(String(r.headers.etag), /^"current-160x90-png-f/);
  const img = image(r);
  assert.is(img.width, 160);
  assert.is(img.height, 90);
  assert.ok(near(img.at(80, 45), [255, 0, 0], 30), `center ${img.at(80, 45)}`);
  // 4:3 red letterboxed in 16:9: the side bars are black.
  assert.ok(near(img.at(2, 45), [0, 0, 0], 30), `edge ${img.at(2, 45)}`);
  // Invert changes the output and so the thumbnail.
  assert.is((await req('POST', api('/effects/add'), { body: { type: 'invert' } })).status, 200);
  await waitUntil(async () => near(image(await get('/thumbnails/current?size=160')).at(80, 45), [0, 255, 255], 40), 15000);
  assert.is((await req('POST', api('/effects/remove'), { body: { type: 'invert' } })).status, 200);
});

test('a stalled renderer answers 503 PREVIEW_TIMEOUT', async () => {
  assert.is((await req('POST', api('/_test/stall'), { body: { ms: 1500 } })).status, 200);
  const r = await getOnce('/thumbnails/current?size=77');
  errorOf(r, 503, 'PREVIEW_TIMEOUT');
  assert.is(r.headers['retry-after'], '1');
  // Once the stall is over the same request is served again (waited for, not assumed after a fixed time).
  await waitUntil(async () => (await getOnce('/thumbnails/current?size=77')).status === 200, 15000, 200);
});

test('generators and presets render off-screen; unknown id is ITEM_NOT_FOUND', async () => {
  const gen = await get('/thumbnails/source/source:plasma');
  assert.match(String(gen.headers.etag), /^"source-192x108-png-g/);
  const img = image(gen);
  let lit = 0;
  for (let i = 0; i < img.data.length; i += 4) if (img.data[i]! + img.data[i + 1]! + img.data[i + 2]! > 60) lit++;
  assert.ok(lit > img.width * img.height * 0.5, 'plasma fills the frame');
  const sources = (await req('GET', api('/sources'))).json().items;
  const preset = sources.find((i: any) => i.sourceKind === 'preset');
  const p = await get(`/thumbnails/source/${encodeURIComponent(preset.id)}?format=jpg`);
  assert.is(p.headers['content-type'], 'image/jpeg');
  image(p);
  const again = await get('/thumbnails/source/source:plasma');
  assert.is(again.headers.etag, gen.headers.etag, 'stable');
  const b = errorOf(await get('/thumbnails/source/source:nope'), 404, 'ITEM_NOT_FOUND');
  assert.ok(Array.isArray(b.details.available));
});

test('media: poster of a still and of a video, a card for a broken file, ITEM_NOT_FOUND for unknown ids', async () => {
  const files = (await req('GET', api('/sources'))).json().items.filter((i: any) => i.sourceKind === 'file');
  const byName = (n: string) => files.find((f: any) => f.name === n).id as string;
  const still = await get(`/media/thumbnails/${byName('wide blue')}`);
  assert.match(String(still.headers.etag), /^"media-192x96-png-m/);
  const a = image(still);
  assert.is(a.width, 192);
  assert.is(a.height, 96);
  assert.ok(near(a.at(96, 48), [0, 0, 255], 30));
  const clip = image(await get(`/media/thumbnails/${byName('green clip')}?size=64&format=jpg`));
  assert.is(clip.width, 64);
  assert.is(clip.height, 48);
  assert.ok(near(clip.at(32, 24), [0, 128, 0], 40), `${clip.at(32, 24)}`);
  const broken = files.find((f: any) => f.name === 'broken');
  if (broken) {
    const r = await get(`/media/thumbnails/${broken.id}`);
    assert.ok(etagDigest(r).startsWith('p'));
  }
  errorOf(await get('/media/thumbnails/media-0000000000000000'), 404, 'ITEM_NOT_FOUND');
  errorOf(await get('/media/thumbnails/..%2F..%2Fetc%2Fpasswd'), 404, 'ITEM_NOT_FOUND');
});

test('palette thumbnail: swatches in order; editing the file changes the ETag and the current palette', async () => {
  const r = await get('/thumbnails/palette/test-trio?size=96');
  assert.match(String(r.headers.etag), /^"palette-96x24-png-v/);
  const img = image(r);
  assert.ok(near(img.at(16, 12), [255, 0, 0], 5));
  assert.ok(near(img.at(48, 12), [0, 255, 0], 5));
  assert.ok(near(img.at(80, 12), [0, 0, 255], 5));
  assert.is((await req('POST', api('/palettes/select'), { body: { id: 'test-trio' } })).status, 200);
  await writeFile(join(paletteDir, 'test-trio.json'), JSON.stringify({ name: 'Test Trio', colors: ['#FFFFFF', '#000000'] }));
  await waitUntil(async () => (await req('GET', api('/palettes/current'))).json().colors.join() === '#FFFFFF,#000000', 10000);
  const after = await get('/thumbnails/palette/test-trio?size=96');
  assert.is.not(after.headers.etag, r.headers.etag);
  const img2 = image(after);
  assert.ok(near(img2.at(20, 12), [255, 255, 255], 5));
  assert.ok(near(img2.at(70, 12), [0, 0, 0], 5));
  const stale = await get('/thumbnails/palette/test-trio?size=96', { 'If-None-Match': String(r.headers.etag) });
  assert.is(stale.status, 200);
  errorOf(await get('/thumbnails/palette/nope'), 404, 'ITEM_NOT_FOUND');
});

test('preview feeds are reported in status and thumbnails need the API key like every protected route', async () => {
  const st = await status();
  assert.ok(st.thumbnails.previewsOpen >= 1);
  assert.type(st.thumbnails.queue.depth, 'number');
  console.log(`thumbnails: ${documented.summary()}`);
});

test.run();
