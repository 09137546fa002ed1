// Test signals for the LTC decoder: SMPTE linear timecode as audio (biphase mark, fields LSB first, the sync word
// last), at any speed, inverted or reversed; 16-bit WAV files; deterministic noise and silence.
import { writeFile } from 'node:fs/promises';
import { fromFrames, isDrop, realFps, toFrames, type TcRate, type Timecode } from '../../src/shared/smpte.js';

export interface LtcOptions {
  start: Timecode;
  rate: TcRate;
  frames: number;
  sampleRate: number;
  amplitude?: number;
  /** Above 1 plays faster (shorter bits). */
  speed?: number;
  reverse?: boolean;
  invert?: boolean;
}

const SYNC = [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1];
/** Rise time of each edge (SMPTE allows 25 µs ± 5). */
const RISE_S = 25e-6;

/** Writes one frame's 80 bits (user bits zero) into `out` at `at`; fields are split as the label gives them. */
export function frameBits(tc: Timecode, rate: TcRate, out = new Uint8Array(80), at = 0): Uint8Array {
  const put = (start: number, len: number, value: number) => {
    for (let k = 0; k < len; k++) out[at + start + k] = (value >> k) & 1;
  };
  put(0, 4, tc.frames % 10);
  put(8, 2, Math.floor(tc.frames / 10));
  put(10, 1, isDrop(rate) ? 1 : 0);
  put(16, 4, tc.seconds % 10);
  put(24, 3, Math.floor(tc.seconds / 10));
  put(32, 4, tc.minutes % 10);
  put(40, 3, Math.floor(tc.minutes / 10));
  put(48, 4, tc.hours % 10);
  put(56, 2, Math.floor(tc.hours / 10));
  for (let k = 0; k < 16; k++) out[at + 64 + k] = SYNC[k]!;
  return out;
}

/**
 * Biphase mark of `bits` at `bitRate` bits a second: an edge at every cell start and mid-cell for a one. Half a
 * cell of the opposite level leads in and one edge and half a cell close, so the first and last bits are
 * bounded by edges either way the samples are read.
 */
export function biphase(bits: Uint8Array, bitRate: number, sampleRate: number, amplitude = 0.5): Float32Array {
  const cell = sampleRate / bitRate;
  const edges: number[] = [];
  for (let k = 0; k <= bits.length; k++) {
    edges.push(cell / 2 + k * cell);
    if (k < bits.length && bits[k]) edges.push(cell + k * cell);
  }
  const out = new Float32Array(Math.ceil(cell / 2 + (bits.length + 0.5) * cell));
  const rise = Math.max(1, RISE_S * sampleRate);
  let level = -1;
  let j = 0;
  for (let n = 0; n < out.length; n++) {
    while (j < edges.length && edges[j]! + rise / 2 <= n) {
      level = -level;
      j++;
    }
    let v = level;
    // Inside a ramp: part way from this level to the other one.
    if (j < edges.length && edges[j]! - rise / 2 < n) v = level - 2 * level * ((n - edges[j]!) / rise + 0.5);
    out[n] = v * amplitude;
  }
  return out;
}

/** `frames` consecutive labels from `start`, drop-frame counted at 29.97, as samples. */
export function ltcSamples(o: LtcOptions): Float32Array {
  const first = toFrames(o.start, o.rate);
  const bits = new Uint8Array(80 * o.frames);
  for (let k = 0; k < o.frames; k++) frameBits(fromFrames(first + k, o.rate), o.rate, bits, 80 * k);
  const out = biphase(bits, 80 * realFps(o.rate) * (o.speed ?? 1), o.sampleRate, o.amplitude ?? 0.5);
  if (o.invert) for (let n = 0; n < out.length; n++) out[n] = -out[n]!;
  if (o.reverse) out.reverse();
  return out;
}

/** 16-bit PCM WAV; shorter channels are padded with silence. */
export async function writeWav(path: string, channels: Float32Array[], sampleRate: number): Promise<void> {
  const n = Math.max(0, ...channels.map((c) => c.length));
  const ch = channels.length;
  const data = n * ch * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(ch, 22);
  b.writeUInt32LE(sampleRate, 24);
  b.writeUInt32LE(sampleRate * ch * 2, 28);
  b.writeUInt16LE(ch * 2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(data, 40);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < ch; c++) {
      const v = Math.max(-1, Math.min(1, channels[c]![i] ?? 0));
      b.writeInt16LE(Math.round(v * 32767), 44 + (i * ch + c) * 2);
    }
  }
  await writeFile(path, b);
}

/** Uniform white noise in [-amplitude, amplitude], the same for the same seed (xorshift32). */
export function noise(n: number, amplitude: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = ((s >>> 0) / 4294967296) * 2 * amplitude - amplitude;
  }
  return out;
}

export const silence = (n: number): Float32Array => new Float32Array(n);
