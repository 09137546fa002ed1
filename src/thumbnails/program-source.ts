// Whether output thumbnails can be scaled from the program readback that outputs and MJPEG previews already run,
// instead of asking the render worker for another pass. Reads ring headers only (counters, never pixels).
import { FrameRingReader } from '../shared/frame-ring.js';

export class ProgramSource {
  private ring: SharedArrayBuffer | null = null;
  private reader: FrameRingReader | null = null;
  /** Ring frames written before the readback was last switched on: a picture older than the output's counter. */
  private base = 0;

  constructor(private readonly maxAgeMs: number) {}

  /** Follows the render worker's readback: the ring while it runs, null while it is off. */
  set(ring: SharedArrayBuffer | null): void {
    if (ring === this.ring) return;
    this.ring = ring;
    this.reader = ring ? new FrameRingReader(ring) : null;
    this.base = this.reader ? this.reader.frameCount() : 0;
  }

  /**
   * The ring when its newest frame was read back in this run of the readback and recently: the render writes it
   * before it counts the frame, so it holds the output frame the counter names or a newer one.
   */
  usable(now = Date.now()): SharedArrayBuffer | null {
    const r = this.reader;
    if (!r || r.frameCount() <= this.base) return null;
    return now - r.lastFrameTimeMs() <= this.maxAgeMs ? this.ring : null;
  }
}
