// The audio input choice: the configured inputs, the selection (persisted in state.json, config audio.input until
// one is made), the gain and offset settings, and the views the routes and /status serve; the worker behind it is
// src/workers/audio-client.ts.
import type { AudioConfig, AudioInputConfig } from '../config/audio.js';
import { notFound } from '../errors.js';
import type { Logger } from '../log.js';
import type { AudioReading } from '../shared/audio-block.js';
import { matchName } from '../shared/names.js';
import { clockNow } from '../shared/tempo-block.js';
import type { ShowState, StateStore } from '../state/store.js';
import type { AudioClient } from '../workers/audio-client.js';

export interface AudioLevels {
  level: number;
  bass: number;
  lowMid: number;
  highMid: number;
  high: number;
  onset: number;
  /** Onsets detected since start (a client polling slower than onsets decay still sees each one). */
  onsets: number;
  /** Hops analysed since start. */
  hops: number;
  hopMs: number;
}

/** POST /audio/settings and GET /audio: gain null is the automatic gain. */
export interface AudioSettings {
  gain: number | null;
  offsetMs: number;
}

/** The gain and offset a start begins with: the saved settings over the config's. */
export function startSettings(config: AudioConfig, saved: Readonly<ShowState>): AudioSettings {
  return saved.audioSettings ? { ...saved.audioSettings } : { gain: config.gain, offsetMs: config.offsetMs };
}

/** The word that detaches the input in POST /audio/select. */
export const NO_AUDIO = 'none';

export class AudioService {
  private readonly inputs: readonly AudioInputConfig[];
  private readonly configured: string | null;
  private settingsNow: AudioSettings;

  constructor(
    config: AudioConfig,
    private readonly client: AudioClient,
    private readonly state: StateStore,
    private readonly log: Logger,
  ) {
    this.inputs = config.inputs;
    this.configured = config.input;
    this.settingsNow = startSettings(config, state.peek());
  }

  /** The offset as the tempo block holds it: what the render worker reads. */
  settings(): AudioSettings {
    return { gain: this.settingsNow.gain, offsetMs: this.client.readTempo().offsetMs };
  }

  /** Applies the fields given, live in the worker, and saves them; resolves once the worker has them. */
  async setSettings(change: { gain?: number | null | undefined; offsetMs?: number | undefined }): Promise<AudioSettings> {
    const next = { ...this.settingsNow };
    if (change.gain !== undefined) next.gain = change.gain;
    if (change.offsetMs !== undefined) next.offsetMs = change.offsetMs;
    if (next.gain !== this.settingsNow.gain) await this.client.setGain(next.gain);
    // The offset lives in the tempo block, where the render worker reads it with the clock.
    if (next.offsetMs !== this.settingsNow.offsetMs) await this.client.tempoCommand({ op: 'offset', ms: next.offsetMs }, clockNow());
    this.settingsNow = next;
    const saved = this.state.peek().audioSettings;
    if (!saved || saved.gain !== next.gain || saved.offsetMs !== next.offsetMs) {
      this.state.update((s) => void (s.audioSettings = { ...next }));
      this.log.info({ gain: next.gain, offsetMs: next.offsetMs }, 'audio settings changed');
    }
    return this.settings();
  }

  /** Opens the saved selection (or config audio.input when none was ever saved). */
  async start(): Promise<void> {
    // The worker runs without an input too: it owns the tempo clock.
    this.client.start();
    const saved = this.state.peek().audio;
    const id = saved ? saved.input : this.configured;
    const input = id === null ? undefined : this.byId(id);
    if (id !== null && !input) this.log.warn({ input: id }, 'the saved audio input is not configured any more; no audio input');
    await this.client.select(input ? toWire(input) : null);
  }

  /** Resolves `id` (exact, then like a name) or `name` (flexible); `"none"` is null. ITEM_NOT_FOUND otherwise. */
  resolve(q: { id?: string | undefined; name?: string | undefined }): AudioInputConfig | null {
    const asked = (q.id ?? q.name ?? '').trim();
    if (asked.toLowerCase() === NO_AUDIO) return null;
    const hit =
      (q.id !== undefined ? (this.byId(q.id) ?? this.byName(q.id)) : undefined) ?? (q.name !== undefined ? this.byName(q.name) : undefined);
    if (hit) return hit;
    throw notFound('audio input', q.id ?? q.name ?? '', [...this.inputs.map((i) => i.id), NO_AUDIO]);
  }

  /** Switches to `input` (null detaches) and persists the choice; resolves once the worker has switched. */
  async select(input: AudioInputConfig | null): Promise<void> {
    const id = input?.id ?? null;
    if (this.state.peek().audio?.input !== id || this.state.peek().audio === undefined) {
      this.state.update((s) => void (s.audio = { input: id }));
      this.log.info({ input: id }, 'audio input selected');
    }
    await this.client.select(input ? toWire(input) : null);
  }

  /** Ends the worker thread as a crash would (test hook); false when none runs. */
  killWorker(): boolean {
    return this.client.killWorker();
  }

  list(): Array<{ id: string; name: string; kind: 'test'; available: boolean }> {
    // A lavfi source is always there; device kinds will report their presence here.
    return this.inputs.map((i) => ({ id: i.id, name: i.name, kind: i.kind, available: true }));
  }

  current(): string | null {
    return this.client.status.input;
  }

  status(): AudioClient['status'] {
    return this.client.status;
  }

  levels(): AudioLevels {
    return levelsOf(this.client.read());
  }

  private byId(id: string): AudioInputConfig | undefined {
    const lower = id.toLowerCase();
    return this.inputs.find((i) => i.id.toLowerCase() === lower);
  }

  private byName(name: string): AudioInputConfig | undefined {
    return matchName(this.inputs, name, [(i) => i.name, (i) => i.id]);
  }
}

function toWire(i: AudioInputConfig): { id: string; kind: 'test'; source: string } {
  return { id: i.id, kind: i.kind, source: i.source };
}

function levelsOf(r: AudioReading): AudioLevels {
  const round = (v: number): number => Math.round(v * 10_000) / 10_000;
  return {
    level: round(r.level),
    bass: round(r.bass),
    lowMid: round(r.lowMid),
    highMid: round(r.highMid),
    high: round(r.high),
    onset: round(r.onset),
    onsets: r.onsets,
    hops: r.hops,
    hopMs: round(r.hopMs),
  };
}
