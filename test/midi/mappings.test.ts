// MIDI mappings against a real server, driven with raw messages through the entry the device ports use (the test
// hook hands them over): notes, CCs, 14-bit pairs, both relative-encoder modes, program change, toggles, learn,
// malformed messages counted, feedback produced on state changes from any transport, and MIDI clock as tempo.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, startServer, waitUntil, sleep, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

const PORT = 'Test Controller 1';
const mappings = [
  { type: 'cc', channel: 1, number: 7, to: '/vjd/global/dimmer', feedback: true },
  { type: 'note', number: 36, to: '/vjd/global/blackout', mode: 'toggle', feedback: true },
  { type: 'cc14', number: 1, to: '/vjd/effects/1/speed' },
  { type: 'cc', number: 16, to: '/vjd/effects/1/shift', mode: 'relative' },
  { type: 'cc', number: 17, to: '/vjd/effects/1/shift', mode: 'relativeOffset' },
  { type: 'note', number: 40, to: '/vjd/source/select', arg: 'source:plasma', feedback: true },
  { type: 'program', to: '/vjd/palette/select' },
  { type: 'pitch', channel: 2, to: '/vjd/global/dimmer' },
  { type: 'cc', number: 20, to: '/vjd/layers/1/opacity', feedback: true },
  { type: 'note', number: 60, to: '/vjd/scenes/recall', arg: 'Half' },
];

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 20_000, 50);
const midi = async (...messages: number[][]) => {
  const r = await post('/_test/midi', { port: PORT, messages });
  assert.is(r.status, 200, r.text);
};
const sent = async () => (await get('/midi')).recentFeedback.map((f: any) => f.bytes.join(','));
const input = async (name: string) => (await get('/effects/1')).inputs.find((i: any) => i.name === name).value;

test.before(async () => {
  s = await startServer({ config: { render: { width: 64, height: 48, fps: 20 }, midi: { enabled: true, clock: true, mappings } } });
});

test.after(async () => {
  await s?.cleanup();
});

test('GET /midi says whether device I/O works here and counts the mappings', async () => {
  const m = await get('/midi');
  assert.equal([m.enabled, m.mappings, m.learning], [true, mappings.length, false]);
  if (!m.available) assert.match(m.reason, /unavailable/);
  assert.ok((await get('/capabilities')).features.includes('midi'));
});

test('a CC moves the dimmer; feedback follows changes from any transport', async () => {
  await midi([0xb0, 7, 64]);
  await until(async () => (await get('/global')).dimmer === 64 / 127);
  assert.is((await post('/global/dimmer', { value: 1 })).status, 200);
  await until(async () => (await sent()).includes('176,7,127'));
  // Pitch bend on its channel only: the first channel changes nothing.
  await midi([0xe0, 0, 0]);
  await midi([0xe1, 0x7f, 0x3f]);
  await until(async () => (await get('/global')).dimmer === ((0x3f << 7) | 0x7f) / 16383);
});

test('a note toggles blackout on press only, and its LED follows', async () => {
  await midi([0x90, 36, 127]);
  await until(async () => (await get('/global')).blackout === true);
  await until(async () => (await sent()).includes('144,36,127'));
  await midi([0x80, 36, 0], [0x90, 36, 0]);
  await midi([0x90, 36, 100]);
  await until(async () => (await get('/global')).blackout === false);
  await until(async () => (await sent()).at(-1) === '144,36,0' || (await sent()).includes('144,36,0'));
  // Set over HTTP: the LED lights, and the next press turns it off again.
  assert.is((await post('/global/blackout', { enabled: true })).status, 200);
  await until(async () => (await sent()).lastIndexOf('144,36,127') > (await sent()).lastIndexOf('144,36,0'));
  await midi([0x90, 36, 127]);
  await until(async () => (await get('/global')).blackout === false);
});

test('a 14-bit CC pair sets one exact value over the input range', async () => {
  assert.is((await post('/effects/add', { type: 'hue_shift' })).status, 200);
  const v = 0x2a5b;
  await midi([0xb0, 1, v >> 7], [0xb0, 33, v & 0x7f]);
  await until(async () => Math.abs((await input('speed')) - (v / 16383) * 2) < 1e-9);
});

test('relative encoders: two’s complement and offset modes step from their value', async () => {
  await midi([0xb0, 16, 5]);
  await until(async () => Math.abs((await input('shift')) - 5 / 128) < 1e-9);
  await midi([0xb0, 16, 127]);
  await until(async () => Math.abs((await input('shift')) - 4 / 128) < 1e-9);
  await midi([0xb0, 17, 74]);
  await until(async () => Math.abs((await input('shift')) - 10 / 128) < 1e-9);
  await midi([0xb0, 17, 61]);
  await until(async () => Math.abs((await input('shift')) - 7 / 128) < 1e-9);
});

test('a note selects a source with a fixed argument and its LED shows it is current; program change picks a palette', async () => {
  assert.is((await post('/sources/select', { id: 'preset:lava' })).status, 200);
  await midi([0x90, 40, 127]);
  await until(async () => (await get('/sources/current')).id === 'source:plasma');
  await until(async () => (await sent()).at(-1) === '144,40,127' || (await sent()).includes('144,40,127'));
  const ids = (await get('/palettes')).items.map((p: any) => p.id);
  await midi([0xc0, 2]);
  await until(async () => (await get('/palettes')).currentId === ids[2]);
});

