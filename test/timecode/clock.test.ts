// The timecode clock (src/timecode/clock.ts) without a reader: readings and "now" are given as numbers, so lock,
// freewheel, loss, jumps, the late-reading filter, reverse and the midnight wrap are checked to the millisecond.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ClockSettings, TimecodeClock, type TimecodeReading } from '../../src/timecode/clock.js';
import { framesPerDay, type TcRate } from '../../src/shared/smpte.js';

const T0 = 1_700_000_000_000;
const clockWith = (o: { offset?: number; freewheelMs?: number; runOnLoss?: boolean } = {}): TimecodeClock => {
  const s: ClockSettings = { offsetFrames: () => o.offset ?? 0, freewheelMs: o.freewheelMs ?? 2000, runOnLoss: o.runOnLoss ?? false };
  return new TimecodeClock(s);
};
const at = (frames: number, atMs: number, rate: TcRate = 25, reverse = false): TimecodeReading => ({
  frames,
  rate,
  atMs,
  reverse,
  from: 'test',
});
const near = (got: number | null, want: number, what = ''): void =>
  assert.ok(got !== null && Math.abs(got - want) < 1e-6, `${what}: got ${got}, want ${want}`);

test('before any reading the clock waits; the first reading is "first" and locks it', () => {
  const c = clockWith();
  assert.is(c.state(T0), 'waiting');
  assert.is(c.framesAt(T0), null);
  assert.is(c.running(T0), false);
  assert.is(c.instantOf(100, T0), null);
  assert.is(c.rate, null);
  assert.is(c.read(at(1000, T0)), 'first');
  assert.is(c.state(T0), 'locked');
  assert.is(c.rate, 25);
  assert.is(c.sender, 'test');
  assert.is(c.lastReadingAt, T0);
  assert.equal(c.counts, { readings: 1, jumps: 0, losses: 0 });
  near(c.framesAt(T0), 1000, 'at the reading');
});

test('between readings the clock runs at the real frame rate (25 and 29.97)', () => {
  const c = clockWith();
  c.read(at(1000, T0));
  near(c.framesAt(T0 + 40), 1001, '25 +40 ms');
  near(c.framesAt(T0 + 100), 1002.5, '25 +100 ms');
  const d = clockWith();
  d.read(at(1000, T0, 29.97));
  near(d.framesAt(T0 + 1001), 1030, '29.97 +1001 ms');
  near(d.framesAt(T0 + 100), 1000 + 0.1 * (30000 / 1001), '29.97 +100 ms');
});

test('the offset is added to every reading, and wraps below midnight', () => {
  const c = clockWith({ offset: 10 });
  c.read(at(1000, T0));
  near(c.framesAt(T0), 1010, 'offset');
  near(c.instantOf(1035, T0), T0 + 1000, 'instant of an offset label');
  const d = clockWith({ offset: -10 });
  d.read(at(5, T0));
  near(d.framesAt(T0), framesPerDay(25) - 5, 'before midnight');
});

test('locked for max(120 ms, 3 frames), freewheeling for freewheelMs, then lost', () => {
  const c = clockWith({ freewheelMs: 500 });
  c.read(at(1000, T0));
  assert.is(c.state(T0 + 120), 'locked');
  assert.is(c.state(T0 + 121), 'freewheel');
  near(c.framesAt(T0 + 400), 1010, 'freewheel runs on');
  assert.is(c.state(T0 + 620), 'freewheel');
  assert.is(c.state(T0 + 621), 'lost');
  const slow = clockWith({ freewheelMs: 500 });
  slow.read(at(1000, T0, 24)); // 3 frames at 24 fps: 125 ms
  assert.is(slow.state(T0 + 124), 'locked');
  assert.is(slow.state(T0 + 126), 'freewheel');
  assert.is(slow.state(T0 + 626), 'lost');
  const ntsc = clockWith({ freewheelMs: 500 });
  ntsc.read(at(1000, T0, 29.97)); // 3 frames: 100.1 ms, under the 120 ms floor
  assert.is(ntsc.state(T0 + 119), 'locked');
  assert.is(ntsc.state(T0 + 121), 'freewheel');
});

test('checkLoss says so once and counts one loss; a lost clock holds where freewheel ended', () => {
  const c = clockWith({ freewheelMs: 500 });
  c.read(at(1000, T0));
  assert.is(c.checkLoss(T0 + 100), false);
  assert.is(c.checkLoss(T0 + 600), false);
  const before = c.framesAt(T0 + 700); // lost but not yet noticed: already the hold point
  assert.is(c.checkLoss(T0 + 700), true);
  assert.is(c.checkLoss(T0 + 800), false);
  assert.is(c.counts.losses, 1);
  const held = 1000 + (620 / 1000) * 25;
  near(before, held, 'before checkLoss');
  near(c.framesAt(T0 + 700), held, 'held');
  near(c.framesAt(T0 + 60_000), held, 'still held');
  assert.is(c.running(T0 + 700), false);
  assert.is(c.instantOf(2000, T0 + 700), null);
});

test('with runOnLoss a lost clock runs on (and the loss still counts once)', () => {
  const c = clockWith({ freewheelMs: 500, runOnLoss: true });
  c.read(at(1000, T0));
  assert.is(c.checkLoss(T0 + 1000), true);
  assert.is(c.checkLoss(T0 + 2000), false);
  assert.is(c.counts.losses, 1);
  assert.is(c.state(T0 + 5000), 'lost');
  assert.is(c.running(T0 + 5000), true);
  near(c.framesAt(T0 + 5000), 1125, 'runs on');
  near(c.instantOf(1150, T0 + 5000), T0 + 6000, 'instant while running on');
});

