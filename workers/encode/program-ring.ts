// Program frames for the encode pool: the newest frame of the output ring copied out under a short hold, then
// flipped (GL reads rows bottom-up) and area-averaged to a preview or thumbnail size.
import sharp, { type Sharp } from 'sharp';
import { FrameRingReader } from '../../src/shared/frame-ring.js';

/** One reader per ring per thread: a reader announces the slot it holds, so it must outlive one task. */
const readers = new WeakMap<SharedArrayBuffer, FrameRingReader>();
/** A frame the render overwrote during the copy is taken again, a few times at most. */
const ATTEMPTS = 3;

export interface ProgramCopy {
  pixels: Buffer;
  width: number;
  height: number;
  frameNo: number;
}

/**
 * Copies the ring's newest frame when it is newer than `after`. The slot is held only for the copy, so the render
 * writes around it for a millisecond, not for the encode that follows.
 */
export function newestProgramFrame(ring: SharedArrayBuffer, after: number): ProgramCopy | null {
  let reader = readers.get(ring);
  if (!reader) readers.set(ring, (reader = new FrameRingReader(ring)));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (reader.frameCount() <= after) return null;
    const f = reader.acquire();
    if (!f || f.frameNo <= after) {
      reader.release();
      return null;
    }
    const { width, height, frameNo } = f;
    const pixels = Buffer.allocUnsafe(width * height * 4);
    pixels.set(f.pixels.subarray(0, pixels.byteLength));
    if (reader.release()) return { pixels, width, height, frameNo };
  }
  return null;
}

/**
 * The frame upright at width×height. libvips' resize box-shrinks by the integer part of the factor and reduces the
 * rest with a linear kernel widened by the factor: an area average, like the render worker's downscale.
 */
export function scaledProgram(frame: ProgramCopy, width: number, height: number): Sharp {
  return sharp(frame.pixels, { raw: { width: frame.width, height: frame.height, channels: 4 } })
    .flip()
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .removeAlpha();
}
