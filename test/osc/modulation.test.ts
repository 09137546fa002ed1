// OSC modulation addresses over real UDP against a running server: an amount or rate for an input without a
// modulator, an unknown input or effect, NaN, wrong types and over-long rate strings are refused with the usual OSC
// accounting (a clear log line, `osc.rejected`), change nothing and stall nothing; OSCQuery lists freeze. On a
// modulated input, amount and rate (a division string or Hz) change the modulator GET /effects/{index} shows, and
// freeze holds and releases every modulator as GET /modulation shows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSocket } from 'node:dgram';
import { freeUdpPort, osc } from '../helpers/osc.js';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let oscPort: number;
let index: number;
const sender = createSocket('udp4');

test.before(async () => {
  oscPort = await freeUdpPort();
  s = await startServer({ config: { osc: { enabled: true, host: '127.0.0.1', port: oscPort } } });
  const added = await req('POST', `${s.base}/api/v1/effects/add`, { body: { type: 'brightness_contrast' } });
  assert.equal(added.status, 200, added.text);
  index = added.json().index;
});
test.after(async () => {
  sender.close();
  await s.cleanup();
});

const send = (address: string, ...args: Array<{ type: string; value?: unknown }>): Promise<void> =>
  new Promise((resolve) => sender.send(osc.writePacket({ address, args }, { metadata: true }), oscPort, '127.0.0.1', () => resolve()));
const get = async (path: string) => (await req('GET', `${s.base}/api/v1${path}`)).json();
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 30_000, 50);
const oscStats = async () => (await get('/status')).osc;

test('an amount for an input without a modulator is refused with a clear reason and creates none', async () => {
  const before = await oscStats();
  // First refusal from this sender: its log line is not suppressed by the per-sender log budget.
  await send(`/vjd/effects/${index}/brightness/mod/amount`, { type: 'f', value: 0.5 });
  await until(async () => (await oscStats()).rejected > before.rejected);
  await s.waitForLog('has no modulator', 20_000);
  const item = await get(`/effects/${index}`);
  const brightness = item.inputs.find((i: any) => i.name === 'brightness');
  assert.equal(brightness.value, 0);
  assert.ok(brightness.modulator === undefined || brightness.modulator === null, JSON.stringify(brightness));
});

test('malformed modulation messages are refused, counted, and the server keeps serving', async () => {
  const before = await oscStats();
  const bad: Array<[string, Array<{ type: string; value?: unknown }>]> = [
    [`/vjd/effects/${index}/brightness/mod/amount`, [{ type: 'f', value: Number.NaN }]],
    [`/vjd/effects/${index}/brightness/mod/amount`, [{ type: 'f', value: Number.POSITIVE_INFINITY }]],
    [`/vjd/effects/${index}/brightness/mod/amount`, [{ type: 's', value: 'half' }]],
    [`/vjd/effects/${index}/brightness/mod/amount`, []],
    [`/vjd/effects/${index}/brightness/mod/rate`, [{ type: 's', value: '' }]],
    [`/vjd/effects/${index}/brightness/mod/rate`, [{ type: 's', value: '1/4'.repeat(10) }]],
    [`/vjd/effects/${index}/brightness/mod/rate`, [{ type: 'f', value: Number.NaN }]],
    [`/vjd/effects/${index}/brightness/mod/rate`, [{ type: 'T' }]],
    [`/vjd/effects/${index}/nosuchinput/mod/amount`, [{ type: 'f', value: 0.5 }]],
    [`/vjd/effects/999/brightness/mod/rate`, [{ type: 's', value: '1/4' }]],
    [`/vjd/effects/${index}/brightness/mod/nosuch`, [{ type: 'f', value: 0.5 }]],
    ['/vjd/modulation/freeze', [{ type: 's', value: 'yes' }]],
    ['/vjd/modulation/freeze', []],
  ];
  for (const [address, args] of bad) await send(address, ...args);
  await until(async () => (await oscStats()).rejected >= before.rejected + bad.length);
  const after = await oscStats();
  assert.equal(after.rejected - before.rejected, bad.length);
  assert.equal(after.applied, before.applied);
  // Nothing moved: the input keeps its value and gets no modulator.
  const brightness = (await get(`/effects/${index}`)).inputs.find((i: any) => i.name === 'brightness');
  assert.equal(brightness.value, 0);
  assert.ok(brightness.modulator === undefined || brightness.modulator === null);
  // A good message still applies afterwards.
  await send(`/vjd/effects/${index}/brightness`, { type: 'f', value: 0.75 });
  await until(async () => (await get(`/effects/${index}`)).inputs.find((i: any) => i.name === 'brightness').value === 0.5);
});

