// The SharedArrayBuffer frame ring one ingest source writes and the render worker reads (seqlock slots, newest frame wins).
//
// Layout (all Int32, accessed with Atomics):
//   ring header (16 ints): magic, maxWidth, maxHeight, slots, newest slot (-1 = none), frame counter,
//                          last commit time (hi, lo), down flag (the writer's reader died; cleared by the next
//                          commit), run generation (bumped when a writer's process ends), generation of the
//                          newest frame, pixel layout (0 RGBA, 1 I420), reserved…
//   slot headers (8 ints each): seq (odd while written), width, height, frameNo, time hi, time lo,
//                               readers holding the slot, reserved
//   pixel slots: `slots` × one frame of maxWidth×maxHeight in the ring's layout, 64-byte aligned, top-down rows:
//                RGBA (stride width×4), or I420 (the Y plane, then U and V at half size each way).
// One writer per ring. Readers announce the slot they hold and the writer writes around held slots; with
// 3 slots one reader is always protected (each further concurrent holder needs one more slot, otherwise the
// writer overwrites a held slot rather than wait, and release() reports it). Times are integer ms since the epoch split into two Int32 halves, so every
// field stays inside Atomics' reach and a slot's metadata is covered by the same seqlock as its pixels.

const MAGIC = 0x76_6a_64_52; // "vjdR"
const RING_INTS = 16;
const SLOT_INTS = 8;
const ALIGN = 64;
const TWO_32 = 4294967296;

const R_MAGIC = 0;
const R_MAX_W = 1;
const R_MAX_H = 2;
const R_SLOTS = 3;
const R_NEWEST = 4;
const R_COUNT = 5;
const R_TIME_HI = 6;
const R_TIME_LO = 7;
const R_DOWN = 8;
const R_GEN = 9;
const R_NEWEST_GEN = 10;
const R_LAYOUT = 11;

/** How a ring's frames hold their pixels: RGBA, or planar YUV 4:2:0 (BT.709, limited range) for the encoders. */
export type PixelLayout = 'rgba' | 'i420';
const LAYOUTS: readonly PixelLayout[] = ['rgba', 'i420'];

/** Bytes of one width×height frame in `layout` (I420 needs even sizes). */
export function frameBytes(layout: PixelLayout, width: number, height: number): number {
  return layout === 'i420' ? width * height + 2 * (width >> 1) * (height >> 1) : width * height * 4;
}

const S_SEQ = 0;
const S_W = 1;
const S_H = 2;
const S_FRAME = 3;
const S_TIME_HI = 4;
const S_TIME_LO = 5;
const S_HOLD = 6;

export interface RingGeometry {
  maxWidth: number;
  maxHeight: number;
  slots: number;
  slotBytes: number;
  dataOffset: number;
  layout: PixelLayout;
}

function dataOffsetFor(slots: number): number {
  const headerBytes = (RING_INTS + slots * SLOT_INTS) * 4;
  return Math.ceil(headerBytes / ALIGN) * ALIGN;
}

/** Allocates a ring; 3 slots is the minimum that lets the writer always find a slot nobody needs. */
export function createFrameRing(maxWidth: number, maxHeight: number, slots = 3, layout: PixelLayout = 'rgba'): SharedArrayBuffer {
  if (!Number.isInteger(maxWidth) || !Number.isInteger(maxHeight) || maxWidth < 1 || maxHeight < 1) {
    throw new RangeError(`frame ring box must be positive integers, got ${maxWidth}x${maxHeight}`);
  }
  if (!Number.isInteger(slots) || slots < 3) throw new RangeError(`frame ring needs at least 3 slots, got ${slots}`);
  if (layout === 'i420' && (maxWidth % 2 || maxHeight % 2))
    throw new RangeError(`an I420 ring needs even sizes, got ${maxWidth}x${maxHeight}`);
  const slotBytes = Math.ceil(frameBytes(layout, maxWidth, maxHeight) / ALIGN) * ALIGN;
  const sab = new SharedArrayBuffer(dataOffsetFor(slots) + slots * slotBytes);
  const h = new Int32Array(sab, 0, RING_INTS);
  h[R_MAX_W] = maxWidth;
  h[R_MAX_H] = maxHeight;
  h[R_SLOTS] = slots;
  h[R_NEWEST] = -1;
  h[R_LAYOUT] = LAYOUTS.indexOf(layout);
  // Published last: a reader that sees the magic sees a complete header.
  Atomics.store(h, R_MAGIC, MAGIC);
  return sab;
}