test('a reading after a loss is a relock: it counts a jump, locks again, and a later loss counts again', () => {
  const c = clockWith({ freewheelMs: 500 });
  c.read(at(1000, T0));
  c.checkLoss(T0 + 1000);
  assert.is(c.read(at(1000 + 125, T0 + 5000)), 'relock');
  assert.is(c.counts.jumps, 1);
  assert.is(c.state(T0 + 5000), 'locked');
  near(c.framesAt(T0 + 5040), 1126, 'runs from the new reading');
  assert.is(c.checkLoss(T0 + 6000), true);
  assert.equal(c.counts, { readings: 2, jumps: 1, losses: 2 });
});

test('a reading more than 2 frames off is a jump; within 2 frames is steady', () => {
  const c = clockWith();
  c.read(at(1000, T0));
  assert.is(c.read(at(1003.5, T0 + 40)), 'jump'); // expected 1001
  near(c.framesAt(T0 + 40), 1003.5, 'a jump is taken as is');
  assert.is(c.read(at(1006.5, T0 + 80)), 'steady'); // expected 1004.5: exactly 2 ahead
  assert.is(c.read(at(1004.9, T0 + 120)), 'jump'); // expected 1007.5: 2.6 behind
  assert.is(c.counts.jumps, 2);
  assert.is(c.read(at(1006, T0 + 160, 30)), 'jump', 'a change of rate');
  assert.is(c.read(at(1006, T0 + 200, 30, true)), 'jump', 'a change of direction');
  assert.equal(c.counts, { readings: 6, jumps: 4, losses: 0 });
});

test('a steady reading behind pulls the clock back by 1/8; one ahead is taken at once', () => {
  const behind = clockWith();
  behind.read(at(1000, T0));
  assert.is(behind.read(at(1000, T0 + 40)), 'steady'); // expected 1001: 1 behind
  near(behind.framesAt(T0 + 40), 1001 - 1 / 8, 'behind by 1');
  near(behind.framesAt(T0 + 80), 1002 - 1 / 8, 'runs on from there');
  const two = clockWith();
  two.read(at(1000, T0));
  two.read(at(999, T0 + 40)); // exactly 2 behind
  near(two.framesAt(T0 + 40), 1001 - 2 / 8, 'behind by 2');
  const ahead = clockWith();
  ahead.read(at(1000, T0));
  ahead.read(at(1002, T0 + 40));
  near(ahead.framesAt(T0 + 40), 1002, 'ahead');
  const offset = clockWith({ offset: 10 });
  offset.read(at(1000, T0));
  offset.read(at(1000, T0 + 40));
  near(offset.framesAt(T0 + 40), 1011 - 1 / 8, 'behind, with an offset');
});

test('reverse readings run the clock backwards, unfiltered, with no instants', () => {
  const c = clockWith();
  c.read(at(1000, T0, 25, true));
  near(c.framesAt(T0 + 400), 990, 'backwards');
  assert.is(c.running(T0 + 40), true);
  assert.is(c.instantOf(990, T0), null);
  assert.is(c.read(at(998.5, T0 + 40, 25, true)), 'steady'); // expected 999: 0.5 further on
  near(c.framesAt(T0 + 40), 998.5, 'taken as is');
});

test('instantOf: when the running clock shows a label, the same from any now', () => {
  const c = clockWith();
  c.read(at(1000, T0));
  near(c.instantOf(1025, T0), T0 + 1000, 'a second on');
  near(c.instantOf(1025, T0 + 40), T0 + 1000, 'asked later');
  near(c.instantOf(990, T0), T0 - 400, 'a past label');
  const d = clockWith();
  d.read(at(1000, T0, 29.97));
  near(d.instantOf(1030, T0), T0 + 1001, '29.97');
});

test('framesAt wraps at midnight, forwards and backwards', () => {
  const day = framesPerDay(25);
  const c = clockWith();
  c.read(at(day - 5, T0));
  near(c.framesAt(T0 + 400), 5, 'forwards past midnight');
  const r = clockWith();
  r.read(at(5, T0, 25, true));
  near(r.framesAt(T0 + 400), day - 5, 'backwards past midnight');
  const d = clockWith();
  d.read(at(framesPerDay(29.97) - 1, T0, 29.97));
  near(d.framesAt(T0 + 1001), 29, '29.97');
});

test('a reading just after midnight, on a clock just after it, is steady', () => {
  const c = clockWith();
  c.read(at(framesPerDay(25) - 1, T0));
  assert.is(c.read(at(0.2, T0 + 45)), 'steady'); // expected 0.125
  assert.is(c.counts.jumps, 0);
});

test('midnight lies between the last frame of a day and the first: no jump either way', () => {
  const day = framesPerDay(25);
  const c = clockWith();
  c.read(at(day - 1, T0));
  assert.is(c.read(at(0, T0 + 39)), 'steady');
  assert.is(c.counts.jumps, 0);
  const r = clockWith();
  r.read(at(0.5, T0, 25, true));
  assert.is(r.read(at(0, T0 + 39, 25, true)), 'steady');
});

test.run();
