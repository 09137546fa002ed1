// Strict OSC packet reader, straight from the datagram in one bounded pass: the structure, element sizes and type
// tags are checked as they are read, so a packet vjd cannot use (array tags, too many arguments, lying bundle sizes,
// trailing bytes) costs a few comparisons and is refused before any value is built.
import { OSC_LIMITS } from '../limits.js';
import type { OscArg, OscMessage } from '../transports/addresses/args.js';

export type ReadResult = { ok: true; messages: OscMessage[] } | { ok: false; reason: string };

/** Every type tag some vjd address takes; anything else (arrays, blobs, MIDI, …) is refused unread. */
const TAKEN = new Set(['i', 'f', 'd', 's', 'T', 'F']);
const BUNDLE = Buffer.from('#bundle\0', 'latin1');
const COMMA = 0x2c;
const SLASH = 0x2f;

class Refused {
  constructor(readonly reason: string) {}
}

const pad4 = (n: number): number => (n + 3) & ~3;

/** The NUL-terminated, NUL-padded string at `at`, searched for at most `max` bytes; returns its end and next offset. */
function stringAt(buf: Buffer, at: number, end: number, max: number, what: string): { stop: number; next: number } {
  const limit = Math.min(end, at + max + 1);
  let stop = at;
  while (stop < limit && buf[stop] !== 0) stop++;
  if (stop >= limit) throw new Refused(stop >= end ? `${what} is not terminated` : `${what} is longer than ${max} bytes`);
  const next = pad4(stop + 1);
  if (next > end) throw new Refused(`${what} padding runs past the end`);
  for (let k = stop + 1; k < next; k++) if (buf[k] !== 0) throw new Refused(`${what} padding is not zero`);
  return { stop, next };
}

function readMessage(buf: Buffer, at: number, end: number, out: OscMessage[]): void {
  if (buf[at] !== SLASH) throw new Refused('not an OSC message or bundle');
  const addr = stringAt(buf, at, end, OSC_LIMITS.addressMaxBytes, 'the address');
  let pos = addr.next;
  if (pos >= end || buf[pos] !== COMMA) throw new Refused('no type tag string');
  // The tags are checked before their string is searched for its end, so a long tag string costs one byte read.
  const tagsStart = pos + 1;
  let tagsEnd = tagsStart;
  while (tagsEnd < end && buf[tagsEnd] !== 0) {
    const tag = String.fromCharCode(buf[tagsEnd]!);
    if (!TAKEN.has(tag)) throw new Refused(`type tag ${JSON.stringify(tag)} is not taken by any vjd address`);
    if (tagsEnd - tagsStart >= OSC_LIMITS.argsMax) throw new Refused(`more than ${OSC_LIMITS.argsMax} arguments`);
    tagsEnd++;
  }
  pos = stringAt(buf, pos, end, OSC_LIMITS.argsMax + 1, 'the type tag string').next;
  const args: OscArg[] = [];
  for (let k = tagsStart; k < tagsEnd; k++) {
    const tag = String.fromCharCode(buf[k]!);
    if (tag === 'T' || tag === 'F') {
      args.push({ type: tag, value: tag === 'T' });
      continue;
    }
    if (tag === 's') {
      const s = stringAt(buf, pos, end, OSC_LIMITS.stringMaxBytes, 'a string argument');
      args.push({ type: 's', value: buf.toString('utf8', pos, s.stop) });
      pos = s.next;
      continue;
    }
    const size = tag === 'd' ? 8 : 4;
    if (pos + size > end) throw new Refused('an argument runs past the end');
    args.push({ type: tag, value: tag === 'i' ? buf.readInt32BE(pos) : tag === 'f' ? buf.readFloatBE(pos) : buf.readDoubleBE(pos) });
    pos += size;
  }
  if (pos !== end) throw new Refused(`${end - pos} bytes after the message`);
  if (out.length >= OSC_LIMITS.bundleMaxMessages) throw new Refused(`more than ${OSC_LIMITS.bundleMaxMessages} messages`);
  out.push({ address: buf.toString('latin1', at, addr.stop), args });
}

function readElement(buf: Buffer, at: number, end: number, depth: number, out: OscMessage[]): void {
  if ((end - at) % 4 !== 0 || end - at < 4) throw new Refused('size is not a positive multiple of 4');
  if (end - at < BUNDLE.length || buf.compare(BUNDLE, 0, BUNDLE.length, at, at + BUNDLE.length) !== 0)
    return readMessage(buf, at, end, out);
  if (depth >= OSC_LIMITS.bundleMaxDepth) throw new Refused(`bundles nest deeper than ${OSC_LIMITS.bundleMaxDepth}`);
  // The time tag is read past: messages apply on arrival.
  let pos = at + BUNDLE.length + 8;
  if (pos > end) throw new Refused('a bundle without its time tag');
  while (pos < end) {
    if (pos + 4 > end) throw new Refused('a bundle element size runs past the end');
    const size = buf.readInt32BE(pos);
    if (size <= 0 || size % 4 !== 0 || size > end - pos - 4) throw new Refused(`a bundle element size of ${size} does not fit the bundle`);
    readElement(buf, pos + 4, pos + 4 + size, depth + 1, out);
    pos += 4 + size;
  }
}

/** Reads one datagram into its messages (a bundle's in order), or says why it was refused. */
export function readPacket(buf: Buffer): ReadResult {
  const messages: OscMessage[] = [];
  try {
    readElement(buf, 0, buf.length, 0, messages);
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.reason };
    throw err;
  }
  return { ok: true, messages };
}
