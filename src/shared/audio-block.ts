// The SharedArrayBuffer block the audio worker writes once per hop and any thread reads without a message: the
// latest analysis values, a short history of per-hop records and the latest spectrum and waveform, all under one
// seqlock (odd sequence while written), like the frame ring's slots.
//
// Layout: Int32 header (magic, seq, hops written, onsets counted, records written…), Float64 latest values in the
// order of AUDIO_FIELDS, Float64 history ring (AUDIO_RECORD_FIELDS per record), Float32 spectrum, Float32 waveform.
// Counters live in the header so a reader can tell new hops and onsets from a repeated read.
import { AUDIO_LIMITS } from '../limits.js';

const MAGIC = 0x76_6a_64_41; // "vjdA"
const HEADER_INTS = 8;
const H_MAGIC = 0;
const H_SEQ = 1;
const H_HOPS = 2;
const H_ONSETS = 3;
const H_RECORDS = 4;

/** The analysis values, in block order: levels in the unit range, `onset` full on an onset's hop and decaying, `hopMs` the hop's analysis time. */
export const AUDIO_FIELDS = ['level', 'bass', 'lowMid', 'highMid', 'high', 'onset', 'hopMs'] as const;
export type AudioField = (typeof AUDIO_FIELDS)[number];
export type AudioValues = Record<AudioField, number>;

export interface AudioReading extends AudioValues {
  /** Hops analysed since the block was made. */
  hops: number;
  /** Onsets detected since the block was made. */
  onsets: number;
}

/** One hop of the history: `t` its epoch-ms instant (clockNow), the levels, and the onset count after it. */
export const AUDIO_RECORD_FIELDS = ['t', 'level', 'bass', 'lowMid', 'highMid', 'high', 'onset', 'onsets'] as const;
export type AudioRecord = Record<(typeof AUDIO_RECORD_FIELDS)[number], number>;
const REC = AUDIO_RECORD_FIELDS.length;

/** History records: at 48 kHz and 512-sample hops about 1.4 s, past the largest look-back (offsetMs) with slack. */
export const AUDIO_HISTORY = 128;
/** Spectrum bins (DC up to just below Nyquist) and waveform samples the block carries. */
export const AUDIO_BINS = AUDIO_LIMITS.hop;

/** A reader retries this often before giving up on a writer caught mid-write (it writes a few numbers: never long). */
const READ_TRIES = 64;

const VALUES_AT = HEADER_INTS * 4;
const RING_AT = VALUES_AT + AUDIO_FIELDS.length * 8;
const SPECTRUM_AT = RING_AT + AUDIO_HISTORY * REC * 8;
const WAVE_AT = SPECTRUM_AT + AUDIO_BINS * 4;
const BYTES = WAVE_AT + AUDIO_BINS * 4;

export function createAudioBlock(): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(BYTES);
  Atomics.store(new Int32Array(sab, 0, HEADER_INTS), H_MAGIC, MAGIC);
  return sab;
}

interface Views {
  h: Int32Array;
  v: Float64Array;
  ring: Float64Array;
  spectrum: Float32Array;
  wave: Float32Array;
}

function views(sab: SharedArrayBuffer): Views {
  const h = new Int32Array(sab, 0, HEADER_INTS);
  if (Atomics.load(h, H_MAGIC) !== MAGIC || sab.byteLength !== BYTES) throw new TypeError('not an audio block');
  return {
    h,
    v: new Float64Array(sab, VALUES_AT, AUDIO_FIELDS.length),
    ring: new Float64Array(sab, RING_AT, AUDIO_HISTORY * REC),
    spectrum: new Float32Array(sab, SPECTRUM_AT, AUDIO_BINS),
    wave: new Float32Array(sab, WAVE_AT, AUDIO_BINS),
  };
}

/** What a hop adds besides its values: its instant, and the spectrum (0..1) and samples when the writer has them. */
export interface HopExtras {
  t: number;
  spectrum?: ArrayLike<number>;
  waveform?: ArrayLike<number>;
}

export class AudioBlockWriter {
  private readonly b: Views;

  constructor(sab: SharedArrayBuffer) {
    this.b = views(sab);
  }

  /** Publishes one hop's values; `onset` counts one more onset. */
  write(values: AudioValues, onset: boolean, extras?: HopExtras): void {
    const { h, v } = this.b;
    Atomics.add(h, H_SEQ, 1);
    for (let i = 0; i < AUDIO_FIELDS.length; i++) v[i] = values[AUDIO_FIELDS[i]!];
    Atomics.add(h, H_HOPS, 1);
    if (onset) Atomics.add(h, H_ONSETS, 1);
    this.record(extras?.t ?? performance.timeOrigin + performance.now(), values);
    if (extras?.spectrum) copyInto(this.b.spectrum, extras.spectrum);
    if (extras?.waveform) copyInto(this.b.wave, extras.waveform);
    Atomics.add(h, H_SEQ, 1);
  }

