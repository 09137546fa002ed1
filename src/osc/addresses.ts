// The OSC address space, mirroring the routes: each address becomes the HTTP request it stands for, so values go
// through the route's own validation (an out-of-range dimmer changes nothing, as over HTTP). Feedback maps topic
// state back to the same addresses.
import { API_PREFIX } from '../http/route.js';

export interface OscArg {
  type: string;
  value: unknown;
}

export interface OscMessage {
  address: string;
  args: OscArg[];
}

/** What an incoming message asks for: a request, nothing (a button's release), or why it was refused. */
export type Mapped =
  | { kind: 'request'; method: 'POST' | 'GET'; path: string; body?: unknown; then?: (body: unknown) => Mapped }
  | { kind: 'ignore' }
  | { kind: 'bad'; reason: string };

const bad = (reason: string): Mapped => ({ kind: 'bad', reason });
const post = (path: string, body?: unknown): Mapped => ({ kind: 'request', method: 'POST', path: `${API_PREFIX}${path}`, body });

/** The address table for the README and GET /capabilities. */
export const OSC_ADDRESSES: ReadonlyArray<{ address: string; types: string; does: string }> = [
  { address: '/vjd/source/select', types: 's', does: 'POST /sources/select {id}' },
  { address: '/vjd/mix/cue', types: 's', does: 'POST /mix/cue {id}' },
  { address: '/vjd/mix/take', types: '(none)|i|f', does: 'POST /mix/take' },
  { address: '/vjd/mix/position', types: 'f', does: 'POST /mix/position {value}' },
  { address: '/vjd/effects/add', types: 's', does: 'POST /effects/add {type}' },
  { address: '/vjd/effects/{index}/enabled', types: 'i|T|F|f', does: 'POST /effects/enabled {index, enabled}' },
  { address: '/vjd/effects/{index}/toggle', types: '(none)|i|f', does: 'POST /effects/toggle {index}' },
  {
    address: '/vjd/effects/{index}/{input}',
    types: 'f|i|s|T|F',
    does: 'POST /effects/params {index, values: {input: v}}; a float for a float input is 0..1 over its MIN..MAX (as faders send)',
  },
  { address: '/vjd/palette/next', types: '(none)|i|f', does: 'POST /palettes/next' },
  { address: '/vjd/palette/select', types: 's|i', does: 'POST /palettes/select {id}; an integer is the 1-based position in GET /palettes' },
  { address: '/vjd/global/blackout', types: 'i|T|F|f', does: 'POST /global/blackout {enabled}' },
  { address: '/vjd/global/dimmer', types: 'f|i', does: 'POST /global/dimmer {value}' },
  { address: '/vjd/actions/run', types: 's', does: 'POST /actions/{id}' },
];

/** Buttons send 1 on press and 0 on release: a trigger fires on a missing or non-zero argument only. */
function trigger(args: OscArg[], then: Mapped): Mapped {
  if (args.length === 0) return then;
  const a = args[0]!;
  if (a.type === 'T') return then;
  if (a.type === 'F') return { kind: 'ignore' };
  if ((a.type === 'i' || a.type === 'f') && typeof a.value === 'number') return a.value === 0 ? { kind: 'ignore' } : then;
  return bad(`a trigger takes no argument or i/f/T/F, got ${a.type}`);
}

function flag(args: OscArg[]): boolean | string {
  if (args.length !== 1) return `expects one argument (i, T, F or f), got ${args.length}`;
  const a = args[0]!;
  if (a.type === 'T') return true;
  if (a.type === 'F') return false;
  if (a.type === 'i' && typeof a.value === 'number') return a.value !== 0;
  if (a.type === 'f' && typeof a.value === 'number') return a.value >= 0.5;
  return `expects i, T, F or f, got ${a.type}`;
}

function str(args: OscArg[]): string | null {
  return args.length === 1 && args[0]!.type === 's' && typeof args[0]!.value === 'string' ? args[0]!.value : null;
}

