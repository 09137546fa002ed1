// The output slot clock's phase lock, against synthetic render commit times: slots settle mid-way between commits
// (no repeat-then-skip pairs from jitter) whatever the render's rate, a stalled render does not steer the clock,
// and the total shift stays within half a slot, so the long-run rate stays the output's fps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newPhaseLock, phaseStep } from '../../workers/output/phase-lock.js';

/** Deterministic jitter (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sim {
  /** Output and render fps. */
  outFps: number;
  renderFps: number;
  seconds: number;
  /** Commit delay after the render's grid instant: uniform in [0, jitterMs) (render time varies). */
  jitterMs: number;
  /** Where slot 0 sits against the first commit (ms). */
  slotPhase: number;
  /** Render commits nothing in [from, to) (seconds). */
  stall?: [number, number];
  /** Timer lateness of each slot: uniform in [0, lateMs). */
  lateMs?: number;
  lock: boolean;
  seed?: number;
}

interface SimResult {
  /** Frame number advance at each slot (0 = repeat). */
  advance: number[];
  /** Per slot: distance (ms) from the slot instant to the nearest commit. */
  gap: number[];
  offsets: number[];
  slots: number;
}

/** An output clock as the consumer runs it (t0 + n·period, one phaseStep per slot) against a render's commits. */
function simulate(o: Sim): SimResult {
  const rand = rng(o.seed ?? 1);
  const P = 1000 / o.outFps;
  const R = 1000 / o.renderFps;
  const base = 1_700_000_000_000; // epoch-like, as Date.now() gives
  const commits: Array<{ t: number; no: number }> = [];
  let no = 0;
  for (let j = 0; j * R < o.seconds * 1000 + 1000; j++) {
    const grid = j * R;
    if (o.stall && grid >= o.stall[0] * 1000 && grid < o.stall[1] * 1000) continue;
    commits.push({ t: base + grid + rand() * o.jitterMs, no: ++no });
  }
  const lock = newPhaseLock();
  let t0 = base + o.slotPhase;
  let k = 0;
  const r: SimResult = { advance: [], gap: [], offsets: [], slots: 0 };
  let last = 0;
  let slot = 0;
  for (;;) {
    const at = t0 + slot * P + rand() * (o.lateMs ?? 0);
    if (at > base + o.seconds * 1000) break;
    while (k + 1 < commits.length && commits[k + 1]!.t <= at) k++;
    const c = commits[k]!;
    if (c.t > at) {
      slot++;
      continue;
    }
    // Date.now() is whole milliseconds on both sides.
    const step = phaseStep(lock, P, Math.floor(at), Math.floor(c.t), c.no);
    if (o.lock) t0 += step;
    if (last > 0) r.advance.push(c.no - last);
    last = c.no;
    const next = commits[k + 1];
    r.gap.push(Math.min(at - c.t, next ? next.t - at : Infinity));
    r.offsets.push(lock.offset);
    slot++;
  }
  r.slots = slot;
  return r;
}

const count = (xs: number[], f: (x: number) => boolean): number => xs.reduce((n, x) => n + (f(x) ? 1 : 0), 0);
/** What happens after the first `s` seconds (the lock settles) at `fps` slots a second. */
const after = <T>(xs: T[], s: number, fps: number): T[] => xs.slice(s * fps);

test('same fps, jittered commits, slots starting on the commit instants: repeats and skips stop once locked', () => {
  const o = { outFps: 30, renderFps: 30, seconds: 60, jitterMs: 8, slotPhase: 4, lateMs: 2 };
  const free = simulate({ ...o, lock: false });
  const locked = simulate({ ...o, lock: true });
  // The scenario is the judder case: the free-running clock repeats and skips all along.
  assert.ok(count(after(free.advance, 5, 30), (a) => a === 0) > 100, `free repeats ${count(free.advance, (a) => a === 0)}`);
  const settled = after(locked.advance, 5, 30);
  assert.is(
    count(settled, (a) => a !== 1),
    0,
    'every slot after 5 s takes the next frame',
  );
  // Mid-way: the slot is far from both commits around it (period 33.3 ms, jitter 8 ms).
  assert.ok(Math.min(...after(locked.gap, 5, 30)) > 8, `closest ${Math.min(...after(locked.gap, 5, 30))} ms`);
});