  /** Every level to zero (the input stopped or failed); counters stay, so readers still see them only grow. */
  silence(): void {
    const { h, v, spectrum, wave } = this.b;
    Atomics.add(h, H_SEQ, 1);
    v.fill(0);
    spectrum.fill(0);
    wave.fill(0);
    this.record(performance.timeOrigin + performance.now(), null);
    Atomics.add(h, H_SEQ, 1);
  }

  /** Appends one history record (inside the writer's seqlock). */
  private record(t: number, values: AudioValues | null): void {
    const { h, ring } = this.b;
    const n = Atomics.load(h, H_RECORDS);
    const at = (n % AUDIO_HISTORY) * REC;
    ring[at] = t;
    ring[at + 1] = values?.level ?? 0;
    ring[at + 2] = values?.bass ?? 0;
    ring[at + 3] = values?.lowMid ?? 0;
    ring[at + 4] = values?.highMid ?? 0;
    ring[at + 5] = values?.high ?? 0;
    ring[at + 6] = values?.onset ?? 0;
    ring[at + 7] = Atomics.load(h, H_ONSETS);
    // Wraps far beyond any run length; the modulo above stays correct while it grows.
    Atomics.store(h, H_RECORDS, (n + 1) % 0x4000_0000);
  }
}

function copyInto(dst: Float32Array, src: ArrayLike<number>): void {
  const n = Math.min(dst.length, src.length);
  for (let i = 0; i < n; i++) dst[i] = src[i]!;
  if (n < dst.length) dst.fill(0, n);
}

export class AudioBlockReader {
  private readonly b: Views;

  constructor(sab: SharedArrayBuffer) {
    this.b = views(sab);
  }

  /** A consistent copy of the latest values (zeros while the writer holds the block for longer than a few retries). */
  read(): AudioReading {
    const { h, v } = this.b;
    const out = { hops: 0, onsets: 0 } as AudioReading;
    for (let i = 0; i < READ_TRIES; i++) {
      const before = Atomics.load(h, H_SEQ);
      if (before % 2 !== 0) continue;
      AUDIO_FIELDS.forEach((f, j) => {
        out[f] = v[j]!;
      });
      out.hops = Atomics.load(h, H_HOPS);
      out.onsets = Atomics.load(h, H_ONSETS);
      if (Atomics.load(h, H_SEQ) === before) return out;
    }
    for (const f of AUDIO_FIELDS) out[f] = 0;
    return out;
  }

  /**
   * Fills `out` with the record of instant `t` (epoch ms): the latest one not after `t`, the latest when `t` is
   * ahead of them all, the oldest kept when `t` is older. False (and `out` zeroed) when nothing was written yet or
   * the writer held the block too long. Scans at most the history's length; allocates nothing.
   */
  at(t: number, out: AudioRecord): boolean {
    const { h, ring } = this.b;
    for (let i = 0; i < READ_TRIES; i++) {
      const before = Atomics.load(h, H_SEQ);
      if (before % 2 !== 0) continue;
      const n = Atomics.load(h, H_RECORDS);
      const kept = Math.min(n, AUDIO_HISTORY);
      let found = -1;
      for (let k = 1; k <= kept; k++) {
        const at = (((n - k) % AUDIO_HISTORY) + AUDIO_HISTORY) % AUDIO_HISTORY;
        found = at;
        if (ring[at * REC]! <= t) break;
      }
      if (found >= 0) for (let f = 0; f < REC; f++) out[AUDIO_RECORD_FIELDS[f]!] = ring[found * REC + f]!;
      if (Atomics.load(h, H_SEQ) === before) {
        if (found >= 0) return true;
        break;
      }
    }
    for (const f of AUDIO_RECORD_FIELDS) out[f] = 0;
    return false;
  }

  /** Copies the latest spectrum and waveform into the arrays (AUDIO_BINS long); returns the hop count they belong to. */
  spectra(spectrum: Float32Array, waveform: Float32Array): number {
    const { h } = this.b;
    for (let i = 0; i < READ_TRIES; i++) {
      const before = Atomics.load(h, H_SEQ);
      if (before % 2 !== 0) continue;
      spectrum.set(this.b.spectrum);
      waveform.set(this.b.wave);
      if (Atomics.load(h, H_SEQ) === before) return Atomics.load(h, H_RECORDS);
    }
    spectrum.fill(0);
    waveform.fill(0);
    return -1;
  }
}
