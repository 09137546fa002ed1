// Layers over real HTTP with output pixels: a red bottom layer and a blue top layer blended by opacity and mode,
// mute and solo, a layer chain against the master chain, per-layer selects, the layer thumbnail, and bad input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSocket } from 'node:dgram';
import { startServer, req, tempDir, waitUntil, sampleOutput, type TestServer } from '../helpers/server.js';
import { freeUdpPort, osc } from '../helpers/osc.js';

let s: TestServer;
let oscPort = 0;
const sender = createSocket('udp4');
const send = (address: string, ...args: Array<{ type: string; value?: unknown }>): Promise<void> =>
  new Promise((resolve) => sender.send(osc.writePacket({ address, args }, { metadata: true }), oscPort, '127.0.0.1', () => resolve()));
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

function errorOf(r: { status: number; text: string; json(): any }, status: number, code: string): void {
  assert.is(r.status, status, r.text);
  assert.is(r.json().code, code, r.text);
}

/** Waits until the output's centre matches `rgb` (the render worker applies stack changes on its next frame). */
async function shows(rgb: number[], what: string): Promise<void> {
  let last: Px = [];
  await waitUntil(async () => {
    last = await center();
    return near(last, rgb);
  }, 10000).catch(() => assert.unreachable(`${what}: want ${rgb}, output shows ${last}`));
}

const SOLID = (name: string, rgb: number[]) => JSON.stringify({ name, source: 'solid_color', inputs: { color: [...rgb, 1] } });

