// MTC (full frame, quarter frames) and Art-Net ArtTimeCode as a sender emits them, for the timecode reader tests.
import { fromFrames, type TcRate, type Timecode, toFrames } from '../../src/shared/smpte.js';

/** MTC's rate code and Art-Net's Type byte share one order: 24, 25, 29.97 drop-frame, 30. */
const rateCode = (rate: TcRate): number => [24, 25, 29.97, 30].indexOf(rate);

/** ArtTimeCode: ID, OpTimeCode (LE), ProtVer (BE), Filler1, StreamId, frames, seconds, minutes, hours, Type. */
export function artTimeCode(tc: Timecode, rate: TcRate, opts: { streamId?: number; protVer?: number } = {}): Buffer {
  const b = Buffer.alloc(19);
  b.write('Art-Net\0', 0, 'latin1');
  b.writeUInt16LE(0x9700, 8);
  b.writeUInt16BE(opts.protVer ?? 14, 10);
  b[13] = opts.streamId ?? 0;
  b[14] = tc.frames;
  b[15] = tc.seconds;
  b[16] = tc.minutes;
  b[17] = tc.hours;
  b[18] = rateCode(rate);
  return b;
}

/** F0 7F <device> 01 01 hr mn sc fr F7, the rate code in bits 5-6 of hr. */
export function mtcFullFrame(tc: Timecode, rate: TcRate, device = 0x7f): number[] {
  return [0xf0, 0x7f, device, 0x01, 0x01, (rateCode(rate) << 5) | tc.hours, tc.minutes, tc.seconds, tc.frames, 0xf7];
}

/** The nibble piece `piece` of a label carries. */
function nibble(tc: Timecode, rate: TcRate, piece: number): number {
  const field = [tc.frames, tc.seconds, tc.minutes, tc.hours][piece >> 1]!;
  if (piece === 7) return (field >> 4) | (rateCode(rate) << 1);
  return piece & 1 ? field >> 4 : field & 0x0f;
}

/**
 * The [F1, data] messages of `frames` frames of play from `start`, four a frame. Forward the first set starts with
 * piece 0 on `start` and every set carries the label of the frame its piece 0 went out on; reverse plays down from
 * `start`, the first set starts with piece 7 on `start` and every set carries the label of the frame its piece 7 (its
 * first) went out on. So after message i the assembler's frame is start ± floor((i + 1) / 4), quarter (i + 1) % 4.
 */
export function mtcQuarterFrames(start: Timecode, rate: TcRate, frames: number, reverse = false): number[][] {
  const first = toFrames(start, rate);
  const out: number[][] = [];
  for (let i = 0; i < 4 * frames; i++) {
    const k = i & 7;
    // A set spans two frames: its label is (i - k) / 4 frames from start, in the direction of play.
    const label = fromFrames(first + ((reverse ? -1 : 1) * (i - k)) / 4, rate);
    const piece = reverse ? 7 - k : k;
    out.push([0xf1, (piece << 4) | nibble(label, rate, piece)]);
  }
  return out;
}
