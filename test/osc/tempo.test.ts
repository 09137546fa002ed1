// OSC tempo addresses over real UDP against a running server: BPM, half/double, tap, resync and auto change GET /tempo;
// bad arguments (NaN, strings, out of range, a flood of taps) are refused with the usual OSC accounting and nothing
// stalls; feedback carries the beat on every beat and the BPM.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSocket, type Socket } from 'node:dgram';
import { freeUdpPort, osc, oscListener, type OscHeard } from '../helpers/osc.js';
import { startServer, req, sleep, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let oscPort: number;
let feedback: Socket;
let heard: OscHeard[] = [];
const sender = createSocket('udp4');

test.before(async () => {
  oscPort = await freeUdpPort();
  ({ socket: feedback, heard } = await oscListener());
  s = await startServer({
    config: {
      osc: { enabled: true, host: '127.0.0.1', port: oscPort, feedback: [{ host: '127.0.0.1', port: feedback.address().port }] },
    },
  });
});
test.after(async () => {
  feedback.close();
  sender.close();
  await s.cleanup();
});

const send = (address: string, ...args: Array<{ type: string; value?: unknown }>): Promise<void> =>
  new Promise((resolve) => sender.send(osc.writePacket({ address, args }, { metadata: true }), oscPort, '127.0.0.1', () => resolve()));
const get = async (path: string) => (await req('GET', `${s.base}/api/v1${path}`)).json();
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 30_000, 50);
const oscStats = async () => (await get('/status')).osc;

test('OSCQuery describes the tempo addresses', async () => {
  const tree = await get('/osc');
  const tempo = tree.CONTENTS.vjd.CONTENTS.tempo.CONTENTS;
  assert.equal(Object.keys(tempo).sort(), ['auto', 'beat', 'bpm', 'double', 'half', 'resync', 'tap']);
  assert.equal(tempo.bpm.ACCESS, 3);
  assert.equal(tempo.beat.ACCESS, 1);
});

test('BPM, double and half change GET /tempo', async () => {
  await send('/vjd/tempo/bpm', { type: 'f', value: 100 });
  await until(async () => {
    const t = await get('/tempo');
    return t.source === 'manual' && Math.abs(t.bpm - 100) < 0.01;
  });
  await send('/vjd/tempo/double', { type: 'i', value: 1 });
  await until(async () => Math.abs((await get('/tempo')).bpm - 200) < 0.01);
  // A button's release does nothing.
  await send('/vjd/tempo/half', { type: 'i', value: 0 });
  await send('/vjd/tempo/half');
  await until(async () => Math.abs((await get('/tempo')).bpm - 100) < 0.01);
  await sleep(300);
  assert.ok(Math.abs((await get('/tempo')).bpm - 100) < 0.01);
});

test('bad BPM arguments are refused and change nothing', async () => {
  const before = await oscStats();
  await send('/vjd/tempo/bpm', { type: 'f', value: Number.NaN });
  await send('/vjd/tempo/bpm', { type: 's', value: '120' });
  await send('/vjd/tempo/bpm', { type: 'f', value: 1000 });
  await send('/vjd/tempo/bpm', { type: 'i', value: 0 });
  await send('/vjd/tempo/tap', { type: 's', value: 'x' });
  await until(async () => (await oscStats()).rejected >= before.rejected + 5);
  const t = await get('/tempo');
  assert.equal(t.source, 'manual');
  assert.ok(Math.abs(t.bpm - 100) < 0.01, `bpm ${t.bpm}`);
});

test('taps over OSC set the tap tempo; resync is accepted', async () => {
  for (let i = 0; i < 6; i++) {
    await send('/vjd/tempo/tap', { type: 'i', value: 1 });
    await sleep(400);
  }
  await until(async () => (await get('/tempo')).source === 'tap');
  const t = await get('/tempo');
  // Loose: taps 400 ms apart are 150 BPM, but the loaded machine may delay a few.
  assert.ok(t.bpm > 100.5 && t.bpm <= 300, `bpm ${t.bpm}`);
  const applied = (await oscStats()).applied;
  await send('/vjd/tempo/resync');
  await until(async () => (await oscStats()).applied > applied);
});

test('auto over OSC hands the clock back to the tracker after taps', async () => {
  assert.equal((await get('/tempo')).source, 'tap');
  await send('/vjd/tempo/auto');
  await until(async () => (await get('/tempo')).source === 'auto');
});

test('a flood of taps is bounded: the server keeps answering and the tempo stays valid', async () => {
  const before = await oscStats();
  const packet = osc.writePacket({ address: '/vjd/tempo/tap', args: [] }, { metadata: true });
  await Promise.all(Array.from({ length: 1000 }, () => new Promise<void>((r) => sender.send(packet, oscPort, '127.0.0.1', () => r()))));
  // Loopback may lose some datagrams itself; of those that arrive, the budget drops what is past it, unread.
  await until(async () => (await oscStats()).packets - before.packets >= 100);
  const t = await get('/tempo');
  assert.ok(Number.isFinite(t.bpm) && t.bpm >= 20 && t.bpm <= 300, `bpm ${t.bpm}`);
  // Once the sender's budget refills, an ordinary message applies again (resent, as one sent inside the spent
  // second is dropped by design).
  await until(async () => {
    await send('/vjd/tempo/bpm', { type: 'f', value: 120 });
    await sleep(250);
    return Math.abs((await get('/tempo')).bpm - 120) < 0.01;
  });
  const after = await oscStats();
  assert.ok(after.applied - before.applied <= 1000, `applied ${after.applied - before.applied}`);
});

test('feedback: the beat on every beat and the BPM', async () => {
  await send('/vjd/tempo/bpm', { type: 'f', value: 240 });
  await until(async () => Math.abs((await get('/tempo')).bpm - 240) < 0.01);
  const from = heard.length;
  await until(() => heard.slice(from).filter((m) => m.address === '/vjd/tempo/beat').length >= 6);
  const beats = heard
    .slice(from)
    .filter((m) => m.address === '/vjd/tempo/beat')
    .map((m) => m.args[0]!);
  assert.ok(beats.every((a) => a.type === 'i'));
  const values = beats.map((a) => a.value as number);
  assert.ok(values.at(-1)! > values[0]!, `beats ${values.join(',')}`);
  const bpm = heard.slice(from).find((m) => m.address === '/vjd/tempo/bpm');
  assert.equal(bpm?.args[0]?.type, 'f');
  assert.ok(Math.abs((bpm!.args[0]!.value as number) - 240) < 0.01);
});

test.run();
