// The picture leaving the render worker: thumbnails (and the live previews they share the readers with), the output
// worker and its pressure meter, the output service (display, streams, recordings), the output kinds this box can run,
// and the preview hub. The encode pool and the program source are made with the thumbnails and shared: the program
// ring the output service installs is the one thumbnails read, and the preview hub encodes through the same pool.
import { join } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { RenderClient } from '../workers/render-client.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ReaderPool } from '../inputs/reader-pool.js';
import type { MediaLibrary } from '../library/media-library.js';
import type { PaletteLibrary } from '../palettes/library.js';
import { EncodePool } from '../workers/encode-pool.js';
import { PosterCache } from '../thumbnails/poster-cache.js';
import { LivePreviews } from '../thumbnails/live-previews.js';
import { ThumbnailService } from '../thumbnails/service.js';
import { thumbnailSubjects } from '../thumbnails/subjects.js';
import { ProgramSource } from '../thumbnails/program-source.js';
import { OutputClient } from '../workers/output-client.js';
import { OutputService } from '../outputs/service.js';
import { Recordings } from '../outputs/recordings.js';
import { PreviewHub } from '../outputs/preview.js';
import { OutputKinds } from '../outputs/kinds.js';
import { RefreshPace } from '../thumbnails/refresh-pace.js';
import { EncoderProbe } from '../outputs/encoder-probe.js';
import { IMAGE_CACHE_LIMITS, LIMITS } from '../limits.js';
import { PressureMeter } from './pipeline-pressure.js';
import type { LiveWatch } from './show-sources.js';

export interface ThumbnailsDeps {
  loaded: LoadedConfig;
  cfg: Config;
  render: RenderClient;
  readers: ReaderPool;
  live: LiveWatch;
  catalog: Catalog;
  library: MediaLibrary;
  palettes: PaletteLibrary;
  log: Logger;
}

export interface ShowThumbnails {
  previews: LivePreviews;
  /** Shared with the preview hub. */
  encoder: EncodePool;
  /** Set by the output service when it installs the program ring. */
  programSource: ProgramSource;
  thumbnails: ThumbnailService;
  /** Follows the pressure meter once the outputs start. */
  pace: RefreshPace;
}

export function wireThumbnails(d: ThumbnailsDeps): ShowThumbnails {
  const { loaded, cfg, render, log } = d;
  const previews = new LivePreviews(d.readers);
  const encoder = new EncodePool({ log });
  const posters = new PosterCache({
    dir: join(loaded.paths.dataDir, 'cache', 'posters'),
    log,
    maxEntries: IMAGE_CACHE_LIMITS.posterFilesMax,
  });
  const renderSize = { width: cfg.render.width, height: cfg.render.height };
  const programSource = new ProgramSource(LIMITS.thumbnails.readbackTimeoutMs);
  const pace = new RefreshPace(cfg.render.fps);
  const thumbnails = new ThumbnailService({
    pace,
    programRing: () => programSource.usable(),
    render,
    encoder,
    previews,
    posters,
    renderSize,
    ...thumbnailSubjects({ live: () => d.live.current(), catalog: d.catalog, library: d.library, palettes: d.palettes, renderSize }),
  });
  return { previews, encoder, programSource, thumbnails, pace };
}

export interface OutputsDeps {
  loaded: LoadedConfig;
  cfg: Config;
  render: RenderClient;
  programSource: ProgramSource;
  encoder: EncodePool;
  pace: RefreshPace;
  log: Logger;
}

export interface ShowOutputs {
  outputClient: OutputClient;
  pressure: PressureMeter;
  outputs: OutputService;
  kinds: OutputKinds;
  recordings: Recordings;
  preview: PreviewHub;
}

/** Starts the output worker's client, the pressure meter, the configured outputs and the kinds probe, in that order. */
export async function startOutputs(d: OutputsDeps): Promise<ShowOutputs> {
  const { loaded, cfg, render, programSource, log } = d;
  const outputClient = new OutputClient({
    ffmpeg: 'ffmpeg',
    width: cfg.render.width,
    height: cfg.render.height,
    log,
    layout: () => render.readback?.layout ?? null,
  });
  // The encoders' drops and the main thread's lateness, once a second, for the render's automatic scale and the previews.
  const pressure = new PressureMeter(
    () => outputClient.totals(),
    (p) => render.pressure(p),
  );
  pressure.start();
  d.pace.follow(() => pressure.short());
  // Created first so the encoder probe shares its ffmpeg listing; it asks the service for displays only once started.
  const kinds: OutputKinds = new OutputKinds({
    ffmpeg: 'ffmpeg',
    displays: (): string[] => service.displays(),
    sysfsDir: cfg.live.v4l2.sysfsDir,
  });
  const service: OutputService = new OutputService({
    configured: cfg.outputs,
    render: {
      ...cfg.render,
      setOutputRing: (ring) => {
        programSource.set(ring);
        render.setOutputRing(ring);
      },
      setOutputMaps: (items) => render.setOutputMaps(items),
    },
    dataDir: loaded.paths.dataDir,
    recordingsDir: loaded.paths.recordingsDir,
    shareRecordings: cfg.recordings.shareEncoder,
    client: outputClient,
    encoders: new EncoderProbe({ ffmpeg: 'ffmpeg', listing: async (): Promise<string> => (await kinds.listings()).encoders }),
    log,
  });
  await service.start();
  await kinds.start();
  if (!kinds.list().includes('stream')) log.warn({}, 'ffmpeg has no libx264 encoder: streams and recordings cannot run');
  const recordings = new Recordings({ dir: service.recordingsDir, active: () => service.activeRecordings() });
  const preview = new PreviewHub({
    encoder: d.encoder,
    ring: () => outputClient.ring,
    render: cfg.render,
    setActive: (on) => service.setPreviewing(on),
    short: () => pressure.short(),
    log,
  });
  return { outputClient, pressure, outputs: service, kinds, recordings, preview };
}
