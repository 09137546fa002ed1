// Thumbnails of live inputs, the output, generators and presets, effects, media files and palettes. Each request first
// computes its ETag from counters (no pixels touched on this thread) and answers 304 when the client has it;
// only then is work admitted through the 32/16 queue: the render worker reads back a downscale, the encode
// pool turns it into PNG or JPEG. While outputs or previews read the program back, output thumbnails are scaled
// from that readback in the encode pool and the render worker draws none.
import { randomBytes } from 'node:crypto';
import type { ImageFormat, ThumbSubject } from '../shared/messages.js';
import type { RenderClient } from '../workers/render-client.js';
import type { LiveInput } from '../inputs/providers.js';
import { ApiError } from '../errors.js';
import { IMAGE_CACHE_LIMITS, LIMITS } from '../limits.js';
import type { RefreshPace } from './refresh-pace.js';
import { etagOf, fitSize, shortHash, type ThumbKind } from './params.js';
import { etagMatches } from '../util/etag.js';
import { ThumbQueue, type QueueStats } from './queue.js';
import type { LivePreviews } from './live-previews.js';
import type { EncodePool } from '../workers/encode-pool.js';
import type { PosterCache } from './poster-cache.js';
import { ResultCache } from './result-cache.js';

/** Off-screen generator thumbnails are drawn at this TIME (seconds): far enough in for animations to show. */
export const GENERATOR_THUMB_TIME = 2;
/** Palette swatch strips are four times wider than high. */
export const PALETTE_ASPECT = 4;
/** Longest id looked up (the live-input limit applies to every thumbnail id; longer ones match nothing). */
const MAX_ID = LIMITS.thumbnails.liveIdMaxLength;
/** Jobs running at once (render readback and encode overlap across jobs). */
const CONCURRENCY = 4;

const PROVIDER_LABELS: Record<string, string> = { test: 'test pattern', stream: 'network stream', v4l2: 'capture device' };

export interface GeneratorThumbSource {
  type: string;
  inputs: Record<string, unknown>;
  /** Short hash that changes whenever the image can change (shader text, inputs, render size); computed once per catalog. */
  signature: string;
}

export interface EffectThumbSource {
  type: string;
  /** Short hash that changes whenever the image can change (shader text, inputs, render size); computed once per catalog. */
  signature: string;
  /** The compile message when the effect's shader does not compile (GET /catalog/errors), else undefined. */
  loadError: string | undefined;
  file: string;
}

export interface MediaThumbSource {
  id: string;
  name: string;
  path: string;
  size: number;
  mtimeMs: number;
  width: number;
  height: number;
  still: boolean;
  durationSec: number | null;
}

export interface PaletteThumbSource {
  id: string;
  colors: readonly string[];
  version: number;
  digest: string;
}

export interface ThumbnailDeps {
  render: Pick<RenderClient, 'thumb' | 'outputFrame'>;
  encoder: Pick<EncodePool, 'run' | 'stats'>;
  previews: LivePreviews;
  posters: Pick<PosterCache, 'get' | 'stats'>;
  /** The program readback's ring while it runs and has a current frame, else null. */
  programRing?: () => SharedArrayBuffer | null;
  renderSize: { width: number; height: number };
  /** Labels program and layer images with fewer frames while the pipeline is short. */
  pace?: RefreshPace;
  /** The live input an id names: exact id (or `liveInput:<id>`), then flexible name; ties go to enumeration order. */
  matchLive(id: string): LiveInput | undefined;
  generator(id: string): GeneratorThumbSource | undefined;
  effect(id: string): EffectThumbSource | undefined;
  media(id: string): MediaThumbSource | undefined;
  palette(id: string): PaletteThumbSource | undefined;
  notFound(kind: 'source' | 'effect' | 'media' | 'palette', requested: string): ApiError;
}

interface Plan {
  kind: ThumbKind;
  width: number;
  height: number;
  digest: string;
  /** Identifies the subject (two inputs may show the same frame number). */
  subject: string;
  /** Produces the image; `etag` overrides the planned one (the output moved on to a newer frame). */
  make: () => Promise<{ bytes: Uint8Array; etag?: string }>;
}

