// The show side of vjd: display, render worker, catalog, ingest worker, live inputs, media library, sources and
// the browse tree, wired together and kept in step (a catalog or library change rebuilds what depends on it).
// This file holds the order: what starts after what, and what stops in which order on shutdown. The parts are wired
// in show-render.ts (render worker, catalog, saved chain, GET /status's render block), show-layers.ts (ingest, layer
// stack, generator inputs, modulation, transport, scenes), show-sources.ts (live inputs, library, the source index,
// the saved sources coming back), show-outputs.ts (thumbnails, outputs, preview hub) and show-audio.ts.
import type { LoadedConfig } from '../config/load.js';
import type { Logger } from '../log.js';
import type { StateStore } from '../state/store.js';
import { ensureDisplay, type Display } from '../workers/xvfb.js';
import type { RenderClient } from '../workers/render-client.js';
import type { Catalog, CatalogSnapshot } from '../catalog/catalog.js';
import type { IngestClient } from '../workers/ingest-client.js';
import type { MediaLibrary } from '../library/media-library.js';
import type { SourceManager } from '../sources/source-manager.js';
import type { Mixer } from '../sources/mixer.js';
import type { LayerStack } from '../layers/stack.js';
import type { Scenes } from '../scenes/service.js';
import type { BrowseTree } from '../browse/tree.js';
import type { RenderStatus } from '../api/status.js';
import { PaletteLibrary } from '../palettes/library.js';
import { PaletteSelection } from '../palettes/selection.js';
import type { ThumbnailService } from '../thumbnails/service.js';
import { sceneActions, transportActions, type Action } from '../actions/registry.js';
import type { OutputClient } from '../workers/output-client.js';
import type { OutputService } from '../outputs/service.js';
import type { Recordings } from '../outputs/recordings.js';
import type { PreviewHub } from '../outputs/preview.js';
import type { OutputKind } from '../shared/messages.js';
import type { Modulation } from '../modulation/service.js';
import type { GeneratorParams } from '../sources/generator-params.js';
import type { AudioClient } from '../workers/audio-client.js';
import type { AudioService } from '../audio/service.js';
import type { TempoService } from '../tempo/service.js';
import type { TransportService } from '../transport/service.js';
import { WarmAhead } from '../sources/warm-ahead.js';
import { installCatalog, renderStatusOf, restoreRender, startCatalog, startRender } from './show-render.js';
import { wireLayers, wireScenes, wireTransport } from './show-layers.js';
import { openLibrary, restoreSources, sourceIndex, watchLive } from './show-sources.js';
import { startOutputs, wireThumbnails } from './show-outputs.js';
import { prefetchListings } from '../util/ffmpeg-listing.js';
import { makeAudioClient, wireAudio } from './show-audio.js';

export interface Show {
  display: Display;
  render: RenderClient;
  catalog: Catalog;
  ingest: IngestClient;
  library: MediaLibrary;
  /** The source manager and mixer of /sources, /mix and /transport: those of the addressed layer (see src/layers/selected.ts). */
  sources: SourceManager;
  mixer: Mixer;
  /** The layer stack: each layer's source manager, mixer and blending. */
  layers: LayerStack;
  /** Installed blend modes. */
  blends(): readonly string[];
  maxLayers(): number;
  /** Saved stacks, recalled at once. */
  scenes: Scenes;
  palettes: PaletteLibrary;
  palette: PaletteSelection;
  thumbnails: ThumbnailService;
  outputs: OutputService;
  recordings: Recordings;
  preview: PreviewHub;
  /** Output kinds this box can run (GET /capabilities). */
  outputKinds(): OutputKind[];
  outputClient: OutputClient;
  /** The audio input and its analysis (workers/audio). */
  audio: AudioService;
  /** The audio worker's handle (its LTC reader is started by the timecode service). */
  audioClient: AudioClient;
  /** The tempo clock (owned by the audio worker). */
  tempo: TempoService;
  /** Play, pause, seek, speed, loop, in/out and cue points of the clips on the buses. */
  transport: TransportService;
  /** Readers opened ahead of a cue (POST /sources/warm). */
  warm: WarmAhead;
  /** Input values of the program generator (POST /sources/params). */
  generatorParams: GeneratorParams;
  /** Modulators outside the chain, freeze and the live values the render worker reports. */
  modulation: Modulation;
  /** `<dataDir>/presets`: where POST /presets/save writes; read by the catalog after the configured folders. */
  presetsDir: string;
  actions(): readonly Action[];
  browseTree(): BrowseTree;
  renderStatus(): RenderStatus;
  stop(): Promise<void>;
}