/** Maps one message; the route validates the values. */
export function mapMessage(msg: OscMessage): Mapped {
  const parts = msg.address.split('/');
  if (parts[0] !== '' || parts[1] !== 'vjd') return bad('not a /vjd address');
  const args = msg.args;
  const path = parts.slice(2).join('/');
  switch (path) {
    case 'source/select': {
      const id = str(args);
      return id === null ? bad('expects one string (source id)') : post('/sources/select', { id });
    }
    case 'effects/add': {
      const type = str(args);
      return type === null ? bad('expects one string (effect type)') : post('/effects/add', { type });
    }
    case 'mix/cue': {
      const id = str(args);
      return id === null ? bad('expects one string (source id)') : post('/mix/cue', { id });
    }
    case 'mix/take':
      return trigger(args, post('/mix/take', {}));
    case 'mix/position': {
      const a = args[0];
      if (args.length !== 1 || a === undefined || (a.type !== 'f' && a.type !== 'i' && a.type !== 'd') || typeof a.value !== 'number') return bad('expects one number');
      return post('/mix/position', { value: a.value });
    }
    case 'palette/next':
      return trigger(args, post('/palettes/next'));
    case 'palette/select': {
      const id = str(args);
      if (id !== null) return post('/palettes/select', { id });
      const a = args[0];
      if (args.length !== 1 || a === undefined || a.type !== 'i' || typeof a.value !== 'number') return bad('expects one string (palette id) or integer (1-based position)');
      const position = a.value;
      return {
        kind: 'request',
        method: 'GET',
        path: `${API_PREFIX}/palettes`,
        then: (list) => {
          const items = (list as { items?: Array<{ id: string }> } | null)?.items ?? [];
          const item = items[position - 1];
          return item ? post('/palettes/select', { id: item.id }) : bad(`no palette at position ${position} (1 to ${items.length})`);
        },
      };
    }
    case 'global/blackout': {
      const v = flag(args);
      return typeof v === 'string' ? bad(v) : post('/global/blackout', { enabled: v });
    }
    case 'global/dimmer': {
      const a = args[0];
      if (args.length !== 1 || a === undefined || (a.type !== 'f' && a.type !== 'i' && a.type !== 'd') || typeof a.value !== 'number') return bad('expects one number');
      return post('/global/dimmer', { value: a.value });
    }
    case 'actions/run': {
      const id = str(args);
      return id === null ? bad('expects one string (action id)') : post(`/actions/${encodeURIComponent(id)}`);
    }
  }
  const effect = /^effects\/(\d{1,4})\/(enabled|toggle)$/.exec(path);
  if (effect) {
    const index = Number(effect[1]);
    if (effect[2] === 'toggle') return trigger(args, post('/effects/toggle', { index }));
    const v = flag(args);
    return typeof v === 'string' ? bad(v) : post('/effects/enabled', { index, enabled: v });
  }
  const input = /^effects\/(\d{1,4})\/([^/]{1,128})$/.exec(path);
  if (input) {
    const index = Number(input[1]);
    const name = input[2]!;
    const a = args[0];
    if (args.length !== 1 || a === undefined || !['f', 'd', 'i', 's', 'T', 'F'].includes(a.type)) return bad('expects one argument (f, i, s, T or F)');
    // The input's type and range decide what the argument means: read the item first.
    return { kind: 'request', method: 'GET', path: `${API_PREFIX}/effects/${index}`, then: (item) => {
        const value = inputValue(item, name, a);
        return value === RELEASE ? { kind: 'ignore' } : post('/effects/params', { index, values: { [name]: value } });
      },
    };
  }
  return bad('unknown address');
}

interface InputInfo {
  name: string;
  type: string;
  min?: number | number[];
  max?: number | number[];
  value?: unknown;
}

/** A button's release on an event input: nothing to fire. */
const RELEASE = Symbol('release');

