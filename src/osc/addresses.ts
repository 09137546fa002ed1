// The OSC address space, mirroring the routes: each address becomes the HTTP request it stands for, so values go
// through the route's own validation (an out-of-range dimmer changes nothing, as over HTTP). Feedback maps topic
// state back to the same addresses. Addresses of routes that do not exist yet (the mixer, effect inputs) are not here.
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
  { address: '/vjd/effects/add', types: 's', does: 'POST /effects/add {type}' },
  { address: '/vjd/effects/{index}/enabled', types: 'i|T|F|f', does: 'POST /effects/enabled {index, enabled}' },
  { address: '/vjd/effects/{index}/toggle', types: '(none)|i|f', does: 'POST /effects/toggle {index}' },
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
  return bad('unknown address');
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
