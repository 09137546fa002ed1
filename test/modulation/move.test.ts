// The render worker's modulation math without a server: polarities, amount as a share of the range or of the
// headroom (float, long, bool, point2D and color components through ModTarget), the audio gate that brings a
// silent or stopped input back to the set value within its release, and the audio frame's freshness.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AudioBlockWriter, createAudioBlock } from '../../src/shared/audio-block.js';
import type { IsfInput } from '../../src/shared/isf-types.js';
import { AUDIO_STALE_MS, checkModulator, SILENCE_FLOOR, type Modulator } from '../../src/shared/modulation.js';
import { AudioFrame } from '../../workers/render/audio-frame.js';
import type { ModContext } from '../../workers/render/modulation/context.js';
import { move, polar } from '../../workers/render/modulation/move.js';
import { signal, stateFor } from '../../workers/render/modulation/signal.js';
import { ModTarget } from '../../workers/render/modulation/target.js';

const close = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

function mod(raw: Record<string, unknown>): Modulator {
  const c = checkModulator(raw);
  if (!c.ok) throw new Error(JSON.stringify(c.problem));
  return c.modulator;
}

const ctx = (): ModContext => ({
  due: 0,
  dtMs: 0,
  beats: Number.NaN,
  bpm: 0,
  audio: new Float32Array(6),
  onsetFresh: false,
  audioFresh: false,
});

test('polar: bipolar around the set value, up from it, down from it', () => {
  assert.equal(
    [0, 0.5, 1].map((u) => polar('bipolar', u)),
    [-1, 0, 1],
  );
  assert.equal(
    [0, 0.5, 1].map((u) => polar(undefined, u)),
    [-1, 0, 1],
  );
  assert.equal(
    [0, 0.5, 1].map((u) => polar('up', u)),
    [0, 0.5, 1],
  );
  assert.equal(
    [0, 0.5, 1].map((u) => polar('down', u)),
    [-0, -0.5, -1],
  );
});

test('range: a share of the whole range, clamped (the zoom of the issue sits at its bottom)', () => {
  // zoom 0.1..8 set to 1, amount 0.5: the swing is ±3.95, so half a cycle is cut at 0.1.
  close(move(1, 0.1, 8, 0.5, undefined, -1), 0.1, 'clamped at the bottom');
  close(move(1, 0.1, 8, 0.5, 'range', 1), 4.95, 'up by half the range');
  close(move(1, 0.1, 8, 0.5, 'range', -0.2), 0.21, 'inside the range');
});

test('headroom: each direction takes its share of the room toward its end, and never clamps below amount 1', () => {
  close(move(1, 0.1, 8, 0.5, 'headroom', -1), 0.55, 'half the room below');
  close(move(1, 0.1, 8, 0.5, 'headroom', 1), 4.5, 'half the room above');
  close(move(1, 0.1, 8, 1, 'headroom', -1), 0.1, 'amount 1 reaches the end');
  // A negative amount on an upward signal moves down, so it takes the room below.
  close(move(0.9, 0, 1, -0.5, 'headroom', 1), 0.45, 'negative amount, room below');
  for (const set of [0, 0.02, 0.5, 0.98, 1]) {
    for (const amount of [-0.99, -0.5, 0.3, 0.99]) {
      for (let k = -20; k <= 20; k++) {
        const v = move(set, 0, 1, amount, 'headroom', k / 20);
        const atEnd = v <= 0 || v >= 1;
        // Only a set value already at an end is there.
        assert.ok(!atEnd || v === set, `set ${set} amount ${amount} m ${k / 20}: ${v}`);
      }
    }
  }
});

test('headroom: a set value outside the range is moved from the nearest end', () => {
  close(move(-3, 0, 1, 0.5, 'headroom', 1), 0.5, 'from the bottom');
  close(move(3, 0, 1, 0.5, 'headroom', -1), 0.5, 'from the top');
});

/** Applied values of `inputs` set to `values` under `mods`, after one frame of a steady full signal. */
function applied(inputs: IsfInput[], values: Record<string, unknown>, mods: Record<string, Modulator>): Record<string, unknown> {
  const t = new ModTarget();
  t.sync(inputs, values, mods);
  const c = ctx();
  c.dtMs = 16;
  t.frame(c, false);
  return t.applied;
}
// A one-step sequence at 1: a signal that is full on every frame.
const full = (extra: Record<string, unknown>): Modulator => mod({ kind: 'steps', values: [1], rate: 1, ...extra });