export class ThumbnailService {
  readonly queue = new ThumbQueue({
    high: LIMITS.thumbnails.queueRejectAbove,
    low: LIMITS.thumbnails.queueResumeAt,
    concurrency: CONCURRENCY,
  });
  private readonly cache = new ResultCache(IMAGE_CACHE_LIMITS.thumbnailCacheBytes, IMAGE_CACHE_LIMITS.thumbnailCacheEntries);
  private readonly effectCache = new ResultCache(IMAGE_CACHE_LIMITS.effectThumbCacheBytes, IMAGE_CACHE_LIMITS.effectThumbCacheEntries);
  /** Per-process nonce in frame digests: frame numbers restart with the process, ETags must not repeat. */
  private readonly boot = randomBytes(3).toString('hex');
  private readonly ringSerials = new WeakMap<SharedArrayBuffer, string>();
  private nextSerial = 1;
  private readonly placeholderDigests = new WeakMap<LiveInput, Map<number, string>>();
  /** Media versions (id, size, mtime) whose poster could not be extracted. */
  private readonly failedPosters = new Set<string>();
  private readonly counts = { requests: 0, notModified: 0, cacheHits: 0, timeouts: 0, placeholders: 0 };
  /** Where output thumbnails came from, and every job handed to the render worker's thumbnail stage. */
  private readonly from = { readback: 0, render: 0 };
  private renderJobs = 0;

  constructor(private readonly deps: ThumbnailDeps) {}

  async live(rawId: string, size: number, format: ImageFormat, ifNoneMatch: string): Promise<ThumbResult> {
    this.counts.requests++;
    const input = rawId.length >= 1 && rawId.length <= MAX_ID ? this.deps.matchLive(rawId) : undefined;
    if (!input)
      throw new ApiError(
        'DEVICE_NOT_FOUND',
        rawId.length === 0
          ? 'the live input id is empty'
          : rawId.length > MAX_ID
            ? `the live input id is longer than ${MAX_ID} characters`
            : 'no enumerated live input matches that id',
      );
    const info = input.available ? this.deps.previews.frame(input) : { ring: null, frameCount: 0, lastFrameMs: 0, size: null };
    const fresh = info.ring !== null && info.frameCount > 0 && Date.now() - info.lastFrameMs <= LIMITS.thumbnails.liveFrameMaxAgeMs;
    const box = fitSize(info.size?.width ?? 16, info.size?.height ?? 9, size);
    const placeholder = (): Plan => ({
      kind: 'live',
      ...box,
      digest: this.placeholderDigest(input, box),
      subject: `live:${input.id}`,
      make: async () => {
        this.counts.placeholders++;
        return {
          bytes: await this.placeholderImage(box, input.name, `${PROVIDER_LABELS[input.provider] ?? input.provider} · no signal`, format),
        };
      },
    });
    if (!fresh) return this.serve(placeholder(), format, ifNoneMatch);
    const ring = info.ring!;
    const plan: Plan = {
      kind: 'live',
      ...box,
      digest: `f${this.boot}${this.serialOf(ring)}.${info.frameCount.toString(36)}`,
      subject: `live:${input.id}`,
      make: async () => {
        const r = await this.readback({ kind: 'ring', ring }, box, format);
        if (r === null) return placeholder().make();
        return {
          bytes: r.bytes,
          etag: etagOf('live', box.width, box.height, format, `f${this.boot}${this.serialOf(ring)}.${r.frame.toString(36)}`),
        };
      },
    };
    return this.serve(plan, format, ifNoneMatch);
  }

  current(size: number, format: ImageFormat, ifNoneMatch: string): Promise<ThumbResult> {
    this.counts.requests++;
    const box = fitSize(this.deps.renderSize.width, this.deps.renderSize.height, size);
    const frame = this.outputFrame();
    return this.serve(
      {
        kind: 'current',
        ...box,
        digest: `f${this.boot}.${frame.toString(36)}`,
        subject: 'current',
        make: async () => {
          // Labelled with the counter read above: the readback holds that frame or a newer one, so a client that
          // got this image is sent a new one as soon as the counter moves.
          const fromReadback = await this.fromProgram(box, format);
          if (fromReadback) return { bytes: fromReadback };
          const r = await this.readback({ kind: 'output' }, box, format);
          if (r === null) throw new ApiError('PREVIEW_TIMEOUT', 'the output has no frame yet; retry');
          this.from.render++;
          return { bytes: r.bytes, etag: etagOf('current', box.width, box.height, format, `f${this.boot}.${r.frame.toString(36)}`) };
        },
      },
      format,
      ifNoneMatch,
    );
  }

