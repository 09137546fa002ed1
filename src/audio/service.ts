// The audio input choice: the configured inputs and the capture devices present now, the selection (persisted in
// state.json, config audio.input until one is made), the gain and offset settings, and the views the routes and
// /status serve; the worker behind it is src/workers/audio-client.ts.
import type { AudioConfig, AudioDeviceInputConfig, AudioInputConfig } from '../config/audio.js';
import { notFound } from '../errors.js';
import type { Logger } from '../log.js';
import type { AudioReading } from '../shared/audio-block.js';
import { matchName } from '../shared/names.js';
import { clockNow } from '../shared/tempo-block.js';
import type { ShowState, StateStore } from '../state/store.js';
import type { AudioClient } from '../workers/audio-client.js';
import { DeviceWatch } from './discovery-watch.js';
import type { AudioWire } from './wire.js';

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

/** Audio input kinds; the ones GET /capabilities lists are those this box can open now. */
export type AudioKind = AudioInputConfig['kind'];

export interface AudioInputView {
  id: string;
  name: string;
  kind: AudioKind;
  /** The capture device (device kinds only). */
  device?: string;
  available: boolean;
}

/** `hw:`/`plughw:` names of a card by its id, with the device number (0 when absent). */
const ALSA_CARD = /^(?:plug)?hw:(?:CARD=)?([A-Za-z_][A-Za-z0-9_]*)(?:,(?:DEV=)?(\d+))?$/;

export class AudioService {
  private readonly configuredInputs: readonly AudioInputConfig[];
  private readonly configured: string | null;
  private readonly devices: DeviceWatch;
  /** A saved device selection whose device is not plugged in: opened as soon as a scan finds it. */
  private waiting: string | null = null;
  private settingsNow: AudioSettings;

  constructor(
    config: AudioConfig,
    private readonly client: AudioClient,
    private readonly state: StateStore,
    private readonly log: Logger,
    private readonly wire: AudioWire,
    opts: { ffmpeg: string; devDir?: string } = { ffmpeg: 'ffmpeg' },
  ) {
    this.configuredInputs = config.inputs;
    this.configured = config.input;
    const d = config.devices ?? {};
    this.devices = new DeviceWatch(
      {
        ffmpeg: opts.ffmpeg,
        alsa: d.alsa ?? true,
        pulse: d.pulse ?? true,
        asoundDir: d.asoundDir ?? '/proc/asound',
        devDir: opts.devDir ?? '/dev',
      },
      () => this.onDevices(),
    );
    this.settingsNow = startSettings(config, state.peek());
    // The ring behind a `program` or shared `stream` input changed: the worker reads the new one, no restart.
    wire.onFollow((input) => void this.client.select(input).catch(() => {}));
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

  /** Finds the capture devices, then opens the saved selection (or config audio.input when none was ever saved). */
  async start(): Promise<void> {
    // The worker runs without an input too: it owns the tempo clock.
    this.client.start();
    await this.devices.start();
    const saved = this.state.peek().audio;
    const id = saved ? saved.input : this.configured;
    const input = id === null ? undefined : this.byId(id);
    if (id !== null && !input) {
      if (/^(alsa|pulse)-/.test(id)) {
        this.waiting = id;
        this.log.info({ input: id }, 'the saved audio device is not present; it opens when it appears');
      } else this.log.warn({ input: id }, 'the saved audio input is not configured any more; no audio input');
    }
    await this.client.select(await this.wire.wireOf(input ?? null));
  }

  /** Ends the device scans. */
  stop(): void {
    this.devices.stop();
  }

  /** Input kinds this box can open now (`test`, `stream`, `program` always; device kinds while a device or server is there). */
  kinds(): AudioKind[] {
    return ['test', 'stream', 'program', ...this.devices.kinds()];
  }

  /** The configured inputs, then the discovered devices no configured input already names. */
  private get inputs(): AudioInputConfig[] {
    const ids = new Set(this.configuredInputs.map((i) => i.id.toLowerCase()));
    const pinned = new Set(
      this.configuredInputs.flatMap((i) => (i.kind === 'alsa' || i.kind === 'pulse' ? [`${i.kind}:${i.device}`] : [])),
    );
    const found = this.devices.list().filter((d) => !ids.has(d.id.toLowerCase()) && !pinned.has(`${d.kind}:${d.device}`));
    return [...this.configuredInputs, ...found];
  }

  /** Whether a configured device input is there now: its name (or its ALSA card) listed, or its kind usable. */
  private present(i: AudioDeviceInputConfig): boolean {
    const found = this.devices.list().filter((d) => d.kind === i.kind);
    if (found.some((d) => d.device === i.device)) return true;
    const m = i.kind === 'alsa' ? ALSA_CARD.exec(i.device) : null;
    if (m) return found.some((d) => d.device === `plughw:CARD=${m[1]},DEV=${Number(m[2] ?? 0)}`);
    // A PulseAudio source is always listed by name; other ALSA names (`default`, plugins) go with the kind.
    return i.kind === 'alsa' && this.devices.kinds().includes('alsa');
  }

  private onDevices(): void {
    if (this.waiting === null) return;
    const input = this.byId(this.waiting);
    if (!input) return;
    this.waiting = null;
    this.log.info({ input: input.id }, 'the saved audio device appeared; opening it');
    this.wire
      .wireOf(input)
      .then((wired) => this.client.select(wired))
      .catch((err: Error) => this.log.warn({ error: err.message }, 'audio select failed'));
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
    this.waiting = null;
    const id = input?.id ?? null;
    if (this.state.peek().audio?.input !== id || this.state.peek().audio === undefined) {
      this.state.update((s) => void (s.audio = { input: id }));
      this.log.info({ input: id }, 'audio input selected');
    }
    await this.client.select(await this.wire.wireOf(input));
  }

  /** The worker thread's id and its ffmpeg's pid (test hook for the cost bench). */
  threads(): ReturnType<AudioClient['threads']> {
    return this.client.threads();
  }

  /** Ends the worker thread as a crash would (test hook); false when none runs. */
  killWorker(): boolean {
    return this.client.killWorker();
  }

  /** Lavfi sources, URLs and the program (always there), configured devices with their presence, and the discovered devices present now. */
  list(): AudioInputView[] {
    return this.inputs.map((i) =>
      i.kind === 'alsa' || i.kind === 'pulse'
        ? { id: i.id, name: i.name, kind: i.kind, device: i.device, available: !this.configuredInputs.includes(i) || this.present(i) }
        : { id: i.id, name: i.name, kind: i.kind, available: true },
    );
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
