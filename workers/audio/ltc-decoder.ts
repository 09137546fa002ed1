// SMPTE LTC (linear timecode) decoder for the audio worker: biphase-mark bits from threshold crossings with a
// hysteresis scaled to the signal's peak level, a bit period that follows varispeed, and sync-word framing in both
// play directions. Work per sample is constant and the only state is fixed-size.
import { type TcRate, type Timecode, validTimecode } from '../../src/shared/smpte.js';

export interface LtcFrame {
  tc: Timecode;
  rate: TcRate;
  /** The tape plays backwards (the labels count down). */
  reverse: boolean;
  /** When the frame's last bit (in arrival order) ended, on the caller's clock. */
  atMs: number;
}

/** The sync word with the first-received bit in the MSB, forwards and read backwards. */
const SYNC_FORWARD = 0x3ffd;
const SYNC_REVERSE = 0xbffc;
const BITS = 80;
/** Hysteresis as a fraction of the peak level; below the floor (about -50 dBFS) nothing counts as a crossing. */
const HYSTERESIS = 0.3;
const FLOOR = 0.003;
/** The peak follower's release: slow beside a bit cell, quick beside a change of level. */
const RELEASE_S = 0.05;
/** Bit rates accepted: 24 fps at 0.8x up to 30 fps at 1.25x, with a margin each side. */
const MIN_BPS = 1350;
const MAX_BPS = 3400;
/** How fast the bit period follows the measured cells. */
const TRACK = 1 / 8;
/** The first guess: cells from 2/3 to 4/3 of it read right, which spans 24 fps at 0.8x to 30 fps at 1.25x. */
const START_BPS = 2280;
/** After this long without a frame the frame numbers seen say nothing about the rate any more. */
const RATE_MEMORY_S = 1;

export class LtcDecoder {
  readonly counts = { frames: 0, rejected: 0 };
  private readonly release: number;
  private readonly minPeriod: number;
  private readonly maxPeriod: number;
  private readonly ring = new Uint8Array(BITS);
  private env = 0;
  /** 1 above the upper threshold, -1 below the lower one, 0 before the first. */
  private level = 0;
  private prev = 0;
  /** Absolute index of the first sample of the next block. */
  private next = 0;
  private lastCross = Number.NaN;
  private lastInterval = 0;
  /** Bit period in samples. */
  private period: number;
  /** First half of a one-bit, waiting for its second half (0 when none). */
  private half = 0;
  /** Bits decoded since the last error, up to 80: a frame needs a whole clean window. */
  private run = 0;
  private head = 0;
  private newest16 = 0;
  private oldest16 = 0;
  private maxFrame = -1;
  private lastFramePos = Number.NEGATIVE_INFINITY;

  constructor(private readonly sampleRate: number) {
    this.release = Math.exp(-1 / (RELEASE_S * sampleRate));
    this.minPeriod = sampleRate / MAX_BPS;
    this.maxPeriod = sampleRate / MIN_BPS;
    this.period = sampleRate / START_BPS;
  }

  reset(): void {
    this.counts.frames = this.counts.rejected = 0;
    this.ring.fill(0);
    this.env = this.prev = this.next = this.lastInterval = this.half = 0;
    this.run = this.head = this.level = this.newest16 = this.oldest16 = 0;
    this.lastCross = Number.NaN;
    this.period = this.sampleRate / START_BPS;
    this.maxFrame = -1;
    this.lastFramePos = Number.NEGATIVE_INFINITY;
  }

