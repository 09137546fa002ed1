// Scenes over real HTTP with output pixels: save two stacks, recall with a 1 s fade (midway the output blends the
// two), every layer as saved afterwards, a recall whose sources are cold answers after the first new frame, the
// scene image, bad input, and layers and scenes across a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startServer, req, tempDir, waitUntil, sampleOutput, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dataDir: string;
let config: Record<string, unknown>;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();
const post = (p: string, body?: unknown) => req('POST', api(p), { body: body ?? {}, timeoutMs: 20000 });
type Px = number[];

const center = async (): Promise<Px> => (await sampleOutput(s.base))[0]!;
const near = (p: Px, rgb: number[], tol = 40): boolean => rgb.every((v, i) => Math.abs(p[i]! - v) <= tol);

async function ok(p: string, body?: unknown): Promise<any> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json();
}

async function shows(rgb: number[], what: string): Promise<void> {
  let last: Px = [];
  await waitUntil(async () => {
    last = await center();
    return near(last, rgb);
  }, 10000).catch(() => assert.unreachable(`${what}: want ${rgb}, output shows ${last}`));
}

const SOLID = (name: string, rgb: number[]) => JSON.stringify({ name, source: 'solid_color', inputs: { color: [...rgb, 1] } });

test.before(async () => {
  dataDir = await tempDir();
  const presets = join(dataDir, 'presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'red.json'), SOLID('Red', [1, 0, 0]));
  await writeFile(join(presets, 'blue.json'), SOLID('Blue', [0, 0, 1]));
  await writeFile(join(presets, 'green.json'), SOLID('Green', [0, 1, 0]));
  await writeFile(join(presets, 'black.json'), SOLID('Black', [0, 0, 0]));
  const media = join(dataDir, 'clips');
  await mkdir(media, { recursive: true });
  await promisify(execFile)('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=yellow:s=96x72:r=30:d=4'],
    ...['-c:v', 'libx264', '-g', '30', '-pix_fmt', 'yuv420p', join(media, 'yellow.mp4')],
  ]);
  config = { presets: { dirs: [presets] }, media: { roots: [media] }, live: { v4l2: { enabled: false } } };
  s = await startServer({ dataDir, config });
});
test.after(async () => {
  await s.cleanup();
});

test('save two scenes: red alone, then green under blue at half opacity with an invert on the master chain', async () => {
  await ok('/sources/select', { id: 'preset:red' });
  await shows([255, 0, 0], 'red');
  const a = await ok('/scenes/save', { name: 'Red Room' });
  assert.is(a.scene.id, 'red-room');
  assert.is(a.scene.layers.length, 1);

  await ok('/sources/select', { id: 'preset:green' });
  await ok('/layers/add', { source: 'preset:blue', opacity: 0.5 });
  await ok('/effects/add', { type: 'invert' });
  // green (0,255,0) under blue (0,0,255) at 0.5 = (0,128,128), inverted = (255,127,127).
  await shows([255, 127, 127], 'scene b');
  const b = await ok('/scenes/save', { name: 'Blue Hour' });
  assert.is(b.scene.layers.length, 2);
  assert.is(b.scene.masterEffects, 1);
  const list = await get('/scenes');
  assert.equal(
    list.scenes.map((x: any) => x.id),
    ['red-room', 'blue-hour'],
  );
  const img = await req('GET', api('/thumbnails/scene/blue-hour'));
  assert.is(img.status, 200, img.text);
  assert.is(img.headers['content-type'], 'image/png');
  const again = await req('GET', api('/thumbnails/scene/blue-hour'), { headers: { 'If-None-Match': String(img.headers.etag) } });
  assert.is(again.status, 304);
});

