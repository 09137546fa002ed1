// Short forward seeks over real HTTP: a seek a little ahead of the frame shown keeps the clip's ffmpeg and drops
// frames up to the target (no new process), still answering with the target's frame on the output; a seek back
// starts a new reader.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { childPids } from '../hardening/faults-common.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
let s: TestServer;
let work = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const transport = async () => (await req('GET', api('/transport'), { timeoutMs: 15000 })).json().program;

async function ok(p: string, body: unknown = {}): Promise<any> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json().transport;
}

/** The server's ffmpeg children (a reader's command line names the clip's folder). */
const ffmpegPids = async (): Promise<number[]> => (await childPids(s.proc.pid!, 'ffmpeg')).sort((a, b) => a - b);

test.before(async () => {
  work = await tempDir('vjd-seek-ahead-');
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
  await waitUntil(async () => (await req('GET', api('/sources'))).json().items.some((i: any) => i.sourceKind === 'file'), 30000);
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('a seek 1 s ahead keeps the ffmpeg process and shows the target; a seek back starts a new one', async () => {
  const sel = await post('/inputs/file/select', { name: 'Colours' });
  assert.is(sel.status, 200, sel.text);
  await waitUntil(async () => (await transport())?.state === 'playing', 15000);
  await ok('/transport/pause');
  await ok('/transport/seek', { positionS: 0.5 });
  assert.is(await shownColour(s.base), 0);
  // Only the clip's reader is left once the seek's predecessor is gone.
  await waitUntil(async () => (await ffmpegPids()).length === 1, 15000, 50);
  const before = await ffmpegPids();
  const t = await ok('/transport/seek', { positionS: 1.5 });
  assert.is(await shownColour(s.base), 1);
  assert.ok(Math.abs(t.positionS - 1.5) <= 1 / FPS + 1e-6, `positionS ${t.positionS}`);
  assert.equal(await ffmpegPids(), before);
  await ok('/transport/seek', { positionS: 2.6 });
  assert.is(await shownColour(s.base), 2);
  assert.equal(await ffmpegPids(), before);
  await ok('/transport/seek', { positionS: 0.5 });
  assert.is(await shownColour(s.base), 0);
  await waitUntil(async () => (await ffmpegPids()).length === 1, 15000, 50);
  assert.not.equal(await ffmpegPids(), before);
});

test.run();
