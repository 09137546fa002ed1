// Live values over plain HTTP, with no events socket open: while an LFO runs on an effect input and on a generator
// input, every GET shows the applied value of a recent frame beside the modulator (a number in the input's range
// that moves), on the first read after nobody read for a while too, and after another layer's chain and source
// changed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, sleep, startServer, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p))).json();

interface InputView {
  name: string;
  min?: number;
  max?: number;
  modulator: unknown;
  live: unknown;
}
const input = (inputs: InputView[], name: string): InputView => inputs.find((i) => i.name === name)!;
const brightness = async (): Promise<InputView> => input((await get('/effects/1')).inputs, 'brightness');
const pulse = async (): Promise<InputView> => input((await get('/sources/current/params')).inputs, 'pulse');

async function ok(p: string, body: unknown): Promise<void> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
}

/** Waits until the output has drawn `n` more frames (GET /status reads no live values). */
async function afterFrames(n: number): Promise<void> {
  const frames = async (): Promise<number> => (await get('/status')).render.frames;
  const f0 = await frames();
  await waitUntil(async () => (await frames()) >= f0 + n, 20000, 50);
}

/** A live value as GET shows it: a number inside the input's range. */
function inRange(v: InputView, lo: number, hi: number): number {
  assert.ok(v.modulator, `${v.name} shows its modulator`);
  assert.type(v.live, 'number', `${v.name}.live is ${JSON.stringify(v.live)}`);
  const n = v.live as number;
  assert.ok(n >= lo && n <= hi, `${v.name}.live ${n} in ${lo}..${hi}`);
  return n;
}

/** Reads both inputs repeatedly for `ms`; each read must show a value in range. */
async function series(ms: number): Promise<{ brightness: Set<number>; pulse: Set<number> }> {
  const out = { brightness: new Set<number>(), pulse: new Set<number>() };
  const end = Date.now() + ms;
  while (Date.now() < end) {
    out.brightness.add(inRange(await brightness(), -1, 1));
    out.pulse.add(inRange(await pulse(), 0, 1));
    await sleep(100);
  }
  return out;
}

const lfo = { kind: 'lfo', shape: 'sine', rate: 1, amount: 0.3 };

test.before(async () => {
  s = await startServer({
    config: { render: { width: 320, height: 180, fps: 30, maxLayers: 3 }, live: { test: [], streams: [], v4l2: { enabled: false } } },
  });
  await ok('/sources/select', { id: 'source:solid_color' });
  await ok('/sources/params', { values: { pulse: 0.5 } });
  await ok('/effects/add', { type: 'brightness_contrast' });
});

test.after(async () => {
  await s?.cleanup();
});

test('the first GET after nobody read for a while shows live values of the effect and the generator', async () => {
  await ok('/effects/modulate', { index: 1, input: 'brightness', modulator: lfo });
  await ok('/sources/modulate', { input: 'pulse', modulator: lfo });
  const b = await brightness();
  assert.is(b.min, -1);
  assert.is(b.max, 1);
  await afterFrames(3);
  // Longer than any read keeps the renderer reporting at its full rate: what follows is a first read.
  await sleep(7000);
  inRange(await brightness(), -1, 1);
  inRange(await pulse(), 0, 1);
  const seen = await series(1500);
  assert.ok(seen.brightness.size >= 3, `brightness moves: ${[...seen.brightness].join(', ')}`);
  assert.ok(seen.pulse.size >= 3, `pulse moves: ${[...seen.pulse].join(', ')}`);
});

test("another layer's source and chain leave the live values of the master chain and the program generator", async () => {
  const add = await post('/layers/add', { source: 'source:checkerboard' });
  assert.is(add.status, 200, add.text);
  await ok('/layers/2/effects/add', { type: 'invert' });
  await afterFrames(3);
  // Reported within a frame or two of the change; never null from then on.
  await waitUntil(async () => typeof (await brightness()).live === 'number' && typeof (await pulse()).live === 'number', 10000, 50).catch(
    async () => assert.unreachable(`live values: brightness ${(await brightness()).live}, pulse ${(await pulse()).live}`),
  );
  const seen = await series(1500);
  assert.ok(seen.brightness.size >= 3, `brightness moves: ${[...seen.brightness].join(', ')}`);
  assert.ok(seen.pulse.size >= 3, `pulse moves: ${[...seen.pulse].join(', ')}`);
});

test.run();
