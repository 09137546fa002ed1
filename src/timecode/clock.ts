// The timecode clock: readings from whichever reader is the source (a label at an instant), extrapolated between
// them at the rate; locked while readings come, freewheeling for `freewheelMs` after they stop, then lost (held, or
// run on with lossAction "continue"). A reading far from where the clock ran is a jump, which the cue list follows.
import { framesPerDay, realFps, type TcRate } from '../shared/smpte.js';

export type TimecodeState = 'off' | 'waiting' | 'locked' | 'freewheel' | 'lost';

export interface TimecodeReading {
  /** The label's frame count since midnight at `atMs` (may carry a fraction: MTC quarter frames). */
  frames: number;
  rate: TcRate;
  /** clockNow() of the instant the label holds. */
  atMs: number;
  reverse: boolean;
  /** Who sent it: a host, a MIDI port, an audio input. */
  from: string;
}

export interface ClockSettings {
  /** Frames added to every reading (the offset at the reading's rate). */
  offsetFrames(rate: TcRate): number;
  freewheelMs: number;
  /** Runs on after freewheel instead of holding. */
  runOnLoss: boolean;
}

/** How long without a reading before the clock freewheels: a few frames, never under 120 ms (Art-Net jitter). */
const lockWindowMs = (rate: TcRate): number => Math.max(120, (3 * 1000) / realFps(rate));
/** A reading this many frames off the extrapolation is a jump, not jitter. */
const JUMP_FRAMES = 2;

/** A difference of frame counts as the shortest way round the day (midnight lies between 23:59:59 and 00:00:00). */
const wrapped = (d: number, day: number): number => (((d % day) + day * 1.5) % day) - day / 2;

export type ReadingOutcome = 'first' | 'steady' | 'jump' | 'relock';

export class TimecodeClock {
  private last: TimecodeReading | null = null;
  /** Where a lost clock holds (frames since midnight, with the offset). */
  private held: number | null = null;
  private lostAt: number | null = null;
  counts = { readings: 0, jumps: 0, losses: 0 };

  constructor(private readonly s: ClockSettings) {}

  get rate(): TcRate | null {
    return this.last?.rate ?? null;
  }

  get sender(): string | null {
    return this.last?.from ?? null;
  }

  get lastReadingAt(): number | null {
    return this.last?.atMs ?? null;
  }

  state(now: number): TimecodeState {
    const l = this.last;
    if (!l) return 'waiting';
    const since = now - l.atMs;
    if (since <= lockWindowMs(l.rate)) return 'locked';
    return since <= lockWindowMs(l.rate) + this.s.freewheelMs ? 'freewheel' : 'lost';
  }

  /** Whether the time moves now (locked, freewheeling, or lost with lossAction "continue"). */
  running(now: number): boolean {
    const st = this.state(now);
    return st === 'locked' || st === 'freewheel' || (st === 'lost' && this.s.runOnLoss);
  }

  /** Frames since midnight (offset applied, wrapped into the day) at `now`, or null before any reading. */
  framesAt(now: number): number | null {
    const l = this.last;
    if (!l) return null;
    const day = framesPerDay(l.rate);
    let f: number;
    if (this.running(now)) f = l.frames + this.s.offsetFrames(l.rate) + ((now - l.atMs) / 1000) * realFps(l.rate) * (l.reverse ? -1 : 1);
    else f = this.held ?? this.holdPoint(l);
    return ((f % day) + day) % day;
  }

  /** The clock instant (clockNow base) at which it will show `frames`, while it runs forwards; null otherwise. */
  instantOf(frames: number, now: number): number | null {
    const l = this.last;
    if (!l || l.reverse || !this.running(now)) return null;
    const cur = this.framesAt(now)!;
    return now + ((frames - cur) / realFps(l.rate)) * 1000;
  }

  /** Takes a reading; says whether it continued the clock or jumped it (the first and a relock after loss count as jumps). */
  read(r: TimecodeReading): ReadingOutcome {
    this.counts.readings++;
    const prev = this.last;
    const wasLost = prev !== null && this.state(r.atMs) === 'lost';
    let outcome: ReadingOutcome = 'steady';
    if (!prev) outcome = 'first';
    else if (wasLost) outcome = 'relock';
    else if (prev.rate !== r.rate || prev.reverse !== r.reverse) outcome = 'jump';
    else {
      const expected = this.framesAt(r.atMs)!;
      const got = r.frames + this.s.offsetFrames(r.rate);
      const day = framesPerDay(r.rate);
      const diff = Math.abs(wrapped(got - expected, day));
      if (diff > JUMP_FRAMES) outcome = 'jump';
    }
    if (outcome === 'jump' || outcome === 'relock') this.counts.jumps++;
    if (outcome === 'steady' && prev) {
      // A reading behind the clock most likely came late (a busy loop, a buffered pipe), never early: the clock
      // follows one that is ahead at once and one that is behind only a little, so it keeps to the earliest arrivals.
      const expected = this.framesAt(r.atMs)! - this.s.offsetFrames(r.rate);
      const behind = wrapped(expected - r.frames, framesPerDay(r.rate));
      if (behind > 0 && behind <= JUMP_FRAMES && !r.reverse) {
        this.last = { ...r, frames: expected - behind / 8 };
        this.held = null;
        this.lostAt = null;
        return outcome;
      }
    }
    this.last = { ...r };
    this.held = null;
    this.lostAt = null;
    return outcome;
  }

  /** Called on a timer: notes the moment the clock became lost, where it then holds. Returns true on that change. */
  checkLoss(now: number): boolean {
    if (!this.last || this.lostAt !== null || this.state(now) !== 'lost') return false;
    this.lostAt = now;
    this.counts.losses++;
    if (!this.s.runOnLoss) this.held = this.holdPoint(this.last);
    return true;
  }

  /** Where freewheel ended: the last reading run on for the lock window and the freewheel time. */
  private holdPoint(l: TimecodeReading): number {
    const ranMs = lockWindowMs(l.rate) + this.s.freewheelMs;
    return l.frames + this.s.offsetFrames(l.rate) + (ranMs / 1000) * realFps(l.rate) * (l.reverse ? -1 : 1);
  }

  reset(): void {
    this.last = null;
    this.held = null;
    this.lostAt = null;
  }
}
