// When a cue fires by its trigger (src/cues/plan.ts), against a fake timecode and tempo clock: timecode cues only
// while armed and ahead of a running timecode, follow cues after a delay, beat and bar cues on the next lines of the
// beat grid, never the line the previous cue landed on, even at a BPM whose instants do not round evenly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { beatInstant, cueInstant, type PlanClocks, timecodeFrames } from '../../src/cues/plan.js';
import type { Cue, Trigger } from '../../src/cues/types.js';
import { beatAt, type TempoClock } from '../../src/shared/tempo-block.js';
import type { TcRate } from '../../src/shared/smpte.js';

const cue = (trigger: Trigger): Cue => ({ id: 'c', name: 'c', trigger, actions: [], fireOnJump: false });
const tcCue = (at: string): Cue => cue({ kind: 'timecode', at });

/** A 25 fps timecode showing `now` frames at instant 0 (so frame f is due at f * 40 ms), and a tempo grid. */
function clocks(
  o: { now?: number | null; rate?: TcRate | null; reverse?: boolean; grid?: TempoClock | null } = {},
): PlanClocks & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    timecodeNow: () => (o.now === undefined ? 250 : o.now),
    timecodeRate: () => (o.rate === undefined ? 25 : o.rate),
    timecodeInstant: (f) => {
      asked.push(f);
      return o.reverse ? null : f * 40;
    },
    grid: () => o.grid ?? null,
  };
}

const grid = (o: Partial<TempoClock> = {}): TempoClock => ({
  bpm: 127.3,
  refTime: 1_700_000_123_456.789,
  refBeat: 3.25,
  beatsPerBar: 4,
  offsetMs: 17.5,
  source: 'auto',
  confidence: 0.8,
  range: { min: 60, max: 180 },
  ...o,
});
/** The grid's beat position shown by a frame due at `atMs`. */
const beatsShown = (g: TempoClock, atMs: number): number => beatAt(g, atMs + g.offsetMs).beats;

test('timecodeFrames: the frame count of a valid label at the rate, null otherwise', () => {
  assert.is(timecodeFrames(tcCue('01:00:00:00'), 25), 90_000);
  assert.is(timecodeFrames(tcCue('00:01:00;02'), 29.97), 1800);
  assert.is(timecodeFrames(tcCue('00:01:00;00'), 29.97), null, 'a label drop-frame skips');
  assert.is(timecodeFrames(tcCue('00:00:00:27'), 25), null, 'frame 27 at 25 fps');
  assert.is(timecodeFrames(tcCue('00:00:00:27'), 30), 27);
  assert.is(timecodeFrames(tcCue('01:00:00:00'), null), null, 'no rate yet');
  assert.is(timecodeFrames(cue({ kind: 'manual' }), 25), null);
});

test('a manual cue has no instant', () => {
  assert.is(cueInstant(cue({ kind: 'manual' }), 1000, true, clocks({ grid: grid() })), null);
});

test('a timecode cue fires at the instant the timecode reaches its label', () => {
  const c = clocks();
  assert.equal(cueInstant(tcCue('00:00:20:00'), null, true, c), { atMs: 500 * 40, by: 'timecode' });
  assert.equal(c.asked, [500]);
  assert.equal(cueInstant(tcCue('00:00:20:27'), null, true, clocks({ rate: 30 })), { atMs: 627 * 40, by: 'timecode' });
});

test('a timecode cue waits: disarmed, timecode stopped or backwards, no rate, a label the rate lacks, a passed time', () => {
  const at20 = tcCue('00:00:20:00');
  assert.is(cueInstant(at20, null, false, clocks()), null, 'disarmed');
  assert.is(cueInstant(at20, null, true, clocks({ now: null })), null, 'not running');
  assert.is(cueInstant(at20, null, true, clocks({ rate: null })), null, 'no rate');
  assert.is(cueInstant(at20, null, true, clocks({ reverse: true })), null, 'running backwards');
  assert.is(cueInstant(tcCue('00:00:20:27'), null, true, clocks()), null, 'frame 27 at 25 fps');
  assert.is(cueInstant(tcCue('00:00:05:00'), null, true, clocks()), null, 'passed');
});

