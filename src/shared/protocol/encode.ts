// Tasks of the encode pool (piscina, workers/encode): thumbnails, placeholder cards, previews and posters to PNG or
// JPEG.

export type ImageFormat = 'png' | 'jpg';

export type EncodeTask =
  /** Encodes width×height top-down RGBA pixels from `pixels` (a thumbnail slot). */
  | { op: 'encode'; pixels: SharedArrayBuffer; width: number; height: number; format: ImageFormat }
  /** A placeholder card: `title` (large) and `subtitle` (small) rendered with the font shipped in assets/fonts. */
  | { op: 'placeholder'; width: number; height: number; title: string; subtitle: string; format: ImageFormat }
  /** Palette swatches: equal-width vertical bars in palette order, left to right. */
  | { op: 'palette'; colors: string[]; width: number; height: number; format: ImageFormat }
  /** Resizes an image file vjd wrote itself (a cached media poster) to exactly width×height and encodes it. */
  | { op: 'file'; path: string; width: number; height: number; format: ImageFormat }
  /**
   * The newest program frame of the output ring (bottom-up RGBA, render size), area-averaged down to width×height
   * and encoded as JPEG; nothing (empty bytes) when the ring has no frame newer than `after` or the frame was torn.
   */
  | { op: 'program'; ring: SharedArrayBuffer; after: number; width: number; height: number }
  /**
   * An output thumbnail from the output ring's newest frame (bottom-up RGBA, render size), area-averaged down to
   * width×height and encoded as `format`; empty bytes when the ring has no frame or it was torn.
   */
  | { op: 'program-thumb'; ring: SharedArrayBuffer; width: number; height: number; format: ImageFormat };

/** What an encode task returns: the encoded image bytes. */
export interface EncodeResult {
  bytes: Uint8Array;
  /** Milliseconds spent encoding inside the worker. */
  ms: number;
  /** ops `program` and `program-thumb`: the ring frame encoded (or `after` when nothing was). */
  frameNo?: number;
}