test('recall with a 1 s fade: midway the output blends both scenes; afterwards every layer is as saved', async () => {
  const recalling = post('/scenes/recall', { id: 'red-room', transition: 'fade', durationMs: 1000 });
  let mid: Px | null = null;
  // Red room is red; the old picture is (255,127,127): between them the green and blue channels are part-way.
  await waitUntil(async () => {
    const p = await center();
    if (p[0]! > 200 && p[1]! > 20 && p[1]! < 110) mid = p;
    return mid !== null;
  }, 8000).catch(() => undefined);
  const r = await recalling;
  assert.is(r.status, 200, r.text);
  assert.ok(mid !== null, 'no frame between the two scenes was seen during the fade');
  await shows([255, 0, 0], 'red room after the fade');
  // The take's end (the swap) and the removal of the extra layer follow the last frame of the fade.
  await waitUntil(async () => {
    const l = await get('/layers');
    return l.layers.length === 1 && l.layers[0].source.id === 'preset:red';
  }, 10000).catch(() => undefined);
  const l = await get('/layers');
  assert.is(l.layers.length, 1, 'the layer the scene lacks was removed after the take');
  assert.is(l.layers[0].source.id, 'preset:red');
  assert.is((await get('/effects')).items.length, 0, 'the master chain as saved (empty)');
});

test('recall by name with a cut switches at once; the answer comes after the first frame of the scene', async () => {
  const r = await ok('/scenes/recall', { name: 'blue hour' });
  assert.is(r.scene.id, 'blue-hour');
  // The answer waits for the take's frame: the very next sample already shows the scene.
  assert.ok(near(await center(), [255, 127, 127]), 'scene b on the output when the recall answered');
  const l = await get('/layers');
  assert.is(l.layers.length, 2);
  assert.is(l.layers[1].opacity, 0.5);
  assert.is(l.layers[1].source.id, 'preset:blue');
});

test('bad input: unknown scene, unknown transition, blank names, no body', async () => {
  const codes = async (p: string, body: unknown, status: number, code: string) => {
    const r = await post(p, body);
    assert.is(r.status, status, `${p} ${JSON.stringify(body)}: ${r.text}`);
    assert.is(r.json().code, code);
  };
  await codes('/scenes/recall', { id: 'nope' }, 404, 'ITEM_NOT_FOUND');
  await codes('/scenes/recall', { id: 'red-room', transition: 'sparkle' }, 404, 'ITEM_NOT_FOUND');
  await codes('/scenes/recall', {}, 400, 'INVALID_REQUEST');
  await codes('/scenes/recall', { id: 'red-room', durationMs: -1 }, 400, 'INVALID_REQUEST');
  await codes('/scenes/save', { name: '   ' }, 400, 'INVALID_REQUEST');
  await codes('/scenes/save', { name: 'x'.repeat(65) }, 400, 'INVALID_REQUEST');
  await codes('/scenes/delete', { id: 'nope' }, 404, 'ITEM_NOT_FOUND');
  const img = await req('GET', api('/thumbnails/scene/nope'));
  assert.is(img.status, 404);
  assert.is((await get('/scenes')).count, 2, 'nothing saved by refused requests');
});

test('a restart keeps the layers, their blending and chains, and the scenes', async () => {
  await ok('/layers/2/effects/add', { type: 'invert' });
  await ok('/layers/blend', { layer: 2, mode: 'add' });
  await ok('/layers/select', { layer: 2 });
  const before = await get('/layers');
  await s.stop();
  s = await startServer({ dataDir, config });
  await waitUntil(async () => (await get('/layers')).layers[1]?.source?.id === 'preset:blue', 15000);
  const after = await get('/layers');
  assert.equal(after, before);
  assert.is((await get('/layers/2/effects')).items.length, 1);
  assert.equal(
    (await get('/scenes')).scenes.map((x: any) => x.id),
    ['red-room', 'blue-hour'],
  );
});

test('a recall whose source is cold (its reader closed) answers once the first frame of the new scene is on the output', async () => {
  await ok('/scenes/recall', { id: 'red-room' });
  const files = (await get('/sources')).items.filter((i: any) => i.sourceKind === 'file');
  assert.ok(files.length > 0, 'the clip is in the library');
  await ok('/sources/select', { id: files[0].id });
  await shows([255, 255, 0], 'the clip');
  await ok('/scenes/save', { name: 'Clip' });
  await ok('/scenes/recall', { id: 'red-room' });
  // The clip went to preview with the take; cueing another source there lets its reader close.
  await ok('/mix/cue', { id: 'preset:green' });
  const r = await post('/scenes/recall', { id: 'clip' });
  assert.is(r.status, 200, r.text);
  assert.ok(near(await center(), [255, 255, 0]), 'the clip is on the output when the recall answered');
  assert.is((await get('/sources/current')).id, files[0].id);
});

test.run();
