// The audio input choice: the configured inputs, the inputs added over the API, the capture devices present now,
// the selection (persisted in state.json, config audio.input until one is made), the gain and offset settings, and
// the views the routes and /status serve; the worker behind it is src/workers/audio-client.ts.
import type { AudioConfig, AudioDeviceInputConfig, AudioInputConfig } from '../config/audio.js';
import { ApiError, notFound } from '../errors.js';
import type { Logger } from '../log.js';
import type { AudioReading } from '../shared/audio-block.js';
import { matchName } from '../shared/names.js';
import type { AudioInput } from '../shared/protocol/audio.js';
import { clockNow } from '../shared/tempo-block.js';
import { INPUT_PROTOCOLS, redactUrl } from '../shared/url.js';
import type { ShowState, StateStore } from '../state/store.js';
import type { AudioClient } from '../workers/audio-client.js';
import { type AddedInput, AddedInputsFile } from './added-inputs.js';
import { DeviceWatch } from './discovery-watch.js';
import { AddedInputs, type AddRequest, type EditRequest } from './input-edits.js';
import { type LibraryFiles, resolveLibraryFile } from './library-file.js';
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
/** What an input reads: the config's kinds, and `file` (a library file, added over HTTP). */
export type AudioKind = AudioInputConfig['kind'] | 'file';

/** Any input: from the config file, added over the API (a `file` only there), or a discovered device. */
export type AnyInput = AudioInputConfig | AddedInput;
export type Origin = 'config' | 'added' | 'discovered';

export interface AudioInputView {
  id: string;
  name: string;
  kind: AnyInput['kind'];
  /** The capture device (device kinds only). */
  device?: string;
  available: boolean;
}

/** GET /audio/inputs: an input with what it reads, where it comes from and whether it is the selected one. */
export interface AudioInputItem {
  id: string;
  name: string;
  kind: AnyInput['kind'];
  /** The URL (credentials as `***`), the library file, the device or the lavfi source; null for `program`. */
  target: string | null;
  origin: Origin;
  available: boolean;
  selected: boolean;
}

/** Where an added input's media file is found, and which readers decode sound for a `program` input. */
export interface AudioServiceOptions {
  ffmpeg: string;
  devDir?: string;
  dataDir?: string;
  library?: LibraryFiles;
  /** The reader pool's audio track choice: an added `program` input turns on the media files' sound. */
  tracks?: { files: boolean };
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
  private readonly added: AddedInputs;
  private readonly listeners = new Set<() => void>();

  constructor(
    config: AudioConfig,
    private readonly client: AudioClient,
    private readonly state: StateStore,
    private readonly log: Logger,
    private readonly wire: AudioWire,
    private readonly opts: AudioServiceOptions = { ffmpeg: 'ffmpeg' },
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
    this.added = new AddedInputs(new AddedInputsFile(opts.dataDir ?? null, log), opts.library ?? null, log);
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
    const configIds = new Set(this.configuredInputs.map((i) => i.id.toLowerCase()));
    await this.added.load((id) => configIds.has(id.toLowerCase()));
    this.followProgram();
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
    await this.client.select(await this.wired(input ?? null));
  }

  /** Ends the device scans. */
  stop(): void {
    this.devices.stop();
  }

  /** Input kinds this box can open now (`test`, `stream`, `file`, `program` always; device kinds while a device or server is there). */
  kinds(): AudioKind[] {
    return ['test', 'stream', 'file', 'program', ...this.devices.kinds()];
  }

  /** The configured inputs, the added ones, then the discovered devices neither already names. */
  private get inputs(): AnyInput[] {
    const named = [...this.configuredInputs, ...this.added.list];
    const ids = new Set(named.map((i) => i.id.toLowerCase()));
    const pinned = new Set(named.flatMap((i) => (i.kind === 'alsa' || i.kind === 'pulse' ? [`${i.kind}:${i.device}`] : [])));
    const found = this.devices.list().filter((d) => !ids.has(d.id.toLowerCase()) && !pinned.has(`${d.kind}:${d.device}`));
    return [...named, ...found];
  }

  private originOf(i: AnyInput): Origin {
    if (this.configuredInputs.includes(i as AudioInputConfig)) return 'config';
    return this.added.list.includes(i as AddedInput) ? 'added' : 'discovered';
  }

  /** `cb` runs after every change of the inputs or the selection (the `audioInputs` topic re-reads then). */
  onInputsChange(cb: () => void): void {
    this.listeners.add(cb);
  }

  private changed(): void {
    for (const cb of this.listeners) cb();
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
    this.changed();
    if (this.waiting === null) return;
    const input = this.byId(this.waiting);
    if (!input) return;
    this.waiting = null;
    this.log.info({ input: input.id }, 'the saved audio device appeared; opening it');
    this.wired(input)
      .then((wired) => this.client.select(wired))
      .catch((err: Error) => this.log.warn({ error: err.message }, 'audio select failed'));
  }

  /** Resolves `id` (exact, then like a name) or `name` (flexible); `"none"` is null. ITEM_NOT_FOUND otherwise. */
  resolve(q: { id?: string | undefined; name?: string | undefined }): AnyInput | null {
    const asked = (q.id ?? q.name ?? '').trim();
    if (asked.toLowerCase() === NO_AUDIO) return null;
    const hit =
      (q.id !== undefined ? (this.byId(q.id) ?? this.byName(q.id)) : undefined) ?? (q.name !== undefined ? this.byName(q.name) : undefined);
    if (hit) return hit;
    throw notFound('audio input', q.id ?? q.name ?? '', [...this.inputs.map((i) => i.id), NO_AUDIO]);
  }

