// MIDI mappings: a note, CC, 14-bit CC pair, pitch bend or program change on a port and channel becomes one OSC
// message of vjd's address table (so it maps to the same request OSC does), and that address's feedback becomes
// the note velocity or controller value that lights the button or moves the fader.
import type { MidiMapping } from '../config/desks.js';
import type { OscArg, OscMessage } from '../transports/addresses/args.js';
import { midiBytes, type MidiEvent } from './parse.js';

type ChannelEvent = Extract<MidiEvent, { channel: number }>;

/** Encoder ticks per full 0..1 sweep. */
const RELATIVE_STEPS = 128;

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

const modeOf = (m: MidiMapping): NonNullable<MidiMapping['mode']> =>
  m.mode ?? (m.type === 'note' || m.type === 'program' ? 'trigger' : 'absolute');

const fixedArg = (a: string | number): OscArg =>
  typeof a === 'string' ? { type: 's', value: a } : { type: Number.isInteger(a) ? 'i' : 'f', value: a };

export class MidiMapper {
  private mappings: readonly MidiMapping[] = [];
  /** Per mapping: its value as last sent or fed back (0..1), the base of toggles and relative encoders. */
  private readonly value = new Map<MidiMapping, number>();
  /** Per mapping: the feedback last sent, so an unchanged LED is not sent again. */
  private readonly shown = new Map<MidiMapping, string>();
  /** The MSB of each 14-bit pair, by port, channel and controller. */
  private readonly msb = new Map<string, number>();

  set(mappings: readonly MidiMapping[]): void {
    this.mappings = mappings;
    this.value.clear();
    this.shown.clear();
  }

  get list(): readonly MidiMapping[] {
    return this.mappings;
  }

  get hasFeedback(): boolean {
    return this.mappings.some((m) => m.feedback === true);
  }

  /** The OSC messages an event stands for, one per matching mapping. */
  map(port: string, ev: ChannelEvent): OscMessage[] {
    const out: OscMessage[] = [];
    // A 14-bit pair's MSB is kept and acts with its LSB, so a move is one exact value, not a coarse step first.
    if (ev.kind === 'cc' && ev.number < 32) this.msb.set(`${port}|${ev.channel}|${ev.number}`, ev.value);
    for (const m of this.mappings) {
      if (!this.matches(m, port, ev)) continue;
      const args = this.args(m, port, ev);
      if (args !== null) out.push({ address: m.to, args });
    }
    return out;
  }

  private matches(m: MidiMapping, port: string, ev: ChannelEvent): boolean {
    if (m.port !== undefined && !port.toLowerCase().includes(m.port.toLowerCase())) return false;
    if (m.channel !== undefined && m.channel !== ev.channel) return false;
    switch (m.type) {
      case 'note':
        return ev.kind === 'note' && ev.number === m.number;
      case 'cc':
        return ev.kind === 'cc' && ev.number === m.number;
      case 'cc14':
        return ev.kind === 'cc' && m.number !== undefined && ev.number === m.number + 32;
      case 'pitch':
        return ev.kind === 'pitch';
      case 'program':
        return ev.kind === 'program' && (m.number === undefined || m.number === ev.number);
    }
  }

  private args(m: MidiMapping, port: string, ev: ChannelEvent): OscArg[] | null {
    const mode = modeOf(m);
    const pressed = ev.kind === 'program' || ev.value > 0;
    if (mode === 'trigger') {
      if (!pressed) return null;
      if (m.arg !== undefined) return [fixedArg(m.arg)];
      // A program change without a fixed number selects by position: the lowest program is the first item.
      return m.type === 'program' && m.number === undefined ? [{ type: 'i', value: ev.number + 1 }] : [];
    }
    if (mode === 'toggle') {
      if (!pressed) return null;
      const next = (this.value.get(m) ?? 0) >= 0.5 ? 0 : 1;
      this.value.set(m, next);
      return [{ type: 'i', value: next }];
    }
    if (mode === 'relative' || mode === 'relativeOffset') {
      const delta = mode === 'relative' ? (ev.value < 64 ? ev.value : ev.value - 128) : ev.value - 64;
      const next = clamp01((this.value.get(m) ?? 0) + delta / RELATIVE_STEPS);
      this.value.set(m, next);
      return [{ type: 'f', value: next }];
    }
    let v: number;
    if (m.type === 'cc14') v = (((this.msb.get(`${port}|${ev.channel}|${m.number}`) ?? 0) << 7) | ev.value) / 16383;
    else if (m.type === 'pitch') v = ev.value / 16383;
    else v = ev.value / 127;
    this.value.set(m, v);
    return [{ type: 'f', value: v }];
  }

  /** MIDI messages that show an address's new value on the mappings fed back to; each with its mapping's port. */
  feedback(msg: OscMessage): Array<{ port: string | undefined; bytes: number[] }> {
    const out: Array<{ port: string | undefined; bytes: number[] }> = [];
    const a = msg.args[0];
    if (!a) return out;
    for (const m of this.mappings) {
      if (m.feedback !== true || m.to !== msg.address || m.type === 'program') continue;
      let v: number;
      if (a.type === 'f' && typeof a.value === 'number') v = clamp01(a.value);
      else if (typeof m.arg === 'string' && a.type === 's') v = String(a.value).toLowerCase() === m.arg.toLowerCase() ? 1 : 0;
      else if (typeof m.arg === 'number' && (a.type === 'i' || a.type === 'f')) v = a.value === m.arg ? 1 : 0;
      else if (a.type === 'i' && typeof a.value === 'number') v = a.value !== 0 ? 1 : 0;
      else continue;
      this.value.set(m, v);
      const bytes = this.bytes(m, v);
      const key = bytes.join(',');
      if (this.shown.get(m) === key) continue;
      this.shown.set(m, key);
      for (let k = 0; k < bytes.length; k += 3) out.push({ port: m.port, bytes: bytes.slice(k, k + 3) });
    }
    return out;
  }

  private bytes(m: MidiMapping, v: number): number[] {
    const ch = m.channel ?? 1;
    if (m.type === 'pitch') return midiBytes('pitch', ch, 0, Math.round(v * 16383));
    if (m.type === 'cc14') {
      const full = Math.round(v * 16383);
      return [...midiBytes('cc', ch, m.number!, full >> 7), ...midiBytes('cc', ch, m.number! + 32, full & 0x7f)];
    }
    return midiBytes(m.type === 'note' ? 'note' : 'cc', ch, m.number ?? 0, Math.round(v * 127));
  }
}
