// Decodes thumbnails returned over HTTP (pngjs, jpeg-js) so tests can check sizes and pixel colors.
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';

export interface Decoded {
  width: number;
  height: number;
  data: Uint8Array;
  at(x: number, y: number): [number, number, number, number];
}

export function decodeImage(body: Buffer, contentType: string | undefined): Decoded {
  let width: number;
  let height: number;
  let data: Uint8Array;
  if (contentType === 'image/jpeg') {
    const img = jpeg.decode(body, { useTArray: true, formatAsRGBA: true });
    ({ width, height } = img);
    data = img.data;
  } else if (contentType === 'image/png') {
    const img = PNG.sync.read(body);
    ({ width, height } = img);
    data = img.data;
  } else throw new Error(`not an image content type: ${contentType}`);
  return {
    width,
    height,
    data,
    at(x, y) {
      const i = (Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
    },
  };
}

export function near(px: readonly number[], rgb: readonly number[], tol = 40): boolean {
  return Math.abs(px[0]! - rgb[0]!) <= tol && Math.abs(px[1]! - rgb[1]!) <= tol && Math.abs(px[2]! - rgb[2]!) <= tol;
}

/** Pixels brighter than `min` on every channel (text on a dark card). */
export function brightPixels(img: Decoded, min = 180): number {
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) if (img.data[i]! >= min && img.data[i + 1]! >= min && img.data[i + 2]! >= min) n++;
  return n;
}
