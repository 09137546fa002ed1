// Media transport on the program and preview buses: resolves the bus's clip, validates positions against it, keeps
// the settings per media file id (state.json) and sends commands to the clip's reader in the ingest worker, whose
// reports are the state GET /transport, the `transport` topic and OSC feedback show.
import { EventEmitter } from 'node:events';
import { ApiError, notFound } from '../errors.js';
import { TRANSPORT_LIMITS } from '../limits.js';
import type { ClipCommand, ClipLoop, ClipStart, ClipStatus, IngestInput } from '../shared/protocol/ingest.js';
import type { StateStore } from '../state/store.js';
import type { IngestClient } from '../workers/ingest-client.js';
import { type ChaseSaved, type ClipEnd, clipSettings, DEFAULT_SAVED, effectiveSpeed, type TransportSaved, withSaved } from './settings.js';
import { type Bus, type TransportView, viewOf } from './view.js';
import { checkCue, checkedInOut, seekPosition, startPosition } from './positions.js';
import { checkPingPong } from './ping-pong.js';

export type { Bus, TransportView };

export interface TransportDeps {
  ingest: IngestClient;
  /** The source on each bus: id, kind and type as the mix view gives them. */
  onBus(bus: Bus): { id: string; name: string; sourceKind: string; type: string } | null;
  /** A media file's length (null: unknown), undefined when the library has no such file. */
  duration(id: string): number | null | undefined;
  bpm(): number;
  /** Resolves null once the program source `key` has drawn a ring frame newer than `afterFrame`, else why not. */
  shown(key: string, afterFrame: number, deadline: number): Promise<string | null>;
  fps: number;
  /** The ingest box (the render size): frames are decoded to fit it. */
  box: { width: number; height: number };
  state: StateStore;
}

interface Target {
  bus: Bus;
  id: string;
  name: string;
  key: string;
  durationS: number | null;
}

/** How often a tempo-synced clip's speed is compared with the tempo. */
const SYNC_POLL_MS = 250;

