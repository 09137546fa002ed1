// When a cue fires by its own trigger, as an instant on the clock every thread shares (clockNow): a timecode from
// the running timecode clock (only while it runs forwards and the list is armed), a beat or bar line of the tempo
// clock after the previous cue, or a delay after it. Manual cues have no instant: they wait for GO.
import { beatAt, type TempoClock } from '../shared/tempo-block.js';
import { parseTimecode, toFrames, validTimecode, type TcRate } from '../shared/smpte.js';
import type { Cue, FiredBy } from './types.js';

export interface PlanClocks {
  /** Frames since midnight now, while the timecode runs; null otherwise. */
  timecodeNow(): number | null;
  timecodeRate(): TcRate | null;
  /** The instant the running timecode reaches `frames`, null when it does not run forwards. */
  timecodeInstant(frames: number): number | null;
  /** The tempo clock's beat grid, null while it has none. */
  grid(): TempoClock | null;
}

/** A timecode cue's frame count at the timecode's rate, null for other cues (or no rate yet, or no such label). */
export function timecodeFrames(cue: Cue, rate: TcRate | null): number | null {
  if (cue.trigger.kind !== 'timecode' || rate === null) return null;
  const tc = parseTimecode(cue.trigger.at);
  return tc && validTimecode(tc, rate) ? toFrames(tc, rate) : null;
}

/** The instant of a beat number on the clock base: a frame due then shows that beat (the audio offset included). */
export function beatInstant(g: TempoClock, beat: number): number {
  return g.refTime + ((beat - g.refBeat) * 60_000) / g.bpm - g.offsetMs;
}

export function cueInstant(cue: Cue, firedAtMs: number | null, armed: boolean, c: PlanClocks): { atMs: number; by: FiredBy } | null {
  const t = cue.trigger;
  switch (t.kind) {
    case 'timecode': {
      if (!armed) return null;
      const frames = timecodeFrames(cue, c.timecodeRate());
      const now = c.timecodeNow();
      // A cue whose time has passed waits: the list reached it by GO or a jump, not by the clock running into it.
      if (frames === null || now === null || frames < now - 0.5) return null;
      const at = c.timecodeInstant(frames);
      return at === null ? null : { atMs: at, by: 'timecode' };
    }
    case 'follow':
      return firedAtMs === null ? null : { atMs: firedAtMs + t.delayMs, by: 'follow' };
    case 'beats': {
      const g = c.grid();
      if (firedAtMs === null || g === null) return null;
      // A cue that landed on a beat may read as a hair before it: counted from just after, the next line is the next.
      const pos = beatAt(g, firedAtMs + g.offsetMs + 5);
      const perBar = Math.max(1, g.beatsPerBar);
      const beat = t.unit === 'beat' ? pos.beatCount + t.count : (pos.bar + t.count) * perBar;
      return { atMs: beatInstant(g, beat), by: 'beats' };
    }
    default:
      return null;
  }
}
