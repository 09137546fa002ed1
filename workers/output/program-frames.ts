// The newest program frame as a Buffer the consumers can hand to their pipes: copied out of the ring once per
// ring frame and shared by every consumer (a Buffer given to a pipe is never written again, so sharing is safe).
import { FrameRingReader, type PixelLayout } from '../../src/shared/frame-ring.js';

export interface ProgramFrame {
  bytes: Buffer;
  frameNo: number;
  /** When the render committed it (ms since the epoch, Date.now() in the render worker). */
  timeMs: number;
  width: number;
  height: number;
}

/** What a consumer reads frames from: the program ring, or a mapped output's own ring. */
export type FrameSource = Pick<ProgramFrames, 'size' | 'newest'>;

/**
 * Output `id`'s frames: its own ring while it has a map (the render worker draws the map into it), else the
 * program's, decided at every read so a map set or cleared live changes the picture without a restart.
 */
export function framesOf(id: string, mapped: ReadonlyMap<string, ProgramFrames>, program: ProgramFrames): FrameSource {
  return {
    get size() {
      return program.size;
    },
    // A ring not yet drawn into (a map set a moment ago) leaves the program's frame on the output meanwhile.
    newest: () => mapped.get(id)?.newest() ?? program.newest(),
  };
}

export class ProgramFrames {
  private readonly reader: FrameRingReader;
  private last: ProgramFrame | null = null;

  constructor(readonly ring: SharedArrayBuffer) {
    this.reader = new FrameRingReader(ring);
  }

  /** The ring's frame size (render size) and pixel layout: every program frame has them. */
  get size(): { width: number; height: number; layout: PixelLayout } {
    const g = this.reader.geometry;
    return { width: g.maxWidth, height: g.maxHeight, layout: g.layout };
  }

  /** The newest frame; the previous one again when the render has not committed a newer one; null before the first. */
  newest(): ProgramFrame | null {
    if (this.reader.frameCount() === (this.last?.frameNo ?? 0)) return this.last;
    const f = this.reader.acquire();
    if (!f) return this.last;
    if (f.frameNo !== this.last?.frameNo) {
      const bytes = Buffer.allocUnsafe(f.pixels.byteLength);
      bytes.set(f.pixels);
      const next = { bytes, frameNo: f.frameNo, timeMs: f.timeMs, width: f.width, height: f.height };
      // A frame torn by the writer while copied is not used; the last good one stands in.
      if (this.reader.release()) this.last = next;
    } else this.reader.release();
    return this.last;
  }
}
