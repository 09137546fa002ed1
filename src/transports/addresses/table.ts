// The OSC address table: one entry per address with its argument types, what it does, how OSCQuery describes it and
// its mapper (arguments → the one HTTP request it stands for). OSC, MIDI mappings (which name these addresses),
// OSCQuery and the docs all read this table.
import { inputValue, RELEASE } from '../inputs.js';
import { bad, post, type Mapped } from '../request.js';
import { flag, number, str, trigger, type OscMessage, withString } from './args.js';
import { TEMPO_AUDIO_TABLE } from './tempo.js';
import { MODULATION_TABLE } from './modulation.js';
import { TRANSPORT_TABLE } from './clip.js';
import { LAYER_TABLE } from './layers.js';
import { SHOW_TABLE } from './show.js';
import { CUES_TABLE } from './cues.js';
import type { OscEntry, OscLookup } from './entry.js';

export type { OscEntry, OscLookup } from './entry.js';

export const OSC_TABLE: readonly OscEntry[] = [
  {
    address: '/vjd/source/select',
    types: 's',
    does: 'POST /sources/select {id}',
    query: { type: 's', access: 3 },
    map: withString('source id', (id) => post('/sources/select', { id })),
  },
  { address: '/vjd/source/name', types: 's', does: 'feedback only', query: { type: 's', access: 1 } },
  {
    address: '/vjd/mix/cue',
    types: 's',
    does: 'POST /mix/cue {id}',
    query: { type: 's', access: 3 },
    map: withString('source id', (id) => post('/mix/cue', { id })),
  },
  {
    address: '/vjd/mix/take',
    types: '(none)|i|f',
    does: 'POST /mix/take',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args) => trigger(args, post('/mix/take', {})),
  },
  {
    address: '/vjd/mix/position',
    types: 'f',
    does: 'POST /mix/position {value}',
    query: { type: 'f', access: 3, range: [0, 1] },
    map: (args) => {
      const v = number(args);
      return v === null ? bad('expects one number') : post('/mix/position', { value: v });
    },
  },
  {
    address: '/vjd/mix/transition',
    types: 's',
    does: 'POST /mix/transition {transition}',
    query: { type: 's', access: 2 },
    map: withString('transition type', (transition) => post('/mix/transition', { transition })),
  },
  {
    address: '/vjd/mix/duration',
    types: 'f|i',
    does: 'POST /mix/transition {durationMs}',
    query: { type: 'f', access: 2, range: [0, 10000] },
    map: (args) => {
      const v = number(args);
      return v === null ? bad('expects one number of milliseconds') : post('/mix/transition', { durationMs: Math.round(v) });
    },
  },
  {
    address: '/vjd/effects/add',
    types: 's',
    does: 'POST /effects/add {type}',
    query: { type: 's', access: 2 },
    map: withString('effect type', (type) => post('/effects/add', { type })),
  },
  {
    address: '/vjd/effects/{index}/enabled',
    pattern: /^effects\/(\d{1,4})\/enabled$/,
    types: 'i|T|F|f',
    does: 'POST /effects/enabled {index, enabled}',
    map: (args, [index]) => {
      const v = flag(args);
      return typeof v === 'string' ? bad(v) : post('/effects/enabled', { index: Number(index), enabled: v });
    },
  },
  {
    address: '/vjd/effects/{index}/toggle',
    pattern: /^effects\/(\d{1,4})\/toggle$/,
    types: '(none)|i|f',
    does: 'POST /effects/toggle {index}',
    map: (args, [index]) => trigger(args, post('/effects/toggle', { index: Number(index) })),
  },
  {
    address: '/vjd/effects/{index}/{input}',
    pattern: /^effects\/(\d{1,4})\/([^/]{1,128})$/,
    types: 'f|i|s|T|F',
    does: 'POST /effects/params {index, values: {input: v}}; a float for a float input is 0..1 over its MIN..MAX (as faders send)',
    map: (args, [at, name], lookup) => {
      const a = args[0];
      if (args.length !== 1 || a === undefined || !['f', 'd', 'i', 's', 'T', 'F'].includes(a.type))
        return bad('expects one argument (f, i, s, T or F)');
      const index = Number(at);
      // The input's type and range, read from the chain as it is now, decide what the argument means.
      const item = lookup.chain().find((i) => i.index === index) ?? null;
      const value = inputValue(item, name!, a);
      return value === RELEASE ? { kind: 'ignore' } : post('/effects/params', { index, values: { [name!]: value } });
    },
  },
  {
    address: '/vjd/palette/next',
    types: '(none)|i|f',
    does: 'POST /palettes/next',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args) => trigger(args, post('/palettes/next')),
  },
  {
    address: '/vjd/palette/select',
    types: 's|i',
    does: 'POST /palettes/select {id}; an integer is the 1-based position in GET /palettes',
    query: { type: 's', access: 3 },
    map: (args, _parts, lookup) => {
      const id = str(args);
      if (id !== null) return post('/palettes/select', { id });
      const a = args[0];
      if (args.length !== 1 || a === undefined || a.type !== 'i' || typeof a.value !== 'number')
        return bad('expects one string (palette id) or integer (1-based position)');
      const ids = lookup.paletteIds();
      const at = ids[a.value - 1];
      return at !== undefined && a.value >= 1
        ? post('/palettes/select', { id: at })
        : bad(`no palette at position ${a.value} (1 to ${ids.length})`);
    },
  },
  {
    address: '/vjd/global/blackout',
    types: 'i|T|F|f',
    does: 'POST /global/blackout {enabled}',
    query: { type: 'i', access: 3, range: [0, 1] },
    map: (args) => {
      const v = flag(args);
      return typeof v === 'string' ? bad(v) : post('/global/blackout', { enabled: v });
    },
  },
  {
    address: '/vjd/global/dimmer',
    types: 'f|i',
    does: 'POST /global/dimmer {value}',
    query: { type: 'f', access: 3, range: [0, 1] },
    map: (args) => {
      const v = number(args);
      return v === null ? bad('expects one number') : post('/global/dimmer', { value: v });
    },
  },
  {
    address: '/vjd/actions/run',
    types: 's',
    does: 'POST /actions/{id}',
    query: { type: 's', access: 2 },
    map: withString('action id', (id) => post(`/actions/${encodeURIComponent(id)}`)),
  },
  { address: '/vjd/status/fps', types: 'f', does: 'feedback only', query: { type: 'f', access: 1 } },
  ...TEMPO_AUDIO_TABLE,
  ...MODULATION_TABLE,
  ...TRANSPORT_TABLE,
  ...LAYER_TABLE,
  ...SHOW_TABLE,
  ...CUES_TABLE,
];

const FIXED = new Map(OSC_TABLE.filter((e) => !e.pattern).map((e) => [e.address, e]));
const WITH_PARTS = OSC_TABLE.filter((e) => e.pattern);

/** Maps one message through its table entry; the route validates the values. */
export function mapMessage(msg: OscMessage, lookup: OscLookup): Mapped {
  if (!msg.address.startsWith('/vjd/')) return bad('not a /vjd address');
  const fixed = FIXED.get(msg.address);
  if (fixed?.map) return fixed.map(msg.args, [], lookup);
  const rest = msg.address.slice('/vjd/'.length);
  for (const e of WITH_PARTS) {
    const m = e.pattern!.exec(rest);
    if (m && e.map) return e.map(msg.args, m.slice(1), lookup);
  }
  return bad('unknown address');
}