test.before(async () => {
  const dataDir = await tempDir();
  const presets = join(dataDir, 'presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'red.json'), SOLID('Red', [1, 0, 0]));
  await writeFile(join(presets, 'blue.json'), SOLID('Blue', [0, 0, 1]));
  await writeFile(join(presets, 'white.json'), SOLID('White', [1, 1, 1]));
  oscPort = await freeUdpPort();
  s = await startServer({
    dataDir,
    config: {
      presets: { dirs: [presets] },
      render: { maxLayers: 3 },
      live: { v4l2: { enabled: false } },
      osc: { enabled: true, host: '127.0.0.1', port: oscPort },
    },
  });
});
test.after(async () => {
  sender.close();
  await s.cleanup();
});

test('a new installation has one layer, selected, and the spec routes act on it', async () => {
  const l = await get('/layers');
  assert.is(l.layers.length, 1);
  assert.is(l.selected, 1);
  assert.is(l.max, 3);
  assert.ok(l.blends.includes('multiply'));
  await ok('/sources/select', { id: 'preset:red' });
  const again = await get('/layers');
  assert.is(again.layers[0].source.id, 'preset:red');
  await shows([255, 0, 0], 'red alone');
});

test('blue on top at 0.5 normal gives purple; add gives magenta; multiply with white leaves red', async () => {
  const added = await ok('/layers/add', { source: 'preset:blue', opacity: 0.5 });
  assert.is(added.layers.length, 2);
  assert.is(added.layers[1].source.id, 'preset:blue');
  assert.is(added.selected, 1, 'adding does not change the selected layer');
  await shows([128, 0, 128], 'blue at 0.5 over red');
  await ok('/layers/opacity', { layer: 2, value: 1 });
  await ok('/layers/blend', { layer: 2, mode: 'add' });
  await shows([255, 0, 255], 'red + blue');
  await ok('/layers/2/sources/select', { id: 'preset:white' });
  await ok('/layers/blend', { layer: 2, mode: 'multiply' });
  await shows([255, 0, 0], 'red × white');
  await ok('/layers/2/sources/select', { id: 'preset:blue' });
  await ok('/layers/blend', { layer: 2, mode: 'normal' });
  await shows([0, 0, 255], 'opaque blue on top');
});

test('mute hides the top layer, solo shows only it', async () => {
  await ok('/layers/mute', { layer: 2, enabled: true });
  await shows([255, 0, 0], 'top muted');
  await ok('/layers/mute', { layer: 2, enabled: false });
  await ok('/layers/opacity', { layer: 2, value: 0.5 });
  await ok('/layers/solo', { layer: 2, enabled: true });
  await shows([0, 0, 128], 'only the top layer, at half opacity over black');
  await ok('/layers/solo', { layer: 2, enabled: false });
  await ok('/layers/opacity', { layer: 2, value: 1 });
});

test("a layer's chain changes only that layer; the master chain applies to the composite", async () => {
  await ok('/layers/opacity', { layer: 2, value: 0.5 });
  await ok('/layers/2/effects/add', { type: 'invert' });
  const chain = await get('/layers/2/effects');
  assert.is(chain.count ?? chain.items?.length, 1, JSON.stringify(chain));
  assert.is((await get('/effects')).items?.length ?? 0, 0, 'the master chain stays empty');
  // Inverted blue is yellow (255,255,0): half over red gives (255,128,0).
  await shows([255, 128, 0], 'inverted top layer over red');
  await ok('/effects/add', { type: 'invert' });
  await shows([0, 128, 255], 'the composite inverted');
  await ok('/effects/remove', { type: 'invert' });
  await ok('/layers/2/effects/remove', { type: 'invert' });
  await ok('/layers/opacity', { layer: 2, value: 1 });
  await shows([0, 0, 255], 'chains gone');
});

test('the selected layer is what /sources/current and the select routes address', async () => {
  await ok('/layers/select', { layer: 2 });
  assert.is((await get('/sources/current')).id, 'preset:blue');
  await ok('/sources/select', { id: 'preset:white' });
  const l = await get('/layers');
  assert.is(l.layers[1].source.id, 'preset:white');
  assert.is(l.layers[0].source.id, 'preset:red');
  await ok('/layers/select', { layer: 1 });
  assert.is((await get('/sources/current')).id, 'preset:red');
  assert.is((await get('/layers/2/sources/current')).id, 'preset:white');
});

test('GET /thumbnails/layer/{n} shows one layer before blending, with ETag and 304', async () => {
  const r = await req('GET', api('/thumbnails/layer/1?size=64&format=png'));
  assert.is(r.status, 200, r.text);
  assert.is(r.headers['content-type'], 'image/png');
  const etag = String(r.headers.etag);
  assert.ok(etag);
  const again = await req('GET', api('/thumbnails/layer/1?size=64&format=png'), { headers: { 'If-None-Match': etag } });
  assert.ok(again.status === 304 || again.status === 200, `status ${again.status}`);
  errorOf(await req('GET', api('/thumbnails/layer/9')), 404, 'LAYER_NOT_FOUND');
});

test('moving and removing layers; the stack keeps at least one', async () => {
  await ok('/layers/move', { layer: 2, to: 1 });
  let l = await get('/layers');
  assert.is(l.layers[0].source.id, 'preset:white');
  assert.is(l.selected, 2, 'the selected layer moved with its layer');
  await shows([255, 0, 0], 'red now on top');
  await ok('/layers/name', { layer: 1, name: 'Back' });
  await ok('/layers/remove', { layer: 1 });
  l = await get('/layers');
  assert.is(l.layers.length, 1);
  assert.is(l.layers[0].source.id, 'preset:red');
  errorOf(await post('/layers/remove', { layer: 1 }), 400, 'INVALID_REQUEST');
});

test('past render.maxLayers: 403 LAYER_LIMIT_REACHED', async () => {
  await ok('/layers/add', {});
  await ok('/layers/add', { blend: 'screen', name: 'Third' });
  errorOf(await post('/layers/add', {}), 403, 'LAYER_LIMIT_REACHED');
  await ok('/layers/remove', { layer: 3 });
  await ok('/layers/remove', { layer: 2 });
});

test('bad input on every layer route', async () => {
  errorOf(await post('/layers/opacity', { layer: 5, value: 0.5 }), 404, 'LAYER_NOT_FOUND');
  errorOf(await post('/layers/opacity', { layer: 1, value: 2 }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/opacity', { layer: 0, value: 1 }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/opacity', { layer: 'one', value: 1 }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/blend', { layer: 1, mode: 'sparkle' }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/blend', { layer: 1, mode: 'x'.repeat(100) }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/mute', { layer: 1, enabled: 'yes' }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/solo', { layer: 1 }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/name', { layer: 1, name: '   ' }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/name', { layer: 1, name: 'n'.repeat(65) }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/move', { layer: 1, to: 4 }), 404, 'LAYER_NOT_FOUND');
  errorOf(await post('/layers/select', { layer: 2 }), 404, 'LAYER_NOT_FOUND');
  errorOf(await post('/layers/add', { source: 'no-such-source' }), 404, 'ITEM_NOT_FOUND');
  errorOf(await post('/layers/add', { opacity: -1 }), 400, 'INVALID_REQUEST');
  errorOf(await post('/layers/2/effects/add', { type: 'invert' }), 404, 'LAYER_NOT_FOUND');
  errorOf(await post('/layers/9/sources/select', { id: 'preset:red' }), 404, 'LAYER_NOT_FOUND');
  const l = await get('/layers');
  assert.is(l.layers.length, 1, 'nothing was added by a refused request');
});

test('OSC drives a layer by position and recalls a scene by name; bad arguments are counted and change nothing', async () => {
  await ok('/layers/add', { source: 'preset:blue' });
  await ok('/scenes/save', { name: 'Osc Look' });
  await send('/vjd/layers/2/opacity', { type: 'f', value: 0.25 });
  await waitUntil(async () => (await get('/layers')).layers[1].opacity === 0.25, 10000);
  await send('/vjd/layers/2/blend', { type: 's', value: 'screen' });
  await waitUntil(async () => (await get('/layers')).layers[1].blend === 'screen', 10000);
  await send('/vjd/layers/2/mute', { type: 'i', value: 1 });
  await waitUntil(async () => (await get('/layers')).layers[1].mute === true, 10000);
  await send('/vjd/layers/2/select');
  await waitUntil(async () => (await get('/layers')).selected === 2, 10000);
  const rejected = (await get('/status')).osc.rejected;
  await send('/vjd/layers/2/opacity', { type: 'f', value: 2 });
  await send('/vjd/layers/2/blend', { type: 'i', value: 3 });
  await waitUntil(async () => (await get('/status')).osc.rejected >= rejected + 2, 10000);
  await send('/vjd/scenes/recall', { type: 's', value: 'osc look' });
  await waitUntil(async () => {
    const l = await get('/layers');
    return l.layers[1].opacity === 1 && l.layers[1].blend === 'normal' && l.layers[1].mute === false;
  }, 10000);
  await shows([0, 0, 255], 'the recalled look: opaque blue on top');
  await ok('/layers/remove', { layer: 2 });
});

test.run();
