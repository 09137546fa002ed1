// OSC audio addresses over real UDP against a running server: /vjd/audio/select picks the input (bad arguments are
// refused with the usual OSC accounting), the levels and bands come back as feedback, and OSCQuery lists them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSocket, type Socket } from 'node:dgram';
import { freeUdpPort, osc, oscListener, type OscHeard } from '../helpers/osc.js';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';

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
      audio: {
        inputs: [
          { id: 'low', name: 'Tone 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' },
          { id: 'high', name: 'Tone 8 kHz', kind: 'test', source: 'sine=frequency=8000:sample_rate=48000' },
        ],
        input: null,
      },
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
const value = (m: { args: Array<{ value: unknown }> }): number => m.args[0]!.value as number;

test('OSCQuery describes the audio addresses', async () => {
  const audio = (await get('/osc')).CONTENTS.vjd.CONTENTS.audio.CONTENTS;
  assert.equal(Object.keys(audio).sort(), ['bass', 'high', 'highmid', 'level', 'lowmid', 'select']);
  assert.equal(audio.select.ACCESS, 2);
  assert.equal(audio.bass.ACCESS, 1);
});

test('select over OSC; the levels and bands come back as feedback', async () => {
  await send('/vjd/audio/select', { type: 's', value: 'low' });
  await until(async () => (await get('/audio')).current === 'low');
  let from = heard.length;
  await until(() => heard.slice(from).some((m) => m.address === '/vjd/audio/bass' && value(m) > 0.5));
  const names = new Set(heard.slice(from).map((m) => m.address));
  for (const a of ['/vjd/audio/level', '/vjd/audio/bass', '/vjd/audio/lowmid', '/vjd/audio/highmid', '/vjd/audio/high'])
    assert.ok(names.has(a), a);
  assert.ok(heard.slice(from).every((m) => !m.address.startsWith('/vjd/audio/') || m.args[0]!.type === 'f'));
  // By name, flexible matching: the 8 kHz tone lifts the high band and drops the bass.
  await send('/vjd/audio/select', { type: 's', value: 'tone 8 khz' });
  await until(async () => (await get('/audio')).current === 'high');
  from = heard.length;
  await until(() => {
    const recent = heard.slice(from);
    const last = (a: string) => recent.filter((m) => m.address === a).at(-1);
    const high = last('/vjd/audio/high');
    const bass = last('/vjd/audio/bass');
    return high !== undefined && bass !== undefined && value(high) > 0.5 && value(bass) < 0.2;
  });
});

test('bad selections are refused and change nothing', async () => {
  const before = await oscStats();
  await send('/vjd/audio/select', { type: 's', value: 'nope' });
  await send('/vjd/audio/select', { type: 'i', value: 1 });
  await send('/vjd/audio/select');
  await until(async () => (await oscStats()).rejected >= before.rejected + 3);
  assert.equal((await get('/audio')).current, 'high');
  await send('/vjd/audio/select', { type: 's', value: 'none' });
  await until(async () => (await get('/audio')).current === null);
});

test.run();
