// The actions facility: every one-shot control a button can fire, listed with a stable id and a category, built
// from the effect presets, the sources, the mixer's transitions, the palettes, the global output controls, the tempo
// clock, modulation freeze, the audio inputs and the program clip's transport (its cue points included).
import type { EffectPreset } from '../catalog/effect-presets.js';
import type { SourceEntry } from '../sources/source-manager.js';
import type { Palette } from '../palettes/library.js';
import type { IsfDescriptor } from '../shared/isf-types.js';

export const CATEGORIES = [
  'Effect Presets',
  'Sources',
  'Mix',
  'Palettes',
  'Global',
  'Tempo',
  'Modulation',
  'Audio',
  'Transport',
  'Scenes',
] as const;
export type ActionCategory = (typeof CATEGORIES)[number];

/** Dimmer step of `global.dimmer-up` / `global.dimmer-down`. */
export const DIMMER_STEP = 0.1;

export type ActionTarget =
  | { kind: 'effect-preset'; preset: EffectPreset }
  | { kind: 'source'; entry: SourceEntry }
  /** A take; `transition` null: the mixer's current transition. */
  | { kind: 'take'; transition: string | null }
  | { kind: 'palette'; palette: Palette }
  | { kind: 'palette-next' }
  | { kind: 'blackout'; mode: 'on' | 'off' | 'toggle' }
  | { kind: 'dimmer'; mode: 'up' | 'down' | 'full' | 'zero' }
  | { kind: 'tempo'; op: 'tap' | 'resync' | 'half' | 'double' | 'auto' }
  /** Hold every modulated input where it is, let it run on, or flip between the two. */
  | { kind: 'modulation'; op: 'freeze' | 'release' | 'toggle' }
  /** `input` null: detach the audio input. */
  | { kind: 'audio'; input: string | null }
  /** The program clip's transport, as POST /transport/play, /pause, /toggle, /restart. */
  | { kind: 'transport'; op: 'play' | 'pause' | 'toggle' | 'restart' }
  /** A seek of the program clip to its cue point `cue`. */
  | { kind: 'transport-cue'; cue: string }
  /** Recalls the scene with id `scene` (a cut, as POST /scenes/recall without a transition). */
  | { kind: 'scene'; scene: string };

export interface Action {
  id: string;
  name: string;
  category: ActionCategory;
  target: ActionTarget;
}

const GLOBAL: Action[] = [
  { id: 'global.blackout-on', name: 'Blackout On', category: 'Global', target: { kind: 'blackout', mode: 'on' } },
  { id: 'global.blackout-off', name: 'Blackout Off', category: 'Global', target: { kind: 'blackout', mode: 'off' } },
  { id: 'global.blackout-toggle', name: 'Blackout Toggle', category: 'Global', target: { kind: 'blackout', mode: 'toggle' } },
  { id: 'global.dimmer-up', name: 'Dimmer Up 10%', category: 'Global', target: { kind: 'dimmer', mode: 'up' } },
  { id: 'global.dimmer-down', name: 'Dimmer Down 10%', category: 'Global', target: { kind: 'dimmer', mode: 'down' } },
  { id: 'global.dimmer-full', name: 'Dimmer Full', category: 'Global', target: { kind: 'dimmer', mode: 'full' } },
  { id: 'global.dimmer-zero', name: 'Dimmer Zero', category: 'Global', target: { kind: 'dimmer', mode: 'zero' } },
];

const TEMPO: Action[] = [
  { id: 'tempo.tap', name: 'Tap Tempo', category: 'Tempo', target: { kind: 'tempo', op: 'tap' } },
  { id: 'tempo.resync', name: 'Resync (Beat 1)', category: 'Tempo', target: { kind: 'tempo', op: 'resync' } },
  { id: 'tempo.half', name: 'Tempo ×½', category: 'Tempo', target: { kind: 'tempo', op: 'half' } },
  { id: 'tempo.double', name: 'Tempo ×2', category: 'Tempo', target: { kind: 'tempo', op: 'double' } },
  { id: 'tempo.auto', name: 'Tempo Auto', category: 'Tempo', target: { kind: 'tempo', op: 'auto' } },
];