  /** One layer after its chain (render-worker readback); the digest follows the output frame as `current`'s does. */
  layer(layer: number, size: number, format: ImageFormat, ifNoneMatch: string): Promise<ThumbResult> {
    this.counts.requests++;
    const box = fitSize(this.deps.renderSize.width, this.deps.renderSize.height, size);
    const frame = this.outputFrame();
    return this.serve(
      {
        kind: 'layer',
        ...box,
        digest: `l${this.boot}.${layer}.${frame.toString(36)}`,
        subject: `layer:${layer}`,
        make: async () => {
          const r = await this.readback({ kind: 'layer', layer }, box, format);
          if (r === null) throw new ApiError('PREVIEW_TIMEOUT', 'the layer has no frame yet; retry');
          return { bytes: r.bytes, etag: etagOf('layer', box.width, box.height, format, `l${this.boot}.${layer}.${r.frame.toString(36)}`) };
        },
      },
      format,
      ifNoneMatch,
    );
  }

  source(id: string, size: number, format: ImageFormat, ifNoneMatch: string): Promise<ThumbResult> {
    this.counts.requests++;
    const g = id.length <= MAX_ID ? this.deps.generator(id) : undefined;
    if (!g) throw this.deps.notFound('source', id);
    const { width, height } = this.deps.renderSize;
    const box = fitSize(width, height, size);
    const subject: ThumbSubject = { kind: 'generator', type: g.type, inputs: g.inputs, time: GENERATOR_THUMB_TIME };
    return this.serve(
      {
        kind: 'source',
        ...box,
        digest: `g${g.signature}`,
        subject: `source:${id}`,
        make: async () => {
          const r = await this.readback(subject, box, format);
          if (r === null) throw new ApiError('PREVIEW_TIMEOUT', 'the generator could not be drawn; retry');
          return { bytes: r.bytes };
        },
      },
      format,
      ifNoneMatch,
    );
  }

  /** An effect at its default inputs over the render worker's test card; the image changes only with the file. */
  effect(id: string, size: number, format: ImageFormat, ifNoneMatch: string): Promise<ThumbResult> {
    this.counts.requests++;
    const e = id.length <= MAX_ID ? this.deps.effect(id) : undefined;
    if (!e) throw this.deps.notFound('effect', id);
    if (e.loadError !== undefined) throw notCompiled(e, e.loadError);
    const box = fitSize(this.deps.renderSize.width, this.deps.renderSize.height, size);
    const subject: ThumbSubject = { kind: 'effect', type: e.type, time: GENERATOR_THUMB_TIME };
    return this.serve(
      {
        kind: 'effect',
        ...box,
        digest: `e${e.signature}`,
        subject: `effect:${e.type}`,
        make: async () => {
          const r = await this.readback(subject, box, format, IMAGE_CACHE_LIMITS.effectReadbackTimeoutMs);
          if (r === null) throw new ApiError('PREVIEW_TIMEOUT', 'the effect could not be drawn; retry');
          return { bytes: r.bytes };
        },
      },
      format,
      ifNoneMatch,
      this.effectCache,
    ).catch((err: unknown) => {
      if (err instanceof LoadFailed) throw notCompiled(e, err.message);
      throw err;
    });
  }

