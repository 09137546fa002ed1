// Modulators last: they follow a chain move, leave with a removed effect, are saved in a look and come back with
// its action, and persist across a restart (chain, generator, T-bar, dimmer, freeze). The generator, the T-bar and
// the dimmer are each modulated once and their live values move. Real server, real HTTP.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

let work: string;
let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p))).json();
const CONFIG = { live: { test: [], streams: [], v4l2: { enabled: false } } };
const lfo = { kind: 'lfo', shape: 'triangle', rate: 2, amount: 0.4 };

const inputOf = async (index: number, name: string) =>
  (await get(`/effects/${index}`)).inputs.find((i: { name: string }) => i.name === name);

/**
 * Whether `read` gives `distinct` different values over reads spaced out. A missing value (no live report yet)
 * does not count: a square wave has only two values, and a null read must not pass as a third.
 */
async function moves(read: () => Promise<unknown>, distinct = 3): Promise<boolean> {
  const seen = new Set<string>();
  await waitUntil(
    async () => {
      const v = await read();
      if (v !== null && v !== undefined) seen.add(JSON.stringify(v));
      return seen.size >= distinct;
    },
    20000,
    150,
  );
  return true;
}

test.before(async () => {
  work = await tempDir('vjd-modlasts-');
  s = await startServer({ dataDir: join(work, 'data'), config: CONFIG });
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  for (const type of ['invert', 'brightness_contrast', 'kaleidoscope']) assert.is((await post('/effects/add', { type })).status, 200);
  await post('/effects/enabled', { index: 1, enabled: false });
});

test.after(async () => {
  await s?.stop();
  await rm(work, { recursive: true, force: true });
});

test('a modulator follows its effect when the chain moves, and its live value moves; the params topic carries it', async () => {
  const c = await connectWs(wsUrl(s.base));
  await c.next((m) => m.type === 'hello');
  const r = await post('/effects/modulate', { index: 2, input: 'brightness', modulator: lfo });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().modulator, lfo);
  const ev = await c.next(
    (m) => m.type === 'event' && m.topic === 'params' && m.data.items[1]?.inputs.some((i: { modulator: unknown }) => i.modulator !== null),
  );
  assert.equal(ev.data.items[1].inputs.find((i: { name: string }) => i.name === 'brightness').modulator, lfo);
  c.close();
  assert.is((await post('/effects/move', { index: 2, to: 1 })).status, 200);
  const moved = await inputOf(1, 'brightness');
  assert.equal(moved.modulator, lfo, 'position 1 is brightness_contrast with its modulator');
  assert.is((await inputOf(2, 'amount')).modulator, null, 'invert moved down without one');
  assert.ok(await moves(async () => (await inputOf(1, 'brightness')).live));
  const live = (await inputOf(1, 'brightness')).live;
  assert.ok(live >= -0.8 && live <= 0.8, `live ${live} within amount × range of the set value 0`);
});

test('a saved look stores the modulators and its action brings them back', async () => {
  const saved = await post('/presets/save', { index: 1, name: 'Moving Look', overwrite: true });
  assert.is(saved.status, 200, saved.text);
  assert.equal(saved.json().preset.modulators, { brightness: lfo });
  const action = await post(`/actions/preset.${saved.json().preset.id}`, {});
  assert.is(action.status, 200, action.text);
  const added = (await get('/effects')).count;
  assert.equal((await inputOf(added, 'brightness')).modulator, lfo, 'the look came back modulated');
  assert.is((await post('/effects/remove', { index: added })).status, 200);
});

test('component modulators: point2D and the generator color; the T-bar and the dimmer', async () => {
  const bad = await post('/effects/modulate', { index: 3, input: 'center', modulator: lfo });
  assert.is(bad.status, 400, 'a point2D needs a component');
  assert.ok(bad.json().message.includes('x, y'), bad.text);
  assert.is((await post('/effects/modulate', { index: 3, input: 'center', component: 'x', modulator: lfo })).status, 200);
  const center = await inputOf(3, 'center');
  assert.equal(center.modulator, { x: lfo });
  assert.ok(await moves(async () => (await inputOf(3, 'center')).live?.x));
  assert.is((await post('/effects/modulate', { index: 3, input: 'center', component: 'x', modulator: null })).status, 200);
  assert.is((await inputOf(3, 'center')).modulator, null);
  const gen = await post('/sources/modulate', {
    input: 'color',
    component: 'brightness',
    modulator: { kind: 'lfo', shape: 'sine', rate: 1, amount: -0.5, polarity: 'unipolar' },
  });
  assert.is(gen.status, 200, gen.text);
  assert.is(gen.json().component, 'brightness');
  const colorLive = async () =>
    (await get('/sources/current/params')).inputs.find((i: { name: string }) => i.name === 'color').live?.brightness;
  assert.ok(await moves(colorLive));
  // The output follows the generator's brightness through the chain.
  assert.ok(await moves(async () => (await sampleOutput(s.base, [[0.5, 0.5]]))[0]));

  const dim = await post('/global/modulate', { input: 'dimmer', modulator: { kind: 'lfo', shape: 'square', rate: 2, amount: -0.5 } });
  assert.is(dim.status, 200, dim.text);
  assert.equal((await post('/global/modulate', { input: 'blackout', modulator: null })).status, 400);
  // A square LFO: two values.
  assert.ok(await moves(async () => (await get('/global')).live, 2));

  assert.is((await post('/mix/cue', { id: 'source:color_bars' })).status, 200);
  assert.is((await post('/mix/position', { value: 0.5 })).status, 200);
  assert.is((await post('/mix/modulate', { modulator: { kind: 'lfo', shape: 'saw', rate: 1, amount: 0.4 } })).status, 200);
  assert.ok(await moves(async () => (await get('/mix')).live));
  const mix = await get('/mix');
  assert.is(mix.position, 0.5, 'the held position stays');
  assert.is(mix.modulator.kind, 'lfo');
});

test('everything persists across a restart; a removed effect takes its modulator with it', async () => {
  assert.is((await post('/modulation/freeze', { enabled: true })).status, 200);
  const before = await get('/modulation');
  assert.equal(before, { frozen: true, count: 4 });
  await s.stop();
  s = await startServer({ dataDir: join(work, 'data'), config: CONFIG });
  assert.equal(await get('/modulation'), before, 'chain, generator, T-bar and dimmer modulators and freeze are back');
  assert.equal((await inputOf(1, 'brightness')).modulator, lfo);
  assert.is((await get('/global')).modulator.shape, 'square');
  assert.is((await post('/modulation/freeze', { enabled: false })).status, 200);
  assert.is((await post('/effects/remove', { index: 1 })).status, 200);
  assert.is((await get('/modulation')).count, 3, "the removed effect's modulator is gone");
  for (let i = 1; i <= (await get('/effects')).count; i++) {
    for (const input of (await get(`/effects/${i}`)).inputs) assert.is(input.modulator ?? null, null);
  }
  // The generator's modulators belong to its activation, as its values do.
  assert.is((await post('/sources/select', { id: 'source:gradient' })).status, 200);
  await waitUntil(async () => (await get('/modulation')).count === 2, 20000, 50);
});

test.run();
