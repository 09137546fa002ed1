// MIDI timecode (MTC) in, strictly: the full-frame SysEx a sender uses when it locates, and the quarter-frame stream it
// sends while it plays, assembled into a running time. Pure and bounded; network bytes are checked, never thrown on.
import { framesPerDay, labelProblem, fromFrames, type TcRate, type Timecode, toFrames } from '../shared/smpte.js';

/** MTC's two-bit rate code (full-frame hours byte bits 5-6, quarter-frame piece 7 bits 1-2): 24, 25, 29.97 DF, 30. */
const RATE_CODES: readonly TcRate[] = [24, 25, 29.97, 30];
const FULL_FRAME_BYTES = 10;
/** Quarter frames come every ~10 ms; a silence this long means the sender stopped, so the running count is stale. */
const STALE_MS = 200;

export type MtcFullFrame = { ok: true; tc: Timecode; rate: TcRate } | { ok: false; reason: string };

export type MtcResult =
  | {
      kind: 'time';
      /** The frame being played at `atMs` (reverse: the one being entered from above). */
      tc: Timecode;
      rate: TcRate;
      reverse: boolean;
      atMs: number;
      /** Quarters of `tc` already played in the direction of play (0-3). */
      quarter: number;
      /** The position on toFrames' scale in quarter steps: tc + quarter/4 forward, tc + 1 - quarter/4 in reverse. */
      frames: number;
    }
  | { kind: 'pending' }
  | { kind: 'bad'; reason: string };

const FULL_NAMES = { hours: 'byte 5', minutes: 'byte 6', seconds: 'byte 7', frames: 'byte 8' };
const refused = (reason: string): MtcFullFrame => ({ ok: false, reason: `MTC full frame: ${reason}` });

/**
 * F0 7F <device> 01 01 hr mn sc fr F7 (hr = 0rrhhhhh). Null when the bytes do not start that way (other universal
 * real-time SysEx such as MMC also start F0 7F, and go on to the caller's other readers).
 */
export function readMtcFullFrame(bytes: ArrayLike<number>): MtcFullFrame | null {
  const n = bytes.length;
  if (n < 5 || bytes[0] !== 0xf0 || bytes[1] !== 0x7f || bytes[3] !== 0x01 || bytes[4] !== 0x01) return null;
  if (n !== FULL_FRAME_BYTES) return refused(`${n} bytes, not ${FULL_FRAME_BYTES}`);
  for (let k = 2; k < 9; k++) {
    const b = bytes[k]!;
    if (!Number.isInteger(b) || b < 0 || b > 0x7f) return refused(`byte ${k} (${b}) is not a data byte 0-127`);
  }
  if (bytes[9] !== 0xf7) return refused(`byte 9 (${bytes[9]}) is not the end of SysEx F7`);
  const hr = bytes[5]!;
  const rate = RATE_CODES[hr >> 5]!;
  const tc = { hours: hr & 0x1f, minutes: bytes[6]!, seconds: bytes[7]!, frames: bytes[8]! };
  const problem = labelProblem(tc, rate, FULL_NAMES);
  return problem ? refused(problem) : { ok: true, tc, rate };
}

const PIECES = { frames: 'pieces 0-1', seconds: 'pieces 2-3', minutes: 'pieces 4-5', hours: 'pieces 6-7' };
const PENDING: MtcResult = { kind: 'pending' };

/**
 * Quarter frames to a running time. A set is the 8 pieces of one label: forward they come 0..7, the label being the
 * frame during which piece 0 was sent; reverse 7..0, the label being the frame during which piece 7 (its first) was
 * sent. Each message is taken to mark the end of its quarter, so a set's last piece lands 8 quarters = 2 frames from
 * where its label began: forward the frame then entered is label + 2; reverse, having started at the label's top
 * and played down through it and the frame below, the frame entered is label - 2. Once locked every further
 * quarter moves the time by a quarter frame, and each completed set re-anchors it to its label.
 */
