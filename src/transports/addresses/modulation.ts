// The modulation entries of the OSC address table: an existing modulator's amount and rate per effect input, and
// freeze. An address changes a modulator that exists; it never creates one (that needs a kind, a shape and more).
import type { InputInfo } from '../inputs.js';
import { bad, post, type Mapped } from '../request.js';
import { flag, number, str } from './args.js';
import type { OscEntry, OscLookup } from './entry.js';

/** Longest rate string taken from a packet: the longest beat division (`1/64d`) with room to spare. */
const RATE_MAX_CHARS = 16;

type Modulator = Record<string, unknown> & { kind?: unknown };

/** The input's current modulator, or why the address cannot change one. */
function modulatorOf(lookup: OscLookup, at: string, name: string): { input: InputInfo; modulator: Modulator } | string {
  const index = Number(at);
  const item = lookup.chain().find((i) => i.index === index);
  if (!item) return `no effect at chain position ${index}`;
  const input = item.inputs.find((i) => i.name === name);
  if (!input) return `effect ${index} has no input "${name}"`;
  const m = input.modulator;
  if (m === null || m === undefined || typeof m !== 'object')
    return `effect ${index} input "${name}" has no modulator: add one with POST /effects/modulate`;
  return { input, modulator: m as Modulator };
}

/** One request replacing the modulator with a changed copy; the route validates the result like any other. */
function change([at, name]: string[], lookup: OscLookup, edit: (m: Modulator) => Modulator | string): Mapped {
  const found = modulatorOf(lookup, at!, name!);
  if (typeof found === 'string') return bad(found);
  const next = edit(found.modulator);
  return typeof next === 'string' ? bad(next) : post('/effects/modulate', { index: Number(at), input: name, modulator: next });
}

export const MODULATION_TABLE: readonly OscEntry[] = [
  {
    address: '/vjd/effects/{index}/{input}/mod/amount',
    pattern: /^effects\/(\d{1,4})\/([^/]{1,128})\/mod\/amount$/,
    types: 'f|i',
    does: "POST /effects/modulate with the input's modulator and this amount (−1..1); refused when the input has none",
    map: (args, parts, lookup) => {
      const v = number(args);
      // NaN and infinities have no JSON form: refused here with the same words as any other bad number.
      if (v === null || !Number.isFinite(v)) return bad('expects one finite number (amount −1..1)');
      return change(parts, lookup, (m) => ({ ...m, amount: v }));
    },
  },
  {
    address: '/vjd/effects/{index}/{input}/mod/rate',
    pattern: /^effects\/(\d{1,4})\/([^/]{1,128})\/mod\/rate$/,
    types: 's|f|i',
    does: "POST /effects/modulate with the input's modulator and this rate: a beat division (`1/4`, `1`, `1/8d`, `1/16t`, …) or Hz",
    map: (args, parts, lookup) => {
      const s = str(args);
      const hz = s === null ? number(args) : null;
      if (s !== null && (s.length === 0 || s.length > RATE_MAX_CHARS)) return bad(`a rate string has 1 to ${RATE_MAX_CHARS} characters`);
      if (s === null && (hz === null || !Number.isFinite(hz))) return bad('expects one string (beat division) or finite number (Hz)');
      return change(parts, lookup, (m) =>
        m.kind === 'lfo' || m.kind === 'steps' ? { ...m, rate: s ?? hz } : `a ${String(m.kind)} modulator has no rate`,
      );
    },
  },
  {
    address: '/vjd/modulation/freeze',
    types: 'i|T|F|f',
    does: 'POST /modulation/freeze {enabled}: hold every modulated input where it is (1) or let it run on in phase (0)',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args) => {
      const v = flag(args);
      return typeof v === 'string' ? bad(v) : post('/modulation/freeze', { enabled: v });
    },
  },
];
