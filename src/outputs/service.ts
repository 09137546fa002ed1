// The outputs of this box: definitions from the config file and ones added over the API (persisted in
// `<dataDir>/outputs.json`), turned into consumer specs for the output worker, with the program readback in the
// render worker switched on only while one is enabled.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, notFound } from '../errors.js';
import { DATA_FILE_LIMITS, OUTPUT_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import type { OutputConfig } from '../config/schema.js';
import {
  API_KINDS,
  encodesH264,
  OUTPUT_KINDS,
  outputKind,
  outputProblem,
  type OutputFields,
  type OutputKind,
  type OutputSpec,
} from '../shared/output-kinds/index.js';
import { DEFAULT_DISPLAY } from '../shared/output-kinds/display.js';
import { isHwEncoder, type H264Encoder } from '../shared/output-kinds/encoders.js';
import type { EncoderProbe } from './encoder-probe.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { readRegularText } from '../util/regular-file.js';
import type { OutputsSummary, OutputView } from './view.js';
import type { OutputClient } from '../workers/output-client.js';
import { OutputMaps } from './maps.js';
import { type OutputMap, outputMapProblem } from '../shared/output-map.js';
import type { OutputMapItem } from '../shared/protocol/render.js';

/** Default stream bitrate at 1280×720@30, scaled by pixel rate for other sizes. */
const BASE_KBPS = 4000;

interface Definition extends OutputConfig {
  name: string;
  /** From the config file: can be disabled, not removed. */
  configured: boolean;
}

function isApiKind(kind: unknown): boolean {
  return (API_KINDS as readonly unknown[]).includes(kind);
}

export interface AddRequest extends OutputFields {
  name?: string | undefined;
}

export class OutputService {
  private readonly defs: Definition[] = [];
  private readonly file: string;
  private readonly recordings: string;
  private saving: Promise<void> = Promise.resolve();
  /** Per output: the apply in progress (applies of one output run one after another) and whether it runs now. */
  private readonly applying = new Map<string, Promise<void>>();
  private readonly started = new Set<string>();
  /** Per output: the H.264 encoder its latest start got. */
  private readonly inUse = new Map<string, H264Encoder>();
  private readbackOn = false;
  private readonly maps: OutputMaps;
  private previewing = false;

  constructor(
    private readonly opts: {
      configured: readonly OutputConfig[];
      render: {
        width: number;
        height: number;
        fps: number;
        setOutputRing(ring: SharedArrayBuffer | null): void;
        setOutputMaps(items: OutputMapItem[]): void;
      };
      dataDir: string;
      /** Where record outputs write (config `recordings.dir`, default `<dataDir>/recordings`). */
      recordingsDir: string;
      /** Config `recordings.shareEncoder` (read at start). */
      shareRecordings: boolean;
      client: OutputClient;
      /** Resolves each stream or record output's `encoder` (hardware trials once per process). */
      encoders: Pick<EncoderProbe, 'resolve' | 'encoders' | 'autoEncoder'>;
      log: Logger;
    },
  ) {
    this.file = join(opts.dataDir, 'outputs.json');
    this.recordings = opts.recordingsDir;
    for (const o of opts.configured) this.defs.push({ ...o, name: o.name ?? o.id, configured: true });
    this.maps = new OutputMaps({ dataDir: opts.dataDir, render: opts.render, client: opts.client, log: opts.log });
  }

  /** Reads the added outputs back and starts every enabled output. */
  async start(): Promise<void> {
    let saved: OutputConfig[] = [];
    try {
      // A pipe in its place would block start-up in open(); it, or an oversized file, is refused unread.
      saved = JSON.parse(await readRegularText(this.file, DATA_FILE_LIMITS.outputsFileMaxBytes)) as OutputConfig[];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.opts.log.warn({ file: this.file, err: (err as Error).message }, 'saved outputs not read');
    }
    for (const o of Array.isArray(saved) ? saved : []) {
      // The file is ours, but it passes the same rules as anything else that reaches ffmpeg.
      if (
        typeof o?.id !== 'string' ||
        !isApiKind(o.kind) ||
        outputProblem(o) ||
        this.defs.some((d) => d.id === o.id) ||
        this.defs.length >= OUTPUT_LIMITS.max
      ) {
        this.opts.log.warn({ file: this.file, id: o?.id }, 'a saved output was not restored');
        continue;
      }
      this.defs.push({ ...o, name: o.name ?? o.id, configured: false });
    }
    await this.maps.load((id) => this.defs.some((d) => d.id === id));
    for (const d of this.defs) if (d.enabled) await this.apply(d);
    this.syncReadback();
  }

  list(): OutputView[] {
    return this.defs.map((d) => this.view(d));
  }

  /** By exact id first, then by name (case-insensitive). */
  find(sel: { id?: string | undefined; name?: string | undefined }): Definition {
    const wanted = sel.id ?? sel.name;
    if (wanted === undefined) throw new ApiError('INVALID_REQUEST', 'id or name is required');
    const d =
      sel.id !== undefined ? this.defs.find((x) => x.id === sel.id) : this.defs.find((x) => x.name.toLowerCase() === wanted.toLowerCase());
    if (!d)
      throw notFound(
        'output',
        wanted,
        this.defs.map((x) => x.id),
      );
    return d;
  }

  async setEnabled(d: Definition, enabled: boolean): Promise<OutputView> {
    if (d.enabled !== enabled) {
      d.enabled = enabled;
      this.syncReadback();
      await Promise.all([this.apply(d), d.configured ? undefined : this.save()]);
    }
    return this.view(d);
  }

  async add(req: AddRequest): Promise<OutputView> {
    // The route's schema refuses other kinds already; this keeps the rule where the work is done too.
    if (!isApiKind(req.kind))
      throw new ApiError(
        'INVALID_REQUEST',
        `kind must be one of ${API_KINDS.join(', ')} (${OUTPUT_KINDS.filter((k) => !API_KINDS.includes(k)).join(' and ')} outputs come from the config file)`,
      );
    const problem = outputProblem(req);
    if (problem) throw new ApiError('INVALID_REQUEST', `${problem.field} ${problem.reason}`);
    // A hardware encoder this ffmpeg does not have is refused here; one it has that fails its trial fails the output.
    if (req.encoder !== undefined && isHwEncoder(req.encoder)) {
      const have = await this.opts.encoders.encoders();
      if (!have.has(req.encoder))
        throw new ApiError(
          'INVALID_REQUEST',
          `encoder ${req.encoder} is not in this ffmpeg build (it has ${[...have].join(', ') || 'none'})`,
        );
    }
    if (this.defs.length >= OUTPUT_LIMITS.max) {
      throw new ApiError('OUTPUT_LIMIT_REACHED', undefined, { limit: OUTPUT_LIMITS.max, count: this.defs.length });
    }
    let id: string;
    do id = `${req.kind}-${randomBytes(3).toString('hex')}`;
    while (this.defs.some((d) => d.id === id));
    const d: Definition = { id, name: req.name ?? id, kind: req.kind as OutputKind, enabled: true, configured: false };
    for (const key of ['url', 'bitrateKbps', 'width', 'height', 'fps', 'encoder'] as const)
      if (req[key] !== undefined) (d as unknown as Record<string, unknown>)[key] = req[key];
    this.defs.push(d);
    await this.save();
    this.syncReadback();
    await this.apply(d);
    return this.view(d);
  }

  async remove(d: Definition): Promise<OutputView> {
    if (d.configured) throw new ApiError('OUTPUT_CONFIGURED', undefined, { id: d.id });
    const removed = this.view(d);
    this.defs.splice(this.defs.indexOf(d), 1);
    this.syncReadback();
    const unmapped = this.maps.get(d.id) ? this.maps.set(d.id, null) : undefined;
    await Promise.all([
      this.apply(d).then(() => {
        this.opts.client.forget(d.id);
        this.inUse.delete(d.id);
      }),
      this.save(),
      unmapped,
    ]);
    return { ...removed, enabled: false, state: 'stopped' };
  }

  /** Recordings ffmpeg is writing now: a record output's file from its start until its ffmpeg has exited. */
  activeRecordings(): Set<string> {
    const out = new Set<string>();
    for (const d of this.defs) {
      if (d.kind !== 'record') continue;
      const r = this.opts.client.status(d.id);
      if (r.file && (r.state === 'starting' || r.state === 'running')) out.add(r.file);
    }
    return out;
  }

  get recordingsDir(): string {
    return this.recordings;
  }

  summary(): OutputsSummary {
    const s: OutputsSummary = {
      count: this.defs.length,
      enabled: 0,
      running: 0,
      framesSent: 0,
      framesDropped: 0,
      framesRepeated: 0,
      encoders: [],
      autoEncoder: this.opts.encoders.autoEncoder(),
    };
    const encoders = new Map<string, string[]>();
    for (const d of this.defs) {
      const r = this.opts.client.status(d.id);
      if (r.encoder && r.state !== 'stopped') encoders.set(r.encoder, [...(encoders.get(r.encoder) ?? []), d.id]);
      if (d.enabled) s.enabled++;
      if (r.state === 'running') s.running++;
      s.framesSent += r.framesSent;
      s.framesDropped += r.framesDropped;
      s.framesRepeated += r.framesRepeated;
    }
    s.encoders = [...encoders].map(([id, outputs]) => ({ id, outputs }));
    return s;
  }

  /**
   * Brings the worker to what the definition wants now (enabled and still listed: running; otherwise stopped).
   * Applies of one output run in order and each reads the wanted state when it runs, so an enable whose folder
   * check is still pending cannot start an output disabled or removed meanwhile.
   */
  private apply(d: Definition): Promise<void> {
    const next = (this.applying.get(d.id) ?? Promise.resolve()).then(() => this.applyNow(d));
    const tracked = next.catch((err: Error) => this.opts.log.error({ id: d.id, err: err.message }, 'output not applied'));
    this.applying.set(d.id, tracked);
    void tracked.then(() => {
      if (this.applying.get(d.id) === tracked) this.applying.delete(d.id);
    });
    return next;
  }

  private async applyNow(d: Definition): Promise<void> {
    const wanted = (): boolean => d.enabled && this.defs.includes(d);
    if (wanted() && !this.started.has(d.id)) {
      if (d.kind === 'record') await mkdir(this.recordings, { recursive: true });
      const encoder = encodesH264(d.kind) ? await this.opts.encoders.resolve(d.encoder ?? 'auto') : null;
      if (wanted()) {
        this.started.add(d.id);
        if (encoder?.ok === false) {
          this.inUse.delete(d.id);
          this.opts.client.refuse(d.id, encoder.reason);
          return;
        }
        if (encoder) this.inUse.set(d.id, encoder.encoder);
        this.maps.sync(this.started);
        this.opts.client.start(d.id, this.spec(d, encoder?.encoder ?? 'libx264'));
        return;
      }
    }
    if (!wanted() && this.started.delete(d.id)) {
      this.opts.client.stopOutput(d.id);
      this.maps.sync(this.started);
    }
  }

  /**
   * Sets or clears an output's map, live for the next frame. An output whose encoder also feeds others is started
   * again when it gains or loses a picture of its own, on an encoder of its own (a map never changes the others).
   */
  async setMap(d: Definition, map: OutputMap | null): Promise<OutputView> {
    const problem = map && outputMapProblem(map);
    if (problem) throw new ApiError('INVALID_REQUEST', `map.${problem.field}: ${problem.message}`);
    const was = this.maps.mapped(d.id);
    await this.maps.set(d.id, map);
    const encoder = this.started.has(d.id) ? this.opts.client.status(d.id).encoder : null;
    const shares =
      encoder !== null && this.defs.some((o) => o !== d && this.started.has(o.id) && this.opts.client.status(o.id).encoder === encoder);
    if (shares && was !== this.maps.mapped(d.id)) {
      this.started.delete(d.id);
      this.opts.client.stopOutput(d.id);
      this.maps.sync(this.started);
      await this.apply(d);
    } else this.maps.sync(this.started);
    // The outputs topic and /status follow the client's version: a map is news to every page too.
    this.opts.client.version++;
    return this.view(d);
  }

  private size(d: Definition): { width: number; height: number; fps: number } {
    const r = this.opts.render;
    return { width: d.width ?? r.width, height: d.height ?? r.height, fps: d.fps ?? r.fps };
  }

  private spec(d: Definition, encoder: H264Encoder): OutputSpec {
    const size = this.size(d);
    const bitrateKbps = d.bitrateKbps ?? Math.max(500, Math.round((BASE_KBPS * size.width * size.height * size.fps) / (1280 * 720 * 30)));
    const ctx = { size, bitrateKbps, encoder, recordingsDir: this.recordings, shareRecordings: this.opts.shareRecordings };
    return outputKind(d.kind).spec(d, ctx);
  }

  private view(d: Definition): OutputView {
    const r = this.opts.client.status(d.id);
    const { fps } = this.size(d);
    // A display's size is its window: configured, or the screen once found (the render size until then).
    const { width, height } =
      d.kind === 'display' && r.size ? { width: d.width ?? r.size.width, height: d.height ?? r.size.height } : this.size(d);
    return {
      id: d.id,
      name: d.name,
      kind: d.kind,
      enabled: d.enabled,
      state: r.state,
      target: outputKind(d.kind).target(d, r.file),
      width,
      height,
      fps,
      framesSent: r.framesSent,
      framesDropped: r.framesDropped,
      framesRepeated: r.framesRepeated,
      restarts: r.restarts,
      startedAt: r.startedAt,
      lastError: r.lastError,
      encoder: encodesH264(d.kind) ? (d.encoder ?? 'auto') : null,
      encoderInUse: this.inUse.get(d.id) ?? null,
      map: this.maps.get(d.id),
    };
  }

  /** Displays the configured display outputs use (the default one when there are none), for GET /capabilities. */
  displays(): string[] {
    const names = new Set(this.defs.filter((d) => d.kind === 'display').map((d) => d.display ?? DEFAULT_DISPLAY));
    return names.size > 0 ? [...names] : [DEFAULT_DISPLAY];
  }

  /** MJPEG preview clients read the same ring: the readback runs while one is connected, outputs or not. */
  setPreviewing(on: boolean): void {
    this.previewing = on;
    this.syncReadback();
  }

  /** The render worker reads the program back only while some output is enabled or a preview is watched. */
  private syncReadback(): void {
    const on = this.previewing || this.defs.some((d) => d.enabled);
    if (on === this.readbackOn) return;
    this.readbackOn = on;
    this.opts.render.setOutputRing(on ? this.opts.client.ring : null);
  }

  /** Writes the added outputs (one write at a time, the latest list last). */
  private save(): Promise<void> {
    const data = JSON.stringify(
      this.defs.filter((d) => !d.configured).map(({ configured: _c, ...o }) => o),
      null,
      2,
    );
    this.saving = this.saving.catch(() => undefined).then(() => atomicWriteFile(this.file, data));
    return this.saving;
  }
}