  media(id: string, size: number, format: ImageFormat, ifNoneMatch: string): Promise<ThumbResult> {
    this.counts.requests++;
    const m = id.length <= MAX_ID ? this.deps.media(id) : undefined;
    if (!m) throw this.deps.notFound('media', id);
    const box = fitSize(m.width, m.height, size);
    const version = shortHash(m.id, m.size, m.mtimeMs);
    const card = `p${version}`;
    // A file ffmpeg cannot read gets a card with its name; remembered so its ETag is known before any work next time.
    const failed = this.failedPosters.has(version);
    return this.serve(
      {
        kind: 'media',
        ...box,
        digest: failed ? card : `m${version}`,
        subject: `media:${m.id}`,
        make: async () => {
          let poster: { path: string } | null = null;
          if (!failed) {
            try {
              poster = await this.deps.posters.get({
                id: m.id,
                path: m.path,
                size: m.size,
                mtimeMs: m.mtimeMs,
                kind: m.still ? 'still' : 'video',
                ...(m.durationSec !== null ? { duration: m.durationSec } : {}),
              });
            } catch {
              if (this.failedPosters.size > 10_000) this.failedPosters.clear();
              this.failedPosters.add(version);
            }
          }
          if (!poster) {
            this.counts.placeholders++;
            return {
              bytes: await this.placeholderImage(box, m.name, 'media file · no preview', format),
              etag: etagOf('media', box.width, box.height, format, card),
            };
          }
          return {
            bytes: (await this.deps.encoder.run({ op: 'file', path: poster.path, width: box.width, height: box.height, format })).bytes,
          };
        },
      },
      format,
      ifNoneMatch,
    );
  }

  palette(id: string, size: number, format: ImageFormat, ifNoneMatch: string): Promise<ThumbResult> {
    this.counts.requests++;
    const p = id.length <= MAX_ID ? this.deps.palette(id) : undefined;
    if (!p) throw this.deps.notFound('palette', id);
    const box = { width: size, height: Math.max(1, Math.round(size / PALETTE_ASPECT)) };
    const colors = [...p.colors];
    return this.serve(
      {
        kind: 'palette',
        ...box,
        digest: `v${p.version}.${p.digest}`,
        subject: `palette:${p.id}`,
        make: async () => ({
          bytes: (await this.deps.encoder.run({ op: 'palette', colors, width: box.width, height: box.height, format })).bytes,
        }),
      },
      format,
      ifNoneMatch,
    );
  }

  private async serve(plan: Plan, format: ImageFormat, ifNoneMatch: string, cache = this.cache): Promise<ThumbResult> {
    const etag = etagOf(plan.kind, plan.width, plan.height, format, plan.digest);
    if (etagMatches(ifNoneMatch, etag)) {
      this.counts.notModified++;
      return { etag, image: null };
    }
    const key = `${plan.subject}|${etag}`;
    const hit = cache.get(key);
    if (hit) {
      this.counts.cacheHits++;
      return { etag: hit.etag, image: { bytes: hit.bytes, contentType: contentTypeOf(format) } };
    }
    const made = await this.queue.submit(key, plan.make);
    const finalEtag = made.etag ?? etag;
    cache.set(key, { bytes: made.bytes, etag: finalEtag });
    if (made.etag && made.etag !== etag) cache.set(`${plan.subject}|${made.etag}`, { bytes: made.bytes, etag: finalEtag });
    return { etag: finalEtag, image: { bytes: made.bytes, contentType: contentTypeOf(format) } };
  }

  /** The output scaled from the program readback in the encode pool; null when no readback has a current frame. */
  private async fromProgram(box: { width: number; height: number }, format: ImageFormat): Promise<Uint8Array | null> {
    const ring = this.deps.programRing?.() ?? null;
    if (!ring) return null;
    const r = await this.deps.encoder.run({ op: 'program-thumb', ring, width: box.width, height: box.height, format });
    if (r.bytes.byteLength === 0) return null;
    this.from.readback++;
    return r.bytes;
  }

