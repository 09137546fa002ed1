// Beat tracker offline, over patterns ffmpeg renders faster than real time: clicks at four tempos lock within the
// error and time allowed, on the beat (also when hops arrive in bursts), without octave errors; a slow click is not doubled; the range picks the
// octave; a kick with off-beat hats and a syncopated break; a tempo change is followed; silence and noise read
// low confidence while the last tempo stands.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { change, clicks, lockTime, median, pattern, render, track, type Estimate } from '../helpers/beat-patterns.js';

/** An epoch-ms base for the synthetic hop times, as the worker's clock gives them. */
const T0 = 1_700_000_000_000;
const SECONDS = 16;

function describe(est: Estimate[]): string {
  return est.map((e) => `${e.at.toFixed(1)}s ${e.bpm.toFixed(2)}@${e.confidence.toFixed(2)}`).join(', ');
}

/** Distance of a beat time from the true grid (beat 0 at T0), in ms, signed. */
function phaseError(beatTime: number, bpm: number): number {
  const period = 60_000 / bpm;
  let x = (beatTime - T0) % period;
  if (x > period / 2) x -= period;
  if (x < -period / 2) x += period;
  return x;
}

function assertLocked(est: Estimate[], bpm: number, minConfidence: number): Estimate[] {
  const lock = lockTime(est, bpm);
  assert.ok(lock !== null && lock <= 10, `${bpm} BPM: lock at ${lock}s; ${describe(est)}`);
  for (const e of est) {
    assert.ok(Math.abs(e.bpm - 2 * bpm) > 3 && Math.abs(e.bpm - bpm / 2) > 3, `${bpm} BPM reported as ${e.bpm}`);
  }
  const late = est.filter((e) => e.at >= lock!);
  const errors = late.map((e) => Math.abs(e.bpm - bpm));
  assert.ok(median(errors) <= 0.5, `${bpm} BPM: median error ${median(errors)}`);
  assert.ok(median(late.map((e) => e.confidence)) >= minConfidence, `${bpm} BPM: confidence ${describe(late)}`);
  return late;
}

for (const bpm of [90, 120, 128, 140]) {
  test(`clicks at ${bpm} BPM: within 1 BPM in 10 s, confident, on the beat, never an octave off`, async () => {
    const late = assertLocked(track(await render(clicks(bpm), SECONDS), undefined, T0), bpm, 0.7);
    const phase = median(late.map((e) => Math.abs(phaseError(e.beatTime, bpm))));
    assert.ok(phase < 25, `${bpm} BPM: beats ${phase} ms off the grid`);
  });
}

test('hops arriving in bursts: the beats stay on the grid of the sample clock', async () => {
  // Eight hops per burst stamp the early ones up to seven hops late; counted time keeps them on the grid.
  const late = assertLocked(track(await render(clicks(120), SECONDS), undefined, T0, 8), 120, 0.7);
  const phase = median(late.map((e) => Math.abs(phaseError(e.beatTime, 120))));
  assert.ok(phase < 25, `beats ${phase} ms off the grid`);
});

test('clicks at 75 BPM in the default range: 75, never 150', async () => {
  const est = track(await render(clicks(75), SECONDS), undefined, T0);
  assertLocked(est, 75, 0.7);
  assert.ok(
    est.every((e) => e.bpm < 140),
    describe(est),
  );
});

test('the range picks the octave: 174 clicks read 87 in the default range and 174 in 100-200', async () => {
  const pcm = await render(clicks(174), SECONDS);
  assertLocked(track(pcm, { min: 100, max: 200 }, T0), 174, 0.7);
  const slow = track(pcm, undefined, T0).filter((e) => e.at > 8);
  assert.ok(
    slow.every((e) => Math.abs(e.bpm - 87) < 1),
    describe(slow),
  );
});

test('a four-on-the-floor kick with off-beat hats: tempo and the kicks as beats', async () => {
  const late = assertLocked(track(await render(pattern('kick-hats', 124), SECONDS), undefined, T0), 124, 0.7);
  const phase = median(late.map((e) => Math.abs(phaseError(e.beatTime, 124))));
  assert.ok(phase < 25, `beats ${phase} ms off the kicks`);
});

test('a syncopated break at 100 BPM: the tempo, not its half or its double', async () => {
  assertLocked(track(await render(pattern('break', 100), SECONDS), undefined, T0), 100, 0.4);
});

test('a change from 120 to 128 BPM is followed within 8 s', async () => {
  const est = track(await render(change(120, 128, 8), 20), undefined, T0);
  assert.ok(
    lockTime(
      est.filter((e) => e.at < 8),
      120,
    ) !== null,
    describe(est),
  );
  const lock = lockTime(est, 128, 1, 8);
  assert.ok(lock !== null && lock <= 8, `lock ${lock}; ${describe(est)}`);
});

test('silence: no estimate before anything is heard; after the music stops the last tempo stands, not confident', async () => {
  assert.equal(track(await render('0', 10), undefined, T0), []);
  const est = track(await render(`if(lt(t,10),${clicks(120)},0)`, 18), undefined, T0);
  const after = est.filter((e) => e.at > 13);
  assert.ok(after.length > 5, describe(est));
  for (const e of after) {
    assert.ok(e.confidence < 0.2, `confidence in silence: ${describe(after)}`);
    assert.ok(Math.abs(e.bpm - 120) < 1, `tempo in silence: ${describe(after)}`);
  }
});

test('noise without a pulse reads low confidence', async () => {
  const est = track(await render('0.5*(2*random(0)-1)', 12), undefined, T0).filter((e) => e.at > 6);
  assert.ok(est.length > 0);
  assert.ok(median(est.map((e) => e.confidence)) < 0.3, describe(est));
});

test.run();
