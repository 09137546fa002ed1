// The program ring's pixel layout and its colour maths, shared by the render worker (which packs the output into
// that layout on the GPU) and the readers that turn it back into RGB (previews and output thumbnails). I420 rows are
// upright; RGBA rows are bottom-up, as GL reads them, so the render spends no pass on turning them.
import type { PixelLayout } from './frame-ring.js';

/** Config render.readback: the program ring's layout, or "auto" (measured once on the render's GPU). */
export type ReadbackSetting = 'auto' | 'i420' | 'rgba';

/**
 * I420 when the pack pass can write it: four samples per RGBA texel need a luma row a multiple of 4 bytes and a
 * chroma row (half the width) one too, and two chroma rows share a texel row. Other sizes carry RGBA.
 */
export function programLayout(width: number, height: number): PixelLayout {
  return width % 8 === 0 && height % 4 === 0 ? 'i420' : 'rgba';
}

/** BT.709 luma weights of R, G and B. */
export const KR = 0.2126;
export const KB = 0.0722;
export const KG = 1 - KR - KB;

/** Limited ("TV") range: luma 16..235, chroma 16..240 around 128, in 8-bit codes. */
export const Y_OFFSET = 16;
export const Y_SPAN = 219;
export const C_SPAN = 224;

/** RGB (0..255) of one limited-range BT.709 Y'CbCr sample, clamped; written into `out` at `o`. */
export function yuvToRgb(y: number, u: number, v: number, out: Uint8Array, o: number): void {
  const l = (y - Y_OFFSET) / Y_SPAN;
  const cb = (u - 128) / C_SPAN;
  const cr = (v - 128) / C_SPAN;
  const r = l + 2 * (1 - KR) * cr;
  const b = l + 2 * (1 - KB) * cb;
  const g = (l - KR * r - KB * b) / KG;
  out[o] = clamp255(r);
  out[o + 1] = clamp255(g);
  out[o + 2] = clamp255(b);
}

function clamp255(x: number): number {
  return x <= 0 ? 0 : x >= 1 ? 255 : Math.round(x * 255);
}