/** Reads the fixed geometry of a ring; throws when the buffer is not one. */
export function ringGeometry(sab: SharedArrayBuffer): RingGeometry {
  if (sab.byteLength < RING_INTS * 4) throw new TypeError('not a frame ring (too small)');
  const h = new Int32Array(sab, 0, RING_INTS);
  if (Atomics.load(h, R_MAGIC) !== MAGIC) throw new TypeError('not a frame ring (bad magic)');
  const maxWidth = h[R_MAX_W]!;
  const maxHeight = h[R_MAX_H]!;
  const slots = h[R_SLOTS]!;
  const layout = LAYOUTS[h[R_LAYOUT]!];
  if (!layout) throw new TypeError('not a frame ring (unknown pixel layout)');
  const slotBytes = Math.ceil(frameBytes(layout, maxWidth, maxHeight) / ALIGN) * ALIGN;
  const geometry = { maxWidth, maxHeight, slots, slotBytes, dataOffset: dataOffsetFor(slots), layout };
  if (geometry.dataOffset + slots * geometry.slotBytes > sab.byteLength) throw new TypeError('not a frame ring (truncated)');
  return geometry;
}

function splitTime(ms: number): [number, number] {
  const t = Math.max(0, Math.round(ms));
  const hi = Math.floor(t / TWO_32);
  return [hi, (t - hi * TWO_32) | 0];
}

function joinTime(hi: number, lo: number): number {
  return hi * TWO_32 + (lo >>> 0);
}

/** Pixel views per slot, rebuilt only when the frame size changes, so steady state allocates nothing. */
class ViewCache {
  private readonly views: Array<Uint8Array | null>;

  constructor(
    private readonly sab: SharedArrayBuffer,
    private readonly g: RingGeometry,
  ) {
    this.views = new Array<Uint8Array | null>(g.slots).fill(null);
  }

  get(slot: number, bytes: number): Uint8Array {
    const cached = this.views[slot];
    if (cached && cached.byteLength === bytes) return cached;
    const view = new Uint8Array(this.sab, this.g.dataOffset + slot * this.g.slotBytes, bytes);
    this.views[slot] = view;
    return view;
  }
}

export class FrameRingWriter {
  readonly geometry: RingGeometry;
  private readonly header: Int32Array;
  private readonly slotHeaders: Int32Array;
  private readonly views: ViewCache;
  /** Slot being written (its seq is odd), or -1. */
  private writing = -1;
  private lastSlot = -1;

  constructor(sab: SharedArrayBuffer) {
    this.geometry = ringGeometry(sab);
    this.header = new Int32Array(sab, 0, RING_INTS);
    this.slotHeaders = new Int32Array(sab, RING_INTS * 4, this.geometry.slots * SLOT_INTS);
    this.views = new ViewCache(sab, this.geometry);
    // A ring taken over from a writer that died mid-frame: that slot's seq is left odd, and begin() would turn it
    // even while writing. It is never the newest, so making it even again exposes nothing torn.
    for (let slot = 0; slot < this.geometry.slots; slot++) {
      if (Atomics.load(this.slotHeaders, slot * SLOT_INTS + S_SEQ) & 1) Atomics.add(this.slotHeaders, slot * SLOT_INTS + S_SEQ, 1);
    }
  }

