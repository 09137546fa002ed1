// Safe, musical modulation over real HTTP with real audio and render workers: a bass modulator on an effect's
// brightness brings the parameter and the output's pixels back to the set value once the audio input stops, for
// every polarity (bipolar used to sit at the bottom of the range, a black picture); an LFO whose amount is a share
// of the headroom stays strictly inside the range over whole cycles, where the same share of the range sits clamped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeImage } from '../helpers/images.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 20000 })).json();
const input = async (index: number, name: string): Promise<any> =>
  (await get(`/effects/${index}`)).inputs.find((i: { name: string }) => i.name === name);

/** The red channel of the output's centre, from the public output thumbnail. */
async function centre(): Promise<number> {
  const r = await req('GET', api('/thumbnails/current?size=32&format=png'), { timeoutMs: 20000 });
  assert.is(r.status, 200, r.text);
  const img = decodeImage(r.body, r.headers['content-type'] as string);
  return img.at(img.width >> 1, img.height >> 1)[0];
}

async function until(what: string, ok: () => Promise<boolean>, stepMs = 50): Promise<void> {
  try {
    await waitUntil(ok, 60_000, stepMs);
  } catch {
    assert.unreachable(`${what} never happened; brightness ${JSON.stringify(await input(1, 'brightness'))}`);
  }
}

let base = 0;

test.before(async () => {
  s = await startServer({
    config: {
      live: { test: [], streams: [], v4l2: { enabled: false } },
      audio: { inputs: [{ id: 'low', name: 'Tone 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' }], input: null },
    },
  });
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  assert.is((await post('/sources/params', { values: { color: [0.4, 0.4, 0.4, 1] } })).status, 200);
  assert.is((await post('/effects/add', { type: 'brightness_contrast' })).status, 200);
  assert.is((await post('/effects/params', { index: 1, values: { brightness: 0, contrast: 1 } })).status, 200);
  assert.is((await post('/effects/add', { type: 'rotate_zoom' })).status, 200);
  assert.is((await post('/effects/params', { index: 2, values: { zoom: 1 } })).status, 200);
  // A mid grey: both a brighter and a darker picture can be told from it.
  await until('the grey on the output', async () => {
    base = await centre();
    return base > 80 && base < 125;
  });
});

test.after(async () => {
  await s?.cleanup();
});

for (const polarity of ['bipolar', 'up', 'down'] as const) {
  test(`bass on brightness (${polarity}, amount 0.6): back to the set value and the set picture when the audio stops`, async () => {
    const modulator = { kind: 'audio', source: 'bass', amount: 0.6, polarity, releaseMs: 300 };
    const r = await post('/effects/modulate', { index: 1, input: 'brightness', modulator });
    assert.is(r.status, 200, r.text);
    assert.is((await post('/audio/select', { id: 'low' })).status, 200);
    const sign = polarity === 'down' ? -1 : 1;
    await until('the bass moving brightness', async () => {
      const live = (await input(1, 'brightness')).live;
      return typeof live === 'number' && live * sign > 0.3;
    });
    await until('the picture following', async () => (sign > 0 ? (await centre()) > base + 60 : (await centre()) < base - 60));
    assert.is((await post('/audio/select', { id: 'none' })).status, 200);
    await until('brightness back at its set value', async () => (await input(1, 'brightness')).live === 0);
    await until('the set picture', async () => Math.abs((await centre()) - base) <= 2);
    const b = await input(1, 'brightness');
    assert.is(b.value, 0, 'the set value never moved');
    assert.is(b.modulator.polarity, polarity);
  });
}

/** Samples zoom's live value until `done` says the samples cover what the test needs. */
async function sampleZoom(done: (xs: number[]) => boolean): Promise<number[]> {
  const xs: number[] = [];
  await until(
    'the LFO covering its cycle',
    async () => {
      const live = (await input(2, 'zoom')).live;
      if (typeof live === 'number') xs.push(live);
      return done(xs);
    },
    20,
  );
  return xs;
}

test('an LFO taking a share of the headroom stays strictly inside the range; a share of the range sits at its end', async () => {
  // zoom 0.1..8 set to 1: half the range swings 3.95 each way and is cut at 0.1; half the headroom swings 0.55..4.5.
  const lfo = { kind: 'lfo', shape: 'sine', rate: 0.5, amount: 0.5 };
  let r = await post('/effects/modulate', { index: 2, input: 'zoom', modulator: { ...lfo, amountOf: 'headroom' } });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().modulator.amountOf, 'headroom');
  const head = await sampleZoom((xs) => Math.min(...xs) < 0.6 && Math.max(...xs) > 4.4);
  const outside = head.filter((v) => !(v > 0.1 && v < 8));
  assert.equal(outside, [], `headroom: every sample strictly inside 0.1..8 (${head.length} samples)`);
  assert.ok(Math.min(...head) >= 0.55 - 1e-6 && Math.max(...head) <= 4.5 + 1e-6, `${Math.min(...head)}..${Math.max(...head)}`);

  r = await post('/effects/modulate', { index: 2, input: 'zoom', modulator: { ...lfo, amountOf: 'range' } });
  assert.is(r.status, 200, r.text);
  const range = await sampleZoom((xs) => xs.includes(0.1) && Math.max(...xs) > 4.8);
  assert.ok(range.filter((v) => v === 0.1).length >= 1, 'range: clamped at the bottom of the range');
  assert.is((await input(2, 'zoom')).value, 1, 'the set value never moved');
});

test.run();
