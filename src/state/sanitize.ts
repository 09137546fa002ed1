// What state.json may hold: each part kept only when its shape is right, so a hand-edited or older file loads.
import type { ModulationSaved, ShowState, TempoState } from './types.js';
import { checkModulator, cleanModulators, type Modulator } from '../shared/modulation.js';
import { sanitizeTransport } from '../transport/settings.js';
import { sanitizeLayers, sanitizeScenes } from './saved-layers.js';
import { sanitizeCues } from '../cues/types.js';
import { sanitizePixelmap } from '../pixelmap/saved.js';

/** The parts of a parsed file that have the right shape; the rest falls back to the defaults. */
export function sanitize(p: Partial<ShowState>): Partial<ShowState> {
  const out: Partial<ShowState> = {};
  if (Array.isArray(p.chain)) out.chain = p.chain.filter((e) => e && typeof e.type === 'string');
  if (p.currentSource && typeof p.currentSource.id === 'string') out.currentSource = p.currentSource;
  if (typeof p.paletteId === 'string') out.paletteId = p.paletteId;
  if (typeof p.blackout === 'boolean') out.blackout = p.blackout;
  if (typeof p.dimmer === 'number' && p.dimmer >= 0 && p.dimmer <= 1) out.dimmer = p.dimmer;
  const a = p.audio;
  if (a && typeof a === 'object' && (a.input === null || (typeof a.input === 'string' && a.input.length <= 64)))
    out.audio = { input: a.input };
  const t = sanitizeTempo(p.tempo);
  if (t) out.tempo = t;
  const g = p.audioSettings;
  if (g && typeof g === 'object' && isNum(g.offsetMs) && (g.gain === null || (isNum(g.gain) && g.gain > 0)))
    out.audioSettings = { gain: g.gain, offsetMs: g.offsetMs };
  const m = p.mix;
  if (m && typeof m === 'object' && m.transition && typeof m.transition.type === 'string' && typeof m.transition.durationMs === 'number') {
    const preview =
      m.preview && typeof m.preview.id === 'string' && typeof m.preview.kind === 'string'
        ? { kind: m.preview.kind, id: m.preview.id }
        : null;
    out.mix = { preview, transition: { type: m.transition.type, durationMs: Math.min(10_000, Math.max(0, m.transition.durationMs)) } };
  }
  const mod = sanitizeModulation(p.modulation);
  if (mod) out.modulation = mod;
  const transport = sanitizeTransport(p.transport);
  if (transport) out.transport = transport;
  const layers = sanitizeLayers(p.layers);
  if (layers) out.layers = layers;
  const scenes = sanitizeScenes(p.scenes);
  if (scenes) out.scenes = scenes;
  const cues = sanitizeCues(p.cues);
  if (cues) out.cues = cues;
  const pixelmap = sanitizePixelmap(p.pixelmap);
  if (pixelmap) out.pixelmap = pixelmap;
  return out;
}

/** Each modulator checked as a request's would be; an invalid one is dropped, not the whole part. */
function sanitizeModulation(m: unknown): ModulationSaved | undefined {
  if (!m || typeof m !== 'object') return undefined;
  const v = m as Partial<ModulationSaved>;
  const one = (x: unknown): Modulator | null => {
    const c = checkModulator(x);
    return c.ok ? c.modulator : null;
  };
  const g = v.generator;
  const mods = g && typeof g === 'object' && typeof g.key === 'string' && g.key.length <= 600 ? cleanModulators(g.modulators) : undefined;
  return {
    generator: g && mods ? { key: g.key, modulators: mods } : null,
    mix: one(v.mix),
    dimmer: one(v.dimmer),
    frozen: v.frozen === true,
  };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Shape only: the tempo service clamps the values to the current limits when it restores them. */
function sanitizeTempo(t: unknown): TempoState | undefined {
  if (!t || typeof t !== 'object') return undefined;
  const v = t as Partial<TempoState>;
  if (v.source !== 'auto' && v.source !== 'tap' && v.source !== 'manual') return undefined;
  if (!isNum(v.bpm) || !(v.manualBpm === null || isNum(v.manualBpm))) return undefined;
  if (!v.range || !isNum(v.range.min) || !isNum(v.range.max)) return undefined;
  return { source: v.source, bpm: v.bpm, manualBpm: v.manualBpm, range: { min: v.range.min, max: v.range.max } };
}