  push(samples: Float32Array, endMs: number): LtcFrame[] {
    const out: LtcFrame[] = [];
    const base = this.next;
    const last = base + samples.length - 1;
    const msPerSample = 1000 / this.sampleRate;
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i]!;
      const ax = x < 0 ? -x : x;
      // NaN, infinities and absurd values would poison the level: skip them.
      if (!(ax < 100)) continue;
      this.env = ax > this.env ? ax : this.env * this.release;
      const thr = Math.max(this.env * HYSTERESIS, FLOOR);
      const edge = this.level >= 0 && x < -thr ? -thr : this.level <= 0 && x > thr ? thr : 0;
      if (edge !== 0) {
        const first = this.level === 0;
        this.level = edge > 0 ? 1 : -1;
        if (!first) {
          // Where the line between the two samples met the threshold: sub-sample cell lengths.
          const frac = Math.min(1, Math.max(0, (this.prev - edge) / (this.prev - x)));
          const pos = base + i - 1 + frac;
          const frame = this.crossing(pos);
          if (frame) {
            frame.atMs = endMs - (last - pos) * msPerSample;
            out.push(frame);
          }
        }
      }
      this.prev = x;
    }
    this.next = base + samples.length;
    return out;
  }

  private crossing(pos: number): LtcFrame | null {
    const d = pos - this.lastCross;
    this.lastCross = pos;
    if (!(d > 0)) return null;
    const before = this.lastInterval;
    this.lastInterval = d;
    // Neighbours 2:1 apart can only be a half cell beside a whole one: the longer is the bit period.
    if (before > 0) {
      const longer = Math.max(d, before);
      const ratio = longer / Math.min(d, before);
      const k = longer / this.period;
      if (ratio > 1.6 && ratio < 2.5 && longer >= this.minPeriod && longer <= this.maxPeriod && Math.abs(k - 1) > 0.25) {
        // Bits read with a period this far off were misread: drop them; nearer, they stand.
        if (k < 0.75 || k >= 1.5) {
          this.half = 0;
          this.run = 0;
        }
        this.period = longer;
      }
    }
    const r = d / this.period;
    if (r >= 0.75 && r < 1.5) {
      // A whole cell after a lone half: the cell boundary was lost, the bits before are suspect.
      if (this.half > 0) this.run = 0;
      this.half = 0;
      this.track(d);
      return this.bit(0, pos);
    }
    if (r >= 0.25 && r < 0.75) {
      if (this.half === 0) {
        this.half = d;
        return null;
      }
      const cell = this.half + d;
      this.half = 0;
      this.track(cell);
      return this.bit(1, pos);
    }
    this.half = 0;
    this.run = 0;
    return null;
  }

  private track(cell: number): void {
    this.period = Math.min(this.maxPeriod, Math.max(this.minPeriod, this.period + (cell - this.period) * TRACK));
  }

  private bit(b: number, pos: number): LtcFrame | null {
    this.ring[this.head] = b;
    this.head = (this.head + 1) % BITS;
    this.newest16 = ((this.newest16 << 1) | b) & 0xffff;
    // The bit now 16th from the oldest end of the window: the register holds the window's first 16 bits.
    this.oldest16 = ((this.oldest16 << 1) | this.ring[(this.head + 15) % BITS]!) & 0xffff;
    if (this.run < BITS) this.run++;
    if (this.run < BITS) return null;
    // Forwards the sync word ends the window; backwards it arrives first, read in reverse.
    if (this.newest16 === SYNC_FORWARD) return this.label(true, pos);
    if (this.oldest16 === SYNC_REVERSE) return this.label(false, pos);
    return null;
  }

  /** A field of the frame, LSB first; backwards the window holds the frame's bits in reverse order. */
  private field(forward: boolean, start: number, len: number): number {
    let v = 0;
    for (let k = 0; k < len; k++) {
      const i = forward ? start + k : BITS - 1 - start - k;
      v |= this.ring[(this.head + i) % BITS]! << k;
    }
    return v;
  }

  private label(forward: boolean, pos: number): LtcFrame | null {
    const f = (start: number, len: number) => this.field(forward, start, len);
    const fu = f(0, 4);
    const su = f(16, 4);
    const mu = f(32, 4);
    const hu = f(48, 4);
    const tc = { hours: f(56, 2) * 10 + hu, minutes: f(40, 3) * 10 + mu, seconds: f(24, 3) * 10 + su, frames: f(8, 2) * 10 + fu };
    if (pos - this.lastFramePos > RATE_MEMORY_S * this.sampleRate) this.maxFrame = -1;
    const maxFrame = Math.max(this.maxFrame, tc.frames);
    const rate: TcRate = f(10, 1) === 1 ? 29.97 : this.rateFor(maxFrame);
    // BCD units past 9 are not digits; the rest (tens, drop-frame skips) validTimecode checks.
    if (fu > 9 || su > 9 || mu > 9 || hu > 9 || !validTimecode(tc, rate)) {
      this.counts.rejected++;
      return null;
    }
    this.maxFrame = maxFrame;
    this.lastFramePos = pos;
    this.counts.frames++;
    return { tc, rate, reverse: !forward, atMs: 0 };
  }

  /** The nominal rate nearest the measured one (by ratio), among those the frame numbers seen allow. */
  private rateFor(maxFrame: number): TcRate {
    if (maxFrame >= 25) return 30;
    const fps = this.sampleRate / (this.period * BITS);
    // Geometric midpoints between the neighbours: sqrt(24 * 25) and sqrt(25 * 30).
    if (fps >= Math.sqrt(750)) return 30;
    return fps >= Math.sqrt(600) || maxFrame >= 24 ? 25 : 24;
  }
}
