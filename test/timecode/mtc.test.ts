// MTC in (src/midi/mtc.ts): the full-frame SysEx reader and the quarter-frame assembler, without a MIDI port.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MtcAssembler, type MtcResult, readMtcFullFrame } from '../../src/midi/mtc.js';
import { fromFrames, parseTimecode, type TcRate, type Timecode, toFrames, validTimecode } from '../../src/shared/smpte.js';
import { mtcFullFrame, mtcQuarterFrames } from '../helpers/timecode-packets.js';

const tc = (text: string): Timecode => parseTimecode(text)!;
type Time = Extract<MtcResult, { kind: 'time' }>;

/** Feeds messages 10 ms apart (a 25 fps stream's pace) and returns every result. */
function feed(a: MtcAssembler, messages: number[][], fromMs = 0): MtcResult[] {
  return messages.map((m, i) => a.quarter(m[1]!, fromMs + i * 10));
}
const asTime = (r: MtcResult | undefined): Time => {
  if (r?.kind !== 'time') assert.unreachable(`not a time: ${JSON.stringify(r)}`);
  return r as Time;
};
/** After message i of a stream from `start`: frame start ± floor((i+1)/4), quarter (i+1) % 4. */
function expectRunning(results: MtcResult[], start: Timecode, rate: TcRate, reverse: boolean, firstLocked = 7): void {
  const s = toFrames(start, rate);
  results.forEach((r, i) => {
    if (i < firstLocked) return assert.is(r.kind, 'pending', `message ${i}`);
    const t = asTime(r);
    const e = i + 1;
    assert.equal(t.tc, fromFrames(s + (reverse ? -1 : 1) * Math.floor(e / 4), rate), `message ${i}`);
    assert.is(t.quarter, e % 4, `message ${i}`);
    assert.is(t.frames, reverse ? s + 1 - e / 4 : s + e / 4, `message ${i}`);
    assert.is(t.reverse, reverse);
    assert.is(t.rate, rate);
    assert.ok(validTimecode(t.tc, rate), `message ${i}`);
  });
}

test('a full frame reads at each rate and from any device', () => {
  const cases: [string, TcRate][] = [
    ['01:02:03:23', 24],
    ['23:59:59:24', 25],
    ['10:20:00;02', 29.97],
    ['00:10:00;00', 29.97],
    ['12:34:56:29', 30],
  ];
  for (const [text, rate] of cases) {
    for (const device of [0, 0x10, 0x7f])
      assert.equal(readMtcFullFrame(mtcFullFrame(tc(text), rate, device)), { ok: true, tc: tc(text), rate });
  }
  assert.equal(mtcFullFrame(tc('01:02:03:04'), 25), [0xf0, 0x7f, 0x7f, 0x01, 0x01, 0x21, 0x02, 0x03, 0x04, 0xf7]);
  assert.equal(readMtcFullFrame(Uint8Array.from([0xf0, 0x7f, 0, 1, 1, 0x61, 59, 59, 29, 0xf7])), {
    ok: true,
    tc: tc('01:59:59:29'),
    rate: 30,
  });
});

test('anything but an MTC full frame is not ours (null)', () => {
  assert.is(readMtcFullFrame([0x90, 60, 100]), null);
  assert.is(readMtcFullFrame([0xf1, 0x20]), null);
  assert.is(readMtcFullFrame([0xf0, 0x7f, 0x7f, 0x06, 0x02, 0xf7]), null, 'MMC play');
  assert.is(readMtcFullFrame([0xf0, 0x7f, 0x7f, 0x01, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf7]), null, 'MTC user bits');
  assert.is(readMtcFullFrame([0xf0, 0x7e, 0x7f, 0x01, 0x01, 0, 0, 0, 0, 0xf7]), null, 'non-real-time');
  assert.is(readMtcFullFrame([0xf0, 0x7f, 0x7f, 0x01]), null);
  assert.is(readMtcFullFrame([]), null);
});

