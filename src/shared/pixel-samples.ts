// The SharedArrayBuffer the render worker writes once per frame with the pixel-mapping samples (one RGBA texel per
// fixture pixel, read back from the GPU after dimmer and blackout) and the pixel-out sender reads at its own rate,
// under a seqlock (odd while written), so no message crosses threads per frame.
//
// Layout: Int32 header [magic, seq, frame, count, capacity, 0, 0, 0], then `capacity` × 4 bytes of RGBA (Uint8).

const MAGIC = 0x76_6a_64_50; // "vjdP"
const HEADER_INTS = 8;
const H_MAGIC = 0;
const H_SEQ = 1;
const H_FRAME = 2;
const H_COUNT = 3;
const H_CAPACITY = 4;
const RETRIES = 8;

/** A block for up to `capacity` samples (fixture pixels). */
export function createPixelSamples(capacity: number): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(HEADER_INTS * 4 + capacity * 4);
  const h = new Int32Array(sab, 0, HEADER_INTS);
  h[H_MAGIC] = MAGIC;
  h[H_CAPACITY] = capacity;
  return sab;
}

export class PixelSamplesWriter {
  private readonly h: Int32Array;
  private readonly data: Uint8Array;
  readonly capacity: number;

  constructor(sab: SharedArrayBuffer) {
    this.h = new Int32Array(sab, 0, HEADER_INTS);
    if (this.h[H_MAGIC] !== MAGIC) throw new Error('not a pixel samples block');
    this.capacity = this.h[H_CAPACITY]!;
    this.data = new Uint8Array(sab, HEADER_INTS * 4, this.capacity * 4);
  }

  /** Copies `rgba` (count × 4 bytes, sample i at 4i) as frame `frame`. */
  write(rgba: Uint8Array, count: number, frame: number): void {
    const n = Math.min(count, this.capacity);
    Atomics.add(this.h, H_SEQ, 1);
    this.data.set(rgba.subarray(0, n * 4));
    this.h[H_FRAME] = frame;
    this.h[H_COUNT] = n;
    Atomics.add(this.h, H_SEQ, 1);
  }
}

export class PixelSamplesReader {
  private readonly h: Int32Array;
  private readonly data: Uint8Array;
  readonly capacity: number;

  constructor(sab: SharedArrayBuffer) {
    this.h = new Int32Array(sab, 0, HEADER_INTS);
    if (this.h[H_MAGIC] !== MAGIC) throw new Error('not a pixel samples block');
    this.capacity = this.h[H_CAPACITY]!;
    this.data = new Uint8Array(sab, HEADER_INTS * 4, this.capacity * 4);
  }

  /** Copies the latest samples into `out` (capacity × 4 bytes); the frame number and count, or null when none is whole. */
  read(out: Uint8Array): { frame: number; count: number } | null {
    for (let k = 0; k < RETRIES; k++) {
      const s0 = Atomics.load(this.h, H_SEQ);
      if (s0 & 1) continue;
      const count = this.h[H_COUNT]!;
      const frame = this.h[H_FRAME]!;
      out.set(this.data.subarray(0, count * 4));
      if (Atomics.load(this.h, H_SEQ) === s0) return s0 === 0 ? null : { frame, count };
    }
    return null;
  }
}
