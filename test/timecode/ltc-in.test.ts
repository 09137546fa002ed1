// LTC as a real audio input: a WAV the test writes (LTC on channel 2, a tone on channel 1) played by the box's own
// ffmpeg, looped: 25 fps from 10:00:00:00 with a word of an impossible label among them, a dropout (freewheel, then
// lost), noise (nothing), then 29.97 drop-frame across a minute. GET /timecode follows the track within a frame.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { req, sleep, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { biphase, frameBits, ltcSamples, noise, silence, writeWav } from '../helpers/ltc-signal.js';
import { realFps, type TcRate, type Timecode } from '../../src/shared/smpte.js';

const SR = 48_000;
let s: TestServer;
const get = async (p: string) => (await req('GET', `${s.base}/api/v1${p}`, { timeoutMs: 20000 })).json();
const tc = (hours: number, minutes: number, seconds: number, frames: number): Timecode => ({ hours, minutes, seconds, frames });

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Frames of a rate from a label as samples, for `seconds`. */
const run = (start: Timecode, rate: TcRate, seconds: number) =>
  ltcSamples({ start, rate, frames: Math.round(seconds * realFps(rate)), sampleRate: SR });

test.before(async () => {
  const dir = await tempDir();
  const wav = join(dir, 'ltc.wav');
  // A word whose seconds read 75 sits between good words: refused and counted, never a reading.
  const bad = biphase(frameBits(tc(10, 0, 75, 0), 25), 2000, SR);
  const ltc = concat([
    run(tc(10, 0, 0, 0), 25, 3),
    bad,
    run(tc(10, 0, 3, 1), 25, 2),
    silence(SR * 2),
    noise(SR, 0.4, 7),
    run(tc(0, 0, 57, 0), 29.97, 5),
    silence(SR / 2),
  ]);
  const tone = new Float32Array(ltc.length).map((_, n) => 0.3 * Math.sin((2 * Math.PI * 440 * n) / SR));
  await writeWav(wav, [tone, ltc], SR);
  s = await startServer({
    config: {
      render: { width: 64, height: 48, fps: 15 },
      audio: { inputs: [{ id: 'deck', name: 'Deck', kind: 'stream', url: wav }], input: null },
      timecode: { source: 'ltc', ltc: { input: 'deck', channel: 2 }, freewheelMs: 300 },
    },
  });
});

test.after(async () => {
  await s?.cleanup();
});

/** Two readings `gap` ms apart move on by the elapsed time, within a frame (and the requests' own time). */
async function follows(rate: number): Promise<void> {
  const t1 = Date.now();
  const a = await get('/timecode');
  const d1 = Date.now() - t1;
  await sleep(400);
  const t2 = Date.now();
  const b = await get('/timecode');
  const d2 = Date.now() - t2;
  if (a.state !== 'locked' || b.state !== 'locked' || b.frames < a.frames) return; // a dropout or the loop came between
  const expected = ((t2 - t1) / 1000) * rate;
  const slack = 1 + ((d1 + d2) / 1000) * rate;
  assert.ok(
    Math.abs(b.frames - a.frames - expected) <= slack + 1,
    `moved ${b.frames - a.frames} frames, expected ${expected.toFixed(1)} ± ${slack.toFixed(1)}`,
  );
}

test('25 fps LTC on channel 2 locks and follows the track', async () => {
  let v: any;
  await waitUntil(async () => (v = await get('/timecode')).state === 'locked' && v.rate === 25, 30000);
  assert.match(v.timecode, /^10:00:0\d:\d\d$/);
  assert.is(v.sender, 'audio:deck');
  await follows(25);
});

test('a word of an impossible label is counted; a dropout freewheels, then is lost', async () => {
  let v: any;
  await waitUntil(async () => (v = await get('/timecode')).counts.malformed >= 1, 30000);
  assert.ok(v.timecode === null || !v.timecode.includes(':75:'), v.timecode);
  const states = new Set<string>();
  await waitUntil(
    async () => {
      v = await get('/timecode');
      states.add(v.state);
      return v.state === 'lost';
    },
    30000,
    50,
  );
  assert.ok(v.counts.losses >= 1);
  assert.is(v.running, false);
  // Noise after the dropout reads as nothing: the clock stays lost while it plays.
  const held = v.frames;
  await sleep(300);
  const after = await get('/timecode');
  if (after.state === 'lost') assert.is(after.frames, held);
});

test('29.97 drop-frame locks with ";" and crosses the minute skipping ;00 and ;01', async () => {
  let v: any;
  await waitUntil(async () => (v = await get('/timecode')).state === 'locked' && v.rate === 29.97, 30000);
  assert.match(v.timecode, /^00:0[01]:\d\d;\d\d$/);
  await waitUntil(async () => (v = await get('/timecode')).state === 'locked' && v.timecode.startsWith('00:01:0'), 30000, 50);
  assert.ok(!/^00:01:00;0[01]$/.test(v.timecode), v.timecode);
  await follows(30000 / 1001);
  assert.ok(v.counts.jumps >= 1, 'the rate change is a jump');
});

test.run();
