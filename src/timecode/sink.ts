// What a timecode reader hands its readings to (the timecode service), so the DMX and MIDI readers need only this.
import type { TimecodeReading } from './clock.js';

export interface TimecodeSink {
  take(reader: 'ltc' | 'mtc' | 'artnet', r: TimecodeReading): void;
  /** A packet or message refused, counted with the timecode's own counts. */
  malformed(from: string, reason: string): void;
}
