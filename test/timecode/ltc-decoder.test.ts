// The audio worker's LTC decoder (workers/audio/ltc-decoder.ts) on generated timecode: the four rates, drop-frame
// minutes, block sizes, varispeed, reverse, inversion, level, noise and tones, and the frame times.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatTimecode, fromFrames, realFps, type TcRate, type Timecode, toFrames } from '../../src/shared/smpte.js';
import { biphase, frameBits, ltcSamples, noise, silence, writeWav } from '../helpers/ltc-signal.js';
import { type LtcFrame, LtcDecoder } from '../../workers/audio/ltc-decoder.js';

const SR = 48_000;
const tc = (hours: number, minutes: number, seconds: number, frames: number): Timecode => ({ hours, minutes, seconds, frames });
const START: Record<string, Timecode> = {
  '24': tc(0, 0, 0, 20),
  '25': tc(0, 59, 59, 20),
  '29.97': tc(0, 0, 59, 25),
  '30': tc(23, 59, 59, 25),
};
const RATES: TcRate[] = [24, 25, 29.97, 30];

/** Pushes the samples block by block through one reused buffer, as the worker does; sample i is at i / SR s. */
function decode(samples: Float32Array, block = 1024, dec = new LtcDecoder(SR), offset = 0): LtcFrame[] {
  const buf = new Float32Array(block);
  const out: LtcFrame[] = [];
  for (let i = 0; i < samples.length; i += block) {
    const part = samples.subarray(i, Math.min(samples.length, i + block));
    buf.set(part);
    out.push(...dec.push(buf.subarray(0, part.length), ((offset + i + part.length - 1) * 1000) / SR));
    buf.fill(Number.NaN);
  }
  return out;
}

const labels = (frames: LtcFrame[], rate: TcRate) => frames.map((f) => formatTimecode(f.tc, rate));
const expected = (start: Timecode, rate: TcRate, n: number) =>
  Array.from({ length: n }, (_, k) => formatTimecode(fromFrames(toFrames(start, rate) + k, rate), rate));

/** Consecutive labels (down when reversed) ending on the run's last label forwards or first backwards. */
function assertRun(frames: LtcFrame[], start: Timecode, rate: TcRate, n: number, minCount: number, reverse = false) {
  assert.ok(frames.length >= minCount && frames.length <= n, `${frames.length} frames of ${n}`);
  const all = expected(start, rate, n);
  const want = reverse ? all.reverse().slice(n - frames.length) : all.slice(n - frames.length);
  assert.equal(labels(frames, rate), want);
  for (const f of frames) assert.is(f.reverse, reverse);
}

for (const rate of RATES) {
  test(`${rate} fps: every label, consecutive, with the rate`, () => {
    const start = START[String(rate)]!;
    const frames = decode(ltcSamples({ start, rate, frames: 12, sampleRate: SR }));
    assertRun(frames, start, rate, 12, 12);
    for (const f of frames) assert.is(f.rate, rate);
  });
  for (const speed of [0.8, 1.25]) {
    test(`${rate} fps at ${speed}x: every label, consecutive`, () => {
      const start = START[String(rate)]!;
      assertRun(decode(ltcSamples({ start, rate, frames: 30, sampleRate: SR, speed })), start, rate, 30, 30);
    });
  }
  test(`${rate} fps reversed: labels count down, marked reverse`, () => {
    const start = START[String(rate)]!;
    assertRun(decode(ltcSamples({ start, rate, frames: 12, sampleRate: SR, reverse: true })), start, rate, 12, 12, true);
  });
}

test('29.97 drop-frame: 00:01:00;00 and ;01 are skipped', () => {
  const frames = decode(ltcSamples({ start: tc(0, 0, 59, 25), rate: 29.97, frames: 8, sampleRate: SR }));
  assert.equal(labels(frames, 29.97), [
    '00:00:59;25',
    '00:00:59;26',
    '00:00:59;27',
    '00:00:59;28',
    '00:00:59;29',
    '00:01:00;02',
    '00:01:00;03',
    '00:01:00;04',
  ]);
});

test('block sizes 1, 37 and 1024 give the same frames and times', () => {
  const samples = ltcSamples({ start: tc(1, 2, 3, 4), rate: 25, frames: 10, sampleRate: SR });
  const whole = decode(samples, samples.length);
  assert.is(whole.length, 10);
  for (const block of [1, 37, 1024]) {
    const got = decode(samples, block);
    assert.equal(labels(got, 25), labels(whole, 25));
    got.forEach((f, i) => assert.ok(Math.abs(f.atMs - whole[i]!.atMs) < 1e-6, `block ${block} frame ${i}`));
  }
});

test('inverted, -30 dBFS and full-scale signals decode', () => {
  const start = tc(10, 0, 0, 0);
  assertRun(decode(ltcSamples({ start, rate: 30, frames: 10, sampleRate: SR, invert: true })), start, 30, 10, 10);
  assertRun(decode(ltcSamples({ start, rate: 25, frames: 10, sampleRate: SR, amplitude: 10 ** (-30 / 20) })), start, 25, 10, 10);
  assertRun(decode(ltcSamples({ start, rate: 24, frames: 10, sampleRate: SR, amplitude: 1 })), start, 24, 10, 10);
  assertRun(decode(ltcSamples({ start, rate: 25, frames: 10, sampleRate: 44_100 }), 1024, new LtcDecoder(44_100)), start, 25, 10, 10);
});