  /** Opens a slot that is neither the newest frame nor the one the reader holds, and returns its pixel view. */
  begin(width: number, height: number): Uint8Array {
    const g = this.geometry;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > g.maxWidth || height > g.maxHeight) {
      throw new RangeError(`frame ${width}x${height} does not fit the ring box ${g.maxWidth}x${g.maxHeight}`);
    }
    if (g.layout === 'i420' && (width % 2 || height % 2)) throw new RangeError(`an I420 frame needs even sizes, got ${width}x${height}`);
    let slot = this.writing;
    if (slot < 0) {
      // newest only changes in our own commit(); it must be read before the hold counts (see acquire()).
      const newest = Atomics.load(this.header, R_NEWEST);
      let fallback = -1;
      for (let i = 1; i <= g.slots; i++) {
        const candidate = (this.lastSlot + i) % g.slots;
        if (candidate === newest) continue;
        if (fallback < 0) fallback = candidate;
        if (Atomics.load(this.slotHeaders, candidate * SLOT_INTS + S_HOLD) === 0) {
          slot = candidate;
          break;
        }
      }
      // Every other slot is held (more concurrent readers than spare slots): overwrite rather than wait.
      if (slot < 0) slot = fallback;
      const base = slot * SLOT_INTS;
      Atomics.add(this.slotHeaders, base + S_SEQ, 1); // even → odd: readers now treat the slot as torn
      this.writing = slot;
    }
    const base = slot * SLOT_INTS;
    Atomics.store(this.slotHeaders, base + S_W, width);
    Atomics.store(this.slotHeaders, base + S_H, height);
    return this.views.get(slot, frameBytes(g.layout, width, height));
  }

  /** Publishes the slot opened by begin() as the newest frame; returns its frame number (1, 2, …). */
  commit(nowMs: number = Date.now()): number {
    const slot = this.writing;
    if (slot < 0) throw new Error('commit() without begin()');
    const base = slot * SLOT_INTS;
    const frameNo = Atomics.load(this.header, R_COUNT) + 1;
    const [hi, lo] = splitTime(nowMs);
    Atomics.store(this.slotHeaders, base + S_FRAME, frameNo);
    Atomics.store(this.slotHeaders, base + S_TIME_HI, hi);
    Atomics.store(this.slotHeaders, base + S_TIME_LO, lo);
    Atomics.add(this.slotHeaders, base + S_SEQ, 1); // odd → even: stable again
    Atomics.store(this.header, R_NEWEST_GEN, Atomics.load(this.header, R_GEN));
    Atomics.store(this.header, R_NEWEST, slot);
    Atomics.store(this.header, R_TIME_HI, hi);
    Atomics.store(this.header, R_TIME_LO, lo);
    Atomics.store(this.header, R_COUNT, frameNo);
    Atomics.store(this.header, R_DOWN, 0);
    this.lastSlot = slot;
    this.writing = -1;
    return frameNo;
  }

  /**
   * Marks the ring's source as down (its process died or stalled): readers stop treating the newest frame as
   * the source's picture once it is old, even for sources whose frames may legitimately be far apart.
   */
  setDown(): void {
    Atomics.store(this.header, R_DOWN, 1);
  }

  /**
   * Ends the current run (the process that wrote the newest frames is gone): its frames stay readable, but a
   * reader asking for a frame of the current run waits for the next commit.
   */
  endRun(): void {
    Atomics.add(this.header, R_GEN, 1);
  }
}

export interface RingFrame {
  /** Top-down rows in the ring's layout; a view into shared memory, valid until release(). */
  pixels: Uint8Array;
  width: number;
  height: number;
  frameNo: number;
  timeMs: number;
}

export class FrameRingReader {
  readonly geometry: RingGeometry;
  private readonly header: Int32Array;
  private readonly slotHeaders: Int32Array;
  private readonly views: ViewCache;
  private held = -1;
  private heldSeq = 0;
  // Reused for every acquire(): the render loop reads a frame per tick and should not allocate per tick.
  private readonly frame: RingFrame = { pixels: new Uint8Array(0), width: 0, height: 0, frameNo: 0, timeMs: 0 };

  constructor(sab: SharedArrayBuffer) {
    this.geometry = ringGeometry(sab);
    this.header = new Int32Array(sab, 0, RING_INTS);
    this.slotHeaders = new Int32Array(sab, RING_INTS * 4, this.geometry.slots * SLOT_INTS);
    this.views = new ViewCache(sab, this.geometry);
  }

