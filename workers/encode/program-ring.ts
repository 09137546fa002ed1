// Program frames for the encode pool: the newest frame of the output ring (I420 upright, or RGBA bottom-up as GL
// reads it) copied out under a short hold, then area-averaged to an upright preview or thumbnail size.
import sharp, { type Sharp } from 'sharp';
import { FrameRingReader, type PixelLayout } from '../../src/shared/frame-ring.js';
import { boxScale } from './box-scale.js';

/** One reader per ring per thread: a reader announces the slot it holds, so it must outlive one task. */
const readers = new WeakMap<SharedArrayBuffer, FrameRingReader>();
/** A frame the render overwrote during the copy is taken again, a few times at most. */
const ATTEMPTS = 3;

export interface ProgramCopy {
  pixels: Buffer;
  layout: PixelLayout;
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
    const pixels = Buffer.allocUnsafe(f.pixels.byteLength);
    pixels.set(f.pixels);
    if (reader.release()) return { pixels, layout: reader.geometry.layout, width, height, frameNo };
  }
  return null;
}

/**
 * The frame at width×height. RGBA goes to libvips, whose resize box-shrinks by the integer part of the factor and
 * reduces the rest with a linear kernel widened by the factor; I420 is area-averaged into RGB here first.
 */
export function scaledProgram(frame: ProgramCopy, width: number, height: number): Sharp {
  if (frame.layout === 'i420') {
    const rgb = Buffer.allocUnsafe(width * height * 3);
    boxScale('i420', frame.pixels, frame.width, frame.height, rgb, width, height);
    return sharp(rgb, { raw: { width, height, channels: 3 } });
  }
  return sharp(frame.pixels, { raw: { width: frame.width, height: frame.height, channels: 4 } })
    .flip()
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .removeAlpha();
}

/**
 * The newest frame area-averaged straight out of its ring slot into upright RGB at width×height (each output pixel
 * the mean of the source block it covers). For thumbnail sizes this is a few milliseconds, against a full-frame
 * copy plus a libvips flip and resize that took tens of milliseconds on a loaded two-core box.
 */
export function boxScaledProgram(ring: SharedArrayBuffer, width: number, height: number): { rgb: Buffer; frameNo: number } | null {
  let reader = readers.get(ring);
  if (!reader) readers.set(ring, (reader = new FrameRingReader(ring)));
  const rgb = Buffer.allocUnsafe(width * height * 3);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const f = reader.acquire();
    if (!f) return null;
    boxScale(reader.geometry.layout, f.pixels, f.width, f.height, rgb, width, height);
    const frameNo = f.frameNo;
    if (reader.release()) return { rgb, frameNo };
  }
  return null;
}
