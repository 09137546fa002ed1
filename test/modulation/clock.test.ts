// Modulators driven by the clock and the audio, read through `live` (GET /effects/{index}) beside GET /tempo: a
// bar-long ramp follows the clock's bar phase and restarts on a resync, a beat envelope flashes once per beat, an
// audio envelope on a lavfi tone rises and falls with its attack and release. Real server, real audio worker.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, sleep, startServer, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p))).json();

/** The applied signal 0..1 of a unipolar, amount 1 modulator on brightness (range -1..1, set to -1). */
async function signal(): Promise<number | null> {
  const live = (await get('/effects/1')).inputs.find((i: { name: string }) => i.name === 'brightness').live;
  return typeof live === 'number' ? (live + 1) / 2 : null;
}

async function modulate(modulator: Record<string, unknown>): Promise<void> {
  const r = await post('/effects/modulate', {
    index: 1,
    input: 'brightness',
    modulator: { amount: 1, polarity: 'unipolar', ...modulator },
  });
  assert.is(r.status, 200, r.text);
  await waitUntil(async () => (await signal()) !== null, 20000, 50);
}

test.before(async () => {
  s = await startServer({
    config: {
      live: { test: [], streams: [], v4l2: { enabled: false } },
      audio: {
        inputs: [
          { id: 'tone', name: 'Tone 440 Hz', kind: 'test', source: 'sine=frequency=440:sample_rate=48000' },
          { id: 'quiet', name: 'Silence', kind: 'test', source: 'anullsrc=r=48000:cl=mono' },
        ],
        input: null,
      },
    },
  });
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  assert.is((await post('/effects/add', { type: 'brightness_contrast' })).status, 200);
  assert.is((await post('/effects/params', { index: 1, values: { brightness: -1 } })).status, 200);
  assert.is((await post('/tempo/bpm', { bpm: 60 })).status, 200);
});

test.after(async () => {
  await s?.cleanup();
});

test('a "1" ramp follows the bar phase of the clock and restarts on a resync', async () => {
  await modulate({ kind: 'lfo', shape: 'ramp', rate: '1' });
  // At 60 BPM a bar is 4 s: the reads of live and of the clock are close enough to compare phases.
  for (let k = 0; k < 5; k++) {
    const [u, t] = await Promise.all([signal(), get('/tempo')]);
    const bar = ((t.beat % t.beatsPerBar) + t.phase) / t.beatsPerBar;
    const d = Math.abs(u! - bar);
    assert.ok(Math.min(d, 1 - d) < 0.15, `ramp ${u!.toFixed(3)} vs bar phase ${bar.toFixed(3)}`);
    await sleep(300);
  }
  // Early in the bar: without a resync the ramp stays above 0.2 for two more seconds.
  await waitUntil(
    async () => {
      const u = (await signal())!;
      return u > 0.2 && u < 0.4;
    },
    20000,
    20,
  );
  assert.is((await post('/tempo/resync', {})).status, 200);
  // A resync is beat 1 of a bar: the ramp starts again from 0.
  await waitUntil(async () => (await signal())! < 0.15, 1500, 20);
});

test('a beat envelope flashes once per beat at 120 BPM', async () => {
  assert.is((await post('/tempo/bpm', { bpm: 120 })).status, 200);
  await modulate({ kind: 'beat', every: 1, attackMs: 0, decayMs: 200, curve: 'linear' });
  const xs: number[] = [];
  const end = performance.now() + 4000;
  while (performance.now() < end) {
    xs.push((await signal())!);
    await sleep(20);
  }
  let flashes = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > 0.3 && xs[i - 1]! <= 0.3) flashes++;
  // Eight beats in 4 s; a loaded machine may miss a short flash between two reads.
  assert.ok(flashes >= 4 && flashes <= 9, `${flashes} flashes in 4 s (${xs.map((x) => x.toFixed(2)).join(' ')})`);
  assert.ok(Math.min(...xs) < 0.05, 'between flashes the envelope is down');
});

test('an audio envelope rises on a tone and falls with its release on silence', async () => {
  await modulate({ kind: 'audio', source: 'level', gain: 4, attackMs: 50, releaseMs: 3000 });
  assert.is((await post('/audio/select', { id: 'tone' })).status, 200);
  let peak = 0;
  await waitUntil(
    async () => {
      peak = Math.max(peak, (await signal())!);
      return peak > 0.5;
    },
    20000,
    50,
  );
  assert.is((await post('/audio/select', { id: 'quiet' })).status, 200);
  const falling: number[] = [];
  await waitUntil(
    async () => {
      const u = (await signal())!;
      falling.push(u);
      return u < 0.05;
    },
    30000,
    100,
  );
  const between = falling.filter((u) => u > 0.1 * peak && u < 0.9 * peak).length;
  assert.ok(between >= 3, `a gradual fall over the release (${falling.map((x) => x.toFixed(2)).join(' ')})`);
});

test.run();