test('every malformed full frame is refused, naming the byte', () => {
  const good = mtcFullFrame(tc('01:02:03:04'), 25);
  const refused = (bytes: number[], why: RegExp) => {
    const r = readMtcFullFrame(bytes);
    if (!r || r.ok) assert.unreachable(`not refused: ${JSON.stringify(bytes)}`);
    assert.match((r as { reason: string }).reason, why);
  };
  const at = (k: number, v: number) => good.map((b, i) => (i === k ? v : b));
  refused(good.slice(0, 9), /9 bytes/);
  refused([...good, 0], /11 bytes/);
  refused([...good.slice(0, 9), 0x00], /byte 9/);
  refused(at(2, 0x80), /byte 2/);
  refused(at(6, 0x80), /byte 6/);
  refused(at(7, 1.5), /byte 7/);
  refused(at(5, 0x20 | 24), /byte 5 \(hours\) 24/);
  refused(at(6, 60), /byte 6 \(minutes\) 60/);
  refused(at(7, 60), /byte 7 \(seconds\) 60/);
  refused(at(8, 25), /byte 8 \(frames\) 25/);
  refused(mtcFullFrame(tc('00:00:00:24'), 24), /byte 8 \(frames\) 24/);
  refused(mtcFullFrame(tc('00:00:00:30'), 29.97), /byte 8 \(frames\) 30/);
  refused(mtcFullFrame(tc('00:01:00:00'), 29.97), /00:01:00;00 .*drop-frame/);
  refused(mtcFullFrame(tc('00:21:00:01'), 29.97), /00:21:00;01/);
});

test('a quarter-frame stream at 25 locks on its 8th piece at label + 2 frames, then moves a quarter every message', () => {
  const start = tc('10:59:59:21');
  const a = new MtcAssembler();
  const results = feed(a, mtcQuarterFrames(start, 25, 30));
  expectRunning(results, start, 25, false);
  assert.equal(asTime(results[7]).tc, tc('10:59:59:23'), 'label + 2');
  assert.equal(asTime(results[11]).tc, tc('10:59:59:24'));
  assert.equal(asTime(results[15]).tc, tc('11:00:00:00'));
  assert.equal(asTime(results[12]).atMs, 120);
  // The sender plays on (its next set is labelled start + 30): a second is 100 quarter frames, each one an update.
  const second = feed(a, mtcQuarterFrames(tc('11:00:01:01'), 25, 25), 1200);
  assert.ok(second.every((r) => r.kind === 'time'));
  assert.equal(asTime(second[99]).tc, fromFrames(toFrames(start, 25) + 55, 25));
  assert.equal(a.counts, { quarters: 220, full: 0, bad: 0 });
});

test('29.97 drop-frame across a minute: the running time skips ;00 and ;01, and not at the tenth minute', () => {
  const start = tc('00:00:59:26');
  const results = feed(new MtcAssembler(), mtcQuarterFrames(start, 29.97, 12));
  expectRunning(results, start, 29.97, false);
  assert.equal(asTime(results[7]).tc, tc('00:00:59:28'));
  assert.equal(asTime(results[11]).tc, tc('00:00:59:29'));
  assert.equal(asTime(results[15]).tc, tc('00:01:00:02'));
  assert.equal(asTime(results[23]).tc, tc('00:01:00:04'), 'the set labelled ;02, plus 2');
  const tenth = feed(new MtcAssembler(), mtcQuarterFrames(tc('00:09:59:28'), 29.97, 6));
  expectRunning(tenth, tc('00:09:59:28'), 29.97, false);
  assert.equal(asTime(tenth[7]).tc, tc('00:10:00:00'));
});

test('reverse: pieces 7..0, locked at label - 2 frames, running down a quarter every message', () => {
  const start = tc('00:00:10:01');
  const results = feed(new MtcAssembler(), mtcQuarterFrames(start, 25, 12, true));
  expectRunning(results, start, 25, true);
  assert.equal(asTime(results[7]).tc, tc('00:00:09:24'), 'label - 2');
  const df = tc('00:01:00:03');
  const down = feed(new MtcAssembler(), mtcQuarterFrames(df, 29.97, 12, true));
  expectRunning(down, df, 29.97, true);
  assert.equal(asTime(down[7]).tc, tc('00:00:59:29'), ';03 - 2 skips ;01 and ;00');
  const midnight = feed(new MtcAssembler(), mtcQuarterFrames(tc('00:00:00:00'), 24, 4, true));
  assert.equal(asTime(midnight[7]).tc, tc('23:59:59:22'), 'wraps below midnight');
});

test('the builder sends what a sender sends (01:30:35:20 at 30)', () => {
  const data = mtcQuarterFrames(tc('01:30:35:20'), 30, 2).map((m) => m[1]);
  assert.equal(data, [0x04, 0x11, 0x23, 0x32, 0x4e, 0x51, 0x61, 0x76]);
  assert.equal(
    mtcQuarterFrames(tc('01:30:35:20'), 30, 2, true).map((m) => m[1]),
    [...data].reverse(),
  );
});

