// OSC message types, the argument readers the address table's mappers share, and feedback: topic state mapped back
// to the same addresses. Values go through the route's own validation (an out-of-range dimmer changes nothing).
import { API_PREFIX } from '../http/route.js';

export interface OscArg {
  type: string;
  value: unknown;
}

export interface OscMessage {
  address: string;
  args: OscArg[];
}

/** What an incoming message asks for: the one request it stands for, nothing (a button's release), or why it was refused. */
export type Mapped = { kind: 'request'; path: string; body?: unknown } | { kind: 'ignore' } | { kind: 'bad'; reason: string };

export const bad = (reason: string): Mapped => ({ kind: 'bad', reason });
export const post = (path: string, body?: unknown): Mapped => ({ kind: 'request', path: `${API_PREFIX}${path}`, body });

/** Buttons send 1 on press and 0 on release: a trigger fires on a missing or non-zero argument only. */
export function trigger(args: OscArg[], then: Mapped): Mapped {
  if (args.length === 0) return then;
  const a = args[0]!;
  if (a.type === 'T') return then;
  if (a.type === 'F') return { kind: 'ignore' };
  if ((a.type === 'i' || a.type === 'f') && typeof a.value === 'number') return a.value === 0 ? { kind: 'ignore' } : then;
  return bad(`a trigger takes no argument or i/f/T/F, got ${a.type}`);
}

export function flag(args: OscArg[]): boolean | string {
  if (args.length !== 1) return `expects one argument (i, T, F or f), got ${args.length}`;
  const a = args[0]!;
  if (a.type === 'T') return true;
  if (a.type === 'F') return false;
  if (a.type === 'i' && typeof a.value === 'number') return a.value !== 0;
  if (a.type === 'f' && typeof a.value === 'number') return a.value >= 0.5;
  return `expects i, T, F or f, got ${a.type}`;
}

export function str(args: OscArg[]): string | null {
  return args.length === 1 && args[0]!.type === 's' && typeof args[0]!.value === 'string' ? args[0]!.value : null;
}

/** One number argument (f, i or d), else null. */
export const number = (args: OscArg[]): number | null => {
  const a = args[0];
  return args.length === 1 && a !== undefined && (a.type === 'f' || a.type === 'i' || a.type === 'd') && typeof a.value === 'number'
    ? a.value
    : null;
};

/** A mapper taking one string argument. */
export const withString =
  (what: string, to: (s: string) => Mapped) =>
  (args: OscArg[]): Mapped => {
    const s = str(args);
    return s === null ? bad(`expects one string (${what})`) : to(s);
  };

export interface InputInfo {
  name: string;
  type: string;
  min?: number | number[];
  max?: number | number[];
  value?: unknown;
  /** The input's modulator (GET /effects/{index}), null or absent when it has none. */
  modulator?: unknown;
}

/** A button's release on an event input: nothing to fire. */
export const RELEASE = Symbol('release');

/** A fader's 0..1 float spans a float input's MIN..MAX; other arguments are passed on for the route to check. */
export function inputValue(item: unknown, name: string, a: OscArg): unknown | typeof RELEASE {
  const inputs = ((item as { inputs?: InputInfo[] } | null)?.inputs ?? []) as InputInfo[];
  const input = inputs.find((i) => i.name === name);
  const isFloatArg = a.type === 'f' || a.type === 'd';
  if (a.type === 'T') return true;
  if (a.type === 'F') return input?.type === 'event' ? RELEASE : false;
  if (!input) return a.value;
  if (
    input.type === 'float' &&
    isFloatArg &&
    typeof input.min === 'number' &&
    typeof input.max === 'number' &&
    typeof a.value === 'number'
  ) {
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

/** Feedback of the `transport` topic: the program clip's position (0..1 of in-out) and time remaining; none without a clip. */
export function transportFeedback(d: Record<string, unknown>): OscMessage[] {
  const p = d.program as Record<string, unknown> | null | undefined;
  if (!p || typeof p.positionS !== 'number') return [];
  const out: OscMessage[] = [];
  const lo = typeof p.in === 'number' ? p.in : 0;
  const hi = typeof p.out === 'number' ? p.out : typeof p.durationS === 'number' ? p.durationS : null;
  if (hi !== null && hi > lo) {
    const f = Math.min(1, Math.max(0, (p.positionS - lo) / (hi - lo)));
    out.push({ address: '/vjd/transport/position', args: [{ type: 'f', value: f }] });
  }
  if (typeof p.remainingS === 'number') out.push({ address: '/vjd/transport/remaining', args: [{ type: 'f', value: p.remainingS }] });
  return out;
}

/** Feedback of the `layers` topic: each layer's opacity, blend, mute and solo at its position's addresses. */
function layersFeedback(d: Record<string, unknown>): OscMessage[] {
  const layers = Array.isArray(d.layers) ? (d.layers as Array<Record<string, unknown>>) : [];
  return layers.flatMap((l) => {
    const at = `/vjd/layers/${String(l.layer)}`;
    return [
      { address: `${at}/opacity`, args: [{ type: 'f', value: Number(l.opacity) }] },
      { address: `${at}/blend`, args: [{ type: 's', value: String(l.blend) }] },
      { address: `${at}/mute`, args: [{ type: 'i', value: l.mute ? 1 : 0 }] },
      { address: `${at}/solo`, args: [{ type: 'i', value: l.solo ? 1 : 0 }] },
    ];
  });
}

/** Where each level of the `audio` topic goes back out. */
const AUDIO_ADDRESS = {
  level: '/vjd/audio/level',
  bass: '/vjd/audio/bass',
  lowMid: '/vjd/audio/lowmid',
  highMid: '/vjd/audio/highmid',
  high: '/vjd/audio/high',
} as const;

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
    case 'audio':
      return (['level', 'bass', 'lowMid', 'highMid', 'high'] as const).flatMap((k) =>
        typeof d[k] === 'number' ? [{ address: AUDIO_ADDRESS[k], args: [{ type: 'f', value: d[k] as number }] }] : [],
      );
    case 'tempo': {
      const out: OscMessage[] = [];
      if (typeof d.bpm === 'number') out.push({ address: '/vjd/tempo/bpm', args: [{ type: 'f', value: d.bpm }] });
      if (typeof d.beat === 'number') out.push({ address: '/vjd/tempo/beat', args: [{ type: 'i', value: d.beat }] });
      return out;
    }
    case 'transport':
      return transportFeedback(d);
    case 'layers':
      return layersFeedback(d);
    case 'status': {
      const fps = (d.render as { fps?: unknown } | undefined)?.fps;
      return typeof fps === 'number' ? [{ address: '/vjd/status/fps', args: [{ type: 'f', value: fps }] }] : [];
    }
  }
  return [];
}