const MODULATION: Action[] = [
  { id: 'modulation.freeze', name: 'Freeze Modulation', category: 'Modulation', target: { kind: 'modulation', op: 'freeze' } },
  { id: 'modulation.release', name: 'Release Modulation', category: 'Modulation', target: { kind: 'modulation', op: 'release' } },
  { id: 'modulation.toggle', name: 'Freeze/Release Modulation', category: 'Modulation', target: { kind: 'modulation', op: 'toggle' } },
];

const TRANSPORT: Action[] = [
  { id: 'transport.play', name: 'Play Clip', category: 'Transport', target: { kind: 'transport', op: 'play' } },
  { id: 'transport.pause', name: 'Pause Clip', category: 'Transport', target: { kind: 'transport', op: 'pause' } },
  { id: 'transport.toggle', name: 'Play/Pause Clip', category: 'Transport', target: { kind: 'transport', op: 'toggle' } },
  { id: 'transport.restart', name: 'Restart Clip', category: 'Transport', target: { kind: 'transport', op: 'restart' } },
];

/** The transport actions, with one `transport.cue.<name>` per cue point of the clip on the program bus. */
/** One action per saved scene: `scene.<id>`. */
export function sceneActions(scenes: ReadonlyArray<{ id: string; name: string }>): Action[] {
  return scenes.map(
    (s): Action => ({ id: `scene.${s.id}`, name: `Scene: ${s.name}`, category: 'Scenes', target: { kind: 'scene', scene: s.id } }),
  );
}

export function transportActions(cues: readonly string[]): Action[] {
  return [
    ...TRANSPORT,
    ...cues.map(
      (cue): Action => ({ id: `transport.cue.${cue}`, name: `Cue: ${cue}`, category: 'Transport', target: { kind: 'transport-cue', cue } }),
    ),
  ];
}

/**
 * All actions in category order; ids are `preset.<presetId>`, `source.<sourceId>`, `mix.take`, `mix.take.<transition>`,
 * `palette.<paletteId>`, `palette.next`, `global.*`, `tempo.tap|resync|half|double|auto`,
 * `modulation.freeze|release|toggle`, `audio.<inputId>`, `audio.none` (the transport's come from transportActions).
 */
export function buildActions(
  presets: readonly EffectPreset[],
  sources: readonly SourceEntry[],
  palettes: readonly Palette[],
  transitions: readonly IsfDescriptor[] = [],
  audioInputs: ReadonlyArray<{ id: string; name: string }> = [],
): Action[] {
  const out: Action[] = [];
  for (const p of presets)
    out.push({ id: `preset.${p.id}`, name: p.name, category: 'Effect Presets', target: { kind: 'effect-preset', preset: p } });
  for (const e of sources) out.push({ id: `source.${e.id}`, name: e.name, category: 'Sources', target: { kind: 'source', entry: e } });
  out.push({ id: 'mix.take', name: 'Take', category: 'Mix', target: { kind: 'take', transition: null } });
  for (const t of transitions)
    out.push({ id: `mix.take.${t.type}`, name: `Take: ${t.name}`, category: 'Mix', target: { kind: 'take', transition: t.type } });
  out.push({ id: 'palette.next', name: 'Next Palette', category: 'Palettes', target: { kind: 'palette-next' } });
  for (const p of palettes)
    out.push({ id: `palette.${p.id}`, name: p.name, category: 'Palettes', target: { kind: 'palette', palette: p } });
  out.push(...GLOBAL, ...TEMPO, ...MODULATION);
  for (const i of audioInputs)
    out.push({ id: `audio.${i.id}`, name: `Audio: ${i.name}`, category: 'Audio', target: { kind: 'audio', input: i.id } });
  out.push({ id: 'audio.none', name: 'Audio Off', category: 'Audio', target: { kind: 'audio', input: null } });
  return out;
}

/** Dimmer value after a dimmer action (rounded to the step so repeated steps land on clean values). */
export function dimmerAfter(mode: 'up' | 'down' | 'full' | 'zero', value: number): number {
  if (mode === 'full') return 1;
  if (mode === 'zero') return 0;
  const next = value + (mode === 'up' ? DIMMER_STEP : -DIMMER_STEP);
  return Math.min(1, Math.max(0, Math.round(next * 10) / 10));
}
