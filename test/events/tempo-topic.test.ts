// The `tempo` events topic over a real WebSocket: a subscriber gets {beat, bar, bpm, confidence, source, position, at} on every beat
// at the clock's rate and at once when the BPM changes; a client on the default subscription gets none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, sleep, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

let s: TestServer;
const clients: WsClient[] = [];

test.before(async () => {
  s = await startServer();
});
test.after(async () => {
  for (const c of clients) c.close();
  await s.cleanup();
});

async function open(): Promise<WsClient> {
  const c = await connectWs(wsUrl(s.base));
  clients.push(c);
  await c.next((m) => m.type === 'hello', 20_000);
  return c;
}
const tempoEvents = (c: WsClient, afterSeq = 0) => c.messages.filter((m) => m.type === 'event' && m.topic === 'tempo' && m.seq > afterSeq);
const bpm = async (value: number) => assert.equal((await req('POST', `${s.base}/api/v1/tempo/bpm`, { body: { bpm: value } })).status, 200);

test('beats arrive at the clock rate, with their fields; a default client gets none', async () => {
  await bpm(240);
  const bystander = await open();
  const c = await open();
  c.send({ type: 'subscribe', topics: ['tempo'] });
  const confirmed = await c.next((m) => m.type === 'subscribed', 20_000);
  await waitUntil(() => tempoEvents(c, confirmed.seq).length >= 2, 30_000, 50);
  const first = tempoEvents(c, confirmed.seq).at(-1);
  const started = Date.now();
  await sleep(3000);
  const elapsedS = (Date.now() - started) / 1000;
  const later = tempoEvents(c, first.seq);
  // 240 BPM is 4 beats a second: loosely, as a loaded machine may deliver a few late.
  assert.ok(later.length >= 2 * elapsedS && later.length <= 6 * elapsedS + 2, `${later.length} beats in ${elapsedS.toFixed(1)} s`);
  const beats = later.map((e) => e.data.beat);
  for (let i = 1; i < beats.length; i++) assert.ok(beats[i] >= beats[i - 1], `beats ${beats.join(',')}`);
  assert.ok(beats.at(-1) > beats[0]);
  const d = later.at(-1).data;
  assert.equal(Object.keys(d).sort(), ['at', 'bar', 'beat', 'bpm', 'confidence', 'position', 'source']);
  // `position` is the clock's fractional beat at `at` (server ms): a client extrapolates the beat from them.
  assert.ok(Math.floor(d.position) === d.beat || Math.floor(d.position) === d.beat + 1, `position ${d.position}, beat ${d.beat}`);
  assert.ok(Math.abs(d.at - Date.now()) < 60_000, `at ${d.at}`);
  assert.equal({ bpm: d.bpm, source: d.source, confidence: d.confidence }, { bpm: 240, source: 'manual', confidence: 1 });
  assert.equal(d.bar, Math.floor(d.beat / 4));
  assert.equal(tempoEvents(bystander).length, 0);
});

test('a BPM change is sent without waiting for a beat', async () => {
  const c = await open();
  c.send({ type: 'subscribe', topics: ['tempo'] });
  const confirmed = await c.next((m) => m.type === 'subscribed', 20_000);
  await bpm(20);
  // At 20 BPM beats are 3 s apart: the change shows first.
  const ev = await c.next((m) => m.type === 'event' && m.topic === 'tempo' && m.seq > confirmed.seq && m.data.bpm === 20, 20_000);
  assert.equal(ev.data.source, 'manual');
});

test('capabilities list the audio and tempo features', async () => {
  const features: string[] = (await req('GET', `${s.base}/api/v1/capabilities`)).json().features;
  assert.ok(features.includes('audio') && features.includes('tempo'), features.join(','));
});

test.run();
