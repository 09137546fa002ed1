// The shapes of the persisted show state (state.json), apart from the store that reads and writes it, so the
// sanitizers (state/sanitize.ts, state/saved-layers.ts) can name them without importing the store.
import type { Modulator } from '../shared/modulation.js';
import type { TransportSaved } from '../transport/settings.js';
import type { CuesSaved } from '../cues/types.js';
import type { PixelmapSaved } from '../pixelmap/saved.js';

export interface ChainEntry {
  type: string;
  enabled: boolean;
  presetId: string;
  inputs: Record<string, unknown>;
  /** Modulated inputs → modulator (absent when none). */
  modulators?: Record<string, Modulator>;
}

/** Modulation outside the chain: the program generator's (for one render key), T-bar, dimmer, freeze. */
export interface ModulationSaved {
  generator: { key: string; modulators: Record<string, Modulator> } | null;
  mix: Modulator | null;
  dimmer: Modulator | null;
  frozen: boolean;
}

export interface ShowState {
  version: 1;
  chain: ChainEntry[];
  currentSource: { kind: string; id: string } | null;
  paletteId: string | null;
  blackout: boolean;
  dimmer: number;
  /** The mixer's preview bus and its chosen transition (absent in files written before the mixer). */
  mix?: MixState;
  /** The selected audio input (`input` null: none); absent until one is chosen, so config audio.input applies. */
  audio?: { input: string | null };
  /** The tempo clock's settings as last changed by a request; absent until then (the config applies). */
  tempo?: TempoState;
  /** POST /audio/settings: gain (null: automatic) and offset; absent until then (the config applies). */
  audioSettings?: { gain: number | null; offsetMs: number };
  /** Modulation outside the chain; absent until a modulator or freeze is set. */
  modulation?: ModulationSaved;
  /** Media transport settings and cue points per media file id; absent until one is changed. */
  transport?: Record<string, TransportSaved>;
  /** The layer stack (bottom to top) and the selected layer; absent until a layer is added or changed. */
  layers?: { selected: number; list: LayerSaved[] };
  /** Saved scenes, oldest first; absent until one is saved. */
  scenes?: SceneSaved[];
  /** The cue list and whether its timecode triggers are armed; absent until a cue is added. */
  cues?: CuesSaved;
  /** The pixel-mapping fixtures and test mode; absent until a fixture is added. */
  pixelmap?: PixelmapSaved;
}

/** What a source manager and a mixer persist of their layer: the top-level fields for layer 1, its entry otherwise. */
export interface BusSaved {
  currentSource?: { kind: string; id: string } | null;
  mix?: MixState;
}

/** The part of the store a layer's source manager and mixer write. */
export interface BusStore {
  update(change: (s: BusSaved) => void): void;
}

/** One layer; layer 1's source and mixer stay in the top-level fields, so a file from before layers is one layer. */
export interface LayerSaved extends BusSaved {
  id: number;
  name: string;
  opacity: number;
  blend: string;
  mute: boolean;
  solo: boolean;
  /** The layer's own chain (the top-level `chain` is the master chain). */
  chain: ChainEntry[];
}

/** A scene: every layer as it was, and the master chain. */
export interface SceneSaved {
  id: string;
  name: string;
  savedAt: string;
  layers: Array<Omit<LayerSaved, 'id' | 'mix'>>;
  master: ChainEntry[];
}

export interface TempoState {
  source: 'auto' | 'tap' | 'manual';
  /** The tempo after the last request (the clock starts from it). */
  bpm: number;
  /** The tempo the `manual` source plays. */
  manualBpm: number | null;
  range: { min: number; max: number };
}

export interface MixState {
  preview: { kind: string; id: string } | null;
  transition: { type: string; durationMs: number };
}