test('noise, tones and quiet hiss give no frames', () => {
  const sine = (hz: number, amp: number) => Float32Array.from({ length: 2 * SR }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / SR));
  for (const [name, s] of [
    ['noise', noise(5 * SR, 0.5, 7)],
    ['hiss', noise(SR, 0.001, 3)],
    ['1 kHz', sine(1000, 0.5)],
    ['2 kHz', sine(2000, 0.5)],
    ['1.2 kHz', sine(1200, 0.5)],
    ['silence', silence(SR)],
  ] as const) {
    const dec = new LtcDecoder(SR);
    assert.is(decode(s, 1024, dec).length, 0, name);
    assert.is(dec.counts.frames, 0, name);
  }
});

test('atMs: when each frame ended, one frame period apart', () => {
  for (const [rate, speed] of [
    [25, 1],
    [29.97, 1],
    [24, 0.8],
    [30, 1.25],
  ] as const) {
    const frames = decode(ltcSamples({ start: tc(0, 0, 1, 0), rate, frames: 10, sampleRate: SR, speed }), 333);
    const period = 1000 / realFps(rate) / speed;
    const cell = SR / (80 * realFps(rate) * speed);
    const slack = 2000 / SR;
    for (let i = 1; i < frames.length; i++)
      assert.ok(Math.abs(frames[i]!.atMs - frames[i - 1]!.atMs - period) < slack, `${rate}@${speed} #${i}`);
    // The k-th frame's bits end (k + 1) * 80 cells after the half-cell lead-in.
    const last = frames.at(-1)!;
    const ideal = ((cell / 2 + 800 * cell) * 1000) / SR;
    assert.ok(Math.abs(last.atMs - ideal) < slack, `${rate}@${speed}: ${last.atMs} vs ${ideal}`);
  }
});

test('a speed ramp 0.8x -> 1.25x -> 0.8x keeps every label', () => {
  for (const rate of RATES) {
    const src = ltcSamples({ start: tc(0, 0, 0, 0), rate, frames: 90, sampleRate: SR });
    // Read the 1x signal at a varying step (linear interpolation) for three seconds of output.
    const out: number[] = [];
    for (let t = 0, n = 0; t < src.length - 1; n++) {
      const i = Math.floor(t);
      out.push(src[i]! + (src[i + 1]! - src[i]!) * (t - i));
      t += 0.8 + 0.45 * Math.sin(Math.PI * Math.min(1, n / (3 * SR)));
    }
    assertRun(decode(Float32Array.from(out), 256), tc(0, 0, 0, 0), rate, 90, 90);
  }
});

test('after noise a clean signal decodes again', () => {
  const dec = new LtcDecoder(SR);
  const start = tc(2, 0, 0, 0);
  assert.is(decode(noise(SR, 0.8, 11), 512, dec).length, 0);
  assertRun(decode(ltcSamples({ start, rate: 25, frames: 10, sampleRate: SR }), 512, dec, SR), start, 25, 10, 9);
  assert.is(dec.counts.frames >= 9, true);
});

test('a sync word over a label that does not exist is rejected and counted', () => {
  const bits = new Uint8Array(240);
  frameBits(tc(0, 0, 1, 0), 25, bits, 0);
  frameBits(tc(0, 0, 75, 1), 25, bits, 80);
  frameBits(tc(0, 0, 1, 2), 25, bits, 160);
  const dec = new LtcDecoder(SR);
  assert.equal(labels(decode(biphase(bits, 2000, SR), 1024, dec), 25), ['00:00:01:00', '00:00:01:02']);
  assert.equal(dec.counts, { frames: 2, rejected: 1 });
  dec.reset();
  assert.equal(dec.counts, { frames: 0, rejected: 0 });
  assert.is(decode(ltcSamples({ start: tc(0, 0, 1, 0), rate: 30, frames: 5, sampleRate: SR, speed: 1.25 }), 1024, dec).length, 5);
});

test('30 fps slowed to the 24 fps bit rate: not 24 from frame 24, 30 from frame 25 on', () => {
  const frames = decode(ltcSamples({ start: tc(0, 0, 0, 20), rate: 30, frames: 12, sampleRate: SR, speed: 0.8 }));
  const want = (t: Timecode) => (t.seconds > 0 || t.frames >= 25 ? 30 : t.frames === 24 ? 25 : 24);
  for (const f of frames) assert.is(f.rate, want(f.tc), formatTimecode(f.tc, 30));
});

test('LTC on the second channel of a WAV file decodes after 16-bit rounding', async () => {
  const start = tc(5, 4, 3, 2);
  const path = join(tmpdir(), `vjd-ltc-${process.pid}.wav`);
  await writeWav(path, [noise(SR, 0.3, 5), ltcSamples({ start, rate: 25, frames: 10, sampleRate: SR })], SR);
  const b = await readFile(path);
  assert.is(b.toString('ascii', 0, 4), 'RIFF');
  assert.is(b.readUInt16LE(22), 2);
  const n = b.readUInt32LE(40) / 4;
  const ltc = Float32Array.from({ length: n }, (_, i) => b.readInt16LE(44 + i * 4 + 2) / 32767);
  assertRun(decode(ltc), start, 25, 10, 10);
});

test.run();