export class MtcAssembler {
  readonly counts = { quarters: 0, full: 0, bad: 0 };
  /** The latest nibble of each piece (a fixed 8: the state never grows). */
  private readonly nibbles = new Uint8Array(8);
  private last = -1;
  private lastMs = 0;
  /** +1 forward, -1 reverse, 0 until two pieces in a row say which. */
  private dir = 0;
  /** Pieces in a row in `dir` (capped at 8: a set needs no more). */
  private run = 0;
  private locked = false;
  private rate: TcRate = 25;
  /** Timeline position in quarter frames, wrapped to a day. */
  private pos = 0;

  /** One quarter-frame message's data byte (the byte after F1). */
  quarter(data: number, atMs: number): MtcResult {
    this.counts.quarters++;
    if (!Number.isInteger(data) || data < 0 || data > 0x7f) {
      this.reset();
      return this.bad(`quarter-frame data byte ${data} is not 0-127`);
    }
    const piece = data >> 4;
    this.nibbles[piece] = data & 0x0f;
    const fresh = this.last >= 0 && atMs - this.lastMs <= STALE_MS;
    const step = !fresh ? 0 : piece === ((this.last + 1) & 7) ? 1 : piece === ((this.last + 7) & 7) ? -1 : 0;
    this.last = piece;
    this.lastMs = atMs;
    if (step === 0 || (this.dir !== 0 && step !== this.dir)) {
      // A gap, a stop or a turn: the partial set and the running count are both lost; this piece starts anew.
      this.dir = 0;
      this.run = 1;
      this.locked = false;
      return PENDING;
    }
    this.dir = step;
    this.run = Math.min(this.run + 1, 8);
    if (this.run === 8 && piece === (step > 0 ? 7 : 0)) return this.complete(atMs);
    if (!this.locked) return PENDING;
    this.pos = this.wrap(this.pos + step);
    return this.time(atMs);
  }

  /** A full-frame message (a locate): its time as is; quarter frames lock afresh after it. */
  full(tc: Timecode, rate: TcRate, atMs: number): MtcResult {
    this.counts.full++;
    this.reset();
    const problem = labelProblem(tc, rate, FULL_NAMES);
    if (problem) return this.bad(`MTC full frame: ${problem}`);
    this.rate = rate;
    this.pos = this.wrap(4 * toFrames(tc, rate));
    return { kind: 'time', tc: { ...tc }, rate, reverse: false, atMs, quarter: 0, frames: this.pos / 4 };
  }

  /** Forgets any partial set and the lock (the counts stay: they are the port's totals). */
  reset(): void {
    this.last = -1;
    this.dir = 0;
    this.run = 0;
    this.locked = false;
  }

  private complete(atMs: number): MtcResult {
    const n = this.nibbles;
    const pair = (k: number) => n[k]! | (n[k + 1]! << 4);
    const tc = { frames: pair(0), seconds: pair(2), minutes: pair(4), hours: n[6]! | ((n[7]! & 1) << 4) };
    const rate = RATE_CODES[(n[7]! >> 1) & 3]!;
    // Reserved bits: any set in pieces 1/3/5 push their field out of range; piece 7's bit 3 is checked here.
    const problem = n[7]! & 0x8 ? 'piece 7 has its unused bit 3 set' : labelProblem(tc, rate, PIECES);
    if (problem) {
      this.locked = false;
      return this.bad(`MTC quarter frames: ${problem}`);
    }
    this.locked = true;
    this.rate = rate;
    const label = 4 * toFrames(tc, rate);
    // Forward: 8 quarters past the label's start. Reverse: 8 quarters below its top edge (label + 1), entering label - 2.
    this.pos = this.wrap(this.dir > 0 ? label + 8 : label - 4);
    return this.time(atMs);
  }

  private time(atMs: number): MtcResult {
    const reverse = this.dir < 0;
    const q = this.pos & 3;
    const frame = reverse ? Math.ceil(this.pos / 4) - 1 : this.pos >> 2;
    const quarter = reverse ? (4 - q) & 3 : q;
    return { kind: 'time', tc: fromFrames(frame, this.rate), rate: this.rate, reverse, atMs, quarter, frames: this.pos / 4 };
  }

  private wrap(pos: number): number {
    const day = 4 * framesPerDay(this.rate);
    return ((pos % day) + day) % day;
  }

  private bad(reason: string): MtcResult {
    this.counts.bad++;
    return { kind: 'bad', reason };
  }
}
