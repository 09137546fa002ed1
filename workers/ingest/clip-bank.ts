// The frames of one forward pass of a ping-pong clip, kept decoded, and which of them the back-and-forth playback
// shows at a clock position: back from the last frame to the first, then forward again, over and over.

export class ClipBank {
  private frames: Buffer[] = [];
  private positions: number[] = [];
  /** The reader whose pass is being kept; null once complete or not collecting. */
  source: object | null = null;
  complete = false;
  width = 0;
  height = 0;
  /** Clock position at which playback from memory began (the last frame, turning back). */
  base = 0;
  private maxFrames = 0;

  constructor(private readonly fps: number) {}

  get length(): number {
    return this.frames.length;
  }

  /** Starts keeping the frames of `source`, at most `maxFrames` of them. */
  collect(source: object, maxFrames: number): void {
    this.free();
    this.source = source;
    this.maxFrames = maxFrames;
  }

  /** Keeps a copy of a frame of the pass; past the bound the pass is dropped (the clip plays as a loop). */
  add(source: object, frame: Buffer, fileS: number, width: number, height: number): void {
    if (this.source !== source) return;
    if (this.frames.length >= this.maxFrames || (this.frames.length > 0 && (width !== this.width || height !== this.height))) {
      this.free();
      return;
    }
    this.width = width;
    this.height = height;
    this.frames.push(Buffer.from(frame));
    this.positions.push(fileS);
  }

  /** The pass of `source` reached its end: with two frames or more it can play from memory. */
  finish(source: object): boolean {
    if (this.source === source) {
      this.source = null;
      this.complete = this.frames.length >= 2;
      if (!this.complete) this.free();
    }
    return this.complete;
  }

  /** Index of the frame shown at clock position `raw`, and the clock position of that frame. */
  at(raw: number): { index: number; raw: number } {
    const n = this.frames.length;
    const k = Math.max(0, Math.floor((raw - this.base) * this.fps + 1e-6));
    const period = 2 * (n - 1);
    const m = k % period;
    return { index: m < n - 1 ? n - 1 - m : m - (n - 1), raw: this.base + k / this.fps };
  }

  frame(index: number): Buffer {
    return this.frames[index]!;
  }

  positionS(index: number): number {
    return this.positions[index]!;
  }

  free(): void {
    this.frames = [];
    this.positions = [];
    this.source = null;
    this.complete = false;
  }
}
