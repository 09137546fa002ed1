// The shape checks of the saved layer stack and scenes: each entry kept only when its shape is right, so a
// hand-edited file loads with what is sound in it.
import type { ChainEntry, LayerSaved, MixState, SceneSaved } from './types.js';
import { LAYER_LIMITS } from '../limits.js';

const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const num01 = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

function sourceRef(v: unknown): { kind: string; id: string } | null {
  const r = v as { kind?: unknown; id?: unknown } | null;
  return r && typeof r === 'object' && str(r.kind, 16) && str(r.id, 600) ? { kind: r.kind, id: r.id } : null;
}

function chainOf(v: unknown): ChainEntry[] {
  return Array.isArray(v) ? (v as ChainEntry[]).filter((e) => e && typeof e.type === 'string') : [];
}

function mixOf(v: unknown): MixState | undefined {
  const m = v as Partial<MixState> | null;
  if (!m || typeof m !== 'object' || !m.transition || !str(m.transition.type, 128) || typeof m.transition.durationMs !== 'number')
    return undefined;
  return {
    preview: sourceRef(m.preview),
    transition: { type: m.transition.type, durationMs: Math.min(10_000, Math.max(0, m.transition.durationMs)) },
  };
}

function layerOf(v: unknown): Omit<LayerSaved, 'id'> | null {
  const l = v as Partial<LayerSaved> | null;
  if (!l || typeof l !== 'object' || !str(l.name, LAYER_LIMITS.nameMax) || !num01(l.opacity) || !str(l.blend, 64)) return null;
  const out: Omit<LayerSaved, 'id'> = {
    name: l.name,
    opacity: l.opacity,
    blend: l.blend,
    mute: l.mute === true,
    solo: l.solo === true,
    chain: chainOf(l.chain),
    currentSource: sourceRef(l.currentSource),
  };
  const mix = mixOf(l.mix);
  if (mix) out.mix = mix;
  return out;
}

export function sanitizeLayers(v: unknown): { selected: number; list: LayerSaved[] } | undefined {
  const p = v as { selected?: unknown; list?: unknown } | null;
  if (!p || typeof p !== 'object' || !Array.isArray(p.list)) return undefined;
  const list: LayerSaved[] = [];
  const ids = new Set<number>();
  for (const raw of p.list.slice(0, LAYER_LIMITS.maxLayersCeiling)) {
    const id = (raw as { id?: unknown })?.id;
    const l = layerOf(raw);
    if (!l || typeof id !== 'number' || !Number.isInteger(id) || id < 1 || ids.has(id)) continue;
    ids.add(id);
    list.push({ id, ...l });
  }
  if (list.length === 0) return undefined;
  const selected = typeof p.selected === 'number' && ids.has(p.selected) ? p.selected : list[0]!.id;
  return { selected, list };
}

export function sanitizeScenes(v: unknown): SceneSaved[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: SceneSaved[] = [];
  for (const raw of v.slice(0, LAYER_LIMITS.scenesMax)) {
    const s = raw as Partial<SceneSaved> | null;
    if (!s || typeof s !== 'object' || !str(s.id, 64) || !str(s.name, LAYER_LIMITS.sceneNameMax) || !Array.isArray(s.layers)) continue;
    const layers = s.layers.map(layerOf).filter((l): l is NonNullable<typeof l> => l !== null);
    if (layers.length === 0) continue;
    out.push({ id: s.id, name: s.name, savedAt: str(s.savedAt, 40) ? s.savedAt : '', layers, master: chainOf(s.master) });
  }
  return out;
}
