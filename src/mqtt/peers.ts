// The boxes of the show as their retained state topics describe them (this box included): GET /show lists them.
// Each state is read with its size bounded and each field type- and length-checked; a state that does not read is
// ignored, an empty retained payload (a box removed by hand) forgets the box, and the table is bounded.
import { SHOW_LIMITS } from '../limits.js';
import { isShowName } from './topics.js';

export interface PeerView {
  box: string;
  groups: string[];
  online: boolean;
  leader: boolean;
  fps: number | null;
  scene: { id: string; name: string } | null;
  source: { kind: string; id: string; name: string } | null;
  tempo: { bpm: number; source: string; beatsPerBar: number } | null;
  version: string | null;
  /** When this box last heard its state (ISO). */
  lastSeen: string;
}

const STR_MAX = 256;
const str = (v: unknown): string | null => (typeof v === 'string' && v.length <= STR_MAX ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

function named<K extends string>(v: unknown, keys: readonly K[]): Record<K, string> | null {
  const o = obj(v);
  if (!o) return null;
  const out = {} as Record<K, string>;
  for (const k of keys) {
    const s = str(o[k]);
    if (s === null) return null;
    out[k] = s;
  }
  return out;
}

function tempoOf(v: unknown): PeerView['tempo'] {
  const o = obj(v);
  const bpm = num(o?.bpm);
  if (!o || bpm === null) return null;
  return { bpm, source: str(o.source) ?? '', beatsPerBar: num(o.beatsPerBar) ?? 0 };
}

/** A state payload as a view, or null when it does not read as one of `box`. */
export function readPeer(box: string, payload: Buffer, now: Date): PeerView | null {
  if (payload.byteLength > SHOW_LIMITS.stateMaxBytes) return null;
  let v: Record<string, unknown> | null;
  try {
    v = obj(JSON.parse(payload.toString('utf8')));
  } catch {
    return null;
  }
  if (!v || v.box !== box || typeof v.online !== 'boolean') return null;
  const groups = Array.isArray(v.groups)
    ? v.groups.slice(0, SHOW_LIMITS.groupsMax).filter((g): g is string => typeof g === 'string' && isShowName(g))
    : [];
  return {
    box,
    groups,
    online: v.online,
    leader: v.leader === true,
    fps: num(v.fps),
    scene: named(v.scene, ['id', 'name'] as const),
    source: named(v.source, ['kind', 'id', 'name'] as const),
    tempo: tempoOf(v.tempo),
    version: str(v.version),
    lastSeen: now.toISOString(),
  };
}

export class Peers {
  private readonly boxes = new Map<string, PeerView>();

  /** Takes a box's state message; false when it was not read (too large, not a state, the table full). */
  heard(box: string, payload: Buffer): boolean {
    if (payload.byteLength === 0) return this.boxes.delete(box);
    const view = readPeer(box, payload, new Date());
    if (!view) return false;
    const known = this.boxes.get(box);
    // An offline mark carries only the box: what it last showed stays, with online false.
    const merged = view.online || !known ? view : { ...known, online: false, lastSeen: view.lastSeen };
    if (!known && this.boxes.size >= SHOW_LIMITS.boxesMax) return false;
    this.boxes.set(box, merged);
    return true;
  }

  list(): PeerView[] {
    return [...this.boxes.values()].sort((a, b) => a.box.localeCompare(b.box));
  }
}
