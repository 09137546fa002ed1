// Thumbnail request parameters and validators: size and format parsing (docs/api.md, thumbnails and limits), the fitted
// image size, and the ETag form `"<kind>-<width>x<height>-<format>-<digest>"`.
import { createHash } from 'node:crypto';
import type { ImageFormat } from '../shared/protocol/encode.js';
import { LIMITS } from '../limits.js';

const { sizeMin, sizeMax, sizeDefault } = LIMITS.thumbnails;

/** Thumbnail kinds named in ETags. */
export type ThumbKind = 'live' | 'current' | 'source' | 'media' | 'palette' | 'layer' | 'effect';

/**
 * `size`: a whole decimal number is clamped to 32-512; anything else (absent, empty, decimals, words, hex, octal,
 * binary or exponent forms that `Number()` would accept, over 32 characters) takes the default 192.
 */
export function parseSize(raw: string | undefined): number {
  if (raw === undefined || raw.length === 0 || raw.length > 32) return sizeDefault;
  const t = raw.trim();
  if (!/^[+-]?\d+(\.0*)?$/.test(t)) return sizeDefault;
  const n = Number(t);
  return Math.min(sizeMax, Math.max(sizeMin, n));
}

/** `format`: exactly `png` or `jpg` (as docs/api.md names them); any other value takes the default `png`. */
export function parseFormat(raw: string | undefined): ImageFormat {
  return raw === 'jpg' ? 'jpg' : 'png';
}

/** The longest edge equals `size`; the other follows the aspect ratio of width × height (at least 1 px). */
export function fitSize(width: number, height: number, size: number): { width: number; height: number } {
  if (!(width > 0) || !(height > 0)) return { width: size, height: Math.max(1, Math.round((size * 9) / 16)) };
  if (width >= height) return { width: size, height: Math.max(1, Math.round((size * height) / width)) };
  return { width: Math.max(1, Math.round((size * width) / height)), height: size };
}

export function etagOf(kind: ThumbKind, width: number, height: number, format: ImageFormat, digest: string): string {
  return `"${kind}-${width}x${height}-${format}-${digest}"`;
}

/** Short content hash for digests (12 hex of sha256). */
export function shortHash(...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 12);
}