/** A fader's 0..1 float spans a float input's MIN..MAX; other arguments are passed on for the route to check. */
function inputValue(item: unknown, name: string, a: OscArg): unknown | typeof RELEASE {
  const inputs = ((item as { inputs?: InputInfo[] } | null)?.inputs ?? []) as InputInfo[];
  const input = inputs.find((i) => i.name === name);
  const isFloatArg = a.type === 'f' || a.type === 'd';
  if (a.type === 'T') return true;
  if (a.type === 'F') return input?.type === 'event' ? RELEASE : false;
  if (!input) return a.value;
  if (input.type === 'float' && isFloatArg && typeof input.min === 'number' && typeof input.max === 'number' && typeof a.value === 'number') {
    return input.min + a.value * (input.max - input.min);
  }
  if (input.type === 'event' && typeof a.value === 'number') return a.value !== 0 ? true : RELEASE;
  if (input.type === 'bool' && typeof a.value === 'number') return isFloatArg ? a.value >= 0.5 : a.value !== 0;
  if (input.type === 'long' && isFloatArg && typeof a.value === 'number') return Math.round(a.value);
  return a.value;
}

/** Feedback for one effect's inputs (from GET /effects/{index} or a params answer): floats as 0..1 over MIN..MAX. */
export function inputFeedback(item: unknown): OscMessage[] {
  const it = item as { index?: number; inputs?: InputInfo[] } | null;
  if (!it || typeof it.index !== 'number' || !Array.isArray(it.inputs)) return [];
  const out: OscMessage[] = [];
  for (const i of it.inputs) {
    const address = `/vjd/effects/${it.index}/${i.name}`;
    if (i.type === 'float' && typeof i.value === 'number' && typeof i.min === 'number' && typeof i.max === 'number') {
      out.push({ address, args: [{ type: 'f', value: i.max === i.min ? 0 : (i.value - i.min) / (i.max - i.min) }] });
    } else if (i.type === 'bool' && typeof i.value === 'boolean') {
      out.push({ address, args: [{ type: 'i', value: i.value ? 1 : 0 }] });
    } else if (i.type === 'long' && typeof i.value === 'number') {
      out.push({ address, args: [{ type: 'i', value: i.value }] });
    }
  }
  return out;
}

/** Feedback: the messages that describe a topic's new state (same addresses as the controls, plus names). */
export function feedbackFor(topic: string, data: unknown): OscMessage[] {
  if (data === null || typeof data !== 'object') return [];
  const d = data as Record<string, unknown>;
  switch (topic) {
    case 'global':
      return [
        { address: '/vjd/global/blackout', args: [{ type: 'i', value: d.blackout ? 1 : 0 }] },
        { address: '/vjd/global/dimmer', args: [{ type: 'f', value: Number(d.dimmer) }] },
      ];
    case 'source': {
      const out: OscMessage[] = [];
      if (typeof d.id === 'string') out.push({ address: '/vjd/source/select', args: [{ type: 's', value: d.id }] });
      if (typeof d.name === 'string') out.push({ address: '/vjd/source/name', args: [{ type: 's', value: d.name }] });
      return out;
    }
    case 'mix': {
      const out: OscMessage[] = [{ address: '/vjd/mix/position', args: [{ type: 'f', value: Number(d.position) }] }];
      const preview = d.preview as { id?: unknown } | null;
      out.push({ address: '/vjd/mix/cue', args: [{ type: 's', value: preview && typeof preview.id === 'string' ? preview.id : '' }] });
      return out;
    }
    case 'palette':
      return typeof d.id === 'string' ? [{ address: '/vjd/palette/select', args: [{ type: 's', value: d.id }] }] : [];
    case 'chain': {
      const items = Array.isArray(d.items) ? (d.items as Array<Record<string, unknown>>) : [];
      return items.flatMap((it) => [
        { address: `/vjd/effects/${String(it.index)}/enabled`, args: [{ type: 'i', value: it.enabled ? 1 : 0 }] },
        { address: `/vjd/effects/${String(it.index)}/name`, args: [{ type: 's', value: String(it.name ?? it.type ?? '') }] },
      ]);
    }
    case 'status': {
      const fps = (d.render as { fps?: unknown } | undefined)?.fps;
      return typeof fps === 'number' ? [{ address: '/vjd/status/fps', args: [{ type: 'f', value: fps }] }] : [];
    }
  }
  return [];
}