test('OSCQuery lists freeze and no modulator nodes for unmodulated inputs', async () => {
  const tree = await get('/osc');
  const freeze = tree.CONTENTS.vjd.CONTENTS.modulation.CONTENTS.freeze;
  assert.equal(freeze.TYPE, 'i');
  assert.equal(freeze.ACCESS, 2);
  const input = tree.CONTENTS.vjd.CONTENTS.effects.CONTENTS[String(index)].CONTENTS.brightness;
  assert.equal(input.TYPE, 'f');
  assert.equal(input.CONTENTS, undefined);
});

const brightnessOf = async () => (await get(`/effects/${index}`)).inputs.find((i: any) => i.name === 'brightness');

test('on a modulated input, amount and rate change the modulator; freeze holds and releases', async () => {
  const set = await req('POST', `${s.base}/api/v1/effects/modulate`, {
    body: { index, input: 'brightness', modulator: { kind: 'lfo', shape: 'sine', rate: 1, amount: 0.2 } },
  });
  assert.equal(set.status, 200, set.text);
  const before = await oscStats();
  await send(`/vjd/effects/${index}/brightness/mod/amount`, { type: 'f', value: -0.5 });
  await until(async () => (await brightnessOf()).modulator?.amount === -0.5);
  await send(`/vjd/effects/${index}/brightness/mod/rate`, { type: 's', value: '1/8d' });
  await until(async () => (await brightnessOf()).modulator?.rate === '1/8d');
  await send(`/vjd/effects/${index}/brightness/mod/rate`, { type: 'f', value: 2.5 });
  await until(async () => (await brightnessOf()).modulator?.rate === 2.5);
  // The rest of the modulator and the set value stay as they were.
  const m = (await brightnessOf()).modulator;
  assert.equal(m, { ...m, kind: 'lfo', shape: 'sine', amount: -0.5, rate: 2.5 });
  assert.equal((await brightnessOf()).value, 0.5);
  // A rate the route refuses (above the Hz limit) leaves the modulator as it was.
  await send(`/vjd/effects/${index}/brightness/mod/rate`, { type: 'f', value: 500 });
  await until(async () => (await oscStats()).rejected > before.rejected);
  assert.equal((await brightnessOf()).modulator.rate, 2.5);

  await send('/vjd/modulation/freeze', { type: 'i', value: 1 });
  await until(async () => (await get('/modulation')).frozen === true);
  assert.equal(await get('/modulation'), { frozen: true, count: 1 });
  await send('/vjd/modulation/freeze', { type: 'i', value: 0 });
  await until(async () => (await get('/modulation')).frozen === false);
  await send('/vjd/modulation/freeze', { type: 'T' });
  await until(async () => (await get('/modulation')).frozen === true);
  await send('/vjd/modulation/freeze', { type: 'F' });
  await until(async () => (await get('/modulation')).frozen === false);
});

test('OSCQuery lists the amount and rate of a modulated input', async () => {
  const tree = await get('/osc');
  const mod = tree.CONTENTS.vjd.CONTENTS.effects.CONTENTS[String(index)].CONTENTS.brightness.CONTENTS.mod.CONTENTS;
  assert.equal(mod.amount.TYPE, 'f');
  assert.equal(mod.amount.VALUE, [-0.5]);
  assert.equal(mod.rate.TYPE, 's');
});

test.run();
