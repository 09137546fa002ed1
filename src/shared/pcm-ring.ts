// A bounded SharedArrayBuffer ring of mono float PCM: the ingest reader that decodes a source's audio track writes
// it, the audio worker reads it hop by hop. One writer, one reader, no locks: the writer never waits, and a reader
// that falls behind skips to recent samples (drop-oldest) and counts what it skipped.
//
// Layout: Int32 header (magic, samples written, samples dropped, audio flag, capacity, reserved…), then Float32
// samples. Indexes are sample counts that wrap around the Int32 range; differences stay meaningful.

const MAGIC = 0x76_6a_64_50; // "vjdP"
const HEADER_INTS = 8;
const H_MAGIC = 0;
const H_WRITTEN = 1;
const H_DROPPED = 2;
/** 1 while the writer's current run decodes an audio track, 0 otherwise (no track, no run). */
const H_AUDIO = 3;
const H_CAPACITY = 4;

/** Samples per second in every PCM ring (the audio analysis rate). */
export const PCM_SAMPLE_RATE = 48_000;

/** Samples held: a power of two (index masking), well over a second at the analysis rate. */
export const PCM_RING_SAMPLES = 1 << 16;

export function createPcmRing(capacity: number = PCM_RING_SAMPLES): SharedArrayBuffer {
  if (!Number.isInteger(Math.log2(capacity)) || capacity < 2) throw new RangeError('capacity must be a power of two');
  const sab = new SharedArrayBuffer(HEADER_INTS * 4 + capacity * 4);
  const h = new Int32Array(sab, 0, HEADER_INTS);
  Atomics.store(h, H_CAPACITY, capacity);
  Atomics.store(h, H_MAGIC, MAGIC);
  return sab;
}

function views(sab: SharedArrayBuffer): { h: Int32Array; data: Float32Array; mask: number } {
  const h = new Int32Array(sab, 0, HEADER_INTS);
  if (Atomics.load(h, H_MAGIC) !== MAGIC) throw new TypeError('not a PCM ring');
  const capacity = Atomics.load(h, H_CAPACITY);
  return { h, data: new Float32Array(sab, HEADER_INTS * 4, capacity), mask: capacity - 1 };
}

/** Whether `sab` is a PCM ring (a value from another thread is checked before it is used). */
export function isPcmRing(sab: unknown): sab is SharedArrayBuffer {
  if (!(sab instanceof SharedArrayBuffer) || sab.byteLength < HEADER_INTS * 4) return false;
  try {
    views(sab);
    return true;
  } catch {
    return false;
  }
}

export class PcmRingWriter {
  private readonly h: Int32Array;
  private readonly data: Float32Array;
  private readonly mask: number;
  /** Bytes of a sample split between two chunks. */
  private readonly carry = Buffer.alloc(4);
  private carried = 0;

  constructor(sab: SharedArrayBuffer) {
    ({ h: this.h, data: this.data, mask: this.mask } = views(sab));
  }

  /** Appends little-endian float32 bytes (a chunk may end inside a sample); published once the chunk is in. */
  write(chunk: Buffer): void {
    let w = Atomics.load(this.h, H_WRITTEN);
    let offset = 0;
    if (this.carried > 0) {
      const n = Math.min(4 - this.carried, chunk.length);
      chunk.copy(this.carry, this.carried, 0, n);
      this.carried += n;
      offset = n;
      if (this.carried < 4) return;
      this.data[w & this.mask] = this.carry.readFloatLE(0);
      w = (w + 1) | 0;
      this.carried = 0;
    }
    const whole = offset + Math.floor((chunk.length - offset) / 4) * 4;
    for (let i = offset; i < whole; i += 4) {
      this.data[w & this.mask] = chunk.readFloatLE(i);
      w = (w + 1) | 0;
    }
    if (whole < chunk.length) {
      chunk.copy(this.carry, 0, whole);
      this.carried = chunk.length - whole;
    }
    Atomics.store(this.h, H_WRITTEN, w);
    Atomics.store(this.h, H_AUDIO, 1);
  }

  /** The run ended or has no audio track: the reader reads silence until samples come again. */
  setAudio(on: boolean): void {
    this.carried = 0;
    Atomics.store(this.h, H_AUDIO, on ? 1 : 0);
  }
}

export class PcmRingReader {
  private readonly h: Int32Array;
  private readonly data: Float32Array;
  private readonly capacity: number;
  private readonly mask: number;
  /** The next sample to read; a new reader starts at the newest sample, not at a backlog. */
  private next: number;

  constructor(readonly sab: SharedArrayBuffer) {
    ({ h: this.h, data: this.data, mask: this.mask } = views(sab));
    this.capacity = this.mask + 1;
    this.next = Atomics.load(this.h, H_WRITTEN);
  }

  /** Samples written and not yet read. */
  available(): number {
    return (Atomics.load(this.h, H_WRITTEN) - this.next) | 0;
  }

  /** Whether the writer's current run decodes an audio track. */
  hasAudio(): boolean {
    return Atomics.load(this.h, H_AUDIO) === 1;
  }

  /** Samples skipped by this ring's reader since the ring was made. */
  dropped(): number {
    return Atomics.load(this.h, H_DROPPED);
  }

  /** Skips all but the newest `keep` samples when more are waiting (a reader stays close to now), counting the skip. */
  skipTo(keep: number): void {
    const avail = this.available();
    if (avail < 0) this.next = Atomics.load(this.h, H_WRITTEN);
    else if (avail > keep) this.drop(avail - keep);
  }

  /** Fills `out` with the next samples; false when fewer are written (nothing is consumed then). */
  read(out: Float32Array): boolean {
    let avail = this.available();
    // More than the ring holds: the oldest were overwritten; keep the newest half.
    if (avail > this.capacity) {
      this.drop(avail - (this.capacity >> 1));
      avail = this.capacity >> 1;
    }
    if (avail < out.length) return false;
    for (let i = 0; i < out.length; i++) out[i] = this.data[(this.next + i) & this.mask]!;
    // The writer lapped the copy while it ran: what was read is partly newer samples; drop it and try later.
    if (this.available() > this.capacity) {
      this.drop(this.available() - (this.capacity >> 1));
      return false;
    }
    this.next = (this.next + out.length) | 0;
    return true;
  }

  private drop(n: number): void {
    this.next = (this.next + n) | 0;
    Atomics.add(this.h, H_DROPPED, n);
  }
}
