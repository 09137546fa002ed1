// A select that carries `positionS` and a take with `restart` over real HTTP: the generated colour clip starts
// where asked (read back from the output right after the answer), a take can start the cued clip from its in
// point, and both routes answer as before without the new fields.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
const FRAME_S = 1 / FPS;
let s: TestServer;
let work = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const bus = async (b: 'program' | 'preview') => (await get('/transport'))[b];

test.before(async () => {
  work = await tempDir('vjd-transport-select-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Colours', FPS);
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      render: { width: 160, height: 120, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  await waitUntil(async () => (await get('/sources')).items.some((i: any) => i.sourceKind === 'file'), 30000);
  // A slow clip: each colour lasts 10 s, so a read right after an answer sees the colour the answer left.
  assert.is((await post('/inputs/file/select', { name: 'Colours' })).status, 200);
  await waitUntil(async () => (await bus('program'))?.state === 'playing', 15000);
  assert.is((await post('/transport/speed', { speed: 0.1 })).status, 200);
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('a select with positionS starts the clip there, from another source and on the current clip', async () => {
  assert.is((await post('/sources/select', { id: 'source:plasma' })).status, 200);
  const r = await post('/inputs/file/select', { name: 'Colours', positionS: 3.5 });
  assert.is(r.status, 200, r.text);
  assert.equal(Object.keys(r.json()).sort(), ['current', 'success']);
  assert.is(await shownColour(s.base), 3);
  const t = await bus('program');
  assert.ok(t.positionS >= 3.5 - FRAME_S - 1e-6 && t.positionS < 4, `position ${t.positionS}`);
  // The clip is current: its open reader is sought.
  const again = await post('/sources/select', { name: 'Colours', positionS: 1.5 });
  assert.is(again.status, 200, again.text);
  assert.is(await shownColour(s.base), 1);
  // Without positionS the select of the current clip answers as before and leaves it where it is.
  const plain = await post('/inputs/file/select', { name: 'Colours' });
  assert.is(plain.status, 200, plain.text);
  assert.equal(plain.json(), again.json());
  assert.ok((await bus('program')).positionS >= 1.5 - FRAME_S - 1e-6);
});

test('positionS: 409 NOT_A_CLIP for a generator, 400 outside the clip', async () => {
  const gen = await post('/sources/select', { id: 'source:plasma', positionS: 1 });
  assert.is(gen.status, 409, gen.text);
  assert.is(gen.json().code, 'NOT_A_CLIP');
  assert.is((await get('/sources/current')).sourceKind, 'file');
  for (const positionS of [99, -1, 'NaN']) {
    const bad = await post('/inputs/file/select', { name: 'Colours', positionS });
    assert.is(bad.status, 400, `${positionS}: ${bad.text}`);
    assert.is(bad.json().code, 'INVALID_REQUEST');
  }
  assert.match((await post('/inputs/file/select', { name: 'Colours', positionS: 99 })).json().message, /from 0 to below 6/);
});

test('a take with restart starts the cued clip from its in point; without it the clip goes on where it was', async () => {
  for (const restart of [false, true]) {
    assert.is((await post('/sources/select', { id: 'source:plasma' })).status, 200);
    const cued = await post('/mix/cue', { name: 'Colours' });
    assert.is(cued.status, 200, cued.text);
    assert.is((await post('/transport/seek', { bus: 'preview', positionS: 4.5 })).status, 200);
    const take = await post('/mix/take', restart ? { transition: 'cut', restart: true } : { transition: 'cut' });
    assert.is(take.status, 200, take.text);
    assert.equal(Object.keys(take.json()).sort(), ['mix', 'success']);
    await waitUntil(async () => (await get('/mix')).program.name === 'Colours', 15000);
    await waitUntil(async () => (await bus('program'))?.state === 'playing', 15000);
    const t = await bus('program');
    if (restart) {
      assert.ok(t.positionS < 1, `restarted at ${t.positionS}`);
      await waitUntil(async () => (await shownColour(s.base)) === 0, 5000, 50);
    } else assert.ok(t.positionS >= 4.5 - FRAME_S - 1e-6, `went on at ${t.positionS}`);
  }
});

test.run();
