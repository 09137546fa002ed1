// Clip readers let go of their pipes: many seeks, ping-pong toggles and settings that start new readers leave the
// server with the file descriptors it had before (each replaced reader once kept its unread stdout open for good).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeColourClip } from '../helpers/colour-clip.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
/** Descriptors the server may hold beyond its count at rest (a request's socket, a log write). */
const SLACK = 4;
/** Back and forth across the clip: new readers, and one a short way ahead (the reader is kept). */
const SEEKS = [4.5, 0.5, 3.2, 3.6, 1.1, 5.3, 2.4];
let s: TestServer;
let work = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const transport = async () => (await req('GET', api('/transport'), { timeoutMs: 15000 })).json().program;
const descriptors = (): number => readdirSync(`/proc/${s.proc.pid}/fd`).length;

async function ok(p: string, body: unknown = {}): Promise<any> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json().transport;
}

test.before(async () => {
  work = await tempDir('vjd-descriptors-');
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

test('seeks, ping-pong toggles and reader replacements leave the descriptor count where it was', async () => {
  const sel = await post('/inputs/file/select', { name: 'Colours' });
  assert.is(sel.status, 200, sel.text);
  await waitUntil(async () => (await transport())?.state === 'playing', 15000);
  // Paused, the clip holds one reader: a count at rest, with no next loop's reader coming or going.
  await ok('/transport/pause');
  const before = descriptors();
  for (let round = 0; round < 2; round++) {
    await ok(round % 2 === 0 ? '/transport/play' : '/transport/pause');
    for (const at of SEEKS) await ok('/transport/seek', { positionS: at });
    await ok('/transport/loop', { mode: 'ping-pong' });
    await ok('/transport/seek', { positionS: 4.2 });
    await ok('/transport/loop', { mode: 'loop' });
    await ok('/transport/inout', { in: 1, out: 4 });
    await ok('/transport/seek', { positionS: 2.5 });
    await ok('/transport/inout', { in: null, out: null });
    await ok('/transport/speed', { speed: 2 });
    await ok('/transport/seek', { positionS: 0.3 });
    await ok('/transport/speed', { speed: 1 });
    await ok('/transport/loop', { mode: 'once' });
    await ok('/transport/seek', { positionS: 5.5 });
    await ok('/transport/loop', { mode: 'loop' });
  }
  await ok('/transport/pause');
  await ok('/transport/seek', { positionS: 1.5 });
  // Stopped readers take a moment to exit: the count is polled until it is back, not read once.
  let after = descriptors();
  await waitUntil(() => (after = descriptors()) <= before + SLACK, 30000).catch(() =>
    assert.unreachable(`descriptors: ${before} before, ${after} after the seeks`),
  );
});

test.run();