export class TransportService extends EventEmitter {
  private readonly synced = new Map<string, number>();
  /** The program clip's key once its end was reported (`ended` fires once per end). */
  private endedKey = '';
  /** Where a reader about to open starts (a select's `positionS`), by reader key. */
  private readonly startAt = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly d: TransportDeps) {
    super();
    d.ingest.clipStart = (key, input) => this.startFor(key, input);
    d.ingest.on('clip', (key) => {
      // The chaser times the reader's reports by their arrival.
      this.emit('report', key);
      if (this.busKeys().includes(key)) this.emit('change');
      this.watchEnd(key);
    });
    this.timer = setInterval(() => this.followTempo(), SYNC_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Both buses; null where the bus holds no clip. */
  view(): { program: TransportView | null; preview: TransportView | null } {
    return { program: this.viewOf('program'), preview: this.viewOf('preview') };
  }

  viewOf(bus: Bus): TransportView | null {
    const t = this.clipOn(bus);
    return t ? viewOf(t, this.saved(t.id), this.d.ingest.clip(t.key), this.d.bpm()) : null;
  }

  play(bus: Bus): Promise<TransportView> {
    return this.send(this.target(bus), { op: 'play' });
  }

  pause(bus: Bus): Promise<TransportView> {
    return this.send(this.target(bus), { op: 'pause' });
  }

  toggle(bus: Bus): Promise<TransportView> {
    const t = this.target(bus);
    return this.send(t, { op: this.d.ingest.clip(t.key)?.state === 'playing' ? 'pause' : 'play' });
  }

  restart(bus: Bus): Promise<TransportView> {
    const t = this.target(bus);
    return this.send(t, { op: 'seek', positionS: this.saved(t.id).in ?? 0, play: true });
  }

  seek(bus: Bus, to: { positionS?: number | undefined; fraction?: number | undefined; cue?: string | undefined }): Promise<TransportView> {
    const t = this.target(bus);
    return this.send(t, { op: 'seek', positionS: seekPosition(this.saved(t.id), t.durationS, to, this.d.fps) });
  }

  /**
   * Runs `select` (of media file `entry` to the program) so that the clip starts at `positionS`: a reader already
   * open (current, cued or warm) is sought first, so the switch shows the new position; one still to open starts
   * there. 409 NOT_A_CLIP for anything but a media video; 400 outside its in-out range.
   */
  async selectAt<T>(
    entry: { id: string; name: string; sourceKind: string; type: string },
    positionS: number,
    select: () => Promise<T>,
  ): Promise<T> {
    if (entry.sourceKind !== 'file' || entry.type !== 'video')
      throw new ApiError('NOT_A_CLIP', `${entry.name} is not a media clip; positionS applies to media videos`);
    const durationS = this.d.duration(entry.id) ?? null;
    const t: Target = { bus: 'program', id: entry.id, name: entry.name, key: `file:${entry.id}`, durationS };
    const pos = startPosition(this.saved(t.id), durationS, positionS, this.d.fps);
    if (this.d.ingest.clip(t.key) !== undefined) {
      // A select plays the clip, an ended one too.
      await this.send(t, { op: 'seek', positionS: pos, play: true });
      return select();
    }
    this.startAt.set(t.key, pos);
    let result: T;
    try {
      result = await select();
    } catch (err) {
      this.startAt.delete(t.key);
      throw err;
    }
    // A reader that was opening already when the select came started where it was: it is sought now.
    if (this.startAt.delete(t.key) && this.clipOn('program')?.key === t.key) await this.send(t, { op: 'seek', positionS: pos, play: true });
    return result;
  }

  /** Where media file `id` starts from the top: its in point. */
  inPoint(id: string): number {
    return this.saved(id).in ?? 0;
  }

  /** `POST /mix/take {restart: true}`: the clip cued on preview goes back to its in point, playing; anything else is left as it is. */
  async restartCued(): Promise<void> {
    const t = this.clipOn('preview');
    if (t) await this.send(t, { op: 'seek', positionS: this.saved(t.id).in ?? 0, play: true });
  }

  speed(bus: Bus, v: { speed?: number | undefined; sync?: { beats: number } | undefined }): Promise<TransportView> {
    const t = this.target(bus);
    if ((v.speed === undefined) === (v.sync === undefined)) throw new ApiError('INVALID_REQUEST', 'send exactly one of speed or sync');
    return this.change(t, (s) => {
      if (v.speed !== undefined) {
        s.speed = v.speed;
        s.sync = null;
      } else s.sync = { beats: v.sync!.beats };
    });
  }

  /** What follows the clip's end: saved per media file; `take` and `next` act for the program bus's clip. */
  end(bus: Bus, mode: ClipEnd): Promise<TransportView> {
    return this.change(this.target(bus), (s) => {
      s.end = mode;
    });
  }

  loop(bus: Bus, mode: ClipLoop): Promise<TransportView> {
    return this.change(this.target(bus), (s) => {
      s.loop = mode;
    });
  }

  inout(bus: Bus, v: { in?: number | null | undefined; out?: number | null | undefined }): Promise<TransportView> {
    const t = this.target(bus);
    const next = checkedInOut(this.saved(t.id), t.durationS, v, this.d.fps);
    return this.change(t, (x) => {
      x.in = next.in;
      x.out = next.out;
    });
  }

  /** Locks the bus's clip to the show timecode from `start` (null: plays on its own again). */
  chase(bus: Bus, v: ChaseSaved | null): Promise<TransportView> {
    return this.change(this.target(bus), (s) => {
      s.chase = v;
    });
  }

  /** The clips on the buses that chase timecode, for the chaser: their reader's report and the command entry. */
  chasing(): Array<{ bus: Bus; key: string; chase: ChaseSaved; durationS: number | null; status: ClipStatus | undefined }> {
    return (['program', 'preview'] as const).flatMap((bus) => {
      const t = this.clipOn(bus);
      const chase = t ? this.saved(t.id).chase : null;
      return t && chase ? [{ bus, key: t.key, chase, durationS: t.durationS, status: this.d.ingest.clip(t.key) }] : [];
    });
  }

  /** A command to a bus's clip as the chaser sends it (positions it has worked out itself). */
  command(bus: Bus, cmd: ClipCommand): Promise<TransportView> {
    return this.send(this.target(bus), cmd);
  }

  async addCue(bus: Bus, name: string, positionS: number): Promise<TransportView> {
    const t = this.target(bus);
    checkCue(this.saved(t.id), t.durationS, name, positionS);
    return this.change(t, (x) => {
      x.cues = { ...x.cues, [name]: positionS };
    });
  }

  async removeCue(bus: Bus, name: string): Promise<TransportView> {
    const t = this.target(bus);
    const s = this.saved(t.id);
    if (!Object.hasOwn(s.cues, name)) throw notFound('cue', name, Object.keys(s.cues));
    return this.change(t, (x) => {
      const { [name]: _gone, ...rest } = x.cues;
      x.cues = rest;
    });
  }

  /** The transport a media video's reader starts with (its saved settings), or undefined for anything else. */
  private startFor(key: string, input: IngestInput): ClipStart | undefined {
    if (input.kind !== 'file' || input.still || !key.startsWith('file:')) return undefined;
    const id = key.slice('file:'.length);
    const durationS = this.d.duration(id) ?? null;
    const positionS = this.startAt.get(key);
    this.startAt.delete(key);
    return {
      settings: clipSettings(this.saved(id), durationS, this.d.bpm()),
      durationS,
      ...(positionS !== undefined ? { positionS } : {}),
    };
  }

  private saved(id: string): TransportSaved {
    return this.d.state.peek().transport?.[id] ?? DEFAULT_SAVED;
  }

  private clipOn(bus: Bus): Target | null {
    const src = this.d.onBus(bus);
    if (src?.sourceKind !== 'file' || src.type !== 'video') return null;
    const durationS = this.d.duration(src.id);
    return { bus, id: src.id, name: src.name, key: `file:${src.id}`, durationS: durationS ?? null };
  }

  private target(bus: Bus): Target {
    const t = this.clipOn(bus);
    if (t) return t;
    const src = this.d.onBus(bus);
    throw new ApiError('NOT_A_CLIP', src ? `${src.name} on the ${bus} bus is not a media clip` : `nothing is on the ${bus} bus`);
  }

  private busKeys(): string[] {
    return (['program', 'preview'] as const).map((b) => this.clipOn(b)?.key ?? '');
  }

  /** Saves a settings change, then hands the reader its new settings. */
  private async change(t: Target, edit: (s: TransportSaved) => void): Promise<TransportView> {
    const next = structuredClone(this.saved(t.id));
    edit(next);
    checkPingPong(next, t.durationS, this.d.fps, this.d.box);
    next.at = Date.now();
    this.d.state.update((st) => {
      st.transport = withSaved(st.transport ?? {}, t.id, next);
    });
    const settings = clipSettings(next, t.durationS, this.d.bpm());
    this.synced.set(t.key, settings.speed);
    // A reader not open as a clip (still opening) takes the saved settings when it opens.
    if (this.d.ingest.clip(t.key) === undefined) return this.afterChange(t);
    return this.send(t, { op: 'settings', settings });
  }

  private async send(t: Target, cmd: ClipCommand): Promise<TransportView> {
    let status: ClipStatus;
    const deadline = Date.now() + TRANSPORT_LIMITS.seekTimeoutMs;
    const before = this.d.ingest.clip(t.key);
    // A play from the end starts over from the in point, and a settings change may move the position: a new frame
    // like a seek's.
    const fresh = cmd.op === 'seek' || cmd.op === 'settings' || (cmd.op === 'play' && before?.state === 'ended');
    try {
      status = await this.d.ingest.clipCommand(t.key, cmd, deadline);
    } catch (err) {
      throw new ApiError('ACTIVATION_TIMEOUT', `${t.name}: ${(err as Error).message}`);
    }
    // On the program the answer waits until the output has drawn the command's frame (the preview bus is not drawn);
    // a hidden layer answers once it has taken the frame up from its ring.
    if (fresh && t.bus === 'program' && (cmd.op !== 'settings' || status.frameNo !== before?.frameNo)) {
      const why = await this.d.shown(t.key, status.frameNo - 1, deadline);
      if (why !== null) throw new ApiError('ACTIVATION_TIMEOUT', `${t.name}: ${why}`);
    }
    this.emit('change');
    return viewOf(t, this.saved(t.id), status, this.d.bpm());
  }

  private afterChange(t: Target): TransportView {
    this.emit('change');
    return viewOf(t, this.saved(t.id), this.d.ingest.clip(t.key), this.d.bpm());
  }

  /** Emits `ended` (media id, end mode) once when the program's clip reaches its end with `take` or `next` set. */
  private watchEnd(key: string): void {
    const t = this.clipOn('program');
    if (!t || t.key !== key) return;
    const ended = this.d.ingest.clip(key)?.state === 'ended';
    if (!ended) {
      if (this.endedKey === key) this.endedKey = '';
      return;
    }
    if (this.endedKey === key) return;
    this.endedKey = key;
    const end = this.saved(t.id).end;
    if (end === 'take' || end === 'next') this.emit('ended', t.id, end);
  }

  /** Tempo-synced clips on a bus follow tempo changes. */
  private followTempo(): void {
    for (const bus of ['program', 'preview'] as const) {
      const t = this.clipOn(bus);
      if (!t) continue;
      const s = this.saved(t.id);
      const status = this.d.ingest.clip(t.key);
      if (!s.sync || !status) continue;
      const speed = effectiveSpeed(s, t.durationS, this.d.bpm());
      if (Math.abs(speed - status.settings.speed) < 1e-6 || this.synced.get(t.key) === speed) continue;
      this.synced.set(t.key, speed);
      void this.send(t, { op: 'settings', settings: clipSettings(s, t.durationS, this.d.bpm()) }).catch(() => this.synced.delete(t.key));
    }
  }
}
