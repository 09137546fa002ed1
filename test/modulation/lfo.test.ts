// Modulators over real HTTP and real GL: an LFO on brightness_contrast's brightness over a solid color moves the
// output's green channel with the period its rate asks for (Hz, or a beat division of the tempo clock), freeze holds
// it, and bad modulators are refused naming the field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, sampleOutput, sleep, startServer, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });

async function frames(): Promise<number> {
  return (await req('GET', api('/status'))).json().render.frames as number;
}

/** Waits until the output has drawn at least `n` frames after now. */
async function afterFrames(n: number): Promise<void> {
  const f0 = await frames();
  await waitUntil(async () => (await frames()) >= f0 + n, 20000, 50);
}

async function green(): Promise<number> {
  const px = await sampleOutput(s.base, [[0.5, 0.5]]);
  return px[0]![1]!;
}

/** Green of the output sampled about every 100 ms for `ms`, each stamped at the middle of its request. */
async function series(ms: number): Promise<Array<{ t: number; v: number }>> {
  const out: Array<{ t: number; v: number }> = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    const v = await green();
    out.push({ t: (t0 + performance.now()) / 2, v });
    await sleep(Math.max(0, 100 - (performance.now() - t0)));
  }
  return out;
}

/** The mean period (ms) from the upward crossings of the series' midline, interpolated between samples. */
function period(xs: Array<{ t: number; v: number }>): number {
  const lo = Math.min(...xs.map((x) => x.v));
  const hi = Math.max(...xs.map((x) => x.v));
  assert.ok(hi - lo > 60, `the output moves (green ${lo}..${hi})`);
  const mid = (lo + hi) / 2;
  const ups: number[] = [];
  for (let i = 1; i < xs.length; i++) {
    const a = xs[i - 1]!;
    const b = xs[i]!;
    if (a.v < mid && b.v >= mid) ups.push(a.t + ((mid - a.v) / (b.v - a.v)) * (b.t - a.t));
  }
  assert.ok(ups.length >= 2, `at least two upward crossings (${ups.length})`);
  return (ups[ups.length - 1]! - ups[0]!) / (ups.length - 1);
}

const sine = (rate: number | string) => ({ kind: 'lfo', shape: 'sine', rate, amount: 0.15 });

test.before(async () => {
  s = await startServer({ config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  assert.is((await post('/effects/add', { type: 'brightness_contrast' })).status, 200);
});

test.after(async () => {
  await s?.cleanup();
});

test('bad modulators and inputs are refused naming the field; nothing changes', async () => {
  const cases: Array<[unknown, string]> = [
    [{ index: 1, input: 'nope', modulator: sine(1) }, 'nope'],
    [{ index: 1, input: 'inputImage', modulator: sine(1) }, 'inputImage'],
    [{ index: 1, input: 'brightness', modulator: sine(0) }, 'modulator.rate'],
    [{ index: 1, input: 'brightness', modulator: { ...sine(1), rate: 1e9 } }, 'modulator.rate'],
    [{ index: 1, input: 'brightness', modulator: { ...sine(1), rate: '3/7' } }, 'modulator.rate'],
    [{ index: 1, input: 'brightness', modulator: { ...sine(1), amount: 1.5 } }, 'modulator.amount'],
    [{ index: 1, input: 'brightness', modulator: { ...sine(1), shape: 'wobble' } }, 'modulator.shape'],
    [{ index: 1, input: 'brightness', modulator: { ...sine(1), extra: 1 } }, 'modulator.extra'],
    [{ index: 1, input: 'brightness', modulator: { kind: 'steps', amount: 0.5, rate: 1, values: [] } }, 'modulator.values'],
    [{ index: 1, input: 'brightness', modulator: { kind: 'beat', amount: 0.5, every: 0 } }, 'modulator.every'],
    [{ index: 1, input: 'brightness', modulator: 'fast' }, 'modulator'],
    [{ index: 1, input: 'brightness', component: 'x', modulator: sine(1) }, 'brightness'],
  ];
  for (const [body, names] of cases) {
    const r = await post('/effects/modulate', body);
    assert.is(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    assert.ok(r.json().message.includes(names), `${JSON.stringify(body)} names ${names}: ${r.text}`);
  }
  // NaN is not JSON: the body is refused before any modulator check.
  const nan = await req('POST', api('/effects/modulate'), {
    body: '{"index":1,"input":"brightness","modulator":{"kind":"lfo","shape":"sine","amount":0.5,"rate":NaN}}',
  });
  assert.is(nan.status, 400);
  const view = (await req('GET', api('/effects/1'))).json();
  assert.is(view.inputs.find((i: { name: string }) => i.name === 'brightness').modulator, null);
});

test('a 1 Hz sine moves the output with a period of about 1 s; GET shows modulator and live', async () => {
  const r = await post('/effects/modulate', { index: 1, input: 'brightness', modulator: sine(1) });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().modulator.rate, 1);
  await afterFrames(3);
  const p = period(await series(3200));
  assert.ok(p > 800 && p < 1200, `period ${p.toFixed(0)} ms`);
  const brightness = async () => (await req('GET', api('/effects/1'))).json().inputs.find((i: { name: string }) => i.name === 'brightness');
  // The first read asks the renderer for live values; they follow within a frame or two.
  await waitUntil(async () => typeof (await brightness()).live === 'number', 20000, 50);
  const input = await brightness();
  assert.is(input.value, 0, 'the set value stays');
  assert.is(input.modulator.kind, 'lfo');
  assert.type(input.live, 'number');
  assert.ok(input.live >= -0.3 && input.live <= 0.3, `live ${input.live}`);
});

test('a "1/4" sine follows the tempo clock: 500 ms at 120 BPM, 1000 ms at 60 BPM', async () => {
  assert.is((await post('/tempo/bpm', { bpm: 120 })).status, 200);
  assert.is((await post('/effects/modulate', { index: 1, input: 'brightness', modulator: sine('1/4') })).status, 200);
  await afterFrames(3);
  const fast = period(await series(3200));
  assert.ok(fast > 400 && fast < 600, `period at 120 BPM ${fast.toFixed(0)} ms`);
  assert.is((await post('/tempo/bpm', { bpm: 60 })).status, 200);
  await afterFrames(3);
  const slow = period(await series(3200));
  assert.ok(slow > 800 && slow < 1200, `period at 60 BPM ${slow.toFixed(0)} ms`);
});

test('freeze holds the output still; release moves it again', async () => {
  assert.is((await post('/effects/modulate', { index: 1, input: 'brightness', modulator: sine(1) })).status, 200);
  const f = await post('/modulation/freeze', { enabled: true });
  assert.equal(f.json(), { frozen: true });
  await afterFrames(3);
  const a = await green();
  await sleep(1000);
  const b = await green();
  assert.is(a, b, 'frozen output does not move');
  assert.equal((await req('GET', api('/modulation'))).json(), { frozen: true, count: 1 });
  assert.is((await post('/modulation/freeze', { enabled: false })).json().frozen, false);
  await afterFrames(3);
  const xs = await series(1200);
  const moved = Math.max(...xs.map((x) => x.v)) - Math.min(...xs.map((x) => x.v));
  assert.ok(moved > 60, `released output moves (${moved})`);
});

test.run();