  /** Render-worker readback into a fresh slot, then encode; null when the subject has no frame to show. */
  private async readback(
    subject: ThumbSubject,
    box: { width: number; height: number },
    format: ImageFormat,
    budgetMs: number = LIMITS.thumbnails.readbackTimeoutMs,
  ): Promise<{ bytes: Uint8Array; frame: number } | null> {
    const slot = new SharedArrayBuffer(box.width * box.height * 4);
    this.renderJobs++;
    const reply = await this.deps.render.thumb({
      subject,
      width: box.width,
      height: box.height,
      slot,
      deadline: Date.now() + budgetMs,
    });
    if (!reply.ok) {
      if (reply.reason === 'no-frame') return null;
      if (reply.reason === 'load-failed') throw new LoadFailed(reply.message);
      this.counts.timeouts++;
      throw new ApiError('PREVIEW_TIMEOUT', reply.reason === 'expired' ? undefined : `frame readback failed: ${reply.message}`, undefined, {
        'Retry-After': '1',
      });
    }
    const enc = await this.deps.encoder.run({ op: 'encode', pixels: slot, width: box.width, height: box.height, format });
    return { bytes: enc.bytes, frame: reply.frame };
  }

  private async placeholderImage(
    box: { width: number; height: number },
    title: string,
    subtitle: string,
    format: ImageFormat,
  ): Promise<Uint8Array> {
    return (
      await this.deps.encoder.run({
        op: 'placeholder',
        width: box.width,
        height: box.height,
        title: title.slice(0, 64),
        subtitle: subtitle.slice(0, 64),
        format,
      })
    ).bytes;
  }

  /** Memoised per input object and size: the 304 path of a disconnected input must not hash on every poll. */
  private placeholderDigest(input: LiveInput, box: { width: number; height: number }): string {
    let bySize = this.placeholderDigests.get(input);
    if (!bySize) this.placeholderDigests.set(input, (bySize = new Map()));
    const k = box.width * 65536 + box.height;
    let d = bySize.get(k);
    if (d === undefined) {
      d = `p${shortHash('live', input.id, input.name, input.provider, box.width, box.height)}`;
      if (bySize.size > 1024) bySize.clear();
      bySize.set(k, d);
    }
    return d;
  }

  private serialOf(ring: SharedArrayBuffer): string {
    let s = this.ringSerials.get(ring);
    if (!s) {
      s = (this.nextSerial++).toString(36);
      this.ringSerials.set(ring, s);
    }
    return s;
  }

  /** Changes whenever any counter does (every counter only grows), so status bodies can be memoised on it. */
  version(): number {
    const c = this.counts;
    return (
      c.requests +
      c.notModified +
      c.cacheHits +
      c.timeouts +
      c.placeholders +
      this.from.readback +
      this.from.render +
      this.renderJobs +
      this.queue.version() +
      this.deps.previews.open() * 1e9
    );
  }

  /** The output frame a program or layer image is labelled with (held back while the pipeline is short). */
  private outputFrame(): number {
    const counter = this.deps.render.outputFrame();
    return this.deps.pace ? this.deps.pace.frame(counter) : counter;
  }

  stats(): ThumbnailStats {
    return {
      ...this.counts,
      from: { ...this.from },
      renderJobs: this.renderJobs,
      refreshesHeld: this.deps.pace?.held ?? 0,
      queue: this.queue.stats(),
      encoder: this.deps.encoder.stats(),
      posters: this.deps.posters.stats(),
      cache: this.cache.stats(),
      previewsOpen: this.deps.previews.open(),
    };
  }
}

export interface ThumbnailStats {
  requests: number;
  notModified: number;
  cacheHits: number;
  timeouts: number;
  placeholders: number;
  from: { readback: number; render: number };
  renderJobs: number;
  refreshesHeld: number;
  queue: QueueStats;
  encoder: ReturnType<EncodePool['stats']>;
  posters: ReturnType<PosterCache['stats']>;
  cache: { entries: number; bytes: number };
  previewsOpen: number;
}

/** What a thumbnail request resolves to; `image` is null when the client's If-None-Match already names `etag`. */
export interface ThumbResult {
  etag: string;
  image: { bytes: Uint8Array; contentType: string } | null;
}

/** The render worker found the subject's shader does not compile. */
class LoadFailed extends Error {}

function notCompiled(e: EffectThumbSource, message: string): ApiError {
  return new ApiError('EFFECT_NOT_COMPILED', `effect "${e.type}" does not compile: ${message}`, { type: e.type, file: e.file });
}

function contentTypeOf(format: ImageFormat): string {
  return format === 'jpg' ? 'image/jpeg' : 'image/png';
}
