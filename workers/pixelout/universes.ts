// The sender's universes: one buffer per (protocol, destination, universe) of the patch, refilled from the samples
// each tick through each fixture's colour encoder, with what was last sent, so an unchanged universe waits for its
// keep-alive. A destination outside the allowed list gets no universe at all.
import { pixelEncoder, testLevel, type PixelEncoder, type PixelTest } from '../../src/shared/pixelmap/colour.js';
import { pixelCount } from '../../src/shared/pixelmap/geometry.js';
import { fixtureSlots, universeKey, type PatchSlot, type PixelProtocol } from '../../src/shared/pixelmap/patch.js';
import type { Fixture } from '../../src/shared/pixelmap/types.js';
import { isAllowed } from './targets.js';

export interface Universe {
  key: string;
  protocol: PixelProtocol;
  destination: string;
  universe: number;
  /** Slots sent: up to the highest patched channel. */
  length: number;
  data: Uint8Array;
  /** The bytes last sent, null before the first send. */
  sent: Uint8Array | null;
  sentAt: number;
  sequence: number;
}

interface Placed {
  encoder: PixelEncoder;
  /** Index of the fixture's first pixel in the samples. */
  base: number;
  slots: { universe: Universe; slot: PatchSlot }[];
}

export class Universes {
  readonly list: Universe[] = [];
  /** Fixtures dropped for a destination not allowed (already refused by the API; this is the last guard). */
  readonly refused: string[] = [];
  readonly pixels: number;
  private readonly placed: Placed[] = [];
  private readonly scratch = new Uint8Array(4);

  constructor(fixtures: readonly Fixture[], allowed: readonly string[]) {
    const byKey = new Map<string, Universe>();
    let base = 0;
    for (const f of fixtures) {
      const count = pixelCount(f);
      const here: Placed = { encoder: pixelEncoder(f), base, slots: [] };
      base += count;
      this.placed.push(here);
      if (!isAllowed(f.protocol, f.destination, allowed)) {
        this.refused.push(`fixture ${JSON.stringify(f.id)}: destination ${JSON.stringify(f.destination)} is not allowed; not sent`);
        continue;
      }
      for (const slot of fixtureSlots(f)) {
        const key = universeKey(slot);
        let u = byKey.get(key);
        if (!u) {
          const { protocol, destination, universe } = slot;
          u = { key, protocol, destination, universe, length: 0, data: new Uint8Array(512), sent: null, sentAt: 0, sequence: 0 };
          byKey.set(key, u);
          this.list.push(u);
        }
        u.length = Math.max(u.length, slot.channel - 1 + slot.pixels * slot.channels);
        here.slots.push({ universe: u, slot });
      }
    }
    this.pixels = base;
  }

  /** Encodes every fixture from `rgba` (samples in fixture then pixel order), or its test level where a test runs. */
  fill(rgba: Uint8Array | null, test: PixelTest, now: number): void {
    const n = this.placed.length;
    for (const [i, p] of this.placed.entries()) {
      const level = testLevel(test, i, n, now);
      if (level === null && !rgba) continue;
      if (level !== null) this.scratch.set([level, level, level, 255]);
      for (const { universe, slot } of p.slots) {
        const ch = slot.channels;
        for (let k = 0; k < slot.pixels; k++) {
          const out = slot.channel - 1 + k * ch;
          if (level !== null) p.encoder.encode(this.scratch, 0, universe.data, out);
          else p.encoder.encode(rgba!, (p.base + slot.firstPixel + k) * 4, universe.data, out);
        }
      }
    }
  }

  /** The universes to send now: bytes changed since the last send, or the keep-alive is due. */
  due(now: number, keepAliveMs: number, filled: boolean): Universe[] {
    return this.list.filter((u) => {
      if (!u.sent) return filled;
      if (now - u.sentAt >= keepAliveMs) return true;
      if (!filled) return false;
      for (let k = 0; k < u.length; k++) if (u.data[k] !== u.sent[k]) return true;
      return false;
    });
  }

  /** Records `u` as sent now (its bytes are what the next tick compares with). */
  markSent(u: Universe, now: number): void {
    if (!u.sent) u.sent = new Uint8Array(512);
    u.sent.set(u.data);
    u.sentAt = now;
  }
}
