// Audio in shaders over real HTTP, real ffmpeg tones and real GL: test shaders write the audio built-ins, ISF audio
// textures and their IMG_SIZE into pixels read back from the output; the picture goes on when the audio worker dies.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });

// Eight columns, one value each in red: bass, high, BPM/240, beat phase, beat count mod 64, bar phase, level, onset.
const PROBE = `/*{ "NAME": "Audio Probe", "INPUTS": [] }*/
void main() {
  float c = floor(isf_FragNormCoord.x * 8.0);
  float v = 0.0;
  if (c < 0.5) v = AUDIO_BASS;
  else if (c < 1.5) v = AUDIO_HIGH;
  else if (c < 2.5) v = BPM / 240.0;
  else if (c < 3.5) v = BEAT_PHASE;
  else if (c < 4.5) v = mod(BEAT_COUNT, 64.0) / 63.0;
  else if (c < 5.5) v = BAR_PHASE;
  else if (c < 6.5) v = AUDIO_LEVEL;
  else v = AUDIO_ONSET;
  gl_FragColor = vec4(v, 0.0, 0.0, 1.0);
}`;
// The spectrum at 64 columns, stretched over the width.
const FFT = `/*{ "NAME": "FFT Probe", "INPUTS": [ { "NAME": "spectrum", "TYPE": "audioFFT", "MAX": 64 } ] }*/
void main() { gl_FragColor = vec4(IMG_NORM_PIXEL(spectrum, vec2(isf_FragNormCoord.x, 0.5)).rgb, 1.0); }`;
// The waveform at its native width.
const WAVE = `/*{ "NAME": "Wave Probe", "INPUTS": [ { "NAME": "wave", "TYPE": "audio" } ] }*/
void main() { gl_FragColor = vec4(IMG_NORM_PIXEL(wave, vec2(isf_FragNormCoord.x, 0.5)).rgb, 1.0); }`;
// IMG_SIZE of an input with MAX 100 (left half) and of one without MAX (right half): width as high and low byte.
const SIZE = `/*{ "NAME": "Size Probe", "INPUTS": [ { "NAME": "asked", "TYPE": "audio", "MAX": 100 }, { "NAME": "native", "TYPE": "audioFFT" } ] }*/
void main() {
  vec2 s = isf_FragNormCoord.x < 0.5 ? IMG_SIZE(asked) : IMG_SIZE(native);
  gl_FragColor = vec4(floor(s.x / 256.0) / 255.0, mod(s.x, 256.0) / 255.0, s.y / 255.0, 1.0);
}`;
// An effect that reads inputImage once and a spectrum: it would be fusable but for the audio input.
const FFT_TINT = `/*{ "NAME": "FFT Tint", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" }, { "NAME": "bins", "TYPE": "audioFFT", "MAX": 8 } ] }*/
void main() { vec4 c = IMG_THIS_PIXEL(inputImage); gl_FragColor = vec4(c.r, IMG_NORM_PIXEL(bins, vec2(0.0625, 0.5)).r, c.b, 1.0); }`;

const config = (dirs: { sources: string; effects: string }) => ({
  sources: { dirs: [dirs.sources] },
  effects: { dirs: [dirs.effects] },
  live: { test: [], streams: [], v4l2: { enabled: false } },
  audio: {
    inputs: [
      { id: 'low', name: 'Tone 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' },
      { id: 'high', name: 'Tone 8 kHz', kind: 'test', source: 'sine=frequency=8000:sample_rate=48000' },
      { id: 'quiet', name: 'Silence', kind: 'test', source: 'anullsrc=r=48000:cl=mono' },
    ],
    input: null,
  },
});

async function select(id: string): Promise<void> {
  const r = await post('/sources/select', { id });
  assert.is(r.status, 200, r.text);
}

async function selectAudio(id: string): Promise<void> {
  const r = await post('/audio/select', { id });
  assert.is(r.status, 200, r.text);
}

/** Red of each probe column, sampled at the column centres (one output frame). */
async function probe(): Promise<number[]> {
  const px = await sampleOutput(
    s.base,
    Array.from({ length: 8 }, (_, i) => [(i + 0.5) / 8, 0.5] as [number, number]),
  );
  return px.map((p) => p[0]!);
}