test('a gap, a turn or a stop drops the set and the lock until 8 more pieces in a row', () => {
  const start = tc('00:00:01:00');
  const msgs = mtcQuarterFrames(start, 25, 12);
  const a = new MtcAssembler();
  feed(a, msgs.slice(0, 20));
  const after = msgs.slice(21).map((m, i) => a.quarter(m[1]!, 210 + i * 10));
  // Message 21 (piece 5) follows piece 3: pending until piece 7 of the next whole set (message 31).
  after.slice(0, 10).forEach((r, i) => assert.is(r.kind, 'pending', `message ${21 + i}`));
  assert.equal(asTime(after[10]).tc, fromFrames(toFrames(start, 25) + 8, 25));
  assert.is(a.counts.bad, 0, 'a gap is not malformed');

  const turn = new MtcAssembler();
  feed(turn, msgs.slice(0, 12));
  // After piece 3 the sender turns: 2, 1, 0, then whole reverse sets 7..0 (from its 6th message on).
  const back = mtcQuarterFrames(tc('00:00:03:00'), 25, 6, true).slice(5);
  const turned = feed(turn, back, 120);
  turned.slice(0, 10).forEach((r, i) => assert.is(r.kind, 'pending', `message ${i}`));
  const t = asTime(turned[10]);
  assert.equal([t.tc, t.reverse], [tc('00:00:02:21'), true]);

  const stop = new MtcAssembler();
  feed(stop, msgs.slice(0, 16));
  assert.is(stop.quarter(msgs[16]![1]!, 150 + 500).kind, 'pending', 'half a second silent');
});

test('malformed pieces and labels invalid for their rate are bad; the next whole set locks again', () => {
  const set = (fr: number, sc: number, mn: number, hr: number, code: number) =>
    [fr & 15, fr >> 4, sc & 15, sc >> 4, mn & 15, mn >> 4, hr & 15, (hr >> 4) | (code << 1)].map((n, k) => (k << 4) | n);
  const cases: [number[], RegExp][] = [
    [set(25, 0, 0, 0, 1), /pieces 0-1 \(frames\) 25/],
    [set(0, 60, 0, 0, 3), /pieces 2-3 \(seconds\) 60/],
    [set(0, 0, 60, 0, 0), /pieces 4-5 \(minutes\) 60/],
    [set(0, 0, 0, 24, 1), /pieces 6-7 \(hours\) 24/],
    [set(0, 0, 1, 0, 2), /00:01:00;00 .*drop-frame/],
    [set(0, 0, 0, 0, 1).map((d, k) => (k === 7 ? d | 8 : d)), /bit 3/],
  ];
  for (const [data, why] of cases) {
    const a = new MtcAssembler();
    const r = data.map((d, i) => a.quarter(d, i * 10));
    assert.ok(r.slice(0, 7).every((x) => x.kind === 'pending'));
    assert.is(r[7]!.kind, 'bad');
    assert.match((r[7] as { reason: string }).reason, why);
    assert.is(a.counts.bad, 1);
    const next = feed(a, mtcQuarterFrames(tc('00:00:00:02'), 25, 2), 80);
    assert.is(next[7]!.kind, 'time');
  }
  const a = new MtcAssembler();
  assert.equal(a.quarter(0x80, 0), { kind: 'bad', reason: 'quarter-frame data byte 128 is not 0-127' });
  assert.is(a.quarter(-1, 0).kind, 'bad');
  assert.equal(a.counts, { quarters: 2, full: 0, bad: 2 });
});

test('a full frame gives its time at once and quarter frames lock afresh after it', () => {
  const a = new MtcAssembler();
  const msgs = mtcQuarterFrames(tc('00:00:05:00'), 25, 6);
  feed(a, msgs.slice(0, 10));
  const r = asTime(a.full(tc('01:00:00:00'), 25, 500));
  assert.equal([r.tc, r.rate, r.reverse, r.atMs, r.quarter, r.frames], [tc('01:00:00:00'), 25, false, 500, 0, 90000]);
  assert.is(a.quarter(msgs[10]![1]!, 510).kind, 'pending', 'the old stream no longer counts');
  assert.equal(a.full(tc('00:00:00:25'), 25, 600), { kind: 'bad', reason: 'MTC full frame: byte 8 (frames) 25 is not 0-24 at 25 fps' });
  assert.equal(a.counts, { quarters: 11, full: 2, bad: 1 });
  a.reset();
  assert.is(a.counts.full, 2, 'reset keeps the totals');
});

test('random bytes never throw, whatever their order', () => {
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const a = new MtcAssembler();
  for (let i = 0; i < 20_000; i++) a.quarter(rand(0x90), i * 10);
  for (let i = 0; i < 2_000; i++) readMtcFullFrame([0xf0, 0x7f, ...Array.from({ length: rand(12) }, () => rand(0x100))]);
  assert.is(a.counts.quarters, 20_000);
});

test.run();
