// The SharedArrayBuffer block the audio worker writes once per hop and any thread reads without a message: the
// latest analysis values under a seqlock (odd sequence while written), like the frame ring's slots.
//
// Layout: Int32 header (magic, seq, hops written, onsets counted, reserved…), then Float64 values in the order of
// AUDIO_FIELDS. Counters live in the header so a reader can tell new hops and onsets from a repeated read.

const MAGIC = 0x76_6a_64_41; // "vjdA"
const HEADER_INTS = 8;
const H_MAGIC = 0;
const H_SEQ = 1;
const H_HOPS = 2;
const H_ONSETS = 3;

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

/** A reader retries this often before giving up on a writer caught mid-write (it writes a few numbers: never long). */
const READ_TRIES = 64;

export function createAudioBlock(): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(HEADER_INTS * 4 + AUDIO_FIELDS.length * 8);
  Atomics.store(new Int32Array(sab, 0, HEADER_INTS), H_MAGIC, MAGIC);
  return sab;
}

function views(sab: SharedArrayBuffer): { h: Int32Array; v: Float64Array } {
  const h = new Int32Array(sab, 0, HEADER_INTS);
  if (Atomics.load(h, H_MAGIC) !== MAGIC) throw new TypeError('not an audio block');
  return { h, v: new Float64Array(sab, HEADER_INTS * 4, AUDIO_FIELDS.length) };
}

export class AudioBlockWriter {
  private readonly h: Int32Array;
  private readonly v: Float64Array;

  constructor(sab: SharedArrayBuffer) {
    ({ h: this.h, v: this.v } = views(sab));
  }

  /** Publishes one hop's values; `onset` counts one more onset. */
  write(values: AudioValues, onset: boolean): void {
    Atomics.add(this.h, H_SEQ, 1);
    AUDIO_FIELDS.forEach((f, i) => {
      this.v[i] = values[f];
    });
    Atomics.add(this.h, H_HOPS, 1);
    if (onset) Atomics.add(this.h, H_ONSETS, 1);
    Atomics.add(this.h, H_SEQ, 1);
  }

  /** Every level to zero (the input stopped or failed); counters stay, so readers still see them only grow. */
  silence(): void {
    Atomics.add(this.h, H_SEQ, 1);
    this.v.fill(0);
    Atomics.add(this.h, H_SEQ, 1);
  }
}

export class AudioBlockReader {
  private readonly h: Int32Array;
  private readonly v: Float64Array;

  constructor(sab: SharedArrayBuffer) {
    ({ h: this.h, v: this.v } = views(sab));
  }

  /** A consistent copy of the latest values (zeros while the writer holds the block for longer than a few retries). */
  read(): AudioReading {
    const out = { hops: 0, onsets: 0 } as AudioReading;
    for (let i = 0; i < READ_TRIES; i++) {
      const before = Atomics.load(this.h, H_SEQ);
      if (before % 2 !== 0) continue;
      AUDIO_FIELDS.forEach((f, j) => {
        out[f] = this.v[j]!;
      });
      out.hops = Atomics.load(this.h, H_HOPS);
      out.onsets = Atomics.load(this.h, H_ONSETS);
      if (Atomics.load(this.h, H_SEQ) === before) return out;
    }
    for (const f of AUDIO_FIELDS) out[f] = 0;
    return out;
  }
}