test('the lock is reached from any starting phase', () => {
  for (let phase = 0; phase < 33; phase += 3) {
    const r = simulate({ outFps: 30, renderFps: 30, seconds: 20, jitterMs: 6, slotPhase: phase, lateMs: 2, lock: true, seed: phase + 7 });
    assert.is(
      count(after(r.advance, 5, 30), (a) => a !== 1),
      0,
      `phase ${phase}`,
    );
  }
});

test('render at half the output fps: each frame is sent exactly twice, never once then three times', () => {
  const r = simulate({ outFps: 30, renderFps: 15, seconds: 60, jitterMs: 8, slotPhase: 1, lateMs: 2, lock: true });
  const settled = after(r.advance, 5, 30);
  assert.is(
    count(settled, (a) => a > 1),
    0,
    'no frame skipped',
  );
  for (let i = 1; i < settled.length; i++) assert.is(settled[i - 1]! + settled[i]!, 1, `slot ${i}: one new frame per two slots`);
  assert.ok(Math.min(...after(r.gap, 5, 30)) > 8, `closest ${Math.min(...after(r.gap, 5, 30))} ms`);
});

test('render at 60 fps, output at 30: every slot advances by exactly two frames', () => {
  const r = simulate({ outFps: 30, renderFps: 60, seconds: 60, jitterMs: 4, slotPhase: 2, lateMs: 1, lock: true });
  assert.is(
    count(after(r.advance, 5, 30), (a) => a !== 2),
    0,
  );
  assert.ok(Math.min(...after(r.gap, 5, 30)) > 2, `closest ${Math.min(...after(r.gap, 5, 30))} ms`);
});

test('a render that stalls for 3 s does not steer the clock, and the lock holds when it resumes on its grid', () => {
  const r = simulate({ outFps: 30, renderFps: 30, seconds: 30, jitterMs: 6, slotPhase: 5, lateMs: 2, lock: true, stall: [10, 13] });
  const at = (s: number): number => r.offsets[s * 30]!;
  // Locked before the stall; the offset barely moves while no commit comes (the first stalled slots still see
  // the last commit as recent).
  assert.ok(Math.abs(at(12.5) - at(10)) < 1, `moved ${at(12.5) - at(10)} ms during the stall`);
  const resumed = r.advance.slice(14 * 30);
  assert.is(
    count(resumed, (a) => a !== 1),
    0,
    'one new frame per slot after the stall',
  );
});

test('output fps is kept whatever the render does: the total shift stays within half a slot', () => {
  const cases = [
    { outFps: 30, renderFps: 29.97 },
    { outFps: 30, renderFps: 25 },
    { outFps: 25, renderFps: 30 },
    { outFps: 30, renderFps: 31 },
  ];
  for (const c of cases) {
    const seconds = 600;
    const r = simulate({ ...c, seconds, jitterMs: 6, slotPhase: 3, lateMs: 2, lock: true });
    const P = 1000 / c.outFps;
    assert.ok(
      Math.max(...r.offsets.map(Math.abs)) <= P / 2 + 1e-9,
      `${c.renderFps}→${c.outFps}: offset ${Math.max(...r.offsets.map(Math.abs))}`,
    );
    // Slots served over the simulated wall time: the output's fps, within one slot.
    assert.ok(Math.abs(r.slots - seconds * c.outFps) <= 1, `${c.renderFps}→${c.outFps}: ${r.slots} slots in ${seconds} s`);
  }
});

test('a render restart (frame numbers from 1 again) starts the period estimate over', () => {
  const s = newPhaseLock();
  for (let i = 1; i <= 30; i++) phaseStep(s, 1000 / 30, 1000 + i * 33 + 16, 1000 + i * 33, i);
  assert.ok(Math.abs(s.renderPeriod - 33) < 0.5, `period ${s.renderPeriod}`);
  assert.is(phaseStep(s, 1000 / 30, 50_000, 49_990, 1), 0);
  assert.is(s.renderPeriod, 0);
});

test.run();
