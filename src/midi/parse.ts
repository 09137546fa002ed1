// Raw MIDI bytes to one event, strictly: a message is one status byte and its exact data bytes (top bit clear);
// anything longer, shorter or of a kind vjd maps nothing to (sysex, aftertouch) is refused before it is used.

export type MidiEvent =
  | { kind: 'note' | 'cc' | 'program' | 'pitch'; channel: number; number: number; value: number }
  | { kind: 'clock' | 'start' | 'continue' | 'stop' };

export type MidiRead = { ok: true; event: MidiEvent } | { ok: true; event: null } | { ok: false; reason: string };

const REALTIME: Record<number, 'clock' | 'start' | 'continue' | 'stop'> = { 248: 'clock', 250: 'start', 251: 'continue', 252: 'stop' };

/** Reads one message (as a MIDI library delivers it: an array of bytes). */
export function readMidi(bytes: ArrayLike<number>): MidiRead {
  const n = bytes.length;
  if (n < 1 || n > 3) return { ok: false, reason: `a message of ${n} bytes` };
  const status = bytes[0]!;
  if (!Number.isInteger(status) || status < 0x80 || status > 0xff) return { ok: false, reason: 'no status byte first' };
  for (let k = 1; k < n; k++) {
    const b = bytes[k]!;
    if (!Number.isInteger(b) || b < 0 || b > 0x7f) return { ok: false, reason: `data byte ${k} is not 0-127` };
  }
  if (status >= 0xf0) {
    const rt = REALTIME[status];
    if (rt) return n === 1 ? { ok: true, event: { kind: rt } } : { ok: false, reason: 'a real-time message with data bytes' };
    // Active sensing, song position and the rest of the system messages carry nothing vjd maps.
    return { ok: true, event: null };
  }
  const type = status & 0xf0;
  const channel = (status & 0x0f) + 1;
  const want = type === 0xc0 || type === 0xd0 ? 2 : 3;
  if (n !== want) return { ok: false, reason: `status 0x${status.toString(16)} takes ${want} bytes, got ${n}` };
  const a = bytes[1]!;
  const b = n === 3 ? bytes[2]! : 0;
  switch (type) {
    case 0x80:
      return { ok: true, event: { kind: 'note', channel, number: a, value: 0 } };
    case 0x90:
      return { ok: true, event: { kind: 'note', channel, number: a, value: b } };
    case 0xb0:
      return { ok: true, event: { kind: 'cc', channel, number: a, value: b } };
    case 0xc0:
      return { ok: true, event: { kind: 'program', channel, number: a, value: a } };
    case 0xe0:
      return { ok: true, event: { kind: 'pitch', channel, number: 0, value: (b << 7) | a } };
    default:
      // Aftertouch (polyphonic and channel).
      return { ok: true, event: null };
  }
}

/** Bytes of a channel message (for feedback). */
export function midiBytes(kind: 'note' | 'cc' | 'pitch', channel: number, number: number, value: number): number[] {
  const ch = (channel - 1) & 0x0f;
  if (kind === 'pitch') return [0xe0 | ch, value & 0x7f, (value >> 7) & 0x7f];
  return [(kind === 'note' ? 0x90 : 0xb0) | ch, number & 0x7f, value & 0x7f];
}