test('every input type moves by its headroom: float, long, long with values, bool, point2D, color', () => {
  const inputs: IsfInput[] = [
    { name: 'zoom', type: 'float', min: 0.1, max: 8, default: 1 },
    { name: 'count', type: 'long', min: 0, max: 10, default: 8 },
    { name: 'mode', type: 'long', values: [0, 1, 5, 9], default: 1 },
    { name: 'on', type: 'bool', default: false },
    { name: 'center', type: 'point2D', min: [0, 0], max: [1, 1], default: [0.5, 0.9] },
    { name: 'tint', type: 'color', default: [0.5, 0, 0, 1] },
  ];
  const values = { zoom: 1, count: 8, mode: 1, on: false, center: [0.5, 0.9], tint: [0.5, 0, 0, 1] };
  const up = full({ amount: 0.5, polarity: 'up', amountOf: 'headroom' });
  const down = full({ amount: 0.5, polarity: 'down', amountOf: 'headroom' });
  const a = applied(inputs, values, { zoom: down, count: up, mode: up, on: full({ amount: 0.6, polarity: 'up', amountOf: 'headroom' }) });
  close(a.zoom as number, 0.55, 'float down by half the room below');
  assert.is(a.count, 9, 'long: 8 + half of 2');
  assert.is(a.mode, 5, 'long with values: position 1 + half of 2 → 5');
  assert.is(a.on, true, 'bool: false + 0.6 of the room up');
  const b = applied(inputs, values, { 'center.y': up, 'tint.brightness': down, 'tint.saturation': up });
  const center = b.center as number[];
  close(center[0]!, 0.5, 'x untouched');
  close(center[1]!, 0.95, 'y up by half of its room');
  const tint = b.tint as number[];
  // hsv (0, 1, 0.5): brightness down by half the room below is 0.25; saturation has no room up.
  close(tint[0]!, 0.25, 'red');
  close(tint[1]!, 0, 'green');
  close(tint[3]!, 1, 'alpha kept');
  // The same with range clamps the float at its bottom.
  const r = applied(inputs, values, { zoom: full({ amount: 0.5, polarity: 'down' }) });
  close(r.zoom as number, 0.1, 'range clamps');
});

test('a hue modulation turns round the colour circle and wraps instead of stopping at red', () => {
  const inputs: IsfInput[] = [{ name: 'tint', type: 'color', default: [1, 0, 0, 1] }];
  // Pure blue is hue 2/3; half a turn up passes the end of the circle and comes round to yellow (hue 1/6), where a
  // clamp would stop at red.
  const blue = { tint: [0, 0, 1, 1] };
  for (const amountOf of ['range', 'headroom'] as const) {
    const t = applied(inputs, blue, { 'tint.hue': full({ amount: 0.5, polarity: 'up', amountOf }) }).tint as number[];
    close(t[0]!, 1, `${amountOf}: red`);
    close(t[1]!, 1, `${amountOf}: green`);
    close(t[2]!, 0, `${amountOf}: no blue`);
  }
  // Down from red by a sixth of a turn is magenta-pink (hue 5/6: red and blue).
  const red = { tint: [1, 0, 0, 1] };
  const d = applied(inputs, red, { 'tint.hue': full({ amount: 1 / 6, polarity: 'down' }) }).tint as number[];
  close(d[0]!, 1, 'red kept');
  close(d[2]!, 1, 'blue added');
});

/** Runs an audio modulator for `ms` at 10 ms frames with the given audio; returns the last signal. */
function run(m: Modulator, st: ReturnType<typeof stateFor>, c: ModContext, ms: number): number {
  let s = 0;
  c.dtMs = 10;
  for (let t = 0; t < ms; t += 10) {
    c.due += 10;
    s = signal(m, st, c, false);
  }
  return s;
}

test('an audio modulator returns to the set value within its release when the input stops, is stale or goes quiet', () => {
  for (const polarity of ['bipolar', 'up', 'down'] as const) {
    const m = mod({ kind: 'audio', source: 'bass', amount: 1, polarity, attackMs: 20, releaseMs: 300 });
    for (const silence of ['stale', 'quiet'] as const) {
      const st = stateFor('k', m);
      const c = ctx();
      c.audioFresh = true;
      c.audio[0] = 0.8;
      c.audio[1] = 1;
      const loud = run(m, st, c, 500);
      close(Math.abs(loud), 1, `${polarity}: full while the bass plays`);
      if (silence === 'stale') c.audioFresh = false;
      else {
        c.audio[0] = SILENCE_FLOOR / 2;
        c.audio[1] = 0;
      }
      // Held band values of a stalled feed must not count.
      const half = run(m, st, c, 150);
      assert.ok(Math.abs(half) < 1 && Math.abs(half) > 0, `${polarity} ${silence}: fading (${half})`);
      assert.ok(run(m, st, c, 160) === 0, `${polarity} ${silence}: at the set value after the release`);
    }
  }
});

test('a bipolar audio modulator in a quiet band of a playing input stays below the set value', () => {
  const m = mod({ kind: 'audio', source: 'high', amount: 1, releaseMs: 100 });
  const st = stateFor('k', m);
  const c = ctx();
  c.audioFresh = true;
  c.audio[0] = 0.7;
  close(run(m, st, c, 1000), -1, 'the band is silent, the input is not');
});

test('the audio frame is fresh only while hops arrive', () => {
  const block = createAudioBlock();
  const w = new AudioBlockWriter(block);
  const f = new AudioFrame(block, null);
  f.update(1_000_000);
  assert.is(f.fresh, false, 'nothing written yet');
  const values = { level: 0.5, bass: 0.5, lowMid: 0, highMid: 0, high: 0, onset: 0, hopMs: 0 };
  w.write(values, false, { t: 1_000_000 });
  f.update(1_000_010);
  assert.is(f.fresh, true, 'a hop just before the frame');
  f.update(1_000_000 + AUDIO_STALE_MS + 1);
  assert.is(f.fresh, false, 'no hop for longer than the stale time');
  assert.is(f.values[1], 0.5, 'the held values stay for shaders; modulators see the feed as stopped');
});

test.run();
