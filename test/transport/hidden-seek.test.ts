// Cueing a clip on a hidden layer: a seek on a transparent or muted layer answers once the layer has the frame,
// and un-hiding it shows the frame sought to. A negative position names the clip's range as one past the end does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { COLOURS, makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
const FRAME_S = 1 / FPS;
let s: TestServer;
let work = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const transport = async () => (await req('GET', api('/transport'), { timeoutMs: 15000 })).json().program;

async function ok(p: string, body: unknown = {}): Promise<any> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json();
}

/** Waits until the output's centre is white: the top layer alone (the render worker applies stack changes on its next frame). */
async function whiteOnTop(): Promise<void> {
  await waitUntil(async () => (await sampleOutput(s.base))[0]!.every((v) => v > 215), 10000);
}

test.before(async () => {
  work = await tempDir('vjd-hidden-seek-');
  const media = join(work, 'media');
  const presets = join(work, 'presets');
  await mkdir(media);
  await mkdir(presets);
  await makeColourClip(media, 'Colours', FPS);
  await writeFile(join(presets, 'white.json'), JSON.stringify({ name: 'White', source: 'solid_color', inputs: { color: [1, 1, 1, 1] } }));
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      render: { width: 160, height: 120, fps: FPS, maxLayers: 2 },
      presets: { dirs: [presets] },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  await waitUntil(async () => (await req('GET', api('/sources'))).json().items.some((i: any) => i.sourceKind === 'file'), 30000);
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('a seek on a transparent or muted layer answers with its position; un-hidden, the layer shows it', async () => {
  const sel = await post('/inputs/file/select', { name: 'Colours' });
  assert.is(sel.status, 200, sel.text);
  await waitUntil(async () => (await transport())?.state === 'playing', 15000);
  await ok('/transport/pause');
  await ok('/layers/add', { source: 'preset:white' });
  await ok('/layers/opacity', { layer: 1, value: 0 });
  await whiteOnTop();
  const transparent = (await ok('/transport/seek', { positionS: 3 })).transport;
  assert.ok(Math.abs(transparent.positionS - 3) <= FRAME_S + 1e-6, `positionS ${transparent.positionS}`);
  await ok('/layers/opacity', { layer: 1, value: 1 });
  await ok('/layers/mute', { layer: 1, enabled: true });
  const muted = (await ok('/transport/seek', { positionS: 1.5 })).transport;
  assert.ok(Math.abs(muted.positionS - 1.5) <= FRAME_S + 1e-6, `positionS ${muted.positionS}`);
  assert.is(muted.state, 'paused');
  // The top layer goes, then the clip's layer comes back: the first colour of the clip on the output is the sought one.
  await ok('/layers/mute', { layer: 2, enabled: true });
  await ok('/layers/mute', { layer: 1, enabled: false });
  let seen = -1;
  await waitUntil(async () => (seen = await shownColour(s.base)) >= 0, 10000).catch(() =>
    assert.unreachable(`the clip's layer never showed a clip colour (last: ${seen})`),
  );
  assert.is(seen, 1, `the output shows ${COLOURS[seen]?.[0] ?? seen}, not the colour at 1.5 s`);
});

test('a negative position answers 400 naming the clip range, as a position past the end does', async () => {
  const past = await post('/transport/seek', { positionS: 99 });
  const negative = await post('/transport/seek', { positionS: -1 });
  assert.is(past.status, 400, past.text);
  assert.is(negative.status, 400, negative.text);
  assert.match(negative.json().message, /from 0 to below 6 s/);
  const { requestId: _a, ...pastBody } = past.json();
  const { requestId: _b, ...negativeBody } = negative.json();
  assert.equal(negativeBody, pastBody);
});

test.run();