export async function startShow(loaded: LoadedConfig, state: StateStore, log: Logger, onFatal: (m: string) => void): Promise<Show> {
  const cfg = loaded.config;
  // Read while the display and render worker start; the output kinds and audio discovery wait on them later.
  prefetchListings('ffmpeg');
  const display = await ensureDisplay(log);
  // Made before the render worker (it starts nothing yet), so the worker gets the analysis and tempo blocks.
  const audioSide = makeAudioClient(cfg, state, log);
  const { audioClient } = audioSide;
  const render = await startRender({ cfg, display, audioClient, log, onFatal });
  const { catalog, presetsDir } = await startCatalog({ loaded, render, log });
  const saved = state.peek();
  // Awaited: the port opens only once the chain reads what was saved.
  await restoreRender(render, state, saved);

  const palettes = new PaletteLibrary(loaded.paths.palettesDirs, log);
  await palettes.start();
  const palette = new PaletteSelection(palettes, state, (colors) => render.setPalette(colors), log);
  palette.start();

  const parts = wireLayers({ cfg, render, catalog, state, log });
  const { ingest, readers, layers, sources, mixer } = parts;

  // Live inputs, library and catalog changes rebuild the source index, which is made further down (it needs the live
  // previews); the first rebuild comes after it, in restoreSources. A change before then (a camera plugged in while
  // the demo media is made) has nothing to rebuild yet, and the first rebuild sees it.
  let index: ReturnType<typeof sourceIndex> | null = null;
  const rebuild = (): void => index?.rebuild();
  const live = watchLive(cfg, rebuild);
  const library = await openLibrary(loaded, log, rebuild);
  // Before any media reader opens: a clip's reader starts with its saved transport.
  let tempoNow: TempoService | null = null;
  const transport = wireTransport({ cfg, parts, library, tempo: () => tempoNow, state, log });
  // After the transport: it wraps the clip start the transport set.
  const warm = new WarmAhead(readers, ingest, log);
  catalog.on('change', (s: CatalogSnapshot) => {
    installCatalog(render, s);
    rebuild();
  });

  const { previews, encoder, programSource, thumbnails, pace } = wireThumbnails({
    loaded,
    cfg,
    render,
    readers,
    live,
    catalog,
    library,
    palettes,
    log,
  });
  // The audio service comes later; until then the configured inputs name the actions.
  let audioNow: AudioService | null = null;
  const audioInputs = () => audioNow?.list() ?? cfg.audio.inputs;
  const built = sourceIndex({ cfg, catalog, library, palettes, sources, layers, previews, live, audioInputs });
  index = built;

  let stopped = false;
  await restoreSources({ cfg, state, saved, layers, render, library, live, rebuild, stopped: () => stopped, log });
  const { outputClient, pressure, outputs, kinds, recordings, preview } = await startOutputs({
    loaded,
    cfg,
    render,
    programSource,
    encoder,
    pace,
    log,
  });
  const audioDeps = { cfg, client: audioSide, readers, sources, state, log };
  const { audio, tempo } = wireAudio({ ...audioDeps, dataDir: loaded.paths.dataDir, library, tracks: parts.audioTracks });
  tempoNow = tempo;
  audioNow = audio;
  audio.onInputsChange(() => built.refreshActions());
  await audio.start();
  built.refreshActions();
  const scenes = wireScenes({ cfg, dataDir: loaded.paths.dataDir, layers, render, thumbnails, state, log });
  live.poll();
  const renderStatus = renderStatusOf({ cfg, render, display, pressure });

  return {
    display,
    render,
    catalog,
    ingest,
    library,
    sources,
    mixer,
    layers,
    blends: () => catalog.snapshot.blends.map((b) => b.type),
    maxLayers: () => cfg.render.maxLayers,
    scenes,
    palettes,
    palette,
    thumbnails,
    outputs,
    recordings,
    preview,
    outputKinds: () => kinds.list(),
    outputClient,
    audio,
    audioClient,
    tempo,
    transport,
    warm,
    generatorParams: parts.generatorParams,
    modulation: parts.modulation,
    presetsDir,
    // The cue point actions follow the clip on the program bus, so they are listed as asked.
    actions: () => [
      ...built.actions(),
      ...transportActions(transport.viewOf('program')?.cues.map((c) => c.name) ?? []),
      ...sceneActions(scenes.list()),
    ],
    browseTree: () => built.tree(),
    renderStatus,
    // Readers first: the previews, encoders and output worker stop before the ingest and render workers whose frames
    // they read, and the display goes last.
    async stop() {
      stopped = true;
      warm.stop();
      live.stopPolling();
      kinds.stop();
      audio.stop();
      live.unwatch();
      catalog.stop();
      palettes.stop();
      previews.stop();
      preview.stop();
      await encoder.close();
      pressure.stop();
      await outputClient.stop();
      tempo.stop();
      transport.stop();
      await audioClient.stop();
      await library.stop();
      await ingest.stop();
      await render.stop();
      await display.stop();
    },
  };
}