  /** Frames committed so far (the newest frame's number); 0 before the first. */
  frameCount(): number {
    return Atomics.load(this.header, R_COUNT);
  }

  /** Commit time of the newest frame (ms since the epoch), 0 before the first. */
  lastFrameTimeMs(): number {
    for (;;) {
      const count = Atomics.load(this.header, R_COUNT);
      const t = joinTime(Atomics.load(this.header, R_TIME_HI), Atomics.load(this.header, R_TIME_LO));
      if (Atomics.load(this.header, R_COUNT) === count) return count === 0 ? 0 : t;
    }
  }

  /** Whether the newest frame was written by the writer's current run (false before the first frame). */
  currentRun(): boolean {
    const gen = Atomics.load(this.header, R_GEN);
    return Atomics.load(this.header, R_COUNT) > 0 && Atomics.load(this.header, R_NEWEST_GEN) === gen;
  }

  /** Whether the writer reported its source down since the last commit. */
  down(): boolean {
    return Atomics.load(this.header, R_DOWN) === 1;
  }

  /**
   * Size of the newest frame's content without holding it (the main thread reads only this header, never
   * pixels); null before the first frame.
   */
  newestSize(): { width: number; height: number } | null {
    for (let attempt = 0; attempt < 64; attempt++) {
      const slot = Atomics.load(this.header, R_NEWEST);
      if (slot < 0) return null;
      const base = slot * SLOT_INTS;
      const seq = Atomics.load(this.slotHeaders, base + S_SEQ);
      const width = Atomics.load(this.slotHeaders, base + S_W);
      const height = Atomics.load(this.slotHeaders, base + S_H);
      if (!(seq & 1) && Atomics.load(this.slotHeaders, base + S_SEQ) === seq && Atomics.load(this.header, R_NEWEST) === slot)
        return { width, height };
    }
    return null;
  }

  /**
   * Holds the newest frame until release(); null when no frame was committed yet. The returned object is reused by
   * the next acquire(). Holding a slot announces it to the writer, which then writes around it.
   */
  acquire(): RingFrame | null {
    if (this.held >= 0) this.release();
    for (let attempt = 0; attempt < 64; attempt++) {
      const slot = Atomics.load(this.header, R_NEWEST);
      if (slot < 0) return null;
      const base = slot * SLOT_INTS;
      Atomics.add(this.slotHeaders, base + S_HOLD, 1);
      // Still the newest after the announcement and not mid-write: a write that chose this slot before seeing the
      // hold has already committed (newest cannot point at a slot being written), and any later begin() sees it.
      const seq = Atomics.load(this.slotHeaders, base + S_SEQ);
      if (Atomics.load(this.header, R_NEWEST) !== slot || seq & 1) {
        Atomics.sub(this.slotHeaders, base + S_HOLD, 1);
        continue;
      }
      const f = this.frame;
      f.width = Atomics.load(this.slotHeaders, base + S_W);
      f.height = Atomics.load(this.slotHeaders, base + S_H);
      f.frameNo = Atomics.load(this.slotHeaders, base + S_FRAME);
      f.timeMs = joinTime(Atomics.load(this.slotHeaders, base + S_TIME_HI), Atomics.load(this.slotHeaders, base + S_TIME_LO));
      if (Atomics.load(this.slotHeaders, base + S_SEQ) !== seq) {
        Atomics.sub(this.slotHeaders, base + S_HOLD, 1);
        continue;
      }
      f.pixels = this.views.get(slot, frameBytes(this.geometry.layout, f.width, f.height));
      this.held = slot;
      this.heldSeq = seq;
      return f;
    }
    // Only reachable if the writer commits faster than this loop turns; give up for this tick.
    return null;
  }

  /** Ends the hold; true when the frame was not touched by the writer while it was held. */
  release(): boolean {
    const slot = this.held;
    if (slot < 0) return false;
    const base = slot * SLOT_INTS;
    const intact = Atomics.load(this.slotHeaders, base + S_SEQ) === this.heldSeq;
    this.held = -1;
    Atomics.sub(this.slotHeaders, base + S_HOLD, 1);
    return intact;
  }
}
