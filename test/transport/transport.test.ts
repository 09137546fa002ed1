// Media transport over real HTTP and the events socket: a generated clip whose colour changes every second (1 s
// keyframes) is played, paused, sped up, sought, bounded and ended, and its colours are read back from the output.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { COLOURS, makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { req, sampleOutput, sleep, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

const FPS = 25;
const FRAME_S = 1 / FPS;
let s: TestServer;
let work = '';
let data = '';
let media = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const transport = async () => (await req('GET', api('/transport'), { timeoutMs: 15000 })).json().program;

const shown = (): Promise<number> => shownColour(s.base);

async function ok(p: string, body: unknown = {}): Promise<any> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json().transport;
}

async function boot(): Promise<void> {
  s = await startServer({
    dataDir: data,
    config: {
      render: { width: 160, height: 120, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  await waitUntil(async () => (await req('GET', api('/sources'))).json().items.some((i: any) => i.sourceKind === 'file'), 30000);
}

test.before(async () => {
  work = await tempDir('vjd-transport-');
  data = join(work, 'data');
  media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Colours', FPS);
  await boot();
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('transport on a generator answers 409 NOT_A_CLIP', async () => {
  const sel = await post('/sources/select', { id: 'source:plasma' });
  assert.is(sel.status, 200, sel.text);
  const r = await post('/transport/play');
  assert.is(r.status, 409, r.text);
  assert.is(r.json().code, 'NOT_A_CLIP');
  assert.is(await transport(), null);
});

test('seek to 2.5 s shows the third colour once answered, and positionS is within one frame', async () => {
  const sel = await post('/inputs/file/select', { name: 'Colours' });
  assert.is(sel.status, 200, sel.text);
  await waitUntil(async () => (await transport())?.state === 'playing', 15000);
  await ok('/transport/pause');
  // Each answer leaves once the target's frame is drawn: the output is read at once, with no wait for the colour.
  for (const at of [4.5, 0.5, 3.5, 1.5, 2.5]) {
    const t = await ok('/transport/seek', { positionS: at });
    assert.is(await shown(), Math.floor(at), `output right after the seek to ${at}`);
    assert.ok(Math.abs(t.positionS - at) <= FRAME_S + 1e-6, `positionS ${t.positionS}`);
    assert.is(t.state, 'paused');
    assert.is(t.durationS !== null && Math.abs(t.durationS - COLOURS.length) < 0.1, true, `durationS ${t.durationS}`);
  }
});

test('pause holds one picture for 2 s; play goes on from the same place', async () => {
  await ok('/transport/seek', { positionS: 3.2 });
  assert.is(await shown(), 3);
  const paused = await transport();
  const before = await sampleOutput(s.base, [[0.5, 0.5]]);
  await sleep(2000);
  assert.equal(await sampleOutput(s.base, [[0.5, 0.5]]), before);
  assert.is((await transport()).positionS, paused.positionS);
  const played = await ok('/transport/play');
  assert.is(played.state, 'playing');
  assert.ok(played.positionS >= paused.positionS && played.positionS <= paused.positionS + 0.5, `resumed at ${played.positionS}`);
  await waitUntil(async () => (await transport()).positionS > paused.positionS, 10000);
});

/** Colour changes seen while sampling for `ms`. */
async function changes(ms: number): Promise<number> {
  let last = await shown();
  let n = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const now = await shown();
    if (now !== last && now >= 0) n++;
    last = now;
    await sleep(40);
  }
  return n;
}

test('speed 2 changes colour more often than speed 1; remainingS counts down', async () => {
  await ok('/transport/speed', { speed: 1 });
  const one = await changes(4000);
  const fast = await ok('/transport/speed', { speed: 2 });
  assert.is(fast.speed, 2);
  const two = await changes(4000);
  assert.ok(two > one, `speed 1: ${one} changes, speed 2: ${two}`);
  await ok('/transport/seek', { positionS: 0.2 });
  const a = await transport();
  await waitUntil(async () => (await transport()).positionS > a.positionS + 0.3, 10000);
  const b = await transport();
  assert.ok(b.remainingS < a.remainingS, `${a.remainingS} then ${b.remainingS}`);
  assert.ok(Math.abs(b.remainingS - (COLOURS.length - b.positionS) / 2) < 0.01, JSON.stringify(b));
  await ok('/transport/speed', { speed: 1 });
});

test('in/out points bound playback; cue points seek', async () => {
  const t = await ok('/transport/inout', { in: 1, out: 3 });
  assert.equal([t.in, t.out], [1, 3]);
  assert.is(t.remainingS <= 2, true);
  // The answer leaves with the in point's frame in the ring; the output draws it on its next tick. Waiting for
  // that colour itself (not any colour inside the range) skips a frame of the run before the change still shown.
  await waitUntil(async () => (await shown()) === 1, 5000, 50);
  const seen = new Set<number>();
  const end = Date.now() + 4000;
  while (Date.now() < end) {
    const p = (await transport()).positionS;
    assert.ok(p >= 1 - 1e-6 && p < 3, `position ${p} outside 1-3`);
    seen.add(await shown());
    await sleep(60);
  }
  seen.delete(-2);
  assert.equal([...seen].sort(), [1, 2], `colours seen: ${[...seen]}`);
  const bad = await post('/transport/seek', { positionS: 4 });
  assert.is(bad.status, 400, bad.text);
  assert.match(bad.json().message, /from 1 to below 3/);
  await ok('/transport/inout', { in: null, out: null });
  await ok('/transport/cues', { name: 'four', positionS: 4.3 });
  await ok('/transport/pause');
  const c = await ok('/transport/seek', { cue: 'four' });
  assert.ok(Math.abs(c.positionS - 4.3) <= FRAME_S + 1e-6, `positionS ${c.positionS}`);
  assert.is(await shown(), 4);
  const missing = await post('/transport/seek', { cue: 'nine' });
  assert.is(missing.status, 404, missing.text);
  assert.equal(missing.json().details.available, ['four']);
});

test('once ends on the last frame with state ended; once-black goes black', async () => {
  await ok('/transport/loop', { mode: 'once' });
  await ok('/transport/seek', { positionS: 5.3, play: true });
  await ok('/transport/play');
  await waitUntil(async () => (await transport()).state === 'ended', 15000);
  const t = await transport();
  assert.ok(t.positionS >= COLOURS.length - 2 * FRAME_S, `ended at ${t.positionS}`);
  assert.is(await shown(), COLOURS.length - 1);
  await ok('/transport/loop', { mode: 'once-black' });
  const r = await ok('/transport/restart');
  assert.is(r.state, 'playing');
  await ok('/transport/seek', { positionS: 5.5 });
  await waitUntil(async () => (await transport()).state === 'ended', 15000);
  await waitUntil(async () => (await shown()) === -1, 5000, 50);
  await ok('/transport/loop', { mode: 'loop' });
  const again = await ok('/transport/play');
  assert.is(again.state, 'playing');
});

test('the transport topic delivers position and state', async () => {
  const c = await connectWs(wsUrl(s.base));
  try {
    await c.next((m) => m.type === 'hello', 20000);
    c.send({ type: 'subscribe', topics: ['transport'] });
    await c.next((m) => m.type === 'subscribed', 20000);
    const events = () => c.messages.filter((m) => m.type === 'event' && m.topic === 'transport' && m.data?.program);
    await waitUntil(() => new Set(events().map((e) => e.data.program.positionS)).size >= 3, 15000, 50);
    await ok('/transport/pause');
    await c.next((m) => m.type === 'event' && m.topic === 'transport' && m.data?.program?.state === 'paused', 10000);
    await ok('/transport/play');
  } finally {
    c.close();
  }
});

test('bad input: negative or NaN positions, speed 0 or 100, both speed and sync', async () => {
  for (const [path, body] of [
    ['/transport/seek', { positionS: -1 }],
    ['/transport/seek', { positionS: 'NaN' }],
    ['/transport/seek', { positionS: 99 }],
    ['/transport/seek', {}],
    ['/transport/speed', { speed: 0 }],
    ['/transport/speed', { speed: 100 }],
    ['/transport/speed', { speed: 1, sync: { beats: 4 } }],
    ['/transport/loop', { mode: 'sideways' }],
    ['/transport/inout', { in: 4, out: 2 }],
    ['/transport/cues', { name: '', positionS: 1 }],
  ] as const) {
    const r = await post(path, body);
    assert.is(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.status} ${r.text}`);
    assert.is(r.json().code, 'INVALID_REQUEST');
  }
});

test('settings and cue points persist across a restart', async () => {
  await ok('/transport/speed', { sync: { beats: 4 } });
  await ok('/transport/loop', { mode: 'once' });
  await ok('/transport/inout', { in: 0.5, out: 4.5 });
  await ok('/transport/cues', { name: 'drop', positionS: 2 });
  await sleep(500);
  await s.stop();
  await boot();
  await waitUntil(async () => (await transport())?.state === 'playing' || (await transport())?.state === 'ended', 30000);
  const t = await transport();
  assert.equal({ sync: t.sync, loop: t.loop, in: t.in, out: t.out }, { sync: { beats: 4 }, loop: 'once', in: 0.5, out: 4.5 });
  assert.equal(t.cues, [
    { name: 'drop', positionS: 2 },
    { name: 'four', positionS: 4.3 },
  ]);
  // 4 beats at the clock's tempo: the 4 s span plays at span ÷ (beats × 60 / BPM).
  const bpm = (await req('GET', api('/tempo'))).json().bpm;
  assert.ok(Math.abs(t.speed - Math.min(4, 4 / ((4 * 60) / bpm))) < 0.01, `speed ${t.speed} at ${bpm} BPM`);
});

test.run();
