// MPEG-TS timestamps without a demuxer: the PTS of each video PES that starts in a run of 188-byte packets, and a
// reader that follows an unaligned byte stream (pipe chunks split packets anywhere) with bounded work per chunk.

const PACKET = 188;

/** The 90 kHz PTS of each video PES start in whole packets from the start of `buf`. */
export function videoPts(buf: Uint8Array): number[] {
  const out: number[] = [];
  for (let at = 0; at + PACKET <= buf.length; at += PACKET) {
    const p = buf.subarray(at, at + PACKET);
    if (p[0] !== 0x47 || !(p[1]! & 0x40) || !(p[3]! & 0x10)) continue;
    const start = 4 + (p[3]! & 0x20 ? 1 + p[4]! : 0);
    const h = p.subarray(start);
    if (h.length < 14 || h[0] !== 0 || h[1] !== 0 || h[2] !== 1 || (h[3]! & 0xf0) !== 0xe0 || !(h[7]! & 0x80)) continue;
    out.push(((h[9]! >> 1) & 7) * 2 ** 30 + h[10]! * 2 ** 22 + (h[11]! >> 1) * 2 ** 15 + h[12]! * 2 ** 7 + (h[13]! >> 1));
  }
  return out;
}

/** Follows an MPEG-TS byte stream chunk by chunk: `latestMs` is the newest video PTS seen (ms), or -1. */
export class TsClock {
  latestMs = -1;
  /** The bytes of a packet split by the last chunk's end. */
  private carry: Buffer = Buffer.alloc(0);

  reset(): void {
    this.latestMs = -1;
    this.carry = Buffer.alloc(0);
  }

  feed(chunk: Buffer): void {
    let buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    // Lost sync (never from ffmpeg's own muxer): skip to the next sync byte rather than read garbage.
    if (buf[0] !== 0x47) {
      const at = buf.indexOf(0x47);
      buf = at < 0 ? Buffer.alloc(0) : buf.subarray(at);
    }
    const whole = buf.length - (buf.length % PACKET);
    for (const pts of videoPts(buf.subarray(0, whole))) this.latestMs = pts / 90;
    this.carry = Buffer.from(buf.subarray(whole));
  }
}