/** Waits for the output to satisfy `ok`, with the last reading in the failure message. */
async function outputBecomes<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let last: T | undefined;
  try {
    await waitUntil(async () => ok((last = await read())), 30_000, 100);
  } catch {
    assert.unreachable(`output never became ${what}; last ${JSON.stringify(last)}`);
  }
  return last!;
}

test.before(async () => {
  const dataDir = await tempDir();
  const sources = join(dataDir, 'gens');
  const effects = join(dataDir, 'fx');
  await mkdir(sources);
  await mkdir(effects);
  await writeFile(join(sources, 'audio_probe.fs'), PROBE);
  await writeFile(join(sources, 'fft_probe.fs'), FFT);
  await writeFile(join(sources, 'wave_probe.fs'), WAVE);
  await writeFile(join(sources, 'size_probe.fs'), SIZE);
  await writeFile(join(effects, 'fft_tint.fs'), FFT_TINT);
  s = await startServer({ dataDir, config: config({ sources, effects }) });
});
test.after(async () => {
  await s?.cleanup();
});

test('AUDIO_BASS is high and AUDIO_HIGH low for an 80 Hz tone, the reverse at 8 kHz', async () => {
  await select('source:audio_probe');
  await selectAudio('low');
  await outputBecomes('bass high, high low', probe, (p) => p[0]! > 180 && p[1]! < 60 && p[6]! > 60);
  await selectAudio('high');
  await outputBecomes('high high, bass low', probe, (p) => p[1]! > 180 && p[0]! < 60);
});

test('BPM, BEAT_PHASE, BEAT_COUNT and BAR_PHASE follow the tempo clock (120 BPM by default)', async () => {
  await select('source:audio_probe');
  const readings: Array<{ at: number; bpm: number; beats: number; barPhase: number }> = [];
  const until = Date.now() + 4000;
  while (Date.now() < until || readings.length < 8) {
    const before = Date.now();
    const p = await probe();
    const at = (before + Date.now()) / 2;
    readings.push({ at, bpm: (p[2]! / 255) * 240, beats: Math.round((p[4]! / 255) * 63) + p[3]! / 255, barPhase: p[5]! / 255 });
  }
  for (const r of readings) {
    assert.ok(Math.abs(r.bpm - 120) <= 1.5, `BPM ${r.bpm}`);
    // Within one frame the bar position is the beat position over four beats.
    const fromBeats = (r.beats % 4) / 4;
    const d = Math.abs(fromBeats - r.barPhase);
    assert.ok(Math.min(d, 1 - d) < 0.02, `bar phase ${r.barPhase} against beats ${r.beats}`);
  }
  // Beats advance at two per second between the first and the last reading (the count wraps at 64).
  const first = readings[0]!;
  const last = readings[readings.length - 1]!;
  let advanced = last.beats - first.beats;
  while (advanced < 0) advanced += 64;
  const expected = ((last.at - first.at) / 1000) * 2;
  assert.ok(Math.abs(advanced - expected) < 1, `beats advanced ${advanced}, the clock says ${expected}`);
  assert.ok(new Set(readings.map((r) => Math.round(r.beats * 10))).size > 3, 'the beat position moves');
});

test('an audioFFT shader differs between silence and a tone; the tone lights its own bins', async () => {
  await select('source:fft_probe');
  // With 64 columns, column 0 holds 80 Hz and column 21 holds 8 kHz (each column is 375 Hz wide).
  const read = async () =>
    (
      await sampleOutput(s.base, [
        [0.5 / 64, 0.5],
        [21.5 / 64, 0.5],
        [40.5 / 64, 0.5],
      ])
    ).map((p) => p[0]!);
  await selectAudio('quiet');
  await outputBecomes('black for silence', read, (v) => v.every((x) => x < 8));
  await selectAudio('low');
  await outputBecomes('lit at 80 Hz only', read, (v) => v[0]! > 128 && v[1]! < 40 && v[2]! < 40);
  await selectAudio('high');
  await outputBecomes('lit at 8 kHz only', read, (v) => v[1]! > 128 && v[0]! < 40);
});

test('an audio shader sees the waveform around 0.5: flat for silence, swinging for a tone', async () => {
  await select('source:wave_probe');
  const read = async () =>
    (
      await sampleOutput(
        s.base,
        Array.from({ length: 32 }, (_, i) => [(i + 0.5) / 32, 0.5] as [number, number]),
      )
    ).map((p) => p[0]!);
  await selectAudio('quiet');
  await outputBecomes('flat at 0.5', read, (v) => v.every((x) => Math.abs(x - 127.5) <= 1));
  await selectAudio('low');
  // lavfi's sine plays at an eighth of full scale: ±0.0625 around 0.5.
  await outputBecomes('swinging', read, (v) => Math.max(...v) - Math.min(...v) > 16 && v.every((x) => Math.abs(x - 127.5) < 24));
});

