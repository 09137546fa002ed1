// What follows a clip that plays once, over real HTTP: `end: "next"` selects the next video of the same media
// folder, `end: "take"` takes the cued source, `end: "black"` goes black; the setting is saved per media file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
let s: TestServer;
let work = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const program = async () => (await get('/transport')).program;

async function ok(p: string, body: unknown = {}): Promise<any> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json();
}

test.before(async () => {
  work = await tempDir('vjd-transport-end-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Clip A', FPS);
  await makeColourClip(media, 'Clip B', FPS);
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      render: { width: 160, height: 120, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  await waitUntil(async () => (await get('/sources')).items.filter((i: any) => i.sourceKind === 'file').length === 2, 30000);
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('end "next" selects the next clip of the folder, from its start, and is saved per media file', async () => {
  await ok('/inputs/file/select', { name: 'Clip A' });
  await ok('/transport/loop', { mode: 'once' });
  const t = (await ok('/transport/end', { mode: 'next' })).transport;
  assert.is(t.end, 'next');
  await waitUntil(async () => {
    const st = JSON.parse(await readFile(join(work, 'data', 'state.json'), 'utf8').catch(() => '{}'));
    return st.transport?.[t.id]?.end === 'next';
  }, 10000);
  await ok('/transport/seek', { positionS: 5.5 });
  await ok('/transport/play');
  await waitUntil(async () => (await get('/sources/current')).name === 'Clip B', 20000);
  const b = await program();
  assert.is(b.name, 'Clip B');
  assert.is(b.end, 'hold');
  assert.ok(b.positionS < 5, `Clip B at ${b.positionS}`);
});

test('end "take" takes the cued source when the clip ends', async () => {
  await ok('/transport/loop', { mode: 'once' });
  await ok('/transport/end', { mode: 'take' });
  await ok('/mix/cue', { id: 'source:plasma' });
  await ok('/transport/seek', { positionS: 5.5 });
  await ok('/transport/play');
  await waitUntil(async () => (await get('/mix')).program.id === 'source:plasma', 20000);
  assert.is((await get('/mix')).preview?.name, 'Clip B');
});

test('end "black" goes black at the end of a once clip; bad modes are 400', async () => {
  // Clip B waits on preview after the take: its end is set there before it plays again.
  await ok('/transport/end', { bus: 'preview', mode: 'black' });
  await ok('/inputs/file/select', { name: 'Clip B', positionS: 5.5 });
  await waitUntil(async () => (await program()).state === 'ended', 20000);
  await waitUntil(async () => (await shownColour(s.base)) === -1, 5000, 50);
  const bad = await post('/transport/end', { mode: 'sideways' });
  assert.is(bad.status, 400, bad.text);
  assert.is(bad.json().code, 'INVALID_REQUEST');
});

test.run();
