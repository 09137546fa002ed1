// Area averages of a program frame into upright RGB at a preview or thumbnail size, from either ring layout (RGBA
// bottom-up as GL reads it, I420 upright): each output pixel is the mean of the source block it covers (for I420,
// of its luma and of its chroma blocks, then one BT.709 limited-range conversion). Cost follows the source pixels
// read, never a full-size RGB copy.
import type { PixelLayout } from '../../src/shared/frame-ring.js';
import { yuvToRgb } from '../../src/shared/program-layout.js';

/** The source span [a, b) output index i covers when n source samples go to m outputs (at least one sample). */
function span(i: number, n: number, m: number): [number, number] {
  const a = Math.floor((i * n) / m);
  return [a, Math.max(a + 1, Math.floor(((i + 1) * n) / m))];
}

export function boxScale(layout: PixelLayout, src: Uint8Array, sw: number, sh: number, out: Uint8Array, w: number, h: number): void {
  if (layout === 'i420') boxScaleI420(src, sw, sh, out, w, h);
  else boxScaleRgba(src, sw, sh, out, w, h);
}

function boxScaleRgba(src: Uint8Array, sw: number, sh: number, out: Uint8Array, w: number, h: number): void {
  for (let y = 0; y < h; y++) {
    const [y0, y1] = span(y, sh, h);
    // Rows are bottom-up: output row y comes from the source rows counted from the bottom.
    let o = (h - 1 - y) * w * 3;
    for (let x = 0; x < w; x++) {
      const [x0, x1] = span(x, sw, w);
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

function boxScaleI420(src: Uint8Array, sw: number, sh: number, out: Uint8Array, w: number, h: number): void {
  const cw = sw >> 1;
  const ch = sh >> 1;
  const uBase = sw * sh;
  const vBase = uBase + cw * ch;
  let o = 0;
  for (let y = 0; y < h; y++) {
    const [y0, y1] = span(y, sh, h);
    const [c0, c1] = span(y, ch, h);
    for (let x = 0; x < w; x++) {
      const [x0, x1] = span(x, sw, w);
      const [d0, d1] = span(x, cw, w);
      let l = 0;
      for (let yy = y0; yy < y1; yy++) for (let i = yy * sw + x0, end = yy * sw + x1; i < end; i++) l += src[i]!;
      let u = 0;
      let v = 0;
      for (let yy = c0; yy < c1; yy++) {
        for (let i = yy * cw + d0, end = yy * cw + d1; i < end; i++) {
          u += src[uBase + i]!;
          v += src[vBase + i]!;
        }
      }
      const nc = (c1 - c0) * (d1 - d0);
      yuvToRgb(l / ((y1 - y0) * (x1 - x0)), u / nc, v / nc, out, o);
      o += 3;
    }
  }
}
