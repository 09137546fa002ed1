// Transport controls other than the routes, over real UDP and HTTP: the OSC addresses drive the program clip and
// its position and time remaining come back as feedback; the transport actions (cue points included) run like
// their routes; a tempo-synced clip's span lasts its beats and follows a tempo change.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSocket, type Socket } from 'node:dgram';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { COLOURS, makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { freeUdpPort, osc, oscListener, type OscHeard } from '../helpers/osc.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
const FRAME_S = 1 / FPS;
let s: TestServer;
let work = '';
let oscPort = 0;
let feedback: Socket;
let heard: OscHeard[] = [];
const sender = createSocket('udp4');
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const program = async () => (await get('/transport')).program;
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 20_000, 50);
const send = (address: string, ...args: Array<{ type: string; value?: unknown }>): Promise<void> =>
  new Promise((resolve) => sender.send(osc.writePacket({ address, args }, { metadata: true }), oscPort, '127.0.0.1', () => resolve()));

test.before(async () => {
  work = await tempDir('vjd-transport-controls-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Colours', FPS);
  oscPort = await freeUdpPort();
  ({ socket: feedback, heard } = await oscListener());
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      render: { width: 160, height: 120, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
      osc: { enabled: true, host: '127.0.0.1', port: oscPort, feedback: [{ host: '127.0.0.1', port: feedback.address().port }] },
    },
  });
  await waitUntil(async () => (await get('/sources')).items.some((i: any) => i.sourceKind === 'file'), 30000);
});