test('the midi events topic carries the activity to its subscribers', async () => {
  const c = await connectWs(wsUrl(s.base));
  try {
    await c.next((m) => m.type === 'hello', 20_000);
    c.send({ type: 'subscribe', topics: ['midi'] });
    const confirmed = await c.next((m) => m.type === 'subscribed', 20_000);
    const received = (await get('/midi')).received;
    await midi([0xb0, 7, 3]);
    await c.next((m) => m.type === 'event' && m.topic === 'midi' && m.seq > confirmed.seq && m.data.received > received, 20_000);
  } finally {
    c.close();
  }
});

test('a CC fades layer 1 (its fader follows), a note recalls a scene by name', async () => {
  await midi([0xb0, 20, 64]);
  await until(async () => (await get('/layers')).layers[0].opacity === 64 / 127);
  assert.is((await post('/scenes/save', { name: 'Half' })).status, 200);
  assert.is((await post('/layers/opacity', { layer: 1, value: 1 })).status, 200);
  await until(async () => (await sent()).includes('176,20,127'));
  await midi([0x90, 60, 127]);
  await until(async () => (await get('/layers')).layers[0].opacity === 64 / 127);
  await until(async () => (await sent()).at(-1) === '176,20,64' || (await sent()).includes('176,20,64'));
});

test('malformed messages change nothing and are counted', async () => {
  const before = await get('/midi');
  const dimmer = (await get('/global')).dimmer;
  await midi([0xb0, 7, 200], [0xb0, 7], [], [7, 7, 7], [0xb0, 7, 1, 2]);
  await midi([0xf0, 1, 2], [0xa0, 1, 2]);
  await until(async () => (await get('/midi')).malformed === before.malformed + 5);
  assert.is((await get('/global')).dimmer, dimmer);
});

test('learn binds the next message, saves it, and the control then acts', async () => {
  const learning = post('/midi/learn', { to: '/vjd/global/dimmer' });
  await until(async () => (await get('/midi')).learning === true);
  await midi([0xb3, 21, 0]);
  const r = await learning;
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().mapping, { port: PORT, channel: 4, type: 'cc', number: 21, to: '/vjd/global/dimmer' });
  await midi([0xb3, 21, 127]);
  await until(async () => (await get('/global')).dimmer === 1);
  await until(async () =>
    access(join(s.dataDir, 'midi', 'learned.json')).then(
      () => true,
      () => false,
    ),
  );
  assert.equal(JSON.parse(await readFile(join(s.dataDir, 'midi', 'learned.json'), 'utf8')), [r.json().mapping]);
  const bad = await post('/midi/learn', { to: '/vjd/status/fps' });
  assert.is(bad.status, 400, bad.text);
});

test('learn takes `operation`, with `to` as its alias: exactly one of them', async () => {
  const learning = post('/midi/learn', { operation: '/vjd/global/blackout', mode: 'toggle' });
  await until(async () => (await get('/midi')).learning === true);
  await midi([0x92, 70, 127]);
  const r = await learning;
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().mapping, { port: PORT, channel: 3, type: 'note', number: 70, to: '/vjd/global/blackout', mode: 'toggle' });
  for (const body of [{}, { operation: '/vjd/global/dimmer', to: '/vjd/global/dimmer' }, { mode: 'toggle' }]) {
    const no = await post('/midi/learn', body);
    assert.equal([no.status, no.json().code], [400, 'INVALID_REQUEST'], JSON.stringify(body));
    assert.match(no.json().message, /exactly one of `operation`.*`to`/);
  }
  const mode = await post('/midi/learn', { operation: '/vjd/global/dimmer', mode: 'sideways' });
  assert.is(mode.status, 400);
  assert.match(mode.json().message, /^body\.mode /);
  const feedbackOnly = await post('/midi/learn', { operation: '/vjd/status/fps' });
  assert.equal([feedbackOnly.status, feedbackOnly.json().code], [400, 'INVALID_REQUEST']);
  assert.equal(
    (await get('/capabilities')).features.filter((f: string) => f === 'midi'),
    ['midi'],
  );
});

test('learn answers 504 MIDI_LEARN_TIMEOUT when nothing arrives, and 409 while one waits', async () => {
  const first = post('/midi/learn', { to: '/vjd/tempo/tap' });
  await until(async () => (await get('/midi')).learning === true);
  const second = await post('/midi/learn', { to: '/vjd/tempo/tap' });
  assert.equal([second.status, second.json().code], [409, 'MIDI_LEARN_BUSY']);
  const r = await first;
  assert.equal([r.status, r.json().code], [504, 'MIDI_LEARN_TIMEOUT']);
  assert.is((await get('/midi')).learning, false);
});

test('MIDI clock: a beat of 24 ticks sets the BPM, start resyncs', async () => {
  // Ticks a short sleep apart: the BPM is whatever their arrival spacing says; beats outside the tempo range are
  // left out, so ticks go on until one beat fits (a loaded machine can stretch a beat).
  for (let beat = 0; beat < 20 && (await get('/midi')).clockBpm === null; beat++) {
    for (let k = 0; k < 24; k++) {
      await midi([0xf8]);
      await sleep(20);
    }
  }
  const bpm = (await get('/midi')).clockBpm;
  assert.ok(bpm >= 20 && bpm <= 300, String(bpm));
  await until(async () => (await get('/tempo')).bpm === bpm);
  const applied = (await get('/midi')).applied;
  await midi([0xfa]);
  await until(async () => (await get('/midi')).applied === applied + 1);
});

test.run();
