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
    boxScale(f.pixels, f.width, f.height, rgb, width, height);
    const frameNo = f.frameNo;
    if (reader.release()) return { rgb, frameNo };
  }
  return null;
}

function boxScale(src: Uint8Array, sw: number, sh: number, out: Buffer, w: number, h: number): void {
  const fx = sw / w;
  const fy = sh / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * fy));
    // GL rows are bottom-up: output row y comes from the source rows counted from the bottom.
    let o = (h - 1 - y) * w * 3;
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * fx));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let yy = y0; yy < y1; yy++) {
        for (let i = (yy * sw + x0) * 4, end = (yy * sw + x1) * 4; i < end; i += 4) {
          r += src[i]!;
          g += src[i + 1]!;
          b += src[i + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      out[o++] = Math.round(r / n);
      out[o++] = Math.round(g / n);
      out[o++] = Math.round(b / n);
    }
  }
}