test('IMG_SIZE of an audio input is the MAX it asked for, or the analysis width without MAX, one row high', async () => {
  await select('source:size_probe');
  const [asked, native] = await sampleOutput(s.base, [
    [0.25, 0.5],
    [0.75, 0.5],
  ]);
  assert.equal([asked![0], asked![1], asked![2]], [0, 100, 1], 'MAX 100');
  assert.equal([native![0]! * 256 + native![1]!, native![2]], [512, 1], 'no MAX: every bin');
});

test('an effect with an audio input and one inputImage read loads, runs outside a fused run and reads the spectrum', async () => {
  await select('source:solid_color');
  // Invert then the audio effect: a pair the fuser would join if it took audio inputs.
  for (const type of ['invert', 'fft_tint']) {
    const added = await post('/effects/add', { type });
    assert.is(added.status, 200, added.text);
  }
  await selectAudio('low');
  await outputBecomes(
    'green from the 80 Hz bins',
    async () => (await sampleOutput(s.base))[0]!,
    (p) => p[1]! > 128,
  );
  await selectAudio('quiet');
  await outputBecomes(
    'no green in silence',
    async () => (await sampleOutput(s.base))[0]!,
    (p) => p[1]! < 8,
  );
  const status = (await req('GET', api('/status'))).json();
  assert.is(status.render.fusedRuns.length, 0, JSON.stringify(status.render.fusedRuns));
  assert.not.match(s.logs(), /frame failed/);
  for (const type of ['invert', 'fft_tint']) {
    const removed = await post('/effects/remove', { type });
    assert.is(removed.status, 200, removed.text);
  }
});

test('the shipped audio generators and effects load, draw on a live input and fail no frame', async () => {
  const sources = (await req('GET', api('/sources'))).json().items.map((i: { id: string }) => i.id);
  const available = (await req('GET', api('/effects/available'))).json().items.map((i: { type: string }) => i.type);
  for (const id of ['source:audio_scope', 'source:beat_shapes']) assert.ok(sources.includes(id), id);
  for (const type of ['bass_pump', 'beat_flash', 'spectrum_overlay']) assert.ok(available.includes(type), type);
  await select('source:audio_scope');
  // The scope's first bar (80 Hz is in it) is background in silence and lit in a palette color by the tone.
  const bar = async () => (await sampleOutput(s.base, [[0.0015, 0.997]]))[0]!;
  await selectAudio('quiet');
  await outputBecomes('a dark low bar', bar, (p) => p[0]! + p[1]! + p[2]! === 0);
  await selectAudio('low');
  await outputBecomes('a lit low bar', bar, (p) => p[0]! + p[1]! + p[2]! > 30);
  await select('source:beat_shapes');
  for (const type of ['bass_pump', 'beat_flash', 'spectrum_overlay']) {
    const r = await post('/effects/add', { type });
    assert.is(r.status, 200, r.text);
  }
  const frames0 = (await req('GET', api('/status'))).json().render.frames;
  await waitUntil(async () => (await req('GET', api('/status'))).json().render.frames > frames0 + 30, 30_000);
  assert.not.match(s.logs(), /frame failed|does not compile|compile failed/);
  for (const type of ['bass_pump', 'beat_flash', 'spectrum_overlay']) assert.is((await post('/effects/remove', { type })).status, 200);
});

test('the picture goes on when the audio worker dies, with the audio values at 0 until it is back', async () => {
  await select('source:audio_probe');
  await selectAudio('low');
  await outputBecomes('bass high', probe, (p) => p[0]! > 180);
  const killed = await post('/_test/kill-audio', {});
  assert.is(killed.status, 200, killed.text);
  assert.ok(killed.json().killed);
  const frames0 = (await req('GET', api('/status'))).json().render.frames;
  await waitUntil(async () => (await req('GET', api('/status'))).json().render.frames > frames0 + 30, 30_000);
  // The restarted worker brings the tone back into the same frames' uniforms.
  await outputBecomes('bass high again', probe, (p) => p[0]! > 180);
  assert.not.match(s.logs(), /frame failed/);
});

test.run();
