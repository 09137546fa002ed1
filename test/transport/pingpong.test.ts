// Loop mode ping-pong over real HTTP: a clip bounded to its first three colours plays forward, then back from
// memory with its position going down, then forward again; pause holds it; leaving the mode loops as before; a
// clip whose span does not fit the memory limit is refused with its need.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { req, sleep, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
const W = 160;
const H = 120;
/** Long enough that its frames at the render size do not fit the ping-pong limit. */
const LONG_S = 150;
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

/** Samples the output until the run of distinct colours seen contains `want` in order (or the deadline passes). */
async function watchColours(want: number[], ms: number): Promise<number[]> {
  const seen: number[] = [];
  const has = () => seen.join(',').includes(want.join(','));
  const end = Date.now() + ms;
  while (!has() && Date.now() < end) {
    const c = await shownColour(s.base);
    if (c >= 0 && seen[seen.length - 1] !== c) seen.push(c);
  }
  return seen;
}

test.before(async () => {
  work = await tempDir('vjd-pingpong-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Colours', FPS);
  await promisify(execFile)('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=gray:s=96x72:r=${FPS}:d=${LONG_S}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(FPS * 10), '-pix_fmt', 'yuv420p', join(media, 'Long.mp4')],
  ]);
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      render: { width: W, height: H, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  await waitUntil(
    async () => (await req('GET', api('/sources'))).json().items.filter((i: any) => i.sourceKind === 'file').length >= 2,
    30000,
  );
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('ping-pong plays 0,1,2 then back 1,0 and forward again, with positionS going down on the way back', async () => {
  const sel = await post('/inputs/file/select', { name: 'Colours' });
  assert.is(sel.status, 200, sel.text);
  await waitUntil(async () => (await transport())?.state === 'playing', 15000);
  await ok('/transport/inout', { in: 0, out: 3 });
  const set = await ok('/transport/loop', { mode: 'ping-pong' });
  assert.is(set.loop, 'ping-pong');
  assert.is((await transport()).loop, 'ping-pong');
  await ok('/transport/seek', { positionS: 0, play: true });
  const seen = await watchColours([0, 1, 2, 1, 0, 1], 60000);
  assert.ok(seen.join(',').includes('0,1,2,1,0,1'), `colours seen: ${seen.join(',')}`);
  // On a backward leg (blue back to red) the reported position goes down.
  await watchColours([2, 1], 30000);
  const a = (await transport()).positionS;
  await waitUntil(async () => (await transport()).positionS < a - 0.2, 20000, 50);
});

test('pause holds the picture in ping-pong; play goes on', async () => {
  await watchColours([2, 1], 30000);
  const paused = await ok('/transport/pause');
  assert.is(paused.state, 'paused');
  const held = await shownColour(s.base);
  await sleep(1500);
  assert.is(await shownColour(s.base), held);
  assert.is((await transport()).positionS, paused.positionS);
  await ok('/transport/play');
  const seen = await watchColours([1, 0, 1, 2], 60000);
  assert.ok(seen.join(',').includes('1,0,1,2'), `colours seen: ${seen.join(',')}`);
});

test('leaving ping-pong loops forward from the in point again', async () => {
  const t = await ok('/transport/loop', { mode: 'loop' });
  assert.is(t.loop, 'loop');
  const seen = await watchColours([1, 2, 0, 1, 2, 0], 60000);
  assert.ok(seen.join(',').includes('1,2,0,1,2,0'), `colours seen: ${seen.join(',')}`);
});

test('a clip whose span does not fit the memory limit is refused with its need; an out point makes it fit', async () => {
  const sel = await post('/inputs/file/select', { name: 'Long' });
  assert.is(sel.status, 200, sel.text);
  await waitUntil(async () => (await transport())?.name === 'Long', 15000);
  const r = await post('/transport/loop', { mode: 'ping-pong' });
  assert.is(r.status, 400, r.text);
  assert.is(r.json().code, 'INVALID_REQUEST');
  const need = Math.ceil(((LONG_S * FPS + 1) * W * H * 4) / (1024 * 1024));
  assert.match(r.json().message, '256 MiB');
  assert.match(r.json().message, `${need} MiB`);
  assert.is((await transport()).loop, 'loop');
  await ok('/transport/inout', { out: 20 });
  assert.is((await ok('/transport/loop', { mode: 'ping-pong' })).loop, 'ping-pong');
  const wide = await post('/transport/inout', { out: null });
  assert.is(wide.status, 400, wide.text);
  assert.match(wide.json().message, `${need} MiB`);
});

test.run();
