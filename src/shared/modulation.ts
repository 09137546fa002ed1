// Modulators: what moves an input by itself (an LFO, the audio, the beat, a step sequence), as data. The one JSON
// check and the beat-division parser, shared by the main thread (routes, state) and the render worker (evaluation).
import { MOD_LIMITS } from '../limits.js';

/** Around the set value, from it upward, from it downward. `unipolar` is read as `up` (older saved shows and scripts). */
export const POLARITIES = ['bipolar', 'up', 'down'] as const;
export type Polarity = (typeof POLARITIES)[number];
/** What `amount` is a share of: the input's whole range, or the room between the set value and the end moved toward. */
export const AMOUNTS_OF = ['range', 'headroom'] as const;
export type AmountOf = (typeof AMOUNTS_OF)[number];
export const LFO_SHAPES = ['sine', 'triangle', 'saw', 'ramp', 'square', 'random', 'smooth'] as const;
export type LfoShape = (typeof LFO_SHAPES)[number];
export const AUDIO_SOURCES = ['level', 'bass', 'lowMid', 'highMid', 'high', 'onset'] as const;
export type AudioSource = (typeof AUDIO_SOURCES)[number];
/** Hz, or a beat division locked to the tempo clock ("1/4" one beat, "1" one bar, "3/16d"-style forms below). */
export type Rate = number | string;

interface Common {
  amount: number;
  polarity?: Polarity;
  amountOf?: AmountOf;
}
export type LfoModulator = Common & { kind: 'lfo'; shape: LfoShape; rate: Rate; phase?: number; width?: number };
export type AudioModulator = Common & {
  kind: 'audio';
  source: AudioSource;
  gain?: number;
  threshold?: number;
  attackMs?: number;
  releaseMs?: number;
};
export type BeatModulator = Common & {
  kind: 'beat';
  every?: number | 'onset';
  attackMs?: number;
  decayMs?: number;
  curve?: 'linear' | 'exp';
};
export type StepsModulator = Common & { kind: 'steps'; values: number[]; rate: Rate; glide?: number };
export type Modulator = LfoModulator | AudioModulator | BeatModulator | StepsModulator;

/** Input components a modulator can take: point2D `x`/`y`, color `hue`/`saturation`/`brightness`. */
export const POINT_COMPONENTS = ['x', 'y'] as const;
export const COLOR_COMPONENTS = ['hue', 'saturation', 'brightness'] as const;

const MOD_MAX_HZ = MOD_LIMITS.maxHz;
const MOD_MAX_STEPS = MOD_LIMITS.maxSteps;
const MOD_MAX_PER_TARGET = MOD_LIMITS.perTarget;
/** Live reports per second at most (the render worker reads it here: workers/ import only src/shared/). */
export const LIVE_REPORT_HZ = MOD_LIMITS.liveHz;
/** Audio modulators treat a level below this, or no hop for AUDIO_STALE_MS, as silence and fade to the set value. */
export const SILENCE_FLOOR = MOD_LIMITS.silenceFloor;
export const AUDIO_STALE_MS = MOD_LIMITS.audioStaleMs;

/** The key of a modulated input in a modulator map: `input`, or `input.component`. */
export function modKey(input: string, component?: string): string {
  return component === undefined ? input : `${input}.${component}`;
}

/** Note values as the contract names them: beats per note ("1/4" is one beat, "1" one 4/4 bar). */
const NOTES: Record<string, number> = {
  '1/64': 1 / 16,
  '1/32': 1 / 8,
  '1/16': 1 / 4,
  '1/8': 1 / 2,
  '1/4': 1,
  '1/2': 2,
  '1': 4,
  '2': 8,
  '4': 16,
  '8': 32,
  '16': 64,
  '32': 128,
};

/** Beats per period of a division string (dotted ×1.5, triplet ×2/3), or null when it is not one. */
export function divisionBeats(s: string): number | null {
  if (s.length === 0 || s.length > 6) return null;
  const last = s[s.length - 1];
  const factor = last === 'd' ? 1.5 : last === 't' ? 2 / 3 : 1;
  const base = NOTES[factor === 1 ? s : s.slice(0, -1)];
  return base === undefined ? null : base * factor;
}

/** Why a modulator JSON was refused: the field and the rule. */
export interface ModProblem {
  field: string;
  rule: string;
}

export type ModCheck = { ok: true; modulator: Modulator } | { ok: false; problem: ModProblem };

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const fin = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const COMMON_KEYS = ['kind', 'amount', 'polarity', 'amountOf'];
const KEYS: Record<Modulator['kind'], string[]> = {
  lfo: ['shape', 'rate', 'phase', 'width'],
  audio: ['source', 'gain', 'threshold', 'attackMs', 'releaseMs'],
  beat: ['every', 'attackMs', 'decayMs', 'curve'],
  steps: ['values', 'rate', 'glide'],
};

