// From a sampled RGBA texel to a fixture pixel's channel bytes: white extracted first (on the linear values, so W
// takes the grey part), then gamma and brightness through one 256-entry table, then the wiring's colour order.
import type { ColorOrder, Fixture } from './types.js';

export type ColourOptions = Pick<Fixture, 'colorOrder' | 'gamma' | 'brightness'>;

/** `white` lights every pixel full white; `each` lights one fixture at a time, EACH_STEP_MS each, to find them. */
export type PixelTest = 'off' | 'white' | 'each';
export const EACH_STEP_MS = 1000;

const LUT_CACHE_MAX = 64;
const luts = new Map<string, Uint8Array>();

/** round(255 · brightness · (x / 255)^gamma) for x in 0..255; one table per (gamma, brightness), cached. */
export function levelLut(gamma: number, brightness = 1): Uint8Array {
  const key = `${gamma}/${brightness}`;
  let lut = luts.get(key);
  if (lut) return lut;
  lut = new Uint8Array(256);
  for (let x = 0; x < 256; x++) lut[x] = Math.round(255 * brightness * (x / 255) ** gamma);
  // Fixtures share a handful of values; a client cycling through many must not grow the cache for ever.
  if (luts.size >= LUT_CACHE_MAX) luts.clear();
  luts.set(key, lut);
  return lut;
}

export const gammaLut = (gamma: number): Uint8Array => levelLut(gamma, 1);

const COMPONENT: Record<string, number> = { R: 0, G: 1, B: 2, W: 3 };

/** For each output channel, which of (r, g, b, w) it carries. */
export const orderIndex = (order: ColorOrder): number[] => [...order].map((c) => COMPONENT[c]!);

export interface PixelEncoder {
  readonly channels: 3 | 4;
  /** Writes the pixel of `rgba` at byte `at` as `channels` bytes into `out` at `outAt`. */
  encode(rgba: Uint8Array, at: number, out: Uint8Array, outAt: number): void;
}

export function pixelEncoder(o: ColourOptions): PixelEncoder {
  const index = orderIndex(o.colorOrder);
  const channels = index.length as 3 | 4;
  const white = channels === 4;
  const lut = levelLut(o.gamma, o.brightness);
  const v = [0, 0, 0, 0];
  return {
    channels,
    encode(rgba, at, out, outAt) {
      let r = rgba[at]!;
      let g = rgba[at + 1]!;
      let b = rgba[at + 2]!;
      let w = 0;
      if (white) {
        w = Math.min(r, g, b);
        r -= w;
        g -= w;
        b -= w;
      }
      v[0] = r;
      v[1] = g;
      v[2] = b;
      v[3] = w;
      for (let j = 0; j < channels; j++) out[outAt + j] = lut[v[index[j]!]!]!;
    },
  };
}

/** The level every pixel of fixture `fixture` (of `count`) shows under `test` at `nowMs`: 255, 0, or null (samples). */
export function testLevel(test: PixelTest, fixture: number, count: number, nowMs: number): number | null {
  if (test === 'off') return null;
  if (test === 'white') return 255;
  return count > 0 && Math.floor(nowMs / EACH_STEP_MS) % count === fixture ? 255 : 0;
}