test.after(async () => {
  feedback.close();
  sender.close();
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('OSCQuery describes the transport addresses', async () => {
  const t = (await get('/osc')).CONTENTS.vjd.CONTENTS.transport.CONTENTS;
  assert.equal(Object.keys(t).sort(), ['pause', 'play', 'position', 'remaining', 'restart', 'seek', 'speed', 'toggle']);
  assert.equal([t.seek.ACCESS, t.position.ACCESS, t.remaining.ACCESS], [2, 1, 1]);
});

test('without a clip: the transport actions answer 409 NOT_A_CLIP and no transport feedback goes out', async () => {
  assert.is((await post('/sources/select', { id: 'source:plasma' })).status, 200);
  const ids = (await get('/actions')).items.filter((a: any) => a.category === 'Transport').map((a: any) => a.id);
  assert.equal(ids, ['transport.play', 'transport.pause', 'transport.toggle', 'transport.restart']);
  const r = await post('/actions/transport.play');
  assert.is(r.status, 409, r.text);
  assert.is(r.json().code, 'NOT_A_CLIP');
  assert.not.ok(heard.some((m) => m.address.startsWith('/vjd/transport/')));
});

test('OSC play, pause, toggle, seek, speed and restart drive the program clip', async () => {
  assert.is((await post('/inputs/file/select', { name: 'Colours' })).status, 200);
  await until(async () => (await program())?.state === 'playing');
  await send('/vjd/transport/pause');
  await until(async () => (await program()).state === 'paused');
  await send('/vjd/transport/seek', { type: 'f', value: 0.5 });
  await until(async () => Math.abs((await program()).positionS - 3) <= FRAME_S + 1e-6);
  await until(async () => (await shownColour(s.base)) === 3);
  await send('/vjd/transport/speed', { type: 'f', value: 2 });
  await until(async () => (await program()).speed === 2);
  const rejected = (await get('/status')).osc.rejected;
  await send('/vjd/transport/seek', { type: 'f', value: 1.5 });
  await send('/vjd/transport/speed', { type: 'f', value: Number.NaN });
  await send('/vjd/transport/seek', { type: 's', value: 'half' });
  await until(async () => (await get('/status')).osc.rejected >= rejected + 3);
  const held = await program();
  assert.equal([held.state, held.speed], ['paused', 2]);
  assert.ok(Math.abs(held.positionS - 3) <= FRAME_S + 1e-6, `position ${held.positionS}`);
  await send('/vjd/transport/toggle', { type: 'i', value: 1 });
  await until(async () => (await program()).state === 'playing');
  await send('/vjd/transport/toggle', { type: 'i', value: 0 });
  await send('/vjd/transport/pause', { type: 'i', value: 1 });
  await until(async () => (await program()).state === 'paused');
  await send('/vjd/transport/restart');
  await until(async () => {
    const p = await program();
    return p.state === 'playing' && p.positionS < 2;
  });
  await send('/vjd/transport/speed', { type: 'i', value: 1 });
  await until(async () => (await program()).speed === 1);
});

test('feedback carries the position (0..1 of in-out) and the time remaining while the clip plays', async () => {
  await send('/vjd/transport/play');
  const from = heard.length;
  const of = (a: string) =>
    heard
      .slice(from)
      .filter((m) => m.address === a)
      .map((m) => m.args[0]!);
  await until(() => new Set(of('/vjd/transport/position').map((a) => a.value)).size >= 3 && of('/vjd/transport/remaining').length >= 3);
  for (const a of [...of('/vjd/transport/position'), ...of('/vjd/transport/remaining')]) assert.is(a.type, 'f');
  for (const a of of('/vjd/transport/position')) assert.ok((a.value as number) >= 0 && (a.value as number) <= 1, `position ${a.value}`);
  for (const a of of('/vjd/transport/remaining'))
    assert.ok((a.value as number) >= 0 && (a.value as number) <= COLOURS.length, `remaining ${a.value}`);
});

test('transport actions: play, pause, toggle, restart and one per cue point of the program clip', async () => {
  assert.is((await post('/transport/cues', { name: 'drop', positionS: 4.2 })).status, 200);
  const ids = (await get('/actions')).items.map((a: any) => a.id);
  assert.ok(ids.includes('transport.cue.drop'), ids.join(','));
  const paused = await post('/actions/transport.pause');
  assert.is(paused.status, 200, paused.text);
  assert.equal(paused.json().action, { id: 'transport.pause', name: 'Pause Clip', category: 'Transport' });
  assert.is(paused.json().result.state, 'paused');
  const cue = await post('/actions/transport.cue.drop');
  assert.is(cue.status, 200, cue.text);
  assert.ok(Math.abs(cue.json().result.positionS - 4.2) <= FRAME_S + 1e-6, cue.text);
  // The answer leaves once the cue's frame is on the output.
  assert.is(await shownColour(s.base), 4);
  assert.is((await post('/actions/transport.toggle')).json().result.state, 'playing');
  assert.is((await post('/actions/transport.play')).json().result.state, 'playing');
  const restarted = (await post('/actions/transport.restart')).json().result;
  assert.ok(restarted.positionS < 1, `restarted at ${restarted.positionS}`);
  assert.is((await post('/actions/transport.cue.nothing')).status, 404);
  assert.is((await post('/transport/cues/remove', { name: 'drop' })).status, 200);
  assert.not.ok((await get('/actions')).items.some((a: any) => a.id === 'transport.cue.drop'));
});

test('sync: 4 beats at 120 BPM make the in-out span last 2 s, and a tempo change changes the speed', async () => {
  assert.is((await post('/tempo/bpm', { bpm: 120 })).status, 200);
  assert.is((await post('/transport/inout', { in: 0, out: 4 })).status, 200);
  const t = (await post('/transport/speed', { sync: { beats: 4 } })).json().transport;
  // 4 beats at 120 BPM are 2 s: the 4 s span plays at speed 2.
  assert.equal(t.sync, { beats: 4 });
  assert.ok(Math.abs(t.speed - 2) < 1e-6, `speed ${t.speed}`);
  await post('/transport/pause');
  const start = (await post('/transport/seek', { positionS: 0 })).json().transport;
  assert.ok(Math.abs(start.remainingS - 2) < 1e-6, `remaining from the in point: ${start.remainingS}`);
  assert.is((await post('/tempo/bpm', { bpm: 60 })).status, 200);
  // 4 beats at 60 BPM are 4 s: the same span now plays at speed 1.
  await until(async () => Math.abs((await program()).speed - 1) < 1e-6);
  const slower = await program();
  assert.ok(Math.abs(slower.remainingS - (4 - slower.positionS)) < 1e-6, JSON.stringify(slower));
  assert.is((await post('/transport/speed', { speed: 1 })).status, 200);
  assert.is((await post('/transport/inout', { in: null, out: null })).status, 200);
});

test.run();