/** Checks a modulator strictly (unknown fields refused) and returns a copy holding only what was sent. */
export function checkModulator(raw: unknown): ModCheck {
  const bad = (field: string, rule: string): ModCheck => ({ ok: false, problem: { field: `modulator.${field}`, rule } });
  if (!isObj(raw)) return { ok: false, problem: { field: 'modulator', rule: 'an object with `kind` and `amount`, or null to remove' } };
  const kind = raw.kind;
  if (kind !== 'lfo' && kind !== 'audio' && kind !== 'beat' && kind !== 'steps') return bad('kind', 'one of lfo, audio, beat, steps');
  for (const k of Object.keys(raw)) {
    if (!COMMON_KEYS.includes(k) && !KEYS[kind].includes(k)) return bad(clip(k), `not a field of a ${kind} modulator`);
  }
  if (!fin(raw.amount) || raw.amount < -1 || raw.amount > 1) return bad('amount', 'a number from -1 to 1 (required)');
  const polarity = raw.polarity === 'unipolar' ? 'up' : raw.polarity;
  if (polarity !== undefined && !POLARITIES.includes(polarity as Polarity))
    return bad('polarity', 'bipolar, up or down (unipolar is read as up)');
  if (raw.amountOf !== undefined && !AMOUNTS_OF.includes(raw.amountOf as AmountOf)) return bad('amountOf', 'range or headroom');
  const out: Record<string, unknown> = { kind, amount: raw.amount };
  if (polarity !== undefined) out.polarity = polarity;
  if (raw.amountOf !== undefined) out.amountOf = raw.amountOf;
  const range = (k: string, lo: number, hi: number): ModCheck | null => {
    const v = raw[k];
    if (v === undefined) return null;
    if (!fin(v) || v < lo || v > hi) return bad(k, `a number from ${lo} to ${hi}`);
    out[k] = v;
    return null;
  };
  const rate = (): ModCheck | null => {
    const v = raw.rate;
    if (typeof v === 'string' && divisionBeats(v) !== null) out.rate = v;
    else if (fin(v) && v > 0 && v <= MOD_MAX_HZ) out.rate = v;
    else
      return bad(
        'rate',
        `Hz (above 0, at most ${MOD_MAX_HZ}) or a beat division: 1/64 … 1/2, 1, 2, 4, 8, 16, 32, optionally suffixed d or t`,
      );
    return null;
  };
  let p: ModCheck | null = null;
  switch (kind) {
    case 'lfo':
      if (!LFO_SHAPES.includes(raw.shape as LfoShape)) return bad('shape', `one of ${LFO_SHAPES.join(', ')}`);
      out.shape = raw.shape;
      p = rate() ?? range('phase', 0, 1) ?? range('width', 0, 1);
      break;
    case 'audio':
      if (!AUDIO_SOURCES.includes(raw.source as AudioSource)) return bad('source', `one of ${AUDIO_SOURCES.join(', ')}`);
      out.source = raw.source;
      p = range('gain', 0, 16) ?? range('threshold', 0, 1) ?? range('attackMs', 0, 5000) ?? range('releaseMs', 0, 10000);
      break;
    case 'beat':
      if (raw.every === 'onset') out.every = 'onset';
      else if (range('every', 0.25, 64)) return bad('every', 'a number of beats from 0.25 to 64, or "onset"');
      if (raw.curve !== undefined && raw.curve !== 'linear' && raw.curve !== 'exp') return bad('curve', 'linear or exp');
      if (raw.curve !== undefined) out.curve = raw.curve;
      p = range('attackMs', 0, 5000) ?? range('decayMs', 0, 10000);
      break;
    case 'steps': {
      const v = raw.values;
      if (!Array.isArray(v) || v.length < 1 || v.length > MOD_MAX_STEPS || !v.every((x) => fin(x) && x >= 0 && x <= 1))
        return bad('values', `1 to ${MOD_MAX_STEPS} numbers from 0 to 1 (normalised positions)`);
      out.values = [...v];
      p = rate() ?? range('glide', 0, 1);
      break;
    }
  }
  return p ?? { ok: true, modulator: out as unknown as Modulator };
}

/** The component names an input type takes, [] for plain numeric inputs, or null when it cannot be modulated. */
export function componentsOf(type: string): readonly string[] | null {
  if (type === 'float' || type === 'long' || type === 'bool') return [];
  if (type === 'point2D') return POINT_COMPONENTS;
  if (type === 'color') return COLOR_COMPONENTS;
  return null;
}

/** Why `component` cannot be modulated on an input of `type`, or null when it can. */
export function targetProblem(name: string, type: string, component: string | undefined): string | null {
  const comps = componentsOf(type);
  if (comps === null) return `input "${clip(name)}" (${type}) cannot be modulated: only float, long, bool, point2D and color inputs can`;
  if (comps.length === 0)
    return component === undefined ? null : `input "${clip(name)}" (${type}) has no components; send no \`component\``;
  if (component === undefined || !comps.includes(component))
    return `input "${clip(name)}" (${type}) needs \`component\`: one of ${comps.join(', ')}`;
  return null;
}

/** A stored modulator map read leniently (state files, restores): invalid entries are dropped. */
export function cleanModulators(raw: unknown): Record<string, Modulator> | undefined {
  if (!isObj(raw)) return undefined;
  const out: Record<string, Modulator> = {};
  let n = 0;
  for (const [k, v] of Object.entries(raw)) {
    if (n >= MOD_MAX_PER_TARGET || k.length > 300) break;
    const c = checkModulator(v);
    if (c.ok) {
      out[k] = c.modulator;
      n++;
    }
  }
  return n > 0 ? out : undefined;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
