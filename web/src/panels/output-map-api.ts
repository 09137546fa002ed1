// The output-mapping editor's shapes and calls: an output's map as GET /outputs types it, read once when the editor
// opens (a map set over HTTP moves no events topic unless the output restarts), and POST /outputs/{id}/map, whose
// answer is the map the server kept.
import { call } from '../api';
import type { Got } from '../api-shapes';
import type { Quad, Slice } from './output-map-math';

export type Output = Got<'/outputs'>['items'][number];
export type OutputMap = NonNullable<Output['map']>;
export type Blend = NonNullable<OutputMap['blend']>;

export const WHOLE: Slice = { x: 0, y: 0, w: 1, h: 1 };

/** The output's map as the server has it now; undefined when it could not be read (the caller keeps what it had). */
export async function readMap(id: string): Promise<OutputMap | null | undefined> {
  const r = await call('GET', '/outputs');
  if (!r.ok || !r.body) return undefined;
  const o = r.body.items.find((i) => i.id === id);
  return o ? o.map : undefined;
}

export type Sent = { ok: true; map: OutputMap | null } | { ok: false; message: string };

export async function sendMap(id: string, map: OutputMap | null): Promise<Sent> {
  const r = await call('POST', '/outputs/{id}/map', { path: { id }, body: { map } });
  if (r.ok) return { ok: true, map: r.body.current.map };
  return { ok: false, message: r.body ? `${r.body.message}` : `HTTP ${r.status}` };
}

/** The map's corners, or null when it has none (the picture fills the output). */
export const cornersOf = (m: OutputMap | null): Quad | null => (m?.corners?.length === 4 ? (m.corners as Quad) : null);

export const sliceOf = (m: OutputMap | null): Slice => m?.slice ?? WHOLE;

/** `map` with `change` applied; keys set to undefined are dropped, and an empty map is null (the program as it is). */
export function withChange(m: OutputMap | null, change: Partial<OutputMap>): OutputMap | null {
  const next: Record<string, unknown> = { ...(m ?? {}), ...change };
  for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
  return Object.keys(next).length === 0 ? null : (next as OutputMap);
}