test('a timecode cue on the current frame still fires; half a frame later it has passed', () => {
  const at10 = tcCue('00:00:10:00'); // frame 250
  assert.equal(cueInstant(at10, null, true, clocks({ now: 250 })), { atMs: 10_000, by: 'timecode' });
  assert.ok(cueInstant(at10, null, true, clocks({ now: 250.4 })));
  assert.is(cueInstant(at10, null, true, clocks({ now: 250.6 })), null);
});

test('a follow cue fires its delay after the previous cue, and waits without one', () => {
  assert.equal(cueInstant(cue({ kind: 'follow', delayMs: 250 }), 5000, true, clocks()), { atMs: 5250, by: 'follow' });
  assert.equal(cueInstant(cue({ kind: 'follow', delayMs: 0 }), 5000, false, clocks()), { atMs: 5000, by: 'follow' });
  assert.is(cueInstant(cue({ kind: 'follow', delayMs: 250 }), null, true, clocks()), null);
});

test('beatInstant: a frame due then shows that beat (offset included)', () => {
  const g = grid();
  for (const b of [3.25, 100, 101.5, 4096]) assert.ok(Math.abs(beatsShown(g, beatInstant(g, b)) - b) < 1e-6, `beat ${b}`);
});

test('a beat cue waits for the tempo grid and a previous cue', () => {
  const beat = cue({ kind: 'beats', count: 1, unit: 'beat' });
  assert.is(cueInstant(beat, 1000, true, clocks({ grid: null })), null);
  assert.is(cueInstant(beat, null, true, clocks({ grid: grid() })), null);
});

test('beats: the count-th beat line after the previous cue', () => {
  const g = grid();
  const c = clocks({ grid: g });
  const from = (b: number, count: number) => cueInstant(cue({ kind: 'beats', count, unit: 'beat' }), beatInstant(g, b), true, c);
  assert.equal(from(100.5, 1), { atMs: beatInstant(g, 101), by: 'beats' });
  assert.equal(from(100.5, 3), { atMs: beatInstant(g, 103), by: 'beats' });
  assert.equal(from(100, 1), { atMs: beatInstant(g, 101), by: 'beats' }, 'landed on beat 100');
  assert.equal(from(100, 3), { atMs: beatInstant(g, 103), by: 'beats' });
});

test('a cue that landed on a beat (or a hair before it) counts from that beat, at any BPM', () => {
  for (const bpm of [127.3, 120, 93.7, 174.9, 61.1]) {
    const g = grid({ bpm });
    const c = clocks({ grid: g });
    const one = cue({ kind: 'beats', count: 1, unit: 'beat' });
    for (let b = 0; b < 400; b++) {
      for (const fired of [beatInstant(g, b), beatInstant(g, b) - 1e-3]) {
        const got = cueInstant(one, fired, true, c);
        assert.is(got?.atMs, beatInstant(g, b + 1), `bpm ${bpm}, from beat ${b} at ${fired}`);
        assert.ok(got!.atMs > fired);
      }
    }
  }
});

test('bars: the count-th bar line after the previous cue, never the one it landed on', () => {
  const g = grid();
  const c = clocks({ grid: g });
  const bars = (b: number, count: number, gg = g) =>
    cueInstant(cue({ kind: 'beats', count, unit: 'bar' }), beatInstant(gg, b), true, gg === g ? c : clocks({ grid: gg }))?.atMs;
  assert.is(bars(100, 1), beatInstant(g, 104), 'from the first beat of a bar');
  assert.is(bars(100, 2), beatInstant(g, 108));
  assert.is(bars(101.5, 1), beatInstant(g, 104), 'from mid-bar');
  assert.is(bars(103.9, 1), beatInstant(g, 104), 'from just before the line');
  assert.is(bars(104, 1), beatInstant(g, 108), 'landed on the line');
  const waltz = grid({ beatsPerBar: 3 });
  assert.is(bars(100, 1, waltz), beatInstant(waltz, 102));
  const none = grid({ beatsPerBar: 0 }); // counted as one beat a bar
  assert.is(bars(100, 2, none), beatInstant(none, 102));
});

test.run();