  /** Switches to `input` (null detaches) and persists the choice; resolves once the worker has switched. */
  async select(input: AnyInput | null): Promise<void> {
    this.waiting = null;
    const id = input?.id ?? null;
    if (this.state.peek().audio?.input !== id || this.state.peek().audio === undefined) {
      this.state.update((s) => void (s.audio = { input: id }));
      this.log.info({ input: id }, 'audio input selected');
    }
    await this.client.select(await this.wired(input));
    this.changed();
  }

  /**
   * What the worker opens for `input`. An added stream or file is opened by the worker's own ffmpeg with a protocol
   * whitelist (network protocols, or the file protocol alone); it never shares a live input's reader, so the wire
   * is handed null to let go of one it held.
   */
  private async wired(input: AnyInput | null): Promise<AudioInput | null> {
    if (input?.kind === 'file') {
      await this.wire.wireOf(null);
      const found = this.opts.library ? await resolveLibraryFile(this.opts.library, input.file) : null;
      if (found && 'path' in found) return { id: input.id, kind: 'stream', url: `file:${found.path}`, protocols: 'file' };
      this.log.warn({ input: input.id, file: input.file }, 'the audio input file is not in the media library; no audio input');
      return null;
    }
    if (input?.kind === 'stream' && this.originOf(input) === 'added') {
      await this.wire.wireOf(null);
      return { id: input.id, kind: 'stream', url: input.url, protocols: INPUT_PROTOCOLS };
    }
    return this.wire.wireOf(input);
  }

  /** Adds an input (GET /audio/inputs lists it, POST /audio/select opens it at once) and saves it. */
  async add(req: AddRequest): Promise<AudioInputItem> {
    const input = await this.added.add(req, (id) => {
      const hit = this.byId(id);
      return hit !== undefined && this.originOf(hit) !== 'added';
    });
    this.followProgram();
    this.changed();
    return this.item(input);
  }

  /** Changes an added input; the selected one's reader restarts when what it reads changed. */
  async edit(req: EditRequest): Promise<{ input: AudioInputItem; restarted: boolean }> {
    const before = this.ownInput(req.id);
    const after = await this.added.edit(before, req);
    this.followProgram();
    // The worker restarts an input whose kind or target changed; a new name alone leaves it running.
    const selected = this.current()?.toLowerCase() === after.id.toLowerCase();
    if (selected) await this.select(after);
    this.changed();
    const restarted = selected && JSON.stringify({ ...before, name: '' }) !== JSON.stringify({ ...after, name: '' });
    return { input: this.item(after), restarted };
  }

  /** Removes an added input; the selected one is detached first (the selection becomes none). */
  async remove(id: string): Promise<{ removed: AudioInputItem; detached: boolean }> {
    const input = this.ownInput(id);
    const removed = this.item(input);
    const saved = this.state.peek().audio?.input;
    const detached = this.current()?.toLowerCase() === input.id.toLowerCase() || saved?.toLowerCase() === input.id.toLowerCase();
    if (detached) await this.select(null);
    await this.added.remove(input);
    this.changed();
    return { removed: { ...removed, selected: false }, detached };
  }

  /** The added input of `id`; 404 when no input has it, 409 when the config file or discovery owns it. */
  private ownInput(id: string): AddedInput {
    const own = this.added.byId(id);
    if (own) return own;
    const other = this.byId(id);
    if (!other)
      throw notFound(
        'audio input',
        id,
        this.added.list.map((i) => i.id),
      );
    const where =
      this.originOf(other) === 'config'
        ? 'comes from the config file (audio.inputs); change it there'
        : 'is a capture device found on this box; it comes and goes with the device';
    throw new ApiError('AUDIO_INPUT_CONFIGURED', `the audio input "${other.id}" ${where}`, { field: 'id', origin: this.originOf(other) });
  }

  /** Media files decode their sound once any `program` input is added (the config's own are counted at start). */
  private followProgram(): void {
    if (this.opts.tracks && this.added.list.some((i) => i.kind === 'program')) this.opts.tracks.files = true;
  }

  /** Every input with its target, origin, availability and whether it is selected. */
  items(): AudioInputItem[] {
    return this.inputs.map((i) => this.item(i));
  }

  private item(i: AnyInput): AudioInputItem {
    const view = this.viewOf(i);
    const target =
      i.kind === 'stream'
        ? redactUrl(i.url)
        : i.kind === 'file'
          ? i.file
          : i.kind === 'test'
            ? i.source
            : i.kind === 'program'
              ? null
              : i.device;
    return {
      id: i.id,
      name: i.name,
      kind: i.kind,
      target,
      origin: this.originOf(i),
      available: view.available,
      selected: this.current()?.toLowerCase() === i.id.toLowerCase(),
    };
  }

  /** The worker thread's id and its ffmpeg's pid (test hook for the cost bench). */
  threads(): ReturnType<AudioClient['threads']> {
    return this.client.threads();
  }

  /** Ends the worker thread as a crash would (test hook); false when none runs. */
  killWorker(): boolean {
    return this.client.killWorker();
  }

  /** Lavfi sources, URLs, files and the program (always there), named devices with their presence, and the discovered devices present now. */
  list(): AudioInputView[] {
    return this.inputs.map((i) => this.viewOf(i));
  }

  private viewOf(i: AnyInput): AudioInputView {
    return i.kind === 'alsa' || i.kind === 'pulse'
      ? { id: i.id, name: i.name, kind: i.kind, device: i.device, available: this.originOf(i) === 'discovered' || this.present(i) }
      : { id: i.id, name: i.name, kind: i.kind, available: true };
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

  private byId(id: string): AnyInput | undefined {
    const lower = id.toLowerCase();
    return this.inputs.find((i) => i.id.toLowerCase() === lower);
  }

  private byName(name: string): AnyInput | undefined {
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
